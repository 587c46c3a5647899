#include "opgen/dtype.hpp"

#include <array>

namespace opgen {

namespace {

// Indexed by static_cast<int>(DType); the spec spelling, so messages and
// parse_dtype agree with what users write in TOML.
constexpr std::array<std::string_view, kDTypeCount> kNames = {"float32", "float64", "int32",
                                                              "int64", "bool"};

}  // namespace

std::string_view dtype_name(DType t) noexcept {
  const auto i = static_cast<std::size_t>(t);
  return i < kNames.size() ? kNames[i] : std::string_view("invalid");
}

std::optional<DType> parse_dtype(std::string_view name) noexcept {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<DType>(i);
  }
  return std::nullopt;
}

}  // namespace opgen
