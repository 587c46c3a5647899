// The generated nn namespace: results and checks.

#include <cmath>
#include <limits>

#include "op_testing.hpp"

using namespace opgen;
using opgen::testing::check_error;
using opgen::testing::check_tensor;

namespace {

const Tensor kX = Tensor::from<double>({-2, -0.5, 0, 0.5, 3, 40}, {2, 3});

template <class F>
std::vector<double> map(F f) {
  std::vector<double> out;
  for (double x : kX.to_vector<double>()) out.push_back(f(x));
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(nn)

BOOST_AUTO_TEST_CASE(activations) {
  check_tensor(opgen::nn::relu(kX), DType::float64, {2, 3}, map([](double x) { return x > 0 ? x : 0; }));
  check_tensor(opgen::nn::leaky_relu(kX), DType::float64, {2, 3},
               map([](double x) { return x > 0 ? x : 0.01 * x; }), 1e-15);
  check_tensor(opgen::nn::leaky_relu(kX, 0.2), DType::float64, {2, 3},
               map([](double x) { return x > 0 ? x : 0.2 * x; }), 1e-15);
  check_tensor(opgen::nn::sigmoid(kX), DType::float64, {2, 3},
               map([](double x) { return 1 / (1 + std::exp(-x)); }), 1e-14);
  check_tensor(opgen::nn::gelu(kX), DType::float64, {2, 3}, map([](double x) {
                 return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
               }),
               1e-14);
  const Tensor f = Tensor::from<float>({-1, 1}, {2});
  check_tensor(opgen::nn::relu(f), DType::float32, {2}, {0, 1});
  check_tensor(opgen::nn::relu(Tensor::from<float>({std::numeric_limits<float>::quiet_NaN()}, {1})),
               DType::float32, {1}, {std::numeric_limits<double>::quiet_NaN()});
}

BOOST_AUTO_TEST_CASE(softmax) {
  // Along the last dimension (the default) and along dimension 0.
  std::vector<double> want;
  const std::vector<double> x = kX.to_vector<double>();
  for (int r = 0; r < 2; ++r) {
    double m = -INFINITY, s = 0;
    for (int c = 0; c < 3; ++c) m = std::max(m, x[r * 3 + c]);
    for (int c = 0; c < 3; ++c) s += std::exp(x[r * 3 + c] - m);
    for (int c = 0; c < 3; ++c) want.push_back(std::exp(x[r * 3 + c] - m) / s);
  }
  check_tensor(opgen::nn::softmax(kX), DType::float64, {2, 3}, want, 1e-14);
  std::vector<double> want0(6);
  for (int c = 0; c < 3; ++c) {
    const double m = std::max(x[c], x[3 + c]);
    const double s = std::exp(x[c] - m) + std::exp(x[3 + c] - m);
    want0[c] = std::exp(x[c] - m) / s;
    want0[3 + c] = std::exp(x[3 + c] - m) / s;
  }
  check_tensor(opgen::nn::softmax(kX, 0), DType::float64, {2, 3}, want0, 1e-14);
  check_tensor(opgen::nn::softmax(kX, -2), DType::float64, {2, 3}, want0, 1e-14);
}

BOOST_AUTO_TEST_CASE(checks_reject_bad_calls) {
  check_error([] { opgen::nn::leaky_relu(kX, -1); },
              {"nn.leaky_relu: alpha must be non-negative (check: alpha >= 0; alpha = -1)"});
  check_error([] { opgen::nn::softmax(kX, 2); },
              {"nn.softmax: dim must name a dimension of x", "dim = 2", "x.rank() = 2"});
  check_error([] { opgen::nn::relu(Tensor::from<std::int32_t>({1}, {1})); }, {"nn.relu", "x must be a float"});
  check_error([] { opgen::nn::sigmoid(Tensor()); }, {"nn.sigmoid", "x is required"});
  Tensor out = Tensor::empty({6}, DType::float64);
  check_error([&] { opgen::nn::gelu(kX, out); }, {"nn.gelu", "y", "[2, 3]"});
}

BOOST_AUTO_TEST_SUITE_END()
