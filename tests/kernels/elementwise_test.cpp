// Elementwise kernels against scalar references, on every SIMD target.
//
// The references are the functions generated from the ops' formulas
// (opgen/math_reference.hpp, opgen/nn_reference.hpp; their rules are in
// opgen/formula.hpp and checked by formula_test.cpp), evaluated in the type
// the table gives: float32 arithmetic in double and rounded once (exact, or
// innocuous double rounding for + - * / with 53 >= 2 * 24 + 2 bits).
//
// Tolerances (the same as stated in kernels/elementwise.hpp). "exact" means
// bit-identical to the reference (any NaN matches any NaN) and therefore
// identical on every target. Pow's ulp is the spacing of T at the exact
// result (denorm_min in the subnormal range); infinite and NaN results must
// match exactly.
//
// | function            | float32 | float64 | int32, int64 | reference: formula of, in     |
// |---------------------|---------|---------|--------------|-------------------------------|
// | Add Sub Mul Square  | exact   | exact   | exact, wraps | math.*: double (f32), T       |
// | Div                 | exact   | exact   | exact        | math.div: same; x/0 = 0       |
// | Maximum Minimum     | exact   | exact   | exact        | math.*: T (NaN, then -0 < +0) |
// | Neg Abs             | exact   | exact   | exact, wraps | math.neg, math.abs: T         |
// | Floor Ceil          | exact   | exact   |              | math.floor, math.ceil: T      |
// | Relu LeakyRelu Clip | exact   | exact   | exact (Clip) | nn.*, math.clip: T            |
// | Pow                 | 1 ulp   | 2 ulp   |              | math.pow: double, long double |
#include "kernels/elementwise.hpp"

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/transcendental.hpp"
#include "opgen/formula.hpp"
#include "opgen/math_reference.hpp"
#include "opgen/nn_reference.hpp"
#include "tests/kernels/errors.hpp"
#include "tests/kernels/inputs.hpp"
#include "tests/kernels/streamed_rows.hpp"
#include "tests/kernels/sweep.hpp"
#include "tests/kernels/targets.hpp"

