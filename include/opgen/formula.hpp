// What a spec `formula` means in C++: the helpers that the generated scalar
// reference functions (<opgen/<ns>_reference.hpp>) call wherever plain C++
// would be undefined or would differ from what the kernels compute. Header
// only, so that tests and users need no library to evaluate a formula.
//
// The rules, for an element type T (the reference function's template
// parameter):
// - Integer +, -, * and unary - wrap around (two's complement), as the
//   kernels do; x / 0 is 0 and MIN / -1 is MIN; x % 0 is x and MIN % -1 is
//   0 (so x == (x / y) * y + x % y always holds); a shift count outside
//   [0, bits) gives 0 (<<) or the sign fill (>>).
// - min and max are IEEE 754-2019 minimum and maximum on floats: NaN if
//   either is NaN, and -0 < +0. For an integer T, min and max of an integer
//   and a float give an integer: max rounds the float up, min rounds it down
//   (saturating to the integer's range; a NaN does not count). So
//   min(max(x, lo), hi) clips an integer to the integers in [lo, hi].
// - A float arg is rounded to T first when T is a float type (the kernels
//   take it in the element's precision); for an integer T it stays a double.
// - The result is converted to T: to nearest for floats (beyond the range:
//   +-inf); for integers truncated toward zero and saturated, NaN giving 0.
// Everything else is plain C++: the usual arithmetic conversions, <cmath>.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

namespace opgen::formula {

namespace detail {

template <class A, class B>
inline constexpr bool kIntegers = std::is_integral_v<A> && std::is_integral_v<B>;

// The type integer arithmetic of a and b is done in: at least int, so that
// narrow types never promote to a signed int that could overflow.
template <class A, class B>
using IntegerOf = std::common_type_t<A, B, int>;

// v rounded to nearest in the float type T, overflowing to +-inf as IEEE
// rounding does (a plain conversion of a value beyond T's range is not
// defined by C++).
template <class T, class V>
T round_to_float(V v) noexcept {
  using L = std::numeric_limits<T>;
  if constexpr (L::digits >= std::numeric_limits<V>::digits &&
                L::max_exponent >= std::numeric_limits<V>::max_exponent) {
    return static_cast<T>(v);  // widening: exact
  } else {
    if (std::isnan(v)) return L::quiet_NaN();
    // Halfway between max and the next power of two: from there on, the
    // nearest representable value is infinity.
    const V max = static_cast<V>(L::max());
    const V half_ulp = (max - static_cast<V>(std::nextafter(L::max(), T{0}))) / 2;
    if (v >= max + half_ulp) return L::infinity();
    if (v <= -(max + half_ulp)) return -L::infinity();
    if (v > max) return L::max();
    if (v < -max) return L::lowest();
    return static_cast<T>(v);
  }
}

// The float v as the integer type I: ceil (up) or floor (down), saturated.
// `ok` is false for NaN, which has no integer.
template <class I, class V>
I round_to_integer(V v, bool up, bool& ok) noexcept {
  using L = std::numeric_limits<I>;
  ok = !std::isnan(v);
  if (!ok) return I{0};
  const V r = up ? std::ceil(v) : std::floor(v);
  // L::min() is a power of two, exact as V; V(L::max()) may round up to
  // -L::min(), so >= catches every value that does not fit.
  if (r <= static_cast<V>(L::min())) return L::min();
  if (r >= static_cast<V>(L::max())) return L::max();
  return static_cast<I>(r);
}

}  // namespace detail

/// `v` as an element of type T: floats rounded to nearest (+-inf beyond the
/// range); integers converted modulo 2^bits from integers, or from floats
/// truncated toward zero and saturated, NaN giving 0; bool as v != 0.
template <class T, class V>
T element(V v) noexcept {
  if constexpr (std::is_same_v<T, V>) {
    return v;
  } else if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    if constexpr (std::is_floating_point_v<V>) {
      return detail::round_to_float<T>(v);
    } else {
      return static_cast<T>(v);
    }
  } else if constexpr (std::is_integral_v<V>) {
    return static_cast<T>(v);  // modulo 2^bits since C++20
  } else {
    using L = std::numeric_limits<T>;
    if (std::isnan(v)) return T{0};
    if (v <= static_cast<V>(L::min())) return L::min();
    if (v >= static_cast<V>(L::max())) return L::max();
    return static_cast<T>(v);
  }
}

/// A float arg as a formula sees it for element type T: rounded to T when T
/// is a float type (as the kernels receive it), unchanged otherwise.
template <class T>
auto arg(double v) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    return element<T>(v);
  } else {
    return v;
  }
}

