// Elementwise kernels against scalar references, on every SIMD target.
//
// Tolerances (the same as stated in kernels/elementwise.hpp). "exact" means
// bit-identical to the reference (any NaN matches any NaN) and therefore
// identical on every target. Pow's ulp is the spacing of T at the exact
// result (denorm_min in the subnormal range); infinite and NaN results must
// match exactly.
//
// | function            | float32 | float64 | int32, int64 | reference                       |
// |---------------------|---------|---------|--------------|---------------------------------|
// | Add Sub Mul Square  | exact   | exact   | exact, wraps | double (f32), T (f64), unsigned |
// | Div                 | exact   | exact   | exact        | same; 0 for x/0, MIN for MIN/-1 |
// | Maximum Minimum     | exact   | exact   | exact        | NaN first, then -0 < +0         |
// | Neg Abs             | exact   | exact   | exact, wraps | -x, std::fabs, unsigned         |
// | Floor Ceil          | exact   | exact   |              | std::floor, std::ceil           |
// | Relu LeakyRelu Clip | exact   | exact   | exact (Clip) | comparisons in T                |
// | Pow                 | 1 ulp   | 2 ulp   |              | std::pow(double), powl          |
#include "kernels/elementwise.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tests/kernels/errors.hpp"
#include "tests/kernels/inputs.hpp"
#include "tests/kernels/sweep.hpp"
#include "tests/kernels/targets.hpp"

namespace opgen::kernel_tests {
namespace {

namespace k = opgen::kernels;

constexpr double kPowUlpF32 = 1;
constexpr double kPowUlpF64 = 2;

template <typename T>
std::string Name(const char* op) {
  if constexpr (std::is_same_v<T, float>) return std::string(op) + "<float32>";
  if constexpr (std::is_same_v<T, double>) return std::string(op) + "<float64>";
  if constexpr (std::is_same_v<T, std::int32_t>) return std::string(op) + "<int32>";
  return std::string(op) + "<int64>";
}

// Specials plus random values: magnitudes over many binades, small integers
// and halves (rounding ties), and values around 2^(digits-1), where floats
// stop having fractions.
template <typename T>
std::vector<T> Values(std::uint64_t seed) {
  Random random(seed);
  if constexpr (std::is_floating_point_v<T>) {
    constexpr T kNoFraction = T{1} / std::numeric_limits<T>::epsilon();  // 2^(digits-1)
    std::vector<T> specials = FloatSpecials<T>();
    for (const T v : {kNoFraction, kNoFraction - T{0.5}, -kNoFraction + T{0.5}, T{2.5}, T{-2.5},
                      T{0.49999997}, T{-0.49999997}, T{1e20}}) {
      specials.push_back(v);
    }
    return Pool<T>(specials, 80, [&] {
      const double pick = random.Uniform(0, 3);
      if (pick < 1) return random.LogUniform(-40, 40);
      if (pick < 2) return std::round(random.Uniform(-20, 20) * 2) / 2;
      return random.Uniform(-1000, 1000);
    });
  } else {
    return Pool<T>(IntSpecials<T>(), 80, [&] {
      return random.Uniform(0, 1) < 0.5 ? random.Int<T>() : random.IntIn<T>(-100, 100);
    });
  }
}

// The reference of an arithmetic op: float32 in double (exact, or exactly
// rounded once more: double rounding is innocuous for + - * / with 53 >= 2 *
// 24 + 2 bits), float64 in double, integers in unsigned (wrapping) arithmetic.
template <typename T, class FloatOp, class IntOp>
long double Arithmetic(T x, T y, FloatOp float_op, IntOp int_op) {
  if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(float_op(static_cast<double>(x), static_cast<double>(y)));
  } else if constexpr (std::is_same_v<T, double>) {
    return float_op(x, y);
  } else {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(int_op(static_cast<U>(x), static_cast<U>(y)));
  }
}

template <typename T, class Kernel, class Reference>
void ExpectBinaryExact(const char* op, Kernel&& kernel, Reference&& reference) {
  Report report(Name<T>(op), 0);
  SweepBinary(report, Values<T>(1), Values<T>(2), kernel, reference, Exact());
  if constexpr (std::is_floating_point_v<T>) {
    CheckAllPairs(report, FloatSpecials<T>(), FloatSpecials<T>(), kernel, reference, Exact());
  } else {
    CheckAllPairs(report, IntSpecials<T>(), IntSpecials<T>(), kernel, reference, Exact());
  }
  report.Finish();
}

template <typename T, class Kernel, class Reference>
void ExpectUnaryExact(const std::string& name, Kernel&& kernel, Reference&& reference) {
  Report report(name, 0);
  SweepUnary(report, Values<T>(3), kernel, reference, Exact());
  report.Finish();
}

template <typename T>
void CheckAddSubMul() {
  ExpectBinaryExact<T>(
      "Add", [](const T* x, const T* y, T* out, std::size_t n) { k::Add(x, y, out, n); },
      [](T x, T y) { return Arithmetic(x, y, std::plus<>(), std::plus<>()); });
  ExpectBinaryExact<T>(
      "Sub", [](const T* x, const T* y, T* out, std::size_t n) { k::Sub(x, y, out, n); },
      [](T x, T y) { return Arithmetic(x, y, std::minus<>(), std::minus<>()); });
  ExpectBinaryExact<T>(
      "Mul", [](const T* x, const T* y, T* out, std::size_t n) { k::Mul(x, y, out, n); },
      [](T x, T y) { return Arithmetic(x, y, std::multiplies<>(), std::multiplies<>()); });
}

// Integer division: truncation, x / 0 = 0, INT_MIN / -1 = INT_MIN.
template <typename T>
long double DivReference(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    return Arithmetic(x, y, std::divides<>(), std::divides<>());
  } else {
    if (y == 0) return 0;
    if (x == std::numeric_limits<T>::min() && y == -1) return x;
    return x / y;
  }
}

