// How far a kernel result is from its reference: exact comparison, error in
// units in the last place (ulp) of the element type, and printing values.
// The functions take the reference in whatever type it was computed in
// (RefFloat<T>, or long double) and do their arithmetic in that type.
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

// The type references of T's results are computed in: double for float32
// (and 4-byte ints), long double for float64. double's 53 bits put a
// float32 reference within 2^-29 ulp of the exact value, far below every
// tolerance, and hold every product of two float32 exactly. long double is
// x87's 64-bit significand on x86 but software binary128 on aarch64, about
// twenty times slower than double under qemu (docs/arm.md), so it is kept
// for the float64 results that need more than double's precision.
template <typename T>
using RefFloat = std::conditional_t<(sizeof(T) <= 4), double, long double>;

// The spacing of T's numbers at |v| (denorm_min below the normal range), in
// v's type R.
template <typename T, typename R>
R UlpAt(R v) {
  using L = std::numeric_limits<T>;
  const int e = v == 0 ? L::min_exponent - 1 : std::max(std::ilogb(v), L::min_exponent - 1);
  return std::ldexp(R{1}, e - (L::digits - 1));
}

// v rounded to T, overflowing to +-inf as IEEE rounding does.
template <typename T, typename R>
R RoundTo(R v) {
  using L = std::numeric_limits<T>;
  const R overflow = static_cast<R>(L::max()) + UlpAt<T>(static_cast<R>(L::max())) / 2;
  if (v >= overflow) return L::infinity();
  if (v <= -overflow) return -L::infinity();
  return static_cast<T>(v);
}

// Exact operations: 0 if got is expected (NaN matching any NaN, zeros
// matching in sign), else kFail.
template <typename T, typename R>
double ExactError(T got, R expected) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(expected)) return std::isnan(got) ? 0 : kFail;
    return got == expected && std::signbit(got) == std::signbit(expected) ? 0 : kFail;
  } else {
    return static_cast<R>(got) == expected ? 0 : kFail;
  }
}

// |got - expected| in ulp of T at the (unrounded) expected value. Infinite
// or NaN results must match the rounded reference exactly.
template <typename T, typename R>
double UlpError(T got, R expected) {
  if (std::isnan(expected)) return std::isnan(got) ? 0 : kFail;
  if (std::isnan(got)) return kFail;
  if (std::isinf(got) || std::isinf(expected)) {
    return static_cast<R>(got) == RoundTo<T>(expected) ? 0 : kFail;
  }
  return static_cast<double>(std::fabs(static_cast<R>(got) - expected) / UlpAt<T>(expected));
}

// |got - expected| in ulp of T at `scale` (an absolute error bound).
template <typename T, typename R>
double ScaledError(T got, R expected, std::type_identity_t<R> scale) {
  if (std::isnan(expected)) return std::isnan(got) ? 0 : kFail;
  if (std::isnan(got)) return kFail;
  if (std::isinf(got) || std::isinf(expected)) {
    return static_cast<R>(got) == RoundTo<T>(expected) ? 0 : kFail;
  }
  return static_cast<double>(std::fabs(static_cast<R>(got) - expected) / UlpAt<T>(scale));
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
