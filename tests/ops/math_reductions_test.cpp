// The generated math reductions and scans beyond sum/mean/reduce_max: prod,
// argmax, argmin, all, any, norm2, var, std, cumsum and dot. Results on small
// tensors worked out by hand (or from numpy's definitions), over single,
// several and non-adjacent dims, the dtypes each op takes, empty reductions,
// calls by name, and the checks each op adds.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "op_testing.hpp"

using namespace opgen;
using opgen::testing::check_error;
using opgen::testing::check_tensor;

namespace {

const Tensor kA = Tensor::from<float>({1, -2, 3, -4, 5, -6}, {2, 3});
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

}  // namespace

BOOST_AUTO_TEST_SUITE(math_reductions)

// Reducing dims 0 and 2 of a [3, 5, 7, 9] tensor: the kept dims (5, 9) go
// first in the copy the kernels read, so its run (7, strided by 9) comes
// from a plane transposed against the contiguous 9; sums and maxima
// against loops over the indices, int64 (exact) and float64 (small
// integers, exact too).
BOOST_AUTO_TEST_CASE(reductions_over_dims_the_copy_transposes) {
  const std::int64_t a = 3, b = 5, c = 7, d = 9;
  std::vector<double> v(static_cast<std::size_t>(a * b * c * d));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>((i * 37) % 101) - 50;
  std::vector<double> sums, maxima;
  for (std::int64_t j = 0; j < b; ++j) {
    for (std::int64_t l = 0; l < d; ++l) {
      double s = 0, m = -1e300;
      for (std::int64_t i = 0; i < a; ++i) {
        for (std::int64_t k = 0; k < c; ++k) {
          const double e = v[static_cast<std::size_t>(((i * b + j) * c + k) * d + l)];
          s += e;
          m = std::max(m, e);
        }
      }
      sums.push_back(s);
      maxima.push_back(m);
    }
  }
  const Tensor f = Tensor::from<double>(v, {a, b, c, d});
  const Tensor n =
      Tensor::from<std::int64_t>(std::vector<std::int64_t>(v.begin(), v.end()), {a, b, c, d});
  check_tensor(math::sum(f, {0, 2}), DType::float64, {b, d}, sums);
  check_tensor(math::sum(n, {2, 0}), DType::int64, {b, d}, sums);
  check_tensor(math::reduce_max(f, {0, -2}), DType::float64, {b, d}, maxima);
  check_tensor(math::reduce_max(n, {0, 2}, true), DType::int64, {1, b, 1, d}, maxima);
}

BOOST_AUTO_TEST_CASE(prod) {
  check_tensor(math::prod(kA, {1}), DType::float32, {2}, {-6, 120});
  check_tensor(math::prod(kA, {0}), DType::float32, {3}, {-4, -10, -18});
  check_tensor(math::prod(kA, {}), DType::float32, {}, {-720});
  const Tensor i = Tensor::from<std::int64_t>({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2});
  check_tensor(math::prod(i, {0, 2}), DType::int64, {2}, {1 * 2 * 5 * 6, 3 * 4 * 7 * 8});
  // int32 wraps around: 65536 * 65536 = 2^32 = 0 (mod 2^32).
  const Tensor big = Tensor::from<std::int32_t>({65536, 65536, 3}, {3});
  check_tensor(math::prod(big, {0}), DType::int32, {}, {0});
  check_tensor(math::prod(Tensor::zeros({0, 2}, DType::float64), {0}), DType::float64, {2}, {1, 1});
}

BOOST_AUTO_TEST_CASE(argmax_argmin) {
  check_tensor(math::argmax(kA, {1}), DType::int64, {2}, {2, 1});
  check_tensor(math::argmin(kA, {1}), DType::int64, {2}, {1, 2});
  check_tensor(math::argmax(kA, {0}), DType::int64, {3}, {0, 1, 0});
  check_tensor(math::argmax(kA, {}), DType::int64, {}, {4});
  check_tensor(math::argmin(kA, {-1}, true), DType::int64, {2, 1}, {1, 2});
  // Several dims: the index over the reduced dims flattened row-major.
  const Tensor i = Tensor::from<std::int32_t>({1, 9, 3, 4, 5, 6, 7, 0}, {2, 2, 2});
  check_tensor(math::argmax(i, {0, 2}), DType::int64, {2}, {1, 2});  // 9 at (0, 1); 7 at (1, 0)
  check_tensor(math::argmin(i, {0, 2}), DType::int64, {2}, {0, 3});  // 1 at (0, 0); 0 at (1, 1)
  // Ties: the first; NaN: the first NaN, for both; -0 equals +0.
  const Tensor t = Tensor::from<double>({2, 5, 5, -0.0, kNaN, 1, kNaN, 0}, {2, 4});
  check_tensor(math::argmax(t, {1}), DType::int64, {2}, {1, 0});
  check_tensor(math::argmin(t, {1}), DType::int64, {2}, {3, 0});
  const Tensor z = Tensor::from<float>({0.0f, -0.0f}, {2});
  check_tensor(math::argmax(z, {0}), DType::int64, {}, {0});
  check_tensor(math::argmin(z, {0}), DType::int64, {}, {0});
  // No elements: -1.
  check_tensor(math::argmax(Tensor::zeros({0, 2}, DType::int64), {0}), DType::int64, {2}, {-1, -1});
}