template <typename T>
void CheckDiv() {
  ExpectBinaryExact<T>(
      "Div", [](const T* x, const T* y, T* out, std::size_t n) { k::Div(x, y, out, n); },
      DivReference<T>);
}

// NaN if either is NaN; -0 < +0.
template <typename T>
long double MaximumReference(T x, T y, bool maximum) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<T>::quiet_NaN();
    if (x == y) return std::signbit(x) == maximum ? y : x;
  }
  return maximum ? (x > y ? x : y) : (x < y ? x : y);
}

template <typename T>
void CheckMaximumMinimum() {
  ExpectBinaryExact<T>(
      "Maximum", [](const T* x, const T* y, T* out, std::size_t n) { k::Maximum(x, y, out, n); },
      [](T x, T y) { return MaximumReference(x, y, true); });
  ExpectBinaryExact<T>(
      "Minimum", [](const T* x, const T* y, T* out, std::size_t n) { k::Minimum(x, y, out, n); },
      [](T x, T y) { return MaximumReference(x, y, false); });
}

template <typename T>
void CheckPow() {
  constexpr bool kFloat = std::is_same_v<T, float>;
  // Exponents: signed zeros, odd and even integers (also the largest odd
  // one), non-integers, infinities, NaN, and some that over/underflow.
  const T max_odd = T{1} / std::numeric_limits<T>::epsilon() * 2 - 1;
  std::vector<T> ys = {T{0},
                       -T{0},
                       T{1},
                       T{-1},
                       T{2},
                       T{-2},
                       T{3},
                       T{-3},
                       T{0.5},
                       T{-0.5},
                       T{2.5},
                       T{-1.5},
                       T{1} / 3,
                       max_odd,
                       -max_odd,
                       T{1e30},
                       T{-1e30},
                       T{100.5},
                       std::numeric_limits<T>::infinity(),
                       -std::numeric_limits<T>::infinity(),
                       std::numeric_limits<T>::quiet_NaN()};
  std::vector<T> xs = FloatSpecials<T>();
  for (const T v : {T{-8}, T{-0.25}, T{4}, T{1} + std::numeric_limits<T>::epsilon(),
                    T{1} - std::numeric_limits<T>::epsilon()}) {
    xs.push_back(v);
  }
  const auto kernel = [](const T* x, const T* y, T* out, std::size_t n) { k::Pow(x, y, out, n); };
  const auto reference = [](T x, T y) -> long double {
    if constexpr (kFloat) {
      return std::pow(static_cast<double>(x), static_cast<double>(y));
    } else {
      return std::pow(static_cast<long double>(x), static_cast<long double>(y));
    }
  };
  Report report(Name<T>("Pow"), kFloat ? kPowUlpF32 : kPowUlpF64);
  CheckAllPairs(report, xs, ys, kernel, reference, Ulp());
  // Random bases and exponents with |y ln x| up to the overflow threshold,
  // some with negative bases and integer exponents.
  Random random(4);
  const double limit = kFloat ? 90 : 710;
  std::vector<T> bases, exponents;
  for (int i = 0; i < 200; ++i) {
    T x = static_cast<T>(std::exp2(random.Uniform(-60, 60)));
    if (i % 4 == 0) x = static_cast<T>(1 + random.Uniform(-0.01, 0.01));
    T y = static_cast<T>(random.Uniform(-limit, limit) / std::log(static_cast<double>(x)));
    if (i % 5 == 0) {
      x = -x;
      y = std::round(y);
    }
    bases.push_back(x);
    exponents.push_back(y);
  }
  SweepBinary(report, bases, exponents, kernel, reference, Ulp());
  report.Finish();
}

