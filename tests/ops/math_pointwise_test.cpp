// The math namespace's elementary functions, rounding, remainders (and, with
// bool results, comparisons, predicates, logical ops and where) through the
// generated API: results on small tensors against the C library, broadcast
// shapes, dtype promotion, and the checks that reject bad calls.

#include <cmath>
#include <cstdint>
#include <cstring>
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
  // float32 erf is within 7 ulp (4.2e-7 near 1; see math.erf's notes).
  check_tensor(opgen::math::erf(xf), DType::float32, {8},
               map(kValues, [](double v) { return double(std::erf(float(v))); }), 5e-7);
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

BOOST_AUTO_TEST_CASE(comparisons_give_bool) {
  const Tensor a = Tensor::from<float>({1, 2, 3, float(kNaN), -0.0f, 5}, {2, 3});
  const Tensor row = Tensor::from<float>({2, 2, float(kNaN)}, {3});
  // a against row, broadcast: [1 2 3; NaN -0 5] vs [2 2 NaN].
  check_tensor(opgen::math::equal(a, row), DType::bool_, {2, 3}, {0, 1, 0, 0, 0, 0});
  check_tensor(opgen::math::not_equal(a, row), DType::bool_, {2, 3}, {1, 0, 1, 1, 1, 1});
  check_tensor(opgen::math::less(a, row), DType::bool_, {2, 3}, {1, 0, 0, 0, 1, 0});
  check_tensor(opgen::math::less_equal(a, row), DType::bool_, {2, 3}, {1, 1, 0, 0, 1, 0});
  check_tensor(opgen::math::greater(a, row), DType::bool_, {2, 3}, {0, 0, 0, 0, 0, 0});
  check_tensor(opgen::math::greater_equal(a, row), DType::bool_, {2, 3}, {0, 1, 0, 0, 0, 0});
  check_tensor(opgen::math::equal(Tensor::from<float>({-0.0f}, {1}), Tensor::from<float>({0}, {1})),
               DType::bool_, {1}, {1});
  const Tensor i = Tensor::from<std::int64_t>({INT64_MIN, 0, 7}, {3});
  check_tensor(opgen::math::less(i, Tensor::scalar<std::int64_t>(0)), DType::bool_, {3}, {1, 0, 0});
  check_tensor(opgen::math::isnan(a), DType::bool_, {2, 3}, {0, 0, 0, 1, 0, 0});
  check_tensor(opgen::math::isinf(Tensor::from<double>({kInf, -kInf, kNaN, 1e308}, {4})),
               DType::bool_, {4}, {1, 1, 0, 0});
  // The out overload checks the bool dtype of the output.
  Tensor out = Tensor::empty({2, 3}, DType::bool_);
  opgen::math::greater(a, Tensor::scalar<float>(2), out);
  check_tensor(out, DType::bool_, {2, 3}, {0, 0, 1, 0, 0, 1});
  Tensor wrong = Tensor::empty({2, 3}, DType::float32);
  check_error([&] { opgen::math::greater(a, row, wrong); }, {"math.greater", "bool"});
}

BOOST_AUTO_TEST_CASE(logical_ops_and_where) {
  const Tensor p = Tensor::from<bool>({true, true, false, false}, {4});
  const Tensor q = Tensor::from<bool>({true, false, true, false}, {4});
  check_tensor(opgen::math::logical_and(p, q), DType::bool_, {4}, {1, 0, 0, 0});
  check_tensor(opgen::math::logical_or(p, q), DType::bool_, {4}, {1, 1, 1, 0});
  check_tensor(opgen::math::logical_not(p), DType::bool_, {4}, {0, 0, 1, 1});
  // [2, 1] against [4]: broadcast.
  check_tensor(opgen::math::logical_and(Tensor::from<bool>({true, false}, {2, 1}), q), DType::bool_,
               {2, 4}, {1, 0, 1, 0, 0, 0, 0, 0});
  const Tensor x = Tensor::from<float>({1, 2, 3, 4}, {4});
  const Tensor y = Tensor::from<float>({-1, -2, -3, -4}, {4});
  check_tensor(opgen::math::where(p, x, y), DType::float32, {4}, {1, 2, -3, -4});
  // int32 x with an int64 scalar y: promoted to int64.
  check_tensor(opgen::math::where(q, Tensor::from<std::int32_t>({1, 2, 3, 4}, {4}),
                                  Tensor::scalar<std::int64_t>(0)),
               DType::int64, {4}, {1, 0, 3, 0});
  // A condition from a comparison; cond broadcast along rows.
  const Tensor m = Tensor::from<double>({1, -2, 3, -4, 5, -6}, {2, 3});
  check_tensor(opgen::math::where(opgen::math::greater(m, Tensor::scalar<double>(0)), m,
                                  Tensor::scalar<double>(0)),
               DType::float64, {2, 3}, {1, 0, 3, 0, 5, 0});
  check_tensor(opgen::math::where(Tensor::from<bool>({true, false, true}, {3}), m,
                                  Tensor::scalar<double>(9)),
               DType::float64, {2, 3}, {1, 9, 3, -4, 9, -6});
  const std::vector<Tensor> by_name = registry().call("math.select", {p, x, y});
  BOOST_TEST_REQUIRE(by_name.size() == 1u);
  check_tensor(by_name[0], DType::float32, {4}, {1, 2, -3, -4});
}

