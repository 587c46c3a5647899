// Transcendental kernels against references on every SIMD target: the
// functions generated from the ops' formulas (opgen/math_reference.hpp,
// opgen/nn_reference.hpp), instantiated for RefFloat<T> (errors.hpp: double
// for float32, long double for float64; Sqrt: for T, where it is correctly
// rounded). "long double" in the table below is RefFloat<T>.
//
// Tolerances, as stated in kernels/transcendental.hpp. An ulp is the spacing
// of T at the exact (RefFloat<T>) result, denorm_min in the subnormal range;
// "ulp of max(1,|x|)" is an absolute bound. Infinite and NaN results must
// match exactly. In parentheses the largest error measured over these inputs
// and, outside the tests, over millions of random inputs per target.
//
// | function | float32 and float64         | reference                           |
// |----------|-----------------------------|-------------------------------------|
// | Sqrt     | exact                       | std::sqrt in T (correctly rounded)  |
// | Exp      | 2 ulp (f32 1.06, f64 0.97)  | std::exp(long double)               |
// | Log      | 2 ulp (0.96; AVX-512 f32    | std::log(long double)               |
// |          | 0.55 in whole vectors)      |                                     |
// | Tanh     | 7 ulp (f32 5.22 FMA, 6.92)  | std::tanh(long double)              |
// |          | (f64 2.66 AVX-512, 2.56)    |                                     |
// | Sigmoid  | 4 ulp (f32 3.17, f64 2.40)  | 1 / (1 + exp(-x)), long double      |
// | Gelu     | 3 ulp of max(1, |x|) (1.95) | tanh form in long double; 0 at -inf |
#include "kernels/transcendental.hpp"

#include <bit>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "opgen/math_reference.hpp"
#include "opgen/nn_reference.hpp"
#include "tests/kernels/errors.hpp"
#include "tests/kernels/inputs.hpp"
#include "tests/kernels/sweep.hpp"
#include "tests/kernels/targets.hpp"