template <typename T>
void CheckNegAbsSquare() {
  using U = std::make_unsigned_t<std::conditional_t<std::is_integral_v<T>, T, int>>;
  ExpectUnaryExact<T>(
      Name<T>("Neg"), [](const T* x, T* out, std::size_t n) { k::Neg(x, out, n); },
      [](T x) -> long double {
        if constexpr (std::is_floating_point_v<T>) {
          return -x;
        } else {
          return static_cast<T>(U{0} - static_cast<U>(x));
        }
      });
  ExpectUnaryExact<T>(
      Name<T>("Abs"), [](const T* x, T* out, std::size_t n) { k::Abs(x, out, n); },
      [](T x) -> long double {
        if constexpr (std::is_floating_point_v<T>) {
          return std::fabs(x);
        } else {
          return x < 0 ? static_cast<T>(U{0} - static_cast<U>(x)) : x;
        }
      });
  ExpectUnaryExact<T>(
      Name<T>("Square"), [](const T* x, T* out, std::size_t n) { k::Square(x, out, n); },
      [](T x) { return Arithmetic(x, x, std::multiplies<>(), std::multiplies<>()); });
}

template <typename T>
void CheckFloorCeil() {
  ExpectUnaryExact<T>(
      Name<T>("Floor"), [](const T* x, T* out, std::size_t n) { k::Floor(x, out, n); },
      [](T x) -> long double { return std::floor(x); });
  ExpectUnaryExact<T>(
      Name<T>("Ceil"), [](const T* x, T* out, std::size_t n) { k::Ceil(x, out, n); },
      [](T x) -> long double { return std::ceil(x); });
}

template <typename T>
void CheckRelus() {
  ExpectUnaryExact<T>(
      Name<T>("Relu"), [](const T* x, T* out, std::size_t n) { k::Relu(x, out, n); },
      [](T x) -> long double { return x < 0 ? T{0} : x; });
  // Slopes: ordinary, zero, negative, > 1 (overflow near max) and tiny
  // (denormal products).
  for (const double alpha : {0.01, 0.2, 0.0, -0.5, 3.0, 1e-30}) {
    const T a = static_cast<T>(alpha);
    ExpectUnaryExact<T>(
        Name<T>("LeakyRelu") + " alpha=" + std::to_string(alpha),
        [alpha](const T* x, T* out, std::size_t n) { k::LeakyRelu(x, out, n, alpha); },
        [a](T x) -> long double { return x > 0 ? x : static_cast<T>(a * x); });
  }
}

// Clip bounds as the header defines them: floats round to nearest (overflow
// to +-inf), integers round inward and saturate.
template <typename T>
long double ClipBound(double bound, bool lower) {
  if constexpr (std::is_floating_point_v<T>) {
    return RoundTo<T>(bound);
  } else {
    using L = std::numeric_limits<T>;
    const long double r = lower ? std::ceil(static_cast<long double>(bound))
                                : std::floor(static_cast<long double>(bound));
    return std::clamp<long double>(r, L::min(), L::max());
  }
}