BOOST_AUTO_TEST_CASE(all_any) {
  const Tensor f = Tensor::from<float>({1, 0, -0.0f, 2, static_cast<float>(kNaN), 3}, {3, 2});
  check_tensor(math::all(f, {1}), DType::bool_, {3}, {0, 0, 1});
  check_tensor(math::any(f, {1}), DType::bool_, {3}, {1, 1, 1});
  check_tensor(math::all(f, {0}), DType::bool_, {2}, {0, 0});
  check_tensor(math::any(f, {0}), DType::bool_, {2}, {1, 1});
  const Tensor b = Tensor::from<bool>({true, false, false, false}, {2, 2});
  check_tensor(math::any(b, {1}), DType::bool_, {2}, {1, 0});
  check_tensor(math::all(b, {}), DType::bool_, {}, {0});
  const Tensor i = Tensor::from<std::int64_t>({0, 0, 7, 0}, {4});
  check_tensor(math::any(i, {0}), DType::bool_, {}, {1});
  check_tensor(math::all(i, {0}, true), DType::bool_, {1}, {0});
  // All of nothing is true, any of nothing false.
  check_tensor(math::all(Tensor::zeros({0}, DType::int32), {0}), DType::bool_, {}, {1});
  check_tensor(math::any(Tensor::zeros({0}, DType::int32), {0}), DType::bool_, {}, {0});
}

BOOST_AUTO_TEST_CASE(norm2) {
  check_tensor(math::norm2(Tensor::from<float>({3, 4, 0, -12, 5, 0}, {2, 3}), {1}), DType::float32,
               {2}, {5, 13}, 1e-7);
  check_tensor(math::norm2(kA, {}), DType::float32, {}, {std::sqrt(91.0)}, 1e-7);
  // Squares beyond float32's range, and below it: rescaled, not inf or 0.
  const Tensor big = Tensor::from<float>({3e30f, -4e30f}, {2});
  check_tensor(math::norm2(big, {0}), DType::float32, {}, {5e30}, 1e-6);
  const Tensor small = Tensor::from<double>({3e-200, 4e-200}, {2});
  check_tensor(math::norm2(small, {0}), DType::float64, {}, {5e-200}, 1e-15);
  const Tensor special = Tensor::from<double>({1, kInf, 2, kNaN, -kInf, 0}, {2, 3});
  check_tensor(math::norm2(special, {1}), DType::float64, {2}, {kInf, kNaN});
  check_tensor(math::norm2(Tensor::zeros({2, 0}, DType::float32), {1}), DType::float32, {2},
               {0, 0});
}

BOOST_AUTO_TEST_CASE(var_std) {
  // Rows {1, -2, 3}: mean 2/3, squared deviations sum 38/3; {-4, 5, -6}:
  // mean -5/3, sum 206/3.
  check_tensor(math::var(kA, {1}), DType::float32, {2}, {38.0 / 9, 206.0 / 9}, 1e-6);
  check_tensor(math::var(kA, {1}, false, 1), DType::float32, {2}, {38.0 / 6, 206.0 / 6}, 1e-6);
  check_tensor(math::std(kA, {1}, true, 1), DType::float32, {2, 1},
               {std::sqrt(38.0 / 6), std::sqrt(206.0 / 6)}, 1e-6);
  check_tensor(math::var(kA, {0}), DType::float32, {3}, {6.25, 12.25, 20.25}, 1e-6);
  // A large mean and a small spread keep their accuracy (two passes).
  const Tensor shifted = Tensor::from<float>({1e4f + 1, 1e4f + 2, 1e4f + 3, 1e4f + 4}, {4});
  check_tensor(math::var(shifted, {0}), DType::float32, {}, {1.25}, 1e-6);
  check_tensor(math::std(shifted, {0}, false, 1), DType::float32, {}, {std::sqrt(5.0 / 3)}, 1e-6);
  // n <= ddof, and no elements: NaN.
  check_tensor(math::var(kA, {1}, false, 3), DType::float32, {2}, {kNaN, kNaN});
  check_tensor(math::std(Tensor::zeros({0}, DType::float64), {0}), DType::float64, {}, {kNaN});
  check_error([] { math::var(kA, {1}, false, -1); },
              {"math.var: ddof must be non-negative", "ddof = -1"});
  check_error([] { math::std(Tensor::from<std::int32_t>({1}, {1}), {0}); }, {"math.std", "int32"});
}

