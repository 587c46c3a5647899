// The generated math namespace: every op's result on small tensors
// (including broadcast shapes and mixed dtypes), and every check rejecting
// a bad call with an opgen::Error that names the op.

#include <cmath>
#include <limits>

#include "op_testing.hpp"

using namespace opgen;
using opgen::testing::check_error;
using opgen::testing::check_tensor;

namespace {

const Tensor kA = Tensor::from<float>({1, -2, 3, -4, 5, -6}, {2, 3});
const Tensor kRow = Tensor::from<float>({10, 20, 30}, {3});
const Tensor kCol = Tensor::from<float>({2, 4}, {2, 1});

// Applies f to kA (x) broadcast against kRow (y), element by element.
template <class F>
std::vector<double> broadcast_rows(F f) {
  std::vector<double> out;
  const std::vector<float> a = kA.to_vector<float>(), r = kRow.to_vector<float>();
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) out.push_back(f(a[i * 3 + j], r[j]));
  }
  return out;
}

template <class F>
std::vector<double> map(const std::vector<double>& xs, F f) {
  std::vector<double> out;
  for (double x : xs) out.push_back(f(x));
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(math)

BOOST_AUTO_TEST_CASE(arithmetic_with_broadcasting) {
  check_tensor(opgen::math::add(kA, kRow), DType::float32, {2, 3},
               broadcast_rows([](double x, double y) { return x + y; }));
  check_tensor(opgen::math::sub(kA, kRow), DType::float32, {2, 3},
               broadcast_rows([](double x, double y) { return x - y; }));
  check_tensor(opgen::math::mul(kA, kRow), DType::float32, {2, 3},
               broadcast_rows([](double x, double y) { return x * y; }));
  check_tensor(opgen::math::div(kA, kRow), DType::float32, {2, 3},
               broadcast_rows([](double x, double y) { return float(x) / float(y); }), 1e-7);
  check_tensor(opgen::math::maximum(kA, kRow), DType::float32, {2, 3},
               broadcast_rows([](double x, double y) { return std::max(x, y); }));
  check_tensor(opgen::math::minimum(kA, kRow), DType::float32, {2, 3},
               broadcast_rows([](double x, double y) { return std::min(x, y); }));
  // [2, 1] against [3]: both sides broadcast.
  check_tensor(opgen::math::add(kCol, kRow), DType::float32, {2, 3}, {12, 22, 32, 14, 24, 34});
  // A rank-0 operand.
  check_tensor(opgen::math::mul(kRow, Tensor::scalar<float>(2)), DType::float32, {3}, {20, 40, 60});
}

BOOST_AUTO_TEST_CASE(dtype_promotion) {
  const Tensor i = Tensor::from<std::int32_t>({1, 2, 3}, {3});
  const Tensor l = Tensor::from<std::int64_t>({5, 6, 7}, {3});
  check_tensor(opgen::math::add(i, l), DType::int64, {3}, {6, 8, 10});
  check_tensor(opgen::math::add(i, kRow), DType::float64, {3}, {11, 22, 33});
  const Tensor d = Tensor::from<double>({0.5}, {1});
  check_tensor(opgen::math::mul(kRow, d), DType::float64, {3}, {5, 10, 15});
}

BOOST_AUTO_TEST_CASE(integer_ops) {
  const Tensor x = Tensor::from<std::int32_t>({7, -7, 5, std::numeric_limits<std::int32_t>::min()}, {4});
  const Tensor y = Tensor::from<std::int32_t>({2, 2, 0, -1}, {4});
  check_tensor(opgen::math::div(x, y), DType::int32, {4}, {3, -3, 0, std::numeric_limits<std::int32_t>::min()});
  check_tensor(opgen::math::neg(Tensor::from<std::int64_t>({3, -4}, {2})), DType::int64, {2}, {-3, 4});
  check_tensor(opgen::math::abs(y), DType::int32, {4}, {2, 2, 0, 1});
  check_tensor(opgen::math::square(y), DType::int32, {4}, {4, 4, 0, 1});
}

BOOST_AUTO_TEST_CASE(unary_functions) {
  const std::vector<double> a = opgen::testing::values(kA);
  check_tensor(opgen::math::neg(kA), DType::float32, {2, 3}, map(a, [](double x) { return -x; }));
  check_tensor(opgen::math::abs(kA), DType::float32, {2, 3}, map(a, [](double x) { return std::abs(x); }));
  check_tensor(opgen::math::square(kA), DType::float32, {2, 3}, map(a, [](double x) { return x * x; }));
  const Tensor p = Tensor::from<double>({0.25, 1, 2.5, 100}, {2, 2});
  const std::vector<double> pv = opgen::testing::values(p);
  check_tensor(opgen::math::sqrt(p), DType::float64, {2, 2}, map(pv, [](double x) { return std::sqrt(x); }), 1e-15);
  check_tensor(opgen::math::exp(p), DType::float64, {2, 2}, map(pv, [](double x) { return std::exp(x); }), 1e-14);
  check_tensor(opgen::math::log(p), DType::float64, {2, 2}, map(pv, [](double x) { return std::log(x); }), 1e-14);
  check_tensor(opgen::math::tanh(p), DType::float64, {2, 2}, map(pv, [](double x) { return std::tanh(x); }), 1e-14);
  const Tensor f = Tensor::from<float>({-1.5f, -0.5f, 0.5f, 2.0f}, {4});
  check_tensor(opgen::math::floor(f), DType::float32, {4}, {-2, -1, 0, 2});
  check_tensor(opgen::math::ceil(f), DType::float32, {4}, {-1, -0.0, 1, 2});
  check_tensor(opgen::math::pow(p, Tensor::scalar<double>(2)), DType::float64, {2, 2},
               map(pv, [](double x) { return x * x; }), 1e-14);
  check_tensor(opgen::math::sqrt(Tensor::from<float>({-1}, {1})), DType::float32, {1},
               {std::numeric_limits<double>::quiet_NaN()});
}

BOOST_AUTO_TEST_CASE(clip) {
  check_tensor(opgen::math::clip(kA, -3, 2), DType::float32, {2, 3}, {1, -2, 2, -3, 2, -3});
  const Tensor i = Tensor::from<std::int32_t>({-5, 0, 5}, {3});
  check_tensor(opgen::math::clip(i, -1.5, 2.5), DType::int32, {3}, {-1, 0, 2});
  check_error([] { opgen::math::clip(kA, 2, 1); },
              {"math.clip: lo must not exceed hi", "check: lo <= hi", "lo = 2", "hi = 1"});
}

BOOST_AUTO_TEST_CASE(reductions) {
  check_tensor(opgen::math::sum(kA, {1}), DType::float32, {2}, {2, -5});
  check_tensor(opgen::math::sum(kA, {0}), DType::float32, {3}, {-3, 3, -3});
  check_tensor(opgen::math::sum(kA, {}), DType::float32, {}, {-3});
  check_tensor(opgen::math::sum(kA, {-1}, true), DType::float32, {2, 1}, {2, -5});
  check_tensor(opgen::math::sum(kA, {0, 1}, true), DType::float32, {1, 1}, {-3});
  check_tensor(opgen::math::mean(kA, {1}), DType::float32, {2}, {2.0 / 3, -5.0 / 3}, 1e-6);
  check_tensor(opgen::math::reduce_max(kA, {0}), DType::float32, {3}, {1, 5, 3});
  const Tensor i = Tensor::from<std::int64_t>({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2});
  // Non-adjacent dims: 0 and 2.
  check_tensor(opgen::math::sum(i, {0, 2}), DType::int64, {2}, {1 + 2 + 5 + 6, 3 + 4 + 7 + 8});
  check_tensor(opgen::math::reduce_max(i, {1}), DType::int64, {2, 2}, {3, 4, 7, 8});
  // Reducing a zero-size dimension.
  check_tensor(opgen::math::sum(Tensor::zeros({0, 3}, DType::float32), {0}), DType::float32, {3}, {0, 0, 0});
}

BOOST_AUTO_TEST_CASE(out_overloads) {
  Tensor out = Tensor::empty({2, 3}, DType::float32);
  opgen::math::add(kA, kRow, out);
  check_tensor(out, DType::float32, {2, 3}, broadcast_rows([](double x, double y) { return x + y; }));
  Tensor null_out;
  opgen::math::sum(kA, {1}, false, null_out);  // a null out is allocated
  check_tensor(null_out, DType::float32, {2}, {2, -5});
  Tensor in_place = kA.clone();
  opgen::math::neg(in_place, in_place);
  check_tensor(in_place, DType::float32, {2, 3}, {-1, 2, -3, 4, -5, 6});
  Tensor wrong = Tensor::empty({3}, DType::float32);
  check_error([&] { opgen::math::add(kA, kRow, wrong); }, {"math.add", "z", "float32[2, 3]", "float32[3]"});
  Tensor wrong_type = Tensor::empty({2, 3}, DType::float64);
  check_error([&] { opgen::math::add(kA, kRow, wrong_type); }, {"math.add", "float64"});
}

// Out calls whose inputs all have out's dtype and shape go straight to the
// kernel (the generated wrappers' direct path); everything else must still
// be promoted, broadcast or rejected as by the general path.
BOOST_AUTO_TEST_CASE(direct_out_calls) {
  const Tensor b = Tensor::from<float>({6, 5, 4, 3, 2, 1}, {2, 3});
  Tensor out = Tensor::empty({2, 3}, DType::float32);
  opgen::math::sub(kA, b, out);
  check_tensor(out, DType::float32, {2, 3}, {-5, -7, -1, -7, 3, -7});
  const Tensor i64 = Tensor::from<std::int64_t>({7, -7}, {2});
  Tensor out64 = Tensor::empty({2}, DType::int64);
  opgen::math::mul(i64, i64, out64);
  check_tensor(out64, DType::int64, {2}, {49, 49});
  const Tensor d = Tensor::from<double>({1, 2}, {2});
  Tensor outd = Tensor::empty({2}, DType::float64);
  opgen::math::atan2(d, d, outd);
  check_tensor(outd, DType::float64, {2}, {std::atan2(1.0, 1.0), std::atan2(2.0, 2.0)}, 1e-15);
  // In place: out is one of the inputs.
  Tensor acc = kA.clone();
  opgen::math::add(acc, acc, acc);
  check_tensor(acc, DType::float32, {2, 3}, {2, -4, 6, -8, 10, -12});
  // Inputs of another dtype than out: promoted and cast, not reinterpreted.
  const Tensor i32 = Tensor::from<std::int32_t>({1, 2}, {2});
  Tensor mixed = Tensor::empty({2}, DType::float64);
  opgen::math::add(i32, d, mixed);
  check_tensor(mixed, DType::float64, {2}, {2, 4});
  Tensor as_int = Tensor::empty({2}, DType::int32);
  check_error([&] { opgen::math::add(i32, d, as_int); }, {"math.add", "z", "float64", "int32"});
  // An out of the inputs' shape and dtype where the op's output has another
  // dtype (comparisons give bool) is rejected, not written.
  Tensor same_as_inputs = Tensor::empty({2}, DType::float64);
  check_error([&] { opgen::math::equal(d, d, same_as_inputs); }, {"math.equal", "bool", "float64"});
  // A null input is reported even when the other tensors match.
  check_error([&] { opgen::math::add(Tensor(), d, outd); }, {"math.add", "x is required"});
}

// Calls without an out tensor whose inputs agree in dtype and shape allocate
// the output and go straight to the kernel too (detail::fresh_output); the
// result must be what the general path gives: the dtype the op's rule
// names, the inputs' shape, the values.
BOOST_AUTO_TEST_CASE(direct_fresh_calls) {
  const Tensor b = Tensor::from<float>({6, 5, 4, 3, 2, 1}, {2, 3});
  check_tensor(opgen::math::sub(kA, b), DType::float32, {2, 3}, {-5, -7, -1, -7, 3, -7});
  const Tensor i64 = Tensor::from<std::int64_t>({7, -7}, {2});
  check_tensor(opgen::math::mul(i64, i64), DType::int64, {2}, {49, 49});
  // The out overload with a null out: allocated, not rejected.
  Tensor fresh;
  opgen::math::add(kA, b, fresh);
  check_tensor(fresh, DType::float32, {2, 3}, {7, 3, 7, -1, 7, -5});
  // An op whose output dtype is not the inputs' (bool comparisons) keeps its
  // own rule.
  const Tensor d = Tensor::from<double>({1, 2}, {2});
  check_tensor(opgen::math::equal(d, Tensor::from<double>({1, 3}, {2})), DType::bool_, {2}, {1, 0});
  // Inputs that differ in shape or dtype take the general path: broadcast,
  // promoted.
  check_tensor(opgen::math::add(kA, kRow), DType::float32, {2, 3}, {11, 18, 33, 6, 25, 24});
  check_tensor(opgen::math::add(Tensor::from<std::int32_t>({1, 2}, {2}), d), DType::float64, {2},
               {2, 4});
  // A zero-element result is allocated as well.
  const Tensor none = Tensor::empty({0, 3}, DType::float32);
  check_tensor(opgen::math::mul(none, none), DType::float32, {0, 3}, {});
}

BOOST_AUTO_TEST_CASE(checks_reject_bad_calls) {
  const Tensor b = Tensor::from<bool>({true}, {1});
  check_error([] { opgen::math::add(kA, Tensor::empty({4}, DType::float32)); },
              {"math.add", "x and y cannot be broadcast together", "[2, 3]", "[4]"});
  check_error([&] { opgen::math::add(kA, b); }, {"math.add", "y must be", "bool"});
  check_error([] { opgen::math::add(Tensor(), kA); }, {"math.add", "x is required"});
  check_error([] { opgen::math::sqrt(Tensor::from<std::int32_t>({4}, {1})); }, {"math.sqrt", "x must be", "int32"});
  check_error([] { opgen::math::mean(Tensor::from<std::int64_t>({4}, {1}), {0}); }, {"math.mean", "int64"});
  check_error([] { opgen::math::sum(kA, {2}); },
              {"math.sum", "dims: dimension 2 is out of range for x of rank 2"});
  check_error(
      [] {
        opgen::math::sum(kA, {0, -2});
      },
      {"math.sum", "dims: dimension -2 is given twice ([0, -2] for x of rank 2)"});
  // The out call checks the same way, naming the input too.
  check_error(
      [] {
        Tensor y;
        opgen::math::sum(kA, {-3}, false, y);
      },
      {"math.sum", "dims: dimension -3 is out of range for x of rank 2"});
  check_error([] { opgen::math::pow(Tensor::from<std::int32_t>({2}, {1}), kA); }, {"math.pow", "x must be"});
}

BOOST_AUTO_TEST_SUITE_END()