/// a + b; integers wrap around.
template <class A, class B>
auto add(A a, B b) noexcept {
  if constexpr (detail::kIntegers<A, B>) {
    using C = detail::IntegerOf<A, B>;
    using U = std::make_unsigned_t<C>;
    return static_cast<C>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

/// a - b; integers wrap around.
template <class A, class B>
auto sub(A a, B b) noexcept {
  if constexpr (detail::kIntegers<A, B>) {
    using C = detail::IntegerOf<A, B>;
    using U = std::make_unsigned_t<C>;
    return static_cast<C>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}

/// a * b; integers wrap around.
template <class A, class B>
auto mul(A a, B b) noexcept {
  if constexpr (detail::kIntegers<A, B>) {
    using C = detail::IntegerOf<A, B>;
    using U = std::make_unsigned_t<C>;
    return static_cast<C>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

/// -a; integers wrap around (-MIN is MIN).
template <class A>
auto neg(A a) noexcept {
  if constexpr (std::is_integral_v<A>) {
    return sub(A{0}, a);
  } else {
    return -a;
  }
}

/// a / b. Integers truncate toward zero; a / 0 is 0 and MIN / -1 is MIN.
template <class A, class B>
auto div(A a, B b) noexcept {
  if constexpr (detail::kIntegers<A, B>) {
    using C = detail::IntegerOf<A, B>;
    if (b == 0) return C{0};
    if (b == -1) return neg(static_cast<C>(a));
    return static_cast<C>(static_cast<C>(a) / static_cast<C>(b));
  } else {
    return a / b;
  }
}

/// a % b, for integers only: the remainder of div(a, b), so a % 0 is a and
/// MIN % -1 is 0.
template <class A, class B>
auto mod(A a, B b) noexcept {
  static_assert(detail::kIntegers<A, B>, "% is for integers; formulas use fmod() for floats");
  using C = detail::IntegerOf<A, B>;
  if (b == 0) return static_cast<C>(a);
  if (b == -1) return C{0};
  return static_cast<C>(static_cast<C>(a) % static_cast<C>(b));
}

/// |a|; integers wrap around (|MIN| is MIN).
template <class A>
auto abs(A a) noexcept {
  if constexpr (std::is_integral_v<A>) {
    using C = detail::IntegerOf<A, A>;
    return a < 0 ? neg(static_cast<C>(a)) : static_cast<C>(a);
  } else {
    return std::fabs(a);
  }
}

/// a << count, for integers; a count outside [0, bits) gives 0.
template <class A, class B>
auto shift_left(A a, B count) noexcept {
  static_assert(detail::kIntegers<A, B>, "<< is for integers");
  using C = detail::IntegerOf<A, A>;
  using U = std::make_unsigned_t<C>;
  constexpr int kBits = std::numeric_limits<U>::digits;
  if (count < 0 || count >= kBits) return C{0};
  return static_cast<C>(static_cast<U>(a) << count);
}

/// a >> count, arithmetic (the sign is copied in), for integers; a count
/// outside [0, bits) gives the sign fill (0 or -1).
template <class A, class B>
auto shift_right(A a, B count) noexcept {
  static_assert(detail::kIntegers<A, B>, ">> is for integers");
  using C = detail::IntegerOf<A, A>;
  constexpr int kBits = std::numeric_limits<std::make_unsigned_t<C>>::digits;
  if (count < 0 || count >= kBits) return static_cast<C>(a < 0 ? -1 : 0);
  return static_cast<C>(static_cast<C>(a) >> count);
}

/// max(a, b) for element type T. Floats: IEEE 754-2019 maximum (NaN if
/// either is NaN; -0 < +0). Integers: the larger. For an integer T, an
/// integer and a float: the smallest integer not below either (the float
/// rounded up and saturated; a NaN float gives the integer).
template <class T, class A, class B>
auto max(A a, B b) noexcept {
  if constexpr (detail::kIntegers<A, B>) {
    using C = std::common_type_t<A, B>;
    return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(b) : static_cast<C>(a);
  } else if constexpr (std::is_integral_v<T> && (std::is_integral_v<A> || std::is_integral_v<B>)) {
    if constexpr (std::is_integral_v<B>) {
      return max<T>(b, a);
    } else {
      using C = std::common_type_t<A, T>;
      bool ok = false;
      const C r = detail::round_to_integer<C>(b, true, ok);
      return ok && static_cast<C>(a) < r ? r : static_cast<C>(a);
    }
  } else {
    using C = std::common_type_t<A, B>;
    const C x = static_cast<C>(a);
    const C y = static_cast<C>(b);
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<C>::quiet_NaN();
    if (x == y) return std::signbit(x) ? y : x;  // +0 wins over -0
    return x < y ? y : x;
  }
}

/// min(a, b) for element type T. Floats: IEEE 754-2019 minimum (NaN if
/// either is NaN; -0 < +0). Integers: the smaller. For an integer T, an
/// integer and a float: the largest integer not above either (the float
/// rounded down and saturated; a NaN float gives the integer).
template <class T, class A, class B>
auto min(A a, B b) noexcept {
  if constexpr (detail::kIntegers<A, B>) {
    using C = std::common_type_t<A, B>;
    return static_cast<C>(b) < static_cast<C>(a) ? static_cast<C>(b) : static_cast<C>(a);
  } else if constexpr (std::is_integral_v<T> && (std::is_integral_v<A> || std::is_integral_v<B>)) {
    if constexpr (std::is_integral_v<B>) {
      return min<T>(b, a);
    } else {
      using C = std::common_type_t<A, T>;
      bool ok = false;
      const C r = detail::round_to_integer<C>(b, false, ok);
      return ok && r < static_cast<C>(a) ? r : static_cast<C>(a);
    }
  } else {
    using C = std::common_type_t<A, B>;
    const C x = static_cast<C>(a);
    const C y = static_cast<C>(b);
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<C>::quiet_NaN();
    if (x == y) return std::signbit(x) ? x : y;  // -0 wins over +0
    return y < x ? y : x;
  }
}

}  // namespace opgen::formula