template <typename T>
void CheckClip() {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const std::vector<std::pair<double, double>> bounds = {{-1, 1},
                                                         {0, 6},
                                                         {-kInf, 0.5},
                                                         {-2.5, kInf},
                                                         {3, 3},
                                                         {0.4, 0.6},
                                                         {-1e300, 1e300},
                                                         {1e300, 1e301},
                                                         {-1e-40, 1e-40},
                                                         {-2147483648.5, 2147483647.5},
                                                         {-9.3e18, 9.3e18},
                                                         {-0.0, 0.0}};
  for (const auto& [lo, hi] : bounds) {
    const long double low = ClipBound<T>(lo, true);
    const long double high = ClipBound<T>(hi, false);
    ExpectUnaryExact<T>(
        Name<T>("Clip") + " [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
        [lo = lo, hi = hi](const T* x, T* out, std::size_t n) { k::Clip(x, out, n, lo, hi); },
        [low, high](T x) -> long double {
          const long double r = x < low ? low : static_cast<long double>(x);
          return r > high ? high : r;
        });
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(elementwise)

// The machinery every suite relies on: several targets, and dispatch
// following SetSupportedTargetsForTest (ForEachTarget requires it).
BOOST_AUTO_TEST_CASE(runs_on_every_target) {
  BOOST_TEST_MESSAGE("targets: " << TargetNames());
  hwy::SetSupportedTargetsForTest(0);
  BOOST_TEST(hwy::SupportedAndGeneratedTargets().size() >= 2u);
  std::size_t visited = 0;
  ForEachTarget([&](std::int64_t) { ++visited; });
  BOOST_TEST(visited == hwy::SupportedAndGeneratedTargets().size());
}

BOOST_AUTO_TEST_CASE(add_sub_mul_are_exact) {
  ForEachTarget([](std::int64_t) {
    CheckAddSubMul<float>();
    CheckAddSubMul<double>();
    CheckAddSubMul<std::int32_t>();
    CheckAddSubMul<std::int64_t>();
  });
}

BOOST_AUTO_TEST_CASE(div_is_exact_and_never_traps) {
  ForEachTarget([](std::int64_t) {
    CheckDiv<float>();
    CheckDiv<double>();
    CheckDiv<std::int32_t>();
    CheckDiv<std::int64_t>();
  });
}

BOOST_AUTO_TEST_CASE(maximum_minimum_propagate_nan) {
  ForEachTarget([](std::int64_t) {
    CheckMaximumMinimum<float>();
    CheckMaximumMinimum<double>();
    CheckMaximumMinimum<std::int32_t>();
    CheckMaximumMinimum<std::int64_t>();
  });
}

BOOST_AUTO_TEST_CASE(pow_matches_c_pow) {
  ForEachTarget([](std::int64_t) {
    CheckPow<float>();
    CheckPow<double>();
  });
}

BOOST_AUTO_TEST_CASE(neg_abs_square_are_exact) {
  ForEachTarget([](std::int64_t) {
    CheckNegAbsSquare<float>();
    CheckNegAbsSquare<double>();
    CheckNegAbsSquare<std::int32_t>();
    CheckNegAbsSquare<std::int64_t>();
  });
}

BOOST_AUTO_TEST_CASE(floor_ceil_are_exact) {
  ForEachTarget([](std::int64_t) {
    CheckFloorCeil<float>();
    CheckFloorCeil<double>();
  });
}

BOOST_AUTO_TEST_CASE(relu_leaky_relu_keep_nan) {
  ForEachTarget([](std::int64_t) {
    CheckRelus<float>();
    CheckRelus<double>();
  });
}

BOOST_AUTO_TEST_CASE(clip_rounds_bounds_inward) {
  ForEachTarget([](std::int64_t) {
    CheckClip<float>();
    CheckClip<double>();
    CheckClip<std::int32_t>();
    CheckClip<std::int64_t>();
  });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace opgen::kernel_tests