namespace opgen::kernel_tests {
namespace {

namespace k = opgen::kernels;
namespace math = opgen::math::reference;
namespace nn = opgen::nn::reference;

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

// Arithmetic references are evaluated in Wide<T> and rounded to T once:
// float32 in double, the others in T.
template <typename T>
using Wide = std::conditional_t<std::is_same_v<T, float>, double, T>;

// The reference `reference` (a generated function instantiated for
// Wide<T>) as a function of T's.
template <typename T>
auto InWide(Wide<T> (*reference)(Wide<T>, Wide<T>)) {
  return
      [reference](T x, T y) -> RefFloat<T> { return opgen::formula::element<T>(reference(x, y)); };
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
      InWide<T>(math::add<Wide<T>>));
  ExpectBinaryExact<T>(
      "Sub", [](const T* x, const T* y, T* out, std::size_t n) { k::Sub(x, y, out, n); },
      InWide<T>(math::sub<Wide<T>>));
  ExpectBinaryExact<T>(
      "Mul", [](const T* x, const T* y, T* out, std::size_t n) { k::Mul(x, y, out, n); },
      InWide<T>(math::mul<Wide<T>>));
}

// Integer division: truncation, x / 0 = 0, INT_MIN / -1 = INT_MIN.
template <typename T>
void CheckDiv() {
  ExpectBinaryExact<T>(
      "Div", [](const T* x, const T* y, T* out, std::size_t n) { k::Div(x, y, out, n); },
      InWide<T>(math::div<Wide<T>>));
}

// NaN if either is NaN; -0 < +0.
template <typename T>
void CheckMaximumMinimum() {
  ExpectBinaryExact<T>(
      "Maximum", [](const T* x, const T* y, T* out, std::size_t n) { k::Maximum(x, y, out, n); },
      [](T x, T y) -> RefFloat<T> { return math::maximum(x, y); });
  ExpectBinaryExact<T>(
      "Minimum", [](const T* x, const T* y, T* out, std::size_t n) { k::Minimum(x, y, out, n); },
      [](T x, T y) -> RefFloat<T> { return math::minimum(x, y); });
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
  // float32 in double, float64 in long double, neither rounded to T.
  using Precise = std::conditional_t<kFloat, double, long double>;
  const auto reference = [](T x, T y) -> RefFloat<T> { return math::pow<Precise>(x, y); };
  Report report(Name<T>("Pow"), kFloat ? kPowUlpF32 : kPowUlpF64);
  CheckAllPairs(report, xs, ys, kernel, reference, Ulp());
  // Random bases and exponents with |y ln x| up to about the overflow
  // threshold, some with negative bases and integer exponents. Built with
  // exact and basic arithmetic only, not libm (whose last bit differs
  // between architectures), so the inputs are the same bits on x86 and Arm:
  // x about 2^e (Random::LogUniform's construction) with ln x taken as
  // e ln 2, or x = 1 + d with ln x taken as d.
  Random random(4);
  const double limit = kFloat ? 90 : 710;
  constexpr double kLn2 = 0.69314718055994530942;
  std::vector<T> bases, exponents;
  for (int i = 0; i < 200; ++i) {
    const double e = random.Uniform(-60, 60);
    const double whole = std::floor(e);
    double ln_x = e * kLn2;
    T x = static_cast<T>(std::ldexp(1.0 + (e - whole), static_cast<int>(whole)));
    if (i % 4 == 0) {
      ln_x = random.Uniform(-0.01, 0.01);
      x = static_cast<T>(1 + ln_x);
    }
    T y = static_cast<T>(random.Uniform(-limit, limit) / ln_x);
    if (i % 5 == 0) {
      x = -x;
      y = std::round(y);
    }
    bases.push_back(x);
    exponents.push_back(y);
  }
  SweepBinary(report, bases, exponents, kernel, reference, Ulp());
  // Positive bases only, so that whole vectors take float32's fast path
  // (PowFloatCore in kernels/math-inl.h) when the pairs are kept
  // (CheckPairedArrays; the sweep mixes them): bases over every binade,
  // subnormal ones included (log2 x taken as e, as above), and next to 1,
  // with |y log2 x| up to past the overflow and underflow thresholds
  // (subnormal results included).
  const double min_exp = kFloat ? -149 : -1074;
  const double max_exp = kFloat ? 127.5 : 1023.5;
  const double t_limit = kFloat ? 160 : 1100;
  std::vector<T> positive_bases, positive_exponents;
  for (int i = 0; i < 200; ++i) {
    const double e = random.Uniform(min_exp, max_exp);
    const double whole = std::floor(e);
    double log2_x = e;
    T x = static_cast<T>(std::ldexp(1.0 + (e - whole), static_cast<int>(whole)));
    if (i % 3 == 0) {
      const double d = random.Uniform(-0x1p-10, 0x1p-10);
      x = static_cast<T>(1 + d);
      log2_x = d * 1.4426950408889634;
    }
    const double t = random.Uniform(-t_limit, t_limit);
    positive_bases.push_back(x);
    positive_exponents.push_back(static_cast<T>(log2_x == 0 ? t : t / log2_x));
  }
  SweepBinary(report, positive_bases, positive_exponents, kernel, reference, Ulp());
  CheckPairedArrays(report, positive_bases, positive_exponents, kernel, reference, Ulp());
  // The same kinds of bases with every |y log2 x| below 125, where whole
  // AVX-512 vectors of these pairs (CheckPairedArrays) take float32's table
  // path (PowFloatTable): here log2 x
  // is only known to within a factor 1.45 for bases over the binades, so
  // t up to 85 for those; bases next to 1 over the two table intervals
  // there, [1 - 1/32, 1 + 1/16), where that path's error is largest, with
  // log2 x from three terms of its series.
  std::vector<T> table_bases, table_exponents;
  for (int i = 0; i < 300; ++i) {
    const double e = random.Uniform(-149, 127.5);
    const double whole = std::floor(e);
    double log2_x = e;
    double t = random.Uniform(-85, 85);
    T x = static_cast<T>(std::ldexp(1.0 + (e - whole), static_cast<int>(whole)));
    if (i % 2 == 0) {
      const double d = random.Uniform(-0x1p-5, 0x1p-4);
      x = static_cast<T>(1 + d);
      log2_x = d * (1 - d / 2 + d * d / 3) * 1.4426950408889634;
      t = random.Uniform(-124, 124);
    }
    table_bases.push_back(x);
    table_exponents.push_back(static_cast<T>(log2_x == 0 ? t : t / log2_x));
  }
  SweepBinary(report, table_bases, table_exponents, kernel, reference, Ulp());
  CheckPairedArrays(report, table_bases, table_exponents, kernel, reference, Ulp());
  report.Finish();
}

template <typename T>
void CheckNegAbsSquare() {
  ExpectUnaryExact<T>(
      Name<T>("Neg"), [](const T* x, T* out, std::size_t n) { k::Neg(x, out, n); },
      [](T x) -> RefFloat<T> { return math::neg(x); });
  ExpectUnaryExact<T>(
      Name<T>("Abs"), [](const T* x, T* out, std::size_t n) { k::Abs(x, out, n); },
      [](T x) -> RefFloat<T> { return math::abs(x); });
  ExpectUnaryExact<T>(
      Name<T>("Square"), [](const T* x, T* out, std::size_t n) { k::Square(x, out, n); },
      [](T x) -> RefFloat<T> { return opgen::formula::element<T>(math::square<Wide<T>>(x)); });
}

template <typename T>
void CheckFloorCeil() {
  ExpectUnaryExact<T>(
      Name<T>("Floor"), [](const T* x, T* out, std::size_t n) { k::Floor(x, out, n); },
      [](T x) -> RefFloat<T> { return math::floor(x); });
  ExpectUnaryExact<T>(
      Name<T>("Ceil"), [](const T* x, T* out, std::size_t n) { k::Ceil(x, out, n); },
      [](T x) -> RefFloat<T> { return math::ceil(x); });
}

template <typename T>
void CheckRelus() {
  ExpectUnaryExact<T>(
      Name<T>("Relu"), [](const T* x, T* out, std::size_t n) { k::Relu(x, out, n); },
      [](T x) -> RefFloat<T> { return nn::relu(x); });
  // Slopes: ordinary, zero, negative, > 1 (overflow near max) and tiny
  // (denormal products). The reference rounds alpha to T, as the kernel.
  for (const double alpha : {0.01, 0.2, 0.0, -0.5, 3.0, 1e-30}) {
    ExpectUnaryExact<T>(
        Name<T>("LeakyRelu") + " alpha=" + std::to_string(alpha),
        [alpha](const T* x, T* out, std::size_t n) { k::LeakyRelu(x, out, n, alpha); },
        [alpha](T x) -> RefFloat<T> { return nn::leaky_relu(x, alpha); });
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
  // The reference rounds the bounds as the header says: floats to nearest
  // (overflow to +-inf), integers inward (min and max of an integer and a
  // float, opgen/formula.hpp), saturating.
  for (const auto& [lo, hi] : bounds) {
    ExpectUnaryExact<T>(
        Name<T>("Clip") + " [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
        [lo = lo, hi = hi](const T* x, T* out, std::size_t n) { k::Clip(x, out, n, lo, hi); },
        [lo = lo, hi = hi](T x) -> RefFloat<T> { return math::clip(x, lo, hi); });
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(elementwise)

// The machinery every suite relies on: several targets, and dispatch
// following SetTargetForTest (ForEachTarget requires it).
BOOST_AUTO_TEST_CASE(runs_on_every_target) {
  BOOST_TEST_MESSAGE("targets: " << TargetNames());
  SetTargetForTest(0);
  BOOST_TEST(hwy::SupportedAndGeneratedTargets().size() >= 2u);
  std::size_t visited = 0;
  ForEachTarget([&](std::int64_t) { ++visited; });
  BOOST_TEST(visited == hwy::SupportedAndGeneratedTargets().size());
}

BOOST_AUTO_TEST_CASE(add_sub_mul_are_exact) {
  ForEachTargetAndStoreForm([] {
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
  ForEachTargetAndStoreForm([] {
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

// float64 pow on AVX-512 where x is normal and positive and |y ln x| <=
// 708.4: ln x in double-double from 16-entry tables and ExpF64Table
// (kernels/math-inl.h PowF64Table), measured 1.22 ulp over 4M such pairs;
// elsewhere PowDoubleGeneral (1.46). The bases crowd the sixteenths around
// 1, where a term of ln x left out (e r^2 of e / (1 + r)) cost 20 ulp
// with |y ln x| near 700; |y ln x| reaches about 700 (some, whose ln x is
// estimated low, go past 708.4 to the general form), then pairs at that
// edge and in the subnormal range of results. Built with exact arithmetic
// only (ln x from a series in x - 1, or e ln 2), as in
// CheckPow. The same pairs with every fifth base replaced by 0, a negative
// number, a subnormal, +inf or NaN must give the other results bit for
// bit: no lane depends on its neighbours.
BOOST_AUTO_TEST_CASE(pow_float64_fast_form_within_bound) {
  Random random(31);
  constexpr double kLn2 = 0.69314718055994530942;
  std::vector<double> xs, ys;
  while (xs.size() < 100000) {
    const double u = random.Uniform(0, 1);
    double x, ln_x;
    if (u < 0.7) {
      const double t = random.Uniform(-0.06, 0.06);
      x = 1 + t;
      ln_x = t - t * t / 2 + t * t * t / 3;
    } else {
      const double e = random.Uniform(-60, 60);
      const double whole = std::floor(e);
      x = std::ldexp(1.0 + (e - whole), static_cast<int>(whole));
      ln_x = e * kLn2;
    }
    if (ln_x == 0) continue;
    xs.push_back(x);
    ys.push_back(random.Uniform(-700, 700) / ln_x);
  }
  // Pairs at the fast form's edge, |y ln x| within 0.01 of 708.4 on either
  // side, and pairs whose results are subnormal (y ln x in [-745, -708.4]),
  // which the general form takes. ln x of 2^k (1 + t) from k ln 2 and a
  // series in t (to t^5, |t| <= 0.01: off by 2e-13 at most).
  while (xs.size() < 130000) {
    const double t = random.Uniform(-0.01, 0.01);
    const int k = static_cast<int>(std::floor(random.Uniform(-30, 30)));
    const double ln_x =
        k * kLn2 + t * (1 + t * (-1.0 / 2 + t * (1.0 / 3 + t * (-1.0 / 4 + t * (1.0 / 5)))));
    if (ln_x == 0) continue;
    const double edge = random.Uniform(708.39, 708.41);
    const double u = random.Uniform(0, 1);
    const double z = u < 0.35 ? edge : u < 0.7 ? -edge : random.Uniform(-745, -708.4);
    xs.push_back(std::ldexp(1 + t, k));
    ys.push_back(z / ln_x);
  }
  ForEachTarget([&](std::int64_t) {
    Report report("Pow<float64> with |y ln x| up to about 700, and at 708.4", kPowUlpF64);
    CheckPairedArrays(
        report, xs, ys,
        [](const double* x, const double* y, double* out, std::size_t n) { k::Pow(x, y, out, n); },
        [](double x, double y) { return math::pow<long double>(x, y); }, Ulp());
    report.Finish();
    RequireLaneIndependent<double>(
        "Pow<float64>", xs,
        {0.0, -2.5, std::numeric_limits<double>::denorm_min() * 3,
         std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()},
        [&](const double* x, double* out, std::size_t n) { k::Pow(x, ys.data(), out, n); });
  });
}

// Outputs past the streaming threshold (16 MiB; kTestStreamBytes here,
// streamed_rows.hpp) are written with streaming stores after a head of
// partial vectors that aligns them (kernels/transform-inl.h), by a loop that
// prefetches ahead and one that finishes the last 2 KiB without: an output
// that starts one float past an aligned address, from a binary op, float32
// pow's half-width vectors and a unary op, must get every element and
// nothing past its end.
BOOST_AUTO_TEST_CASE(streamed_outputs_are_complete) {
  const StreamFrom stream(kTestStreamBytes);
  constexpr std::size_t n = kTestStreamBytes / sizeof(float) + 37;
  std::vector<float> x(n), y(n), out(n + 2);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = 0.5f + static_cast<float>(i % 1024) / 512;                // [0.5, 2.5)
    y[i] = static_cast<float>(static_cast<int>(i % 61) - 30) / 8;  // [-3.75, 3.75]
  }
  ForEachTarget([&](std::int64_t) {
    float* const o = out.data() + 1;
    out.front() = -1;
    out.back() = -1;
    k::Add(x.data(), y.data(), o, n);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += o[i] != x[i] + y[i];
    BOOST_TEST(wrong == 0u);
    k::Pow(x.data(), y.data(), o, n);
    wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double want = std::pow(static_cast<double>(x[i]), static_cast<double>(y[i]));
      wrong += !(UlpError<float>(o[i], want) <= kPowUlpF32);
    }
    BOOST_TEST(wrong == 0u);
    k::Sqrt(x.data(), o, n);  // correctly rounded on every target
    wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += o[i] != std::sqrt(x[i]);
    BOOST_TEST(wrong == 0u);
    BOOST_TEST(out.front() == -1);
    BOOST_TEST(out.back() == -1);
  });
}

// Binary outputs of 1 MiB to 16 MiB take 256-bit vectors on AVX-512 CPUs
// with NarrowStores (transform-inl.h's WithStoreTag): each op and type, in
// both forms, on an output one element past an aligned address and with a
// partial last vector, must match the reference in every element and write
// nothing past its ends; x and y hold the specials (NaN, signed zeros,
// infinities, integer limits) among their values.
template <typename T, class Kernel, class Reference>
void CheckNarrowStoreSize(const char* op, Kernel&& kernel, Reference&& reference) {
  const std::size_t n = (std::size_t{1} << 20) / sizeof(T) + 37;
  const std::vector<T> xs = Values<T>(5), ys = Values<T>(6);
  std::vector<T> x(n), y(n), out(n + 2);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = xs[i % xs.size()];
    y[i] = ys[(i / xs.size() + i) % ys.size()];  // every pair of a pool's values
  }
  T* const o = out.data() + 1;
  const T guard = T{7};
  out.front() = guard;
  out.back() = guard;
  kernel(x.data(), y.data(), o, n);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const long double want = reference(x[i], y[i]);
    const long double got = o[i];
    const bool nan = std::isnan(want);
    wrong += nan ? !std::isnan(got)
                 : got != want || std::signbit(static_cast<double>(got)) !=
                                      std::signbit(static_cast<double>(want));
  }
  BOOST_TEST_INFO(Name<T>(op) << ", n = " << n);
  BOOST_TEST(wrong == 0u);
  BOOST_TEST((out.front() == guard && out.back() == guard));
}

template <typename T>
void CheckNarrowStoreSizes() {
  CheckNarrowStoreSize<T>(
      "Add", [](const T* x, const T* y, T* out, std::size_t n) { k::Add(x, y, out, n); },
      InWide<T>(math::add<Wide<T>>));
  CheckNarrowStoreSize<T>(
      "Sub", [](const T* x, const T* y, T* out, std::size_t n) { k::Sub(x, y, out, n); },
      InWide<T>(math::sub<Wide<T>>));
  CheckNarrowStoreSize<T>(
      "Mul", [](const T* x, const T* y, T* out, std::size_t n) { k::Mul(x, y, out, n); },
      InWide<T>(math::mul<Wide<T>>));
  CheckNarrowStoreSize<T>(
      "Maximum", [](const T* x, const T* y, T* out, std::size_t n) { k::Maximum(x, y, out, n); },
      [](T x, T y) -> RefFloat<T> { return math::maximum(x, y); });
  CheckNarrowStoreSize<T>(
      "Minimum", [](const T* x, const T* y, T* out, std::size_t n) { k::Minimum(x, y, out, n); },
      [](T x, T y) -> RefFloat<T> { return math::minimum(x, y); });
}

BOOST_AUTO_TEST_CASE(narrow_store_sizes_are_exact) {
  ForEachTargetAndStoreForm([] {
    CheckNarrowStoreSizes<float>();
    CheckNarrowStoreSizes<double>();
    CheckNarrowStoreSizes<std::int32_t>();
    CheckNarrowStoreSizes<std::int64_t>();
  });
}

BOOST_AUTO_TEST_CASE(neg_abs_square_are_exact) {
  ForEachTargetAndStoreForm([] {
    CheckNegAbsSquare<float>();
    CheckNegAbsSquare<double>();
    CheckNegAbsSquare<std::int32_t>();
    CheckNegAbsSquare<std::int64_t>();
  });
}

BOOST_AUTO_TEST_CASE(floor_ceil_are_exact) {
  ForEachTargetAndStoreForm([] {
    CheckFloorCeil<float>();
    CheckFloorCeil<double>();
  });
}

BOOST_AUTO_TEST_CASE(relu_leaky_relu_keep_nan) {
  ForEachTargetAndStoreForm([] {
    CheckRelus<float>();
    CheckRelus<double>();
  });
}

BOOST_AUTO_TEST_CASE(clip_rounds_bounds_inward) {
  ForEachTargetAndStoreForm([] {
    CheckClip<float>();
    CheckClip<double>();
    CheckClip<std::int32_t>();
    CheckClip<std::int64_t>();
  });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace opgen::kernel_tests
