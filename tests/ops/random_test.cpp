// The generated random namespace: shapes, dtypes, the stream's definition
// at known points (Random123's first Philox block), offsets, the checks,
// and calls by name.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "op_testing.hpp"

using namespace opgen;
using opgen::testing::check_error;
using opgen::testing::check_tensor;
using opgen::testing::values;

// In a namespace: a suite named random at global scope would clash with
// POSIX random().
namespace random_ops {

BOOST_AUTO_TEST_SUITE(random)

BOOST_AUTO_TEST_CASE(uniform_follows_the_stream) {
  // Seed 0, block 0 is Philox4x32-10 of a zero counter under a zero key:
  // words 0x6627e8d5, 0xe169c58d, ... (elements 0 and 16: one block's words
  // are 16 elements apart).
  const Tensor u = opgen::random::uniform({2, 16});
  BOOST_TEST((u.dtype() == DType::float32));
  BOOST_TEST((u.shape() == Shape{2, 16}));
  const std::vector<double> v = values(u);
  BOOST_TEST(v[0] == 0x6627e8 * 0x1p-24);
  BOOST_TEST(v[16] == 0xe169c5 * 0x1p-24);
  BOOST_TEST(std::all_of(v.begin(), v.end(), [](double x) { return x >= 0 && x < 1; }));
  // low/high, float64, and an offset: elements 5.. of a longer stream.
  const std::vector<double> all = values(opgen::random::uniform({40}, 9, -1, 4, DType::float64));
  const std::vector<double> tail = values(opgen::random::uniform({30}, 9, -1, 4, DType::float64, 10));
  BOOST_TEST(std::equal(tail.begin(), tail.end(), all.begin() + 10));
  BOOST_TEST(std::all_of(all.begin(), all.end(), [](double x) { return x >= -1 && x < 4; }));
  BOOST_TEST(values(opgen::random::uniform({40}, 10, -1, 4, DType::float64)) != all);
}

BOOST_AUTO_TEST_CASE(distributions) {
  const Tensor z = opgen::random::normal({1000}, 3, 10, 0.5, DType::float64);
  BOOST_TEST((z.dtype() == DType::float64));
  double sum = 0;
  for (const double x : values(z)) sum += x;
  BOOST_TEST(std::fabs(sum / 1000 - 10) < 5 * 0.5 / std::sqrt(1000.0));
  const std::vector<double> e = values(opgen::random::exponential({500}, 3, 4));
  BOOST_TEST(std::all_of(e.begin(), e.end(), [](double x) { return x >= 0 && std::isfinite(x); }));
  const Tensor b = opgen::random::bernoulli({3, 7}, 5, 0.25);
  BOOST_TEST((b.dtype() == DType::bool_));
  const std::vector<double> bi = values(opgen::random::bernoulli({3, 7}, 5, 0.25, DType::int32));
  BOOST_TEST(values(b) == bi);
  check_tensor(opgen::random::bernoulli({4}, 5, 1.0, DType::float32), DType::float32, {4}, {1, 1, 1, 1});
  const Tensor k = opgen::random::binomial({200}, 8, 30, 0.6);
  BOOST_TEST((k.dtype() == DType::int64));
  const std::vector<double> kv = values(k);
  BOOST_TEST(std::all_of(kv.begin(), kv.end(), [](double x) { return x >= 0 && x <= 30; }));
  BOOST_TEST(values(opgen::random::binomial({200}, 8, 30, 0.6, DType::float32)) == kv);
  check_tensor(opgen::random::binomial({3}, 8, 0, 0.6), DType::int64, {3}, {0, 0, 0});
  // A scalar (empty shape) and an empty tensor.
  check_tensor(opgen::random::uniform({}), DType::float32, {}, {0x6627e8 * 0x1p-24});
  BOOST_TEST(opgen::random::normal({0, 4}).length() == 0);
}

BOOST_AUTO_TEST_CASE(out_overloads_and_calls_by_name) {
  Tensor out = Tensor::empty({8}, DType::float64);
  opgen::random::normal({8}, 11, 0, 1, DType::float64, 0, out);
  BOOST_TEST(values(out) == values(opgen::random::normal({8}, 11, 0, 1, DType::float64)));
  const std::vector<Tensor> r = opgen::registry().call(
      "random.normal", {}, {{"shape", std::vector<std::int64_t>{8}}, {"seed", std::int64_t{11}},
                            {"dtype", DType::float64}});
  BOOST_TEST_REQUIRE(r.size() == 1u);
  BOOST_TEST(values(r[0]) == values(out));
}

BOOST_AUTO_TEST_CASE(checks) {
  check_error([] { opgen::random::uniform({3}, 0, 2, 1); }, {"random.uniform", "low must not exceed high"});
  check_error([] { opgen::random::uniform({3}, 0, 0, 1, DType::int32); }, {"random.uniform", "int32"});
  check_error([] { opgen::random::uniform({3}, 0, 0, 1, DType::float32, -1); },
              {"random.uniform", "offset must be non-negative"});
  check_error([] { opgen::random::uniform({-3}); }, {"random.uniform", "shape"});
  check_error([] { opgen::random::normal({3}, 0, 0, -1); }, {"random.normal", "stddev must be non-negative"});
  check_error([] { opgen::random::exponential({3}, 0, 0); }, {"random.exponential", "lambda must be positive"});
  check_error([] { opgen::random::bernoulli({3}, 0, 1.5); }, {"random.bernoulli", "p must lie in [0, 1]"});
  check_error([] { opgen::random::binomial({3}, 0, -2); }, {"random.binomial", "n_trials must be non-negative"});
  check_error([] { opgen::random::binomial({3}, 0, std::int64_t{1} << 40, 0.5, DType::int32); },
              {"random.binomial", "int32 counts need n_trials < 2^31"});
  check_error([] { opgen::random::binomial({3}, 0, 4, 0.5, DType::bool_); }, {"random.binomial", "bool"});
  Tensor wrong = Tensor::empty({3}, DType::float64);
  check_error([&] { opgen::random::normal({3}, 0, 0, 1, DType::float32, 0, wrong); }, {"random.normal", "y"});
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace random_ops
