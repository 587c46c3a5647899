// The math namespace's elementary functions, rounding, remainders (and, with
// bool results, comparisons, predicates, logical ops and where) through the
// generated API: results on small tensors against the C library, broadcast
// shapes, dtype promotion, and the checks that reject bad calls.

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "op_testing.hpp"

using namespace opgen;
using opgen::testing::check_error;
using opgen::testing::check_tensor;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

template <class F>
std::vector<double> map(const std::vector<double>& xs, F f) {
  std::vector<double> out;
  for (double x : xs) out.push_back(f(x));
  return out;
}

const std::vector<double> kValues = {-2.5, -0.75, -1e-9, 0, 0.3, 1, 2.5, 7.25};

}  // namespace

BOOST_AUTO_TEST_SUITE(math_pointwise)

BOOST_AUTO_TEST_CASE(elementary_functions) {
  const Tensor x = Tensor::from<double>(kValues, {2, 4});
  const Tensor xf = Tensor::from<float>(std::vector<float>(kValues.begin(), kValues.end()), {8});
  const double tol = 1e-14;
  check_tensor(opgen::math::exp2(x), DType::float64, {2, 4},
               map(kValues, [](double v) { return std::exp2(v); }), tol);
  check_tensor(opgen::math::expm1(x), DType::float64, {2, 4},
               map(kValues, [](double v) { return std::expm1(v); }), tol);
  check_tensor(opgen::math::sin(x), DType::float64, {2, 4},
               map(kValues, [](double v) { return std::sin(v); }), tol);
  check_tensor(opgen::math::cos(x), DType::float64, {2, 4},
               map(kValues, [](double v) { return std::cos(v); }), tol);
  check_tensor(opgen::math::erf(x), DType::float64, {2, 4},
               map(kValues, [](double v) { return std::erf(v); }), tol);
  check_tensor(opgen::math::erf(xf), DType::float32, {8},
               map(kValues, [](double v) { return double(std::erf(float(v))); }), 1e-7);
  check_tensor(opgen::math::reciprocal(x), DType::float64, {2, 4},
               map(kValues, [](double v) { return 1 / v; }));
  const Tensor p = Tensor::from<double>({0.25, 1, 3, 1e10}, {4});
  const std::vector<double> pv = opgen::testing::values(p);
  check_tensor(opgen::math::rsqrt(p), DType::float64, {4},
               map(pv, [](double v) { return 1 / std::sqrt(v); }), tol);
  check_tensor(opgen::math::log2(p), DType::float64, {4},
               map(pv, [](double v) { return std::log2(v); }), tol);
  check_tensor(opgen::math::log1p(p), DType::float64, {4},
               map(pv, [](double v) { return std::log1p(v); }), tol);
  // Edge values as documented.
  check_tensor(opgen::math::log1p(Tensor::from<float>({-1, -2}, {2})), DType::float32, {2},
               {-kInf, kNaN});
  check_tensor(opgen::math::rsqrt(Tensor::from<float>({0, -0.0f}, {2})), DType::float32, {2},
               {kInf, -kInf});
}

BOOST_AUTO_TEST_CASE(rounding_and_sign) {
  const Tensor x = Tensor::from<float>({-2.5f, -1.5f, -0.4f, 0.5f, 1.5f, 2.5f, 2.7f}, {7});
  check_tensor(opgen::math::round(x), DType::float32, {7}, {-3, -2, -0.0, 1, 2, 3, 3});
  check_tensor(opgen::math::trunc(x), DType::float32, {7}, {-2, -1, -0.0, 0, 1, 2, 2});
  check_tensor(opgen::math::sign(x), DType::float32, {7}, {-1, -1, -1, 1, 1, 1, 1});
  check_tensor(opgen::math::sign(Tensor::from<double>({kNaN, -0.0, 0}, {3})), DType::float64, {3},
               {kNaN, 0, 0});
  check_tensor(opgen::math::sign(Tensor::from<std::int32_t>({-7, 0, 9}, {3})), DType::int32, {3},
               {-1, 0, 1});
  check_tensor(opgen::math::sign(Tensor::from<std::int64_t>({INT64_MIN, 5}, {2})), DType::int64,
               {2}, {-1, 1});
}

BOOST_AUTO_TEST_CASE(binary_functions_broadcast_and_promote) {
  const Tensor y = Tensor::from<float>({1, -1, 0, 2, -2, 0}, {2, 3});
  const Tensor x = Tensor::from<float>({1, -1, 0}, {3});
  std::vector<double> want;
  const std::vector<double> yv = opgen::testing::values(y), xv = opgen::testing::values(x);
  for (int i = 0; i < 6; ++i) want.push_back(std::atan2(float(yv[i]), float(xv[i % 3])));
  check_tensor(opgen::math::atan2(y, x), DType::float32, {2, 3}, want, 1e-7);
  check_tensor(opgen::math::fmod(Tensor::from<double>({7.5, -7.5, 1e300}, {3}),
                                 Tensor::from<double>({2}, {1})),
               DType::float64, {3}, {1.5, -1.5, std::fmod(1e300, 2.0)});
  // float32 with float64 promotes to float64.
  check_tensor(
      opgen::math::hypot(Tensor::from<float>({3, 5}, {2}), Tensor::from<double>({4, 12}, {2})),
      DType::float64, {2}, {5, 13});
  check_tensor(opgen::math::hypot(Tensor::from<float>({float(kInf)}, {1}),
                                  Tensor::from<float>({float(kNaN)}, {1})),
               DType::float32, {1}, {kInf});
  check_tensor(opgen::math::fmod(Tensor::from<float>({1}, {1}), Tensor::from<float>({0}, {1})),
               DType::float32, {1}, {kNaN});
}

BOOST_AUTO_TEST_CASE(calls_by_name) {
  const Tensor y = Tensor::from<double>({1}, {1});
  const Tensor x = Tensor::from<double>({-1}, {1});
  const std::vector<Tensor> out = registry().call("math.atan2", {y, x});
  BOOST_TEST_REQUIRE(out.size() == 1u);
  check_tensor(out[0], DType::float64, {1}, {std::atan2(1.0, -1.0)}, 1e-15);
}

BOOST_AUTO_TEST_CASE(checks_reject_bad_calls) {
  const Tensor i = Tensor::from<std::int32_t>({1}, {1});
  check_error([&] { opgen::math::erf(i); }, {"math.erf", "x must be", "int32"});
  check_error([&] { opgen::math::round(i); }, {"math.round", "int32"});
  check_error([&] { opgen::math::atan2(i, Tensor::from<float>({1}, {1})); },
              {"math.atan2", "y must be"});
  check_error(
      [] {
        opgen::math::hypot(Tensor::zeros({2}, DType::float32), Tensor::zeros({3}, DType::float32));
      },
      {"math.hypot", "cannot be broadcast"});
  check_error([] { opgen::math::sign(Tensor::from<bool>({true}, {1})); }, {"math.sign", "bool"});
  check_error([&] { opgen::math::hypot(Tensor::from<float>({3}, {1}), i); },
              {"math.hypot", "y must be"});
}

BOOST_AUTO_TEST_SUITE_END()
