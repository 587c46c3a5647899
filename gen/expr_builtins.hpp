// The built-in vocabulary of the expression language: tensor methods,
// functions and dtype names. The type checker, the C++ printer and the
// prose printer read the same tables, so a name is never known to one and
// unknown to another.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "expr.hpp"

namespace opgen::gen {

/// A tensor method: `x.rank()`.
struct MethodInfo {
  std::string_view name;
  int arity;  // number of arguments
  TypeKind result;
};

/// How a function's arguments are checked (and how it is printed).
enum class FunctionKind {
  tensor_group,  // sameType sameShape broadcastable: tensors or counted inputs
  bool_fold,     // all some: bools
  len,           // len: a counted parameter
  dtype_class,   // isFloat isInt: a tensor or a dtype
  in_range,      // inRange: three numbers
  present,       // present: an optional input
  scalar,        // exp, min, isnan, ...: numbers (formulas only)
};

struct FunctionInfo {
  std::string_view name;
  FunctionKind kind;
  int min_args;
  int max_args;  // -1: no limit
  TypeKind result;
  /// C++ spelling: the runtime helper or <cmath> function ("detail::same_type",
  /// "std::exp"); empty where the printer writes an expression instead.
  std::string_view cpp;
};

std::span<const MethodInfo> tensor_methods() noexcept;
const MethodInfo* find_method(std::string_view name) noexcept;

std::span<const FunctionInfo> functions() noexcept;
const FunctionInfo* find_function(std::string_view name) noexcept;

/// The dtype names usable as literals ("float32", ..., "bool").
std::span<const std::string_view> dtype_names() noexcept;
/// `DType::float32`, ..., `DType::bool_` for a dtype name; nullopt otherwise.
std::optional<std::string_view> dtype_cpp(std::string_view name) noexcept;

}  // namespace opgen::gen