// The raw bytes of a bool tensor (each result byte must be exactly 0 or 1).
std::vector<int> bool_bytes(const Tensor& t) {
  const auto* p = static_cast<const unsigned char*>(t.raw_data());
  return std::vector<int>(p, p + t.nbytes());
}

// A bool tensor of shape {n} holding the given bytes (any nonzero byte is
// true, as a tensor written by other code may hold).
Tensor bool_from_bytes(const std::vector<unsigned char>& bytes) {
  Tensor t = Tensor::empty({static_cast<std::int64_t>(bytes.size())}, DType::bool_);
  std::memcpy(t.raw_data(), bytes.data(), bytes.size());
  return t;
}

// A bool tensor of shape {n} from a std::vector<bool> (which has no data()).
Tensor mask(const std::vector<bool>& values) {
  Tensor t = Tensor::empty({static_cast<std::int64_t>(values.size())}, DType::bool_);
  bool* p = t.data<bool>();
  for (std::size_t i = 0; i < values.size(); ++i) p[i] = values[i];
  return t;
}

BOOST_AUTO_TEST_CASE(equal_and_not_equal_compare_masks) {
  const Tensor p = Tensor::from<bool>({true, false}, {2, 1});
  const Tensor q = Tensor::from<bool>({true, false, true}, {3});
  // [2, 1] against [3]: broadcast to [2, 3].
  check_tensor(opgen::math::equal(p, q), DType::bool_, {2, 3}, {1, 0, 1, 0, 1, 0});
  check_tensor(opgen::math::not_equal(p, q), DType::bool_, {2, 3}, {0, 1, 0, 1, 0, 1});
  check_tensor(opgen::math::equal(q, Tensor::scalar<bool>(false)), DType::bool_, {3}, {0, 1, 0});
  // Truth values, not bytes: 2 and 0xFF equal 1; results are 0 or 1.
  const Tensor a = bool_from_bytes({2, 0xFF, 0, 1, 0, 3});
  const Tensor b = bool_from_bytes({1, 1, 0, 0, 7, 0x80});
  const Tensor eq = opgen::math::equal(a, b);
  BOOST_TEST(bool_bytes(eq) == (std::vector<int>{1, 1, 1, 0, 0, 1}), boost::test_tools::per_element());
  BOOST_TEST(bool_bytes(opgen::math::not_equal(a, b)) == (std::vector<int>{0, 0, 0, 1, 1, 0}),
             boost::test_tools::per_element());
  // Longer than any vector, so the kernel's whole-vector loop runs; the out
  // overload of matching dtype and shape takes the direct path.
  std::vector<bool> xs, ys, want_eq;
  for (int i = 0; i < 203; ++i) {
    xs.push_back(i % 3 == 0);
    ys.push_back(i % 5 < 2);
    want_eq.push_back(xs.back() == ys.back());
  }
  const Tensor x = mask(xs);
  const Tensor y = mask(ys);
  Tensor out = Tensor::empty({203}, DType::bool_);
  opgen::math::equal(x, y, out);
  std::vector<double> want_eq_d, want_ne_d;
  for (bool w : want_eq) {
    want_eq_d.push_back(w ? 1 : 0);
    want_ne_d.push_back(w ? 0 : 1);
  }
  check_tensor(out, DType::bool_, {203}, want_eq_d);
  opgen::math::not_equal(x, y, out);
  check_tensor(out, DType::bool_, {203}, want_ne_d);
  const std::vector<Tensor> by_name = registry().call("math.not_equal", {p, q});
  BOOST_TEST_REQUIRE(by_name.size() == 1u);
  check_tensor(by_name[0], DType::bool_, {2, 3}, {0, 1, 0, 1, 0, 1});
  // No promotion for comparisons: a bool meets only a bool.
  const Tensor f = Tensor::from<float>({1, 0, 1}, {3});
  check_error([&] { opgen::math::equal(q, f); }, {"math.equal", "same dtype", "bool", "float32"});
  check_error([&] { opgen::math::not_equal(Tensor::from<std::int32_t>({1, 0, 1}, {3}), q); },
              {"math.not_equal", "same dtype", "int32", "bool"});
  check_error([&] { opgen::math::equal(q, bool_from_bytes({1, 0, 1, 0})); },
              {"math.equal", "cannot be broadcast"});
}