namespace opgen::kernel_tests {
namespace {

namespace k = opgen::kernels;
namespace math = opgen::math::reference;
namespace nn = opgen::nn::reference;

constexpr double kExpUlp = 2;
constexpr double kLogUlp = 2;
constexpr double kTanhUlp = 7;
constexpr double kSigmoidUlp = 4;
constexpr double kGeluUlp = 3;

// Size of the dense random sample checked in one call per target and type.
constexpr std::size_t kDense = 50000;

template <typename T>
std::string Name(const char* function) {
  return std::string(function) + (sizeof(T) == 4 ? "<float32>" : "<float64>");
}

template <typename T>
constexpr bool kIsFloat = sizeof(T) == 4;

// Runs the sweep (lengths, offsets, aliasing) and the dense sample.
template <typename T, class Kernel, class Reference, class Error>
void Check(const std::string& name, double tolerance, const std::vector<T>& pool,
           const std::vector<T>& dense, Kernel&& kernel, Reference&& reference, Error&& error) {
  Report report(name, tolerance);
  SweepUnary(report, pool, kernel, reference, error);
  CheckUnaryArray(report, dense, kernel, reference, error);
  report.Finish();
}

template <typename T, class Gen>
std::vector<T> Dense(std::uint64_t seed, Gen&& gen) {
  Random random(seed);
  std::vector<T> v(kDense);
  for (T& x : v) x = static_cast<T>(gen(random));
  return v;
}

template <typename T>
void CheckSqrt() {
  Random random(1);
  const auto pool = Inputs<T>({T{4}, T{2.25}}, 60, [&] { return random.LogUniform(-140, 120); });
  const auto dense = Dense<T>(2, [](Random& r) { return std::abs(r.LogUniform(-1000, 1000)); });
  Check(
      Name<T>("Sqrt"), 0, pool, dense,
      [](const T* x, T* out, std::size_t n) { k::Sqrt(x, out, n); },
      [](T x) -> RefFloat<T> { return math::sqrt(x); }, Exact());
}

template <typename T>
void CheckExp() {
  // Overflow at ln(max), the denormal range and underflow to 0.
  const double hi = kIsFloat<T> ? 88.8 : 709.9;
  const double lo = kIsFloat<T> ? -104.5 : -745.2;
  const std::vector<T> edges =
      kIsFloat<T>
          ? std::vector<T>{88.72f, 88.73f, -87.33f, -87.34f, -103.27f, -103.98f, -104.0f, 1e-8f}
          : std::vector<T>{709.78, 709.79, -708.39, -708.40, -744.44, -745.13, -745.14, 1e-17};
  Random random(3);
  const auto pool = Inputs<T>(edges, 60, [&] { return random.Uniform(lo, hi); });
  const auto dense = Dense<T>(4, [&](Random& r) {
    return r.Uniform(0, 1) < 0.8 ? r.Uniform(lo, hi) : r.LogUniform(-60, 10);
  });
  Check(
      Name<T>("Exp"), kExpUlp, pool, dense,
      [](const T* x, T* out, std::size_t n) { k::Exp(x, out, n); },
      [](T x) { return math::exp<RefFloat<T>>(x); }, Ulp());
}

template <typename T>
void CheckLog() {
  using L = std::numeric_limits<T>;
  const double min_exp = L::min_exponent - L::digits;
  const double max_exp = L::max_exponent;
  Random random(5);
  const auto pool = Inputs<T>({T{1} + L::epsilon(), T{1} - L::epsilon() / 2, T{0.7071}, T{1.4142}},
                              60, [&] { return std::abs(random.LogUniform(min_exp, max_exp)); });
  const auto dense = Dense<T>(6, [&](Random& r) {
    return r.Uniform(0, 1) < 0.7 ? std::abs(r.LogUniform(min_exp, max_exp)) : r.Uniform(0.5, 2);
  });
  Check(
      Name<T>("Log"), kLogUlp, pool, dense,
      [](const T* x, T* out, std::size_t n) { k::Log(x, out, n); },
      [](T x) { return math::log<RefFloat<T>>(x); }, Ulp());
}

template <typename T>
void CheckTanh() {
  Random random(7);
  const auto pool = Inputs<T>({T{18.7}, T{19}, T{-0.3466}, T{0.3467}}, 60,
                              [&] { return random.Uniform(-20, 20); });
  const auto dense = Dense<T>(8, [&](Random& r) {
    return r.Uniform(0, 1) < 0.7 ? r.Uniform(-25, 25) : r.LogUniform(-80, 5);
  });
  Check(
      Name<T>("Tanh"), kTanhUlp, pool, dense,
      [](const T* x, T* out, std::size_t n) { k::Tanh(x, out, n); },
      [](T x) { return math::tanh<RefFloat<T>>(x); }, Ulp());
}

template <typename T>
void CheckSigmoid() {
  const double range = kIsFloat<T> ? 110 : 750;
  Random random(9);
  const auto pool =
      Inputs<T>({T{-87.5}, T{-103.5}, T{40}}, 60, [&] { return random.Uniform(-range, range); });
  const auto dense = Dense<T>(10, [&](Random& r) {
    return r.Uniform(0, 1) < 0.7 ? r.Uniform(-40, 40) : r.Uniform(-range, range);
  });
  Check(
      Name<T>("Sigmoid"), kSigmoidUlp, pool, dense,
      [](const T* x, T* out, std::size_t n) { k::Sigmoid(x, out, n); },
      [](T x) { return nn::sigmoid<RefFloat<T>>(x); }, Ulp());
}

template <typename T>
void CheckGelu() {
  Random random(11);
  const auto pool = Inputs<T>({T{-5}, T{-10}, T{-12}, T{1e10}, T{-1e10}}, 60,
                              [&] { return random.Uniform(-12, 12); });
  const auto dense = Dense<T>(12, [&](Random& r) {
    return r.Uniform(0, 1) < 0.8 ? r.Uniform(-15, 15) : r.LogUniform(-30, 30);
  });
  // The formula takes the limits at +-inf itself (the tanh form alone
  // gives -inf * 0 at -inf).
  const auto reference = [](T x) { return nn::gelu<RefFloat<T>>(x); };
  const auto error = [](T got, RefFloat<T> want, T x) {
    return ScaledError(got, want, std::max(RefFloat<T>{1}, std::fabs(static_cast<RefFloat<T>>(x))));
  };
  Check(
      Name<T>("Gelu"), kGeluUlp, pool, dense,
      [](const T* x, T* out, std::size_t n) { k::Gelu(x, out, n); }, reference, error);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(transcendental)

BOOST_AUTO_TEST_CASE(sqrt_is_correctly_rounded) {
  ForEachTarget([](std::int64_t) {
    CheckSqrt<float>();
    CheckSqrt<double>();
  });
}

// Every float32 of [2^-126, 2^-124), [2^-81, 2^-79), [1, 4) and
// [2^126, 2^128), bit for bit against std::sqrt. The AVX-512 kernel takes
// one vector of each three to the hardware square root and two to an
// estimate refined to the correctly rounded result where that is valid,
// from 2^-80 up (kernels/transcendental.cpp), so each value is checked at
// each place of a group: the array starts 0, 16 and 32 floats into one
// (on other targets once).
// These binades hold both exponent parities (the estimate differs with
// them), the refined form's lower bound, values below it where the form
// would be wrong (its residual underflows) and the largest floats.
BOOST_AUTO_TEST_CASE(sqrt_float32_every_value_of_eight_binades) {
  ForEachTarget([](std::int64_t target) {
    CheckEveryFloat32(
        "Sqrt<float32>",
        {{0x00800000, 0x01800000},
         {0x17000000, 0x18000000},
         {0x3F800000, 0x40800000},
         {0x7E800000, 0x7F800000}},
        IsAvx512(target) ? std::vector<std::size_t>{0, 16, 32} : std::vector<std::size_t>{0},
        [](const float* x, float* out, std::size_t n) { k::Sqrt(x, out, n); },
        [](float x) { return std::sqrt(x); });
  });
}

// float64 square roots bit for bit against std::sqrt, in both FastDivider
// forms, each value at each place of a group of four vectors (the array
// starts 0, 8, 16 and 24 doubles into one): on AVX-512 most vectors take an
// estimate refined to the correctly rounded result, valid from 2^-960 up
// (kernels/transcendental.cpp SqrtRefinedF64). Two thirds of the inputs are
// the hard cases of rounding, doubles nearest m^2 for m halfway between
// two doubles (and their neighbours), scaled by even powers of 2 over the
// whole range; the others are spread over every binade, the range's lower
// end (both sides of 2^-960), subnormals, zeros, infinities, NaN and
// negatives.
BOOST_AUTO_TEST_CASE(sqrt_float64_correctly_rounded_at_hard_cases) {
  Random random(41);
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> values = {0.0,
                                -0.0,
                                inf,
                                -inf,
                                std::numeric_limits<double>::quiet_NaN(),
                                -1.0,
                                4.0,
                                0x1p-960,
                                std::nextafter(0x1p-960, 0.0),
                                0x1p-1074,
                                std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::min()};
  while (values.size() < 400000) {
    const double u = random.Uniform(0, 1);
    if (u < 0.66) {
      // m = y + ulp(y) / 2 for y in [1, 2): sqrt(round(m^2)) lies within
      // about 2^-53 ulp of a midpoint; long double holds m^2 to 64 bits.
      const long double y = 1.0L + std::ldexp(static_cast<long double>(random.IntIn<std::int64_t>(
                                                  0, (std::int64_t{1} << 52) - 1)),
                                              -52);
      const long double m = y + std::ldexp(1.0L, -53);
      const double x =
          std::bit_cast<double>(std::bit_cast<std::uint64_t>(static_cast<double>(m * m)) +
                                static_cast<std::uint64_t>(random.IntIn<int>(-3, 3)));
      values.push_back(std::ldexp(x, 2 * random.IntIn<int>(-537, 510)));
    } else if (u < 0.9) {
      values.push_back(std::ldexp(random.Uniform(1, 2), random.IntIn<int>(-1074, 1023)));
    } else if (u < 0.97) {
      values.push_back(std::ldexp(random.Uniform(1, 2), random.IntIn<int>(-970, -950)));
    } else {
      values.push_back(-std::ldexp(random.Uniform(1, 2), random.IntIn<int>(-10, 10)));
    }
  }
  std::vector<double> want(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) want[i] = std::sqrt(values[i]);
  ForEachTarget([&](std::int64_t) {
    ForEachDividerForm([&] {
      for (const std::size_t start : {0, 8, 16, 24}) {
        std::vector<double> out(values.size() - start);
        k::Sqrt(values.data() + start, out.data(), out.size());
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < out.size(); ++i) {
          const std::uint64_t got = std::bit_cast<std::uint64_t>(out[i]);
          const std::uint64_t expected = std::bit_cast<std::uint64_t>(want[start + i]);
          if (got != expected && !(std::isnan(out[i]) && std::isnan(want[start + i]))) {
            if (wrong++ < 3) {
              BOOST_TEST_MESSAGE("Sqrt<float64>(" << std::hexfloat << values[start + i]
                                                  << ") = " << out[i] << ", want "
                                                  << want[start + i] << std::defaultfloat);
            }
          }
        }
        BOOST_TEST(wrong == 0u, "Sqrt<float64> from element " << start << ": " << wrong << " of "
                                                              << out.size() << " differ");
      }
    });
  });
}

BOOST_AUTO_TEST_CASE(exp_matches_reference) {
  ForEachTarget([](std::int64_t) {
    CheckExp<float>();
    CheckExp<double>();
  });
}

// float64 exp on AVX-512 for |x| <= 708.4: a 16-entry table and a degree-7
// polynomial with one rounding of consequence (kernels/math-inl.h
// ExpF64Table), held to 0.6 ulp (measured 0.54 over 4M such inputs); other
// targets take Highway's Exp (1.01 over the same inputs), held to kExpUlp.
// The inputs cover the range, its ends (below -708.3964 the results are
// denormal) and the small |x| where e^x is near 1. The same inputs with
// every fifth one replaced by NaN or a value out of that range must give
// the other results bit for bit: no lane depends on its neighbours.
BOOST_AUTO_TEST_CASE(exp_float64_within_0_6_ulp_on_avx512) {
  Random random(21);
  std::vector<double> values = {708.4, -708.4, 708.0, -708.0, -708.3964, -708.39, 0.0, -0.0};
  while (values.size() < 200000) {
    const double u = random.Uniform(0, 1);
    values.push_back(
        u < 0.6    ? random.Uniform(-708.4, 708.4)
        : u < 0.65 ? random.Uniform(-708.4, -708.3)
        : u < 0.8  ? random.Uniform(-1, 1)
                   : std::copysign(std::ldexp(random.Uniform(1, 2), -random.IntIn<int>(1, 60)),
                                   random.Uniform(-1, 1)));
  }
  ForEachTarget([&](std::int64_t target) {
    Report report("Exp<float64> |x| <= 708.4", IsAvx512(target) ? 0.6 : kExpUlp);
    CheckUnaryArray(
        report, values, [](const double* x, double* out, std::size_t n) { k::Exp(x, out, n); },
        [](double x) { return math::exp<RefFloat<double>>(x); }, Ulp());
    report.Finish();
    RequireLaneIndependent<double>(
        "Exp<float64>", values, {std::numeric_limits<double>::quiet_NaN(), 709.5, -745.0, 1e300},
        [](const double* x, double* out, std::size_t n) { k::Exp(x, out, n); });
  });
}

BOOST_AUTO_TEST_CASE(log_matches_reference) {
  ForEachTarget([](std::int64_t) {
    CheckLog<float>();
    CheckLog<double>();
  });
}

// Every float32 of [0.98, 1.03] and [1.38, 1.42], where the AVX-512 fast
// form's terms cancel (results near 0, where ln(w) and r have opposite
// signs) or its k changes: 0.55 ulp over every positive normal float
// there, one rounding; Highway's Log (the other targets) 0.96.
BOOST_AUTO_TEST_CASE(log_float32_every_value_near_1_and_1_4) {
  CheckFloat32Ranges(
      "Log<float32> on [0.98, 1.03] and [1.38, 1.42]", {{0.98f, 1.03f}, {1.38f, 1.42f}},
      [](const float* x, float* out, std::size_t n) { k::Log(x, out, n); },
      [](float x) { return math::log<double>(x); },
      [](std::int64_t target) { return IsAvx512(target) ? 0.6 : kLogUlp; });
}

// float64 log on AVX-512 for normal positive x: 16-entry tables and a
// degree-11 series with one rounding of consequence (kernels/math-inl.h
// LnTableF64), held to 0.6 ulp (measured 0.54 over 4M inputs); other
// targets take Highway's Log (0.89), held to kLogUlp. The inputs cover
// the whole exponent range, the sixteenths around 1 (where ln(w) and r
// cancel), their every boundary, and the ends of [0.7, 1.4) where k
// changes. The same inputs with every fifth one replaced by 0, a negative
// number, a subnormal, +inf or NaN must give the other results bit for
// bit: no lane depends on its neighbours.
BOOST_AUTO_TEST_CASE(log_float64_within_0_6_ulp_on_avx512) {
  Random random(23);
  std::vector<double> values = {1.0, std::nextafter(1.0, 0.0), std::nextafter(1.0, 2.0),
                                std::numeric_limits<double>::min(),
                                std::numeric_limits<double>::max()};
  for (const double edge : LogTableEdges()) values.push_back(edge);
  while (values.size() < 200000) {
    const double u = random.Uniform(0, 1);
    values.push_back(u < 0.4   ? std::abs(random.LogUniform(-1022, 1023))
                     : u < 0.8 ? random.Uniform(0.94, 1.09)
                     : u < 0.9 ? random.Uniform(0.69, 0.71)
                               : random.Uniform(1.38, 1.42));
  }
  ForEachTarget([&](std::int64_t target) {
    Report report("Log<float64> of normal positive x", IsAvx512(target) ? 0.6 : kLogUlp);
    CheckUnaryArray(
        report, values, [](const double* x, double* out, std::size_t n) { k::Log(x, out, n); },
        [](double x) { return math::log<RefFloat<double>>(x); }, Ulp());
    report.Finish();
    RequireLaneIndependent<double>(
        "Log<float64>", values,
        {0.0, -2.5, std::numeric_limits<double>::denorm_min() * 3,
         std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()},
        [](const double* x, double* out, std::size_t n) { k::Log(x, out, n); });
  });
}

BOOST_AUTO_TEST_CASE(tanh_matches_reference) {
  ForEachTarget([](std::int64_t) {
    CheckTanh<float>();
    CheckTanh<double>();
  });
}

// float64 Tanh on AVX-512 (kernels/math-inl.h TanhF64Table): u / (u + 2)
// from e^(2|x|) - 1 as an unevaluated sum and one correction of the
// quotient, held to 0.6 ulp (measured 0.51 over 4M inputs in [-20, 20]; the
// quotient alone 1.92, near 0, where u's error counts fully). Other
// targets take Highway's Tanh (tanh_matches_reference). Inputs: the range,
// past 20 (results +-1), around 0 where the quotient is most sensitive,
// tiny |x|; with every fifth one replaced by NaN or +-inf the others must
// not change: no lane depends on its neighbours.
BOOST_AUTO_TEST_CASE(tanh_float64_near_correctly_rounded_on_avx512) {
  Random random(37);
  std::vector<double> values = {20.0, -20.0, 19.06, 25.0, -1e300, 0.0, -0.0, 0.01084, 0.55};
  while (values.size() < 200000) {
    const double u = random.Uniform(0, 1);
    values.push_back(
        u < 0.4   ? random.Uniform(-22, 22)
        : u < 0.8 ? random.Uniform(-1, 1)
                  : std::copysign(std::ldexp(random.Uniform(1, 2), -random.IntIn<int>(1, 60)),
                                  random.Uniform(-1, 1)));
  }
  ForEachTarget([&](std::int64_t target) {
    Report report("Tanh<float64>", IsAvx512(target) ? 0.6 : kTanhUlp);
    CheckUnaryArray(
        report, values, [](const double* x, double* out, std::size_t n) { k::Tanh(x, out, n); },
        [](double x) { return math::tanh<RefFloat<double>>(x); }, Ulp());
    report.Finish();
    RequireLaneIndependent<double>(
        "Tanh<float64>", values,
        {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
         -std::numeric_limits<double>::infinity(), 1e300},
        [](const double* x, double* out, std::size_t n) { k::Tanh(x, out, n); });
  });
}

BOOST_AUTO_TEST_CASE(sigmoid_matches_reference) {
  // Both forms of the float32 kernel (refined estimate, division).
  ForEachDividerForm([] {
    ForEachTarget([](std::int64_t) {
      CheckSigmoid<float>();
      CheckSigmoid<double>();
    });
  });
}

BOOST_AUTO_TEST_CASE(gelu_matches_reference) {
  // Both forms of the float32 kernel (refined estimate, division).
  ForEachDividerForm([] {
    ForEachTarget([](std::int64_t) {
      CheckGelu<float>();
      CheckGelu<double>();
    });
  });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace opgen::kernel_tests