BOOST_AUTO_TEST_CASE(cumsum) {
  check_tensor(math::cumsum(kA), DType::float32, {2, 3}, {1, -1, 2, -4, 1, -5});
  check_tensor(math::cumsum(kA, 0), DType::float32, {2, 3}, {1, -2, 3, -3, 3, -3});
  const Tensor i = Tensor::from<std::int32_t>({2147483647, 1, 5}, {3});
  check_tensor(math::cumsum(i, 0), DType::int32, {3}, {2147483647, -2147483648.0, -2147483643.0});
  const Tensor l = Tensor::from<std::int64_t>({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2});
  check_tensor(math::cumsum(l, 1), DType::int64, {2, 2, 2}, {1, 2, 4, 6, 5, 6, 12, 14});
  Tensor in_place = kA.clone();
  math::cumsum(in_place, 1, in_place);
  check_tensor(in_place, DType::float32, {2, 3}, {1, -1, 2, -4, 1, -5});
  check_tensor(math::cumsum(Tensor::from<double>({4}, {})), DType::float64, {}, {4});
  check_error([] { math::cumsum(kA, 2); }, {"math.cumsum", "dim"});
  check_error([] { math::cumsum(Tensor::from<bool>({true}, {1})); }, {"math.cumsum", "bool"});
}

BOOST_AUTO_TEST_CASE(dot) {
  const Tensor x = Tensor::from<double>({1, 2, 3}, {3});
  const Tensor y = Tensor::from<double>({4, -5, 6}, {3});
  check_tensor(math::dot(x, y), DType::float64, {}, {12});
  check_tensor(
      math::dot(Tensor::from<std::int64_t>({3, 4}, {2}), Tensor::from<std::int64_t>({5, 6}, {2})),
      DType::int64, {}, {39});
  check_tensor(math::dot(Tensor::zeros({0}, DType::float32), Tensor::zeros({0}, DType::float32)),
               DType::float32, {}, {0});
  check_error([&] { math::dot(x, Tensor::zeros({2}, DType::float64)); },
              {"math.dot", "x and y must be vectors of the same length"});
  check_error([&] { math::dot(kA, kA); }, {"math.dot", "vectors"});
  check_error([&] { math::dot(x, Tensor::zeros({3}, DType::float32)); },
              {"math.dot", "same dtype"});
}

