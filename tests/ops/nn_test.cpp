// The generated nn namespace: results and checks.

#include <algorithm>
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

BOOST_AUTO_TEST_CASE(more_activations) {
  const auto softplus = [](double x) { return std::max(x, 0.0) + std::log1p(std::exp(-std::fabs(x))); };
  check_tensor(opgen::nn::relu6(Tensor::from<double>({-1, 0, 3, 6, 7, 100}, {6})), DType::float64, {6},
               {0, 0, 3, 6, 6, 6});
  check_tensor(opgen::nn::elu(kX, 0.5), DType::float64, {2, 3},
               map([](double x) { return x > 0 ? x : 0.5 * std::expm1(x); }), 1e-14);
  check_tensor(opgen::nn::selu(kX), DType::float64, {2, 3}, map([](double x) {
                 return x > 0 ? 1.0507009873554805 * x : 1.0507009873554805 * 1.6732632423543772 * std::expm1(x);
               }),
               1e-14);
  check_tensor(opgen::nn::silu(kX), DType::float64, {2, 3}, map([](double x) { return x / (1 + std::exp(-x)); }),
               1e-14);
  check_tensor(opgen::nn::softplus(kX), DType::float64, {2, 3}, map(softplus), 1e-14);
  check_tensor(opgen::nn::softsign(kX), DType::float64, {2, 3}, map([](double x) { return x / (1 + std::fabs(x)); }),
               1e-15);
  check_tensor(opgen::nn::hard_sigmoid(kX), DType::float64, {2, 3},
               map([](double x) { return std::clamp(x / 6 + 0.5, 0.0, 1.0); }), 1e-15);
  check_tensor(opgen::nn::hard_swish(kX), DType::float64, {2, 3},
               map([](double x) { return x * std::clamp(x + 3, 0.0, 6.0) / 6; }), 1e-15);
  check_tensor(opgen::nn::mish(kX), DType::float64, {2, 3},
               map([&](double x) { return x * std::tanh(softplus(x)); }), 1e-14);
  // swish is silu's alias for calls by name; float32 too.
  const Tensor f = Tensor::from<float>({-1, 2}, {2});
  const std::vector<Tensor> s = opgen::registry().call("nn.swish", {f});
  check_tensor(s.at(0), DType::float32, {2}, {-1 / (1 + std::exp(1.0)), 2 / (1 + std::exp(-2.0))}, 1e-6);
}

BOOST_AUTO_TEST_CASE(log_softmax) {
  std::vector<double> want;
  const std::vector<double> x = kX.to_vector<double>();
  for (int r = 0; r < 2; ++r) {
    double m = -INFINITY, s = 0;
    for (int c = 0; c < 3; ++c) m = std::max(m, x[r * 3 + c]);
    for (int c = 0; c < 3; ++c) s += std::exp(x[r * 3 + c] - m);
    for (int c = 0; c < 3; ++c) want.push_back(x[r * 3 + c] - m - std::log(s));
  }
  check_tensor(opgen::nn::log_softmax(kX), DType::float64, {2, 3}, want, 1e-14);
  // Far below the maximum: the log of softmax would be -inf.
  check_tensor(opgen::nn::log_softmax(Tensor::from<float>({0, -200, -200, 0}, {2, 2})), DType::float32, {2, 2},
               {0, -200, -200, 0}, 1e-6);
  check_tensor(opgen::nn::log_softmax(Tensor::from<float>({0, -200, 0, -200}, {2, 2}), 0), DType::float32,
               {2, 2}, {-std::log(2.0), -std::log(2.0), -std::log(2.0), -std::log(2.0)}, 1e-6);
  check_tensor(opgen::nn::log_softmax(Tensor::from<float>({1, NAN}, {2})), DType::float32, {2}, {NAN, NAN});
}

