// Element types of tensors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

namespace opgen {

/// Element type of a tensor. `bool_` keeps the trailing underscore because
/// `bool` is a C++ keyword; its name in specs, docs and messages is "bool".
enum class DType : std::uint8_t { float32, float64, int32, int64, bool_ };

/// Number of dtypes, for tables indexed by `static_cast<int>(DType)`.
inline constexpr int kDTypeCount = 5;

/// Name as written in specs and messages: "float32", ..., "bool".
std::string_view dtype_name(DType t) noexcept;

/// Parses a dtype name ("float32", ..., "bool"); nullopt for anything else.
std::optional<DType> parse_dtype(std::string_view name) noexcept;

/// Bytes per element.
constexpr std::size_t dtype_size(DType t) noexcept {
  switch (t) {
    case DType::float32:
    case DType::int32:
      return 4;
    case DType::float64:
    case DType::int64:
      return 8;
    case DType::bool_:
      return 1;
  }
  return 0;
}

/// True for float32 and float64.
constexpr bool is_float(DType t) noexcept {
  return t == DType::float32 || t == DType::float64;
}

/// True for int32 and int64 (bool is not an integer dtype).
constexpr bool is_int(DType t) noexcept {
  return t == DType::int32 || t == DType::int64;
}

/// Result dtype of an arithmetic operation on two dtypes, following numpy's
/// array–array rules: bool < int32 < int64 < float32 < float64, except that a
/// float32 meeting an int32 or int64 gives float64 (float32 cannot hold them).
constexpr DType promote_types(DType a, DType b) noexcept {
  if (a == b) return a;
  if (a == DType::bool_) return b;
  if (b == DType::bool_) return a;
  if (is_float(a) && is_float(b)) return DType::float64;
  if (is_int(a) && is_int(b)) return DType::int64;
  // One float, one int.
  const DType f = is_float(a) ? a : b;
  return f == DType::float32 ? DType::float64 : f;
}

/// The float dtype an op computes in when its dtype rule is `to_float(x)`:
/// x's dtype when it is a float, float32 otherwise.
constexpr DType to_float_type(DType t) noexcept {
  return is_float(t) ? t : DType::float32;
}

/// The dtype of a C++ element type: `dtype_of<float>` is `DType::float32`.
template <class T>
inline constexpr DType dtype_of = [] {
  if constexpr (std::is_same_v<T, float>) {
    return DType::float32;
  } else if constexpr (std::is_same_v<T, double>) {
    return DType::float64;
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    return DType::int32;
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return DType::int64;
  } else {
    static_assert(std::is_same_v<T, bool>,
                  "tensor elements are float, double, int32_t, int64_t or bool");
    return DType::bool_;
  }
}();

}  // namespace opgen