BOOST_AUTO_TEST_CASE(where_selects_between_masks) {
  const Tensor cond = Tensor::from<bool>({true, false}, {2, 1});
  const Tensor x = Tensor::from<bool>({true, false, true}, {3});
  // cond [2, 1], x [3], y a scalar: broadcast to [2, 3].
  check_tensor(opgen::math::where(cond, x, Tensor::scalar<bool>(true)), DType::bool_, {2, 3},
               {1, 0, 1, 1, 1, 1});
  check_tensor(opgen::math::where(cond, Tensor::scalar<bool>(false), x), DType::bool_, {2, 3},
               {0, 0, 0, 1, 0, 1});
  // Nonzero bytes are true in cond, x and y alike; results are 0 or 1.
  const Tensor c = bool_from_bytes({2, 0, 0xFF, 0, 1, 0});
  const Tensor xb = bool_from_bytes({3, 0, 0, 1, 0x80, 9});
  const Tensor yb = bool_from_bytes({0, 5, 1, 0, 0, 0x40});
  BOOST_TEST(bool_bytes(opgen::math::where(c, xb, yb)) == (std::vector<int>{1, 1, 0, 0, 1, 1}),
             boost::test_tools::per_element());
  // Long enough for the kernel's whole-vector loop, through the out overload.
  std::vector<bool> cs, xs, ys;
  std::vector<double> want;
  for (int i = 0; i < 150; ++i) {
    cs.push_back(i % 4 == 1);
    xs.push_back(i % 3 != 0);
    ys.push_back(i % 7 == 2);
    want.push_back((cs.back() ? xs.back() : ys.back()) ? 1 : 0);
  }
  Tensor out = Tensor::empty({150}, DType::bool_);
  opgen::math::where(mask(cs), mask(xs),
                     mask(ys), out);
  check_tensor(out, DType::bool_, {150}, want);
  // A bool meeting a number is promoted like in arithmetic: to the number's
  // dtype, true as 1 and false as 0.
  check_tensor(opgen::math::where(cond, x, Tensor::scalar<std::int32_t>(7)), DType::int32, {2, 3},
               {1, 0, 1, 7, 7, 7});
  check_tensor(opgen::math::where(cond, Tensor::scalar<float>(0.5f), x), DType::float32, {2, 3},
               {0.5, 0.5, 0.5, 1, 0, 1});
  // cond must still be bool, and the shapes must broadcast.
  check_error([&] { opgen::math::where(Tensor::from<std::int32_t>({1, 0, 1}, {3}), x, x); },
              {"math.where", "cond must be", "int32"});
  check_error([&] { opgen::math::where(cond, x, bool_from_bytes({1, 0})); },
              {"math.where", "cannot be broadcast"});
}

BOOST_AUTO_TEST_CASE(bool_ops_reject_bad_calls) {
  const Tensor f = Tensor::from<float>({1}, {1});
  const Tensor b = Tensor::from<bool>({true}, {1});
  check_error([&] { opgen::math::logical_and(f, b); },
              {"math.logical_and", "x must be", "float32"});
  check_error([&] { opgen::math::logical_not(f); }, {"math.logical_not", "float32"});
  check_error([&] { opgen::math::where(f, f, f); }, {"math.where", "cond must be"});
  check_error([&] { opgen::math::less(f, Tensor::from<double>({1}, {1})); },
              {"math.less", "same dtype"});
  check_error([&] { opgen::math::less(b, b); }, {"math.less", "bool"});
  check_error([&] { opgen::math::isnan(Tensor::from<std::int32_t>({1}, {1})); },
              {"math.isnan", "int32"});
  check_error(
      [&] {
        opgen::math::where(Tensor::from<bool>({true, false}, {2}), f,
                           Tensor::zeros({3}, DType::float32));
      },
      {"math.where", "cannot be broadcast"});
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