// Rows longer than a vector (the Highway kernel's main loops and tail), a
// -inf element (its log-probability is -inf), and rows that have none:
// +inf, NaN, all -inf; along the last dimension and along dimension 0.
BOOST_AUTO_TEST_CASE(log_softmax_long_rows_and_specials) {
  const int n = 37;
  std::vector<double> x(5 * n);
  for (int i = 0; i < 5 * n; ++i) x[i] = std::sin(0.7 * i) * 20;
  x[n + 5] = -INFINITY;
  x[2 * n + 3] = INFINITY;
  x[3 * n + 30] = NAN;
  for (int k = 0; k < n; ++k) x[4 * n + k] = -INFINITY;
  std::vector<double> want(5 * n), want0(5 * n);
  for (int r = 0; r < 5; ++r) {
    double m = -INFINITY, s = 0;
    for (int k = 0; k < n; ++k) m = std::max(m, x[r * n + k]);
    for (int k = 0; k < n; ++k) s += std::exp(x[r * n + k] - m);
    for (int k = 0; k < n; ++k) want[r * n + k] = r >= 2 ? NAN : x[r * n + k] - m - std::log(s);
  }
  std::vector<float> xf(x.begin(), x.end());
  check_tensor(opgen::nn::log_softmax(Tensor::from<float>(xf, {5, n})), DType::float32, {5, n}, want, 1e-6);
  check_tensor(opgen::nn::log_softmax(Tensor::from<double>(x, {5, n})), DType::float64, {5, n}, want, 1e-14);
  // Along dimension 0 of the transposed data: the same values, strided.
  std::vector<double> xt(5 * n), wantt(5 * n);
  for (int r = 0; r < 5; ++r) {
    for (int k = 0; k < n; ++k) {
      xt[k * 5 + r] = x[r * n + k];
      wantt[k * 5 + r] = want[r * n + k];
    }
  }
  check_tensor(opgen::nn::log_softmax(Tensor::from<double>(xt, {n, 5}), 0), DType::float64, {n, 5}, wantt, 1e-14);
}

BOOST_AUTO_TEST_CASE(normalisation) {
  const Tensor x = Tensor::from<double>({1, 2, 3, 4, 4, 4}, {2, 3});
  const double s1 = 1 / std::sqrt(2.0 / 3 + 1e-5);
  check_tensor(opgen::nn::layer_norm(x), DType::float64, {2, 3}, {-s1, 0, s1, 0, 0, 0}, 1e-14);
  const Tensor w = Tensor::from<double>({1, 2, 3}, {3});
  const Tensor b = Tensor::from<double>({0.5, 0.5, -1}, {3});
  // A constant row normalises to 0 (eps keeps 0 / 0 away), then the bias.
  check_tensor(opgen::nn::layer_norm(x, w, b, 1e-12), DType::float64, {2, 3},
               {-std::sqrt(1.5) + 0.5, 0.5, 3 * std::sqrt(1.5) - 1, 0.5, 0.5, -1}, 1e-11);
  const double r1 = 1 / std::sqrt(14.0 / 3), r2 = 1 / std::sqrt(16.0);
  check_tensor(opgen::nn::rms_norm(x, w, 0), DType::float64, {2, 3},
               {1 * r1, 4 * r1, 9 * r1, 4 * r2, 8 * r2, 12 * r2}, 1e-14);
  check_tensor(opgen::nn::rms_norm(Tensor::from<float>({3, 4}, {2})), DType::float32, {2},
               {3 / std::sqrt(12.5 + 1e-6), 4 / std::sqrt(12.5 + 1e-6)}, 1e-6);
}

// float32 rows of 40 (past the vector loops): near 1000 (the mean must not
// lose the deviations), near 1e20 (float squares overflow: the float64
// path), a row holding NaN.
BOOST_AUTO_TEST_CASE(normalisation_float32_rows) {
  const int n = 40;
  std::vector<double> x(3 * n);
  for (int k = 0; k < n; ++k) {
    x[k] = 1000 + std::round(std::sin(k) * 64) / 64;
    x[n + k] = 1e20 * std::cos(k);
    x[2 * n + k] = k;
  }
  x[2 * n + 7] = NAN;
  std::vector<float> xf(x.begin(), x.end());
  std::vector<double> ln(3 * n), rms(3 * n);
  for (int r = 0; r < 3; ++r) {
    double mean = 0, ss = 0, sq = 0;
    for (int k = 0; k < n; ++k) mean += xf[r * n + k];
    mean /= n;
    for (int k = 0; k < n; ++k) {
      const double v = xf[r * n + k];
      ss += (v - mean) * (v - mean);
      sq += v * v;
    }
    for (int k = 0; k < n; ++k) {
      ln[r * n + k] = (xf[r * n + k] - mean) / std::sqrt(ss / n + 1e-5);
      rms[r * n + k] = xf[r * n + k] / std::sqrt(sq / n + 1e-6);
    }
  }
  const Tensor t = Tensor::from<float>(xf, {3, n});
  check_tensor(opgen::nn::layer_norm(t), DType::float32, {3, n}, ln, 1e-6);
  check_tensor(opgen::nn::rms_norm(t), DType::float32, {3, n}, rms, 1e-6);
}