// Every other dtype each reduction takes, through the generated dispatch,
// against its float64 results (checked above): small integers, which every
// dtype holds exactly, so sums, products, maxima, indices and truth values
// must be float64's; float32's mean, norm2, var and std within 1e-6 of them.
BOOST_AUTO_TEST_CASE(every_dtype_gives_the_float64_results) {
  // -4 3 1 -1 / -3 4 2 0 / -2 -4 3 1: negatives, a zero, no ties along
  // either dim. all and any see the middle row as zeros, so both give false.
  std::vector<double> v(12);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>((i * 7) % 9) - 4;
  const std::vector<double> u = {2, -1, 0, 3};
  const auto as = [](const std::vector<double>& values, const Shape& shape, DType dtype) {
    switch (dtype) {
      case DType::float32:
        return Tensor::from<float>(std::vector<float>(values.begin(), values.end()), shape);
      case DType::int32:
        return Tensor::from<std::int32_t>(std::vector<std::int32_t>(values.begin(), values.end()),
                                          shape);
      case DType::int64:
        return Tensor::from<std::int64_t>(std::vector<std::int64_t>(values.begin(), values.end()),
                                          shape);
      case DType::bool_: {
        bool b[12] = {};  // at most 12 values
        for (std::size_t i = 0; i < values.size(); ++i) b[i] = values[i] != 0;
        return Tensor::from<bool>(std::span<const bool>(b, values.size()), shape);
      }
      default:
        return Tensor::from<double>(values, shape);
    }
  };
  using Dims = std::vector<std::int64_t>;
  using Op = Tensor (*)(const Tensor&, const Dims&);
  struct Case {
    const char* name;
    Op op;
    std::vector<DType> dtypes;
    double float32_tolerance = 0;  // relative; 0: exact
    bool zero_middle_row = false;
  };
  const std::vector<DType> numeric = {DType::float32, DType::int32, DType::int64};
  const std::vector<DType> any_dtype = {DType::float32, DType::int32, DType::int64, DType::bool_};
  const std::vector<DType> floats = {DType::float32};
  const std::vector<Case> cases = {
      {"sum", [](const Tensor& x, const Dims& d) { return math::sum(x, d); }, numeric},
      {"mean", [](const Tensor& x, const Dims& d) { return math::mean(x, d); }, floats, 1e-6},
      {"reduce_max", [](const Tensor& x, const Dims& d) { return math::reduce_max(x, d); },
       numeric},
      {"prod", [](const Tensor& x, const Dims& d) { return math::prod(x, d); }, numeric},
      {"argmax", [](const Tensor& x, const Dims& d) { return math::argmax(x, d); }, numeric},
      {"argmin", [](const Tensor& x, const Dims& d) { return math::argmin(x, d); }, numeric},
      {"all", [](const Tensor& x, const Dims& d) { return math::all(x, d); }, any_dtype, 0, true},
      {"any", [](const Tensor& x, const Dims& d) { return math::any(x, d); }, any_dtype, 0, true},
      {"norm2", [](const Tensor& x, const Dims& d) { return math::norm2(x, d); }, floats, 1e-6},
      {"var", [](const Tensor& x, const Dims& d) { return math::var(x, d, false, 1); }, floats,
       1e-6},
      {"std", [](const Tensor& x, const Dims& d) { return math::std(x, d); }, floats, 1e-6},
      {"cumsum", [](const Tensor& x, const Dims& d) { return math::cumsum(x, d.at(0)); }, numeric},
  };
  for (const Case& c : cases) {
    for (const DType dtype : c.dtypes) {
      // bool holds 0 and 1 only: float64 is compared on the same 0/1 values.
      std::vector<double> w = v;
      if (c.zero_middle_row) std::fill(w.begin() + 4, w.begin() + 8, 0.0);
      if (dtype == DType::bool_) {
        for (double& e : w) e = e != 0 ? 1 : 0;
      }
      const Tensor x = as(w, {3, 4}, dtype), x64 = as(w, {3, 4}, DType::float64);
      for (const Dims& dims : {Dims{0}, Dims{1}}) {
        BOOST_TEST_CONTEXT("math." << c.name << " on " << dtype_name(dtype) << ", dim "
                                   << dims[0]) {
          const Tensor want = c.op(x64, dims);
          const DType want_dtype = want.dtype() == DType::float64 ? dtype : want.dtype();
          check_tensor(c.op(x, dims), want_dtype, want.shape(), opgen::testing::values(want),
                       dtype == DType::float32 ? c.float32_tolerance : 0);
        }
      }
    }
  }
  for (const DType dtype : numeric) {
    BOOST_TEST_CONTEXT("math.dot on " << dtype_name(dtype)) {
      const std::vector<double> row(v.begin(), v.begin() + 4);
      check_tensor(math::dot(as(row, {4}, dtype), as(u, {4}, dtype)), dtype, {},
                   opgen::testing::values(
                       math::dot(as(row, {4}, DType::float64), as(u, {4}, DType::float64))));
    }
  }
}

BOOST_AUTO_TEST_CASE(by_name) {
  const std::vector<Tensor> v = registry().call(
      "math.var", {kA}, {{"dims", std::vector<std::int64_t>{1}}, {"ddof", std::int64_t{1}}});
  check_tensor(v.at(0), DType::float32, {2}, {38.0 / 6, 206.0 / 6}, 1e-6);
  const std::vector<Tensor> a =
      registry().call("math.argMax", {kA}, {{"dims", std::vector<std::int64_t>{0}}});
  check_tensor(a.at(0), DType::int64, {3}, {0, 1, 0});
  const std::vector<Tensor> c = registry().call("math.cumsum", {kA}, {{"dim", std::int64_t{0}}});
  check_tensor(c.at(0), DType::float32, {2, 3}, {1, -2, 3, -3, 3, -3});
}

BOOST_AUTO_TEST_SUITE_END()
