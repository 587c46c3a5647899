#include "expr_builtins.hpp"

namespace opgen::gen {
namespace {

using K = TypeKind;
using F = FunctionKind;

constexpr MethodInfo kMethods[] = {
    {"rank", 0, K::int_},   {"size", 1, K::int_},      {"length", 0, K::int_},
    {"dtype", 0, K::dtype}, {"isScalar", 0, K::bool_}, {"isEmpty", 0, K::bool_},
};

constexpr FunctionInfo kFunctions[] = {
    {"sameType", F::tensor_group, 1, -1, K::bool_, "detail::same_type"},
    {"sameShape", F::tensor_group, 1, -1, K::bool_, "detail::same_shape"},
    {"broadcastable", F::tensor_group, 1, -1, K::bool_, "detail::broadcastable"},
    {"all", F::bool_fold, 1, -1, K::bool_, ""},
    {"some", F::bool_fold, 1, -1, K::bool_, ""},
    {"len", F::len, 1, 1, K::int_, ""},
    {"isFloat", F::dtype_class, 1, 1, K::bool_, "is_float"},
    {"isInt", F::dtype_class, 1, 1, K::bool_, "is_int"},
    {"inRange", F::in_range, 3, 3, K::bool_, ""},
    {"present", F::present, 1, 1, K::bool_, ""},
    // Scalar math, formulas only. min, max and abs print as the helpers of
    // opgen/formula.hpp: min and max are IEEE 754-2019 minimum/maximum (NaN
    // if either is NaN, -0 < +0), as the Minimum/Maximum kernels compute,
    // not fmin/fmax (which drop a NaN); abs of an integer wraps.
    {"exp", F::scalar, 1, 1, K::float_, "std::exp"},
    {"exp2", F::scalar, 1, 1, K::float_, "std::exp2"},
    {"expm1", F::scalar, 1, 1, K::float_, "std::expm1"},
    {"log", F::scalar, 1, 1, K::float_, "std::log"},
    {"log2", F::scalar, 1, 1, K::float_, "std::log2"},
    {"log10", F::scalar, 1, 1, K::float_, "std::log10"},
    {"log1p", F::scalar, 1, 1, K::float_, "std::log1p"},
    {"sqrt", F::scalar, 1, 1, K::float_, "std::sqrt"},
    {"cbrt", F::scalar, 1, 1, K::float_, "std::cbrt"},
    {"rsqrt", F::scalar, 1, 1, K::float_, ""},
    {"abs", F::scalar, 1, 1, K::float_, "std::abs"},
    {"sign", F::scalar, 1, 1, K::float_, ""},
    {"min", F::scalar, 2, 2, K::float_, "opgen::formula::min"},
    {"max", F::scalar, 2, 2, K::float_, "opgen::formula::max"},
    {"pow", F::scalar, 2, 2, K::float_, "std::pow"},
    {"hypot", F::scalar, 2, 2, K::float_, "std::hypot"},
    {"fmod", F::scalar, 2, 2, K::float_, "std::fmod"},
    {"floor", F::scalar, 1, 1, K::float_, "std::floor"},
    {"ceil", F::scalar, 1, 1, K::float_, "std::ceil"},
    {"round", F::scalar, 1, 1, K::float_, "std::round"},
    {"trunc", F::scalar, 1, 1, K::float_, "std::trunc"},
    {"sin", F::scalar, 1, 1, K::float_, "std::sin"},
    {"cos", F::scalar, 1, 1, K::float_, "std::cos"},
    {"tan", F::scalar, 1, 1, K::float_, "std::tan"},
    {"asin", F::scalar, 1, 1, K::float_, "std::asin"},
    {"acos", F::scalar, 1, 1, K::float_, "std::acos"},
    {"atan", F::scalar, 1, 1, K::float_, "std::atan"},
    {"atan2", F::scalar, 2, 2, K::float_, "std::atan2"},
    {"sinh", F::scalar, 1, 1, K::float_, "std::sinh"},
    {"cosh", F::scalar, 1, 1, K::float_, "std::cosh"},
    {"tanh", F::scalar, 1, 1, K::float_, "std::tanh"},
    {"asinh", F::scalar, 1, 1, K::float_, "std::asinh"},
    {"acosh", F::scalar, 1, 1, K::float_, "std::acosh"},
    {"atanh", F::scalar, 1, 1, K::float_, "std::atanh"},
    {"erf", F::scalar, 1, 1, K::float_, "std::erf"},
    {"erfc", F::scalar, 1, 1, K::float_, "std::erfc"},
    {"isnan", F::scalar, 1, 1, K::bool_, "std::isnan"},
    {"isinf", F::scalar, 1, 1, K::bool_, "std::isinf"},
};

constexpr std::string_view kDTypeNames[] = {"float32", "float64", "int32", "int64", "bool"};
constexpr std::string_view kDTypeCpp[] = {"DType::float32", "DType::float64", "DType::int32",
                                          "DType::int64", "DType::bool_"};

}  // namespace

std::span<const MethodInfo> tensor_methods() noexcept { return kMethods; }

const MethodInfo* find_method(std::string_view name) noexcept {
  for (const MethodInfo& m : kMethods) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

std::span<const FunctionInfo> functions() noexcept { return kFunctions; }

const FunctionInfo* find_function(std::string_view name) noexcept {
  for (const FunctionInfo& f : kFunctions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::span<const std::string_view> dtype_names() noexcept { return kDTypeNames; }

std::optional<std::string_view> dtype_cpp(std::string_view name) noexcept {
  for (std::size_t i = 0; i < std::size(kDTypeNames); ++i) {
    if (kDTypeNames[i] == name) return kDTypeCpp[i];
  }
  return std::nullopt;
}

}  // namespace opgen::gen