BOOST_AUTO_TEST_CASE(bias_add) {
  const Tensor b3 = Tensor::from<double>({10, 20, 30}, {3});
  check_tensor(opgen::nn::bias_add(kX, b3), DType::float64, {2, 3}, {8, 19.5, 30, 10.5, 23, 70});
  check_tensor(opgen::nn::bias_add(kX, Tensor::from<double>({1, 2}, {2}), 0), DType::float64, {2, 3},
               {-1, 0.5, 1, 2.5, 5, 42});
  // float32 NCHW (dim 1, blocks of 19 contiguous elements) and NHWC rows of
  // 19 (longer than a vector of some targets, not a multiple of any).
  std::vector<float> x(2 * 3 * 19);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.5f;
  std::vector<double> nchw(x.size()), nhwc(x.size());
  std::vector<float> bc = {1, -2, 4};
  std::vector<float> b19(19);
  for (int c = 0; c < 19; ++c) b19[c] = static_cast<float>(c) - 9;
  for (std::size_t i = 0; i < x.size(); ++i) {
    nchw[i] = x[i] + bc[i / 19 % 3];
    nhwc[i] = x[i] + b19[i % 19];
  }
  const Tensor t = Tensor::from<float>(x, {2, 3, 19});
  check_tensor(opgen::nn::bias_add(t, Tensor::from<float>(bc, {3}), 1), DType::float32, {2, 3, 19}, nchw);
  check_tensor(opgen::nn::bias_add(t, Tensor::from<float>(b19, {19})), DType::float32, {2, 3, 19}, nhwc);
}

BOOST_AUTO_TEST_CASE(dropout_follows_bernoulli) {
  const std::vector<double> ones(1000, 1.0);
  const Tensor x = Tensor::from<double>(ones, {10, 100});
  const std::vector<double> y = opgen::testing::values(opgen::nn::dropout(x, 0.25, 77));
  const std::vector<double> dropped =
      opgen::testing::values(opgen::random::bernoulli({10, 100}, 77, 0.25, DType::float64));
  std::size_t bad = 0, zeros = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    bad += y[i] != (dropped[i] == 1 ? 0 : 1 / 0.75);
    zeros += y[i] == 0;
  }
  BOOST_TEST(bad == 0u);
  BOOST_TEST(zeros > 150u);
  BOOST_TEST(zeros < 350u);
  check_tensor(opgen::nn::dropout(kX, 0.0), DType::float64, {2, 3}, kX.to_vector<double>());
  check_tensor(opgen::nn::dropout(kX, 1.0), DType::float64, {2, 3}, {0, 0, 0, 0, 0, 0});
  BOOST_TEST(opgen::testing::values(opgen::nn::dropout(x, 0.5, 1)) !=
             opgen::testing::values(opgen::nn::dropout(x, 0.5, 2)));
}

BOOST_AUTO_TEST_CASE(linear) {
  const Tensor x = Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor w = Tensor::from<float>({1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1}, {4, 3});
  const Tensor b = Tensor::from<float>({0.5, 0, 0, -1}, {4});
  check_tensor(opgen::nn::linear(x, w, b), DType::float32, {2, 4}, {1.5, 2, 3, 5, 4.5, 5, 6, 14});
  check_tensor(opgen::nn::linear(x, w), DType::float32, {2, 4}, {1, 2, 3, 6, 4, 5, 6, 15});
  check_tensor(opgen::nn::linear(Tensor::from<float>({1, 2, 3}, {3}), w, b), DType::float32, {4},
               {1.5, 2, 3, 5});
  check_tensor(opgen::nn::linear(Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 1, 3}), w), DType::float32,
               {2, 1, 4}, {1, 2, 3, 6, 4, 5, 6, 15});
}

BOOST_AUTO_TEST_CASE(checks_of_the_additions) {
  check_error([] { opgen::nn::elu(kX, -1); }, {"nn.elu", "alpha must be non-negative"});
  check_error([] { opgen::nn::log_softmax(kX, 3); }, {"nn.log_softmax", "dim must name a dimension of x"});
  check_error([] { opgen::nn::layer_norm(kX, Tensor::from<double>({1, 2}, {2})); },
              {"nn.layer_norm", "weight must be a vector"});
  check_error([] { opgen::nn::layer_norm(kX, Tensor(), Tensor::from<float>({1, 2, 3}, {3})); },
              {"nn.layer_norm", "bias must be a vector"});
  check_error([] { opgen::nn::rms_norm(kX, Tensor(), -1); }, {"nn.rms_norm", "eps must be non-negative"});
  check_error([] { opgen::nn::bias_add(kX, Tensor::from<double>({1, 2}, {2})); }, {"nn.bias_add", "b must be a vector"});
  check_error([] { opgen::nn::dropout(kX, 1.5); }, {"nn.dropout", "p must lie in [0, 1]"});
  check_error([] { opgen::nn::linear(kX, Tensor::from<double>({1, 2}, {1, 2})); },
              {"nn.linear", "weight must be [out, in]"});
  check_error([] { opgen::nn::linear(kX, Tensor::from<double>({1, 2, 3}, {1, 3}), Tensor::from<double>({1, 2}, {2})); },
              {"nn.linear", "bias must be a vector"});
}

BOOST_AUTO_TEST_SUITE_END()
