// How far a kernel result is from its reference: exact comparison, error in
// units in the last place (ulp) of the element type, and printing values.
#pragma once

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>

namespace opgen::kernel_tests {

inline constexpr double kFail = std::numeric_limits<double>::infinity();

// The spacing of T's numbers at |v| (denorm_min below the normal range).
template <typename T>
long double UlpAt(long double v) {
  using L = std::numeric_limits<T>;
  const int e = v == 0 ? L::min_exponent - 1 : std::max(std::ilogb(v), L::min_exponent - 1);
  return std::ldexp(1.0L, e - (L::digits - 1));
}

// v rounded to T, overflowing to +-inf as IEEE rounding does.
template <typename T>
long double RoundTo(long double v) {
  using L = std::numeric_limits<T>;
  const long double overflow = static_cast<long double>(L::max()) + UlpAt<T>(L::max()) / 2;
  if (v >= overflow) return L::infinity();
  if (v <= -overflow) return -L::infinity();
  return static_cast<T>(v);
}

// Exact operations: 0 if got is expected (NaN matching any NaN, zeros
// matching in sign), else kFail.
template <typename T>
double ExactError(T got, long double expected) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(expected)) return std::isnan(got) ? 0 : kFail;
    return got == expected && std::signbit(got) == std::signbit(expected) ? 0 : kFail;
  } else {
    return static_cast<long double>(got) == expected ? 0 : kFail;
  }
}

// |got - expected| in ulp of T at the (unrounded) expected value. Infinite
// or NaN results must match the rounded reference exactly.
template <typename T>
double UlpError(T got, long double expected) {
  if (std::isnan(expected)) return std::isnan(got) ? 0 : kFail;
  if (std::isnan(got)) return kFail;
  if (std::isinf(got) || std::isinf(expected)) {
    return static_cast<long double>(got) == RoundTo<T>(expected) ? 0 : kFail;
  }
  return static_cast<double>(std::fabs(got - expected) / UlpAt<T>(expected));
}

// |got - expected| in ulp of T at `scale` (an absolute error bound).
template <typename T>
double ScaledError(T got, long double expected, long double scale) {
  if (std::isnan(expected)) return std::isnan(got) ? 0 : kFail;
  if (std::isnan(got)) return kFail;
  if (std::isinf(got) || std::isinf(expected)) {
    return static_cast<long double>(got) == RoundTo<T>(expected) ? 0 : kFail;
  }
  return static_cast<double>(std::fabs(got - expected) / UlpAt<T>(scale));
}

// Exact decimal (max_digits10) and, for floats, the bits as a hex float.
template <typename T>
std::string Show(T v) {
  std::ostringstream s;
  if constexpr (std::is_floating_point_v<T>) {
    s << std::setprecision(std::numeric_limits<T>::max_digits10) << v << " (" << std::hexfloat << v
      << ")";
  } else {
    s << +v;
  }
  return s.str();
}

inline std::string Show(long double v) {
  std::ostringstream s;
  s << std::setprecision(std::numeric_limits<long double>::max_digits10) << v;
  return s.str();
}

}  // namespace opgen::kernel_tests
