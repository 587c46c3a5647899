// The Tensor-level adapter of nn.softmax (runtime/softmax.cpp) over the
// Highway kernel, against a naive double-precision softmax. Tolerances: the
// kernel's exp is within 4 ulp and its sums associate differently from a
// sequential loop, so float32 results agree to 1e-6 relative (a few ulp) and
// float64 to 1e-13.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <vector>

#include "builtin_kernels.hpp"
#include "error_text.hpp"

using opgen::DType;
using opgen::Shape;
using opgen::Tensor;
using opgen::testing::error_of;
using opgen::testing::error_text;

namespace {

// Softmax of x (row-major, shape `s`) along `dim`, in double.
std::vector<double> naive_softmax(const std::vector<double>& x, const std::vector<std::int64_t>& s,
                                  std::size_t dim) {
  std::size_t outer = 1, inner = 1;
  for (std::size_t k = 0; k < dim; ++k) outer *= static_cast<std::size_t>(s[k]);
  for (std::size_t k = dim + 1; k < s.size(); ++k) inner *= static_cast<std::size_t>(s[k]);
  const auto n = static_cast<std::size_t>(s[dim]);
  std::vector<double> y(x.size());
  for (std::size_t o = 0; o < outer; ++o) {
    for (std::size_t i = 0; i < inner; ++i) {
      auto at = [&](std::size_t k) { return (o * n + k) * inner + i; };
      double m = -INFINITY;
      for (std::size_t k = 0; k < n; ++k) m = std::max(m, x[at(k)]);
      double total = 0;
      for (std::size_t k = 0; k < n; ++k) total += std::exp(x[at(k)] - m);
      for (std::size_t k = 0; k < n; ++k) y[at(k)] = std::exp(x[at(k)] - m) / total;
    }
  }
  return y;
}

// Deterministic values spread over a few units, some negative.
std::vector<double> values(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::sin(static_cast<double>(i) * 1.7) * 4.0;
  return v;
}

template <class T>
void check_close(const Tensor& y, const std::vector<double>& expected, double tolerance) {
  const std::vector<T> got = y.to_vector<T>();
  BOOST_REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    BOOST_TEST(std::abs(static_cast<double>(got[i]) - expected[i]) <= tolerance * expected[i],
               "element " << i << ": " << got[i] << " vs " << expected[i]);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(softmax)

BOOST_AUTO_TEST_CASE(every_dim_both_dtypes) {
  const std::vector<std::int64_t> shape = {2, 3, 5};
  const std::vector<double> x = values(30);
  const std::vector<float> xf(x.begin(), x.end());
  const std::vector<double> xf_exact(xf.begin(), xf.end());
  for (std::int64_t dim = -3; dim < 3; ++dim) {
    const auto axis = static_cast<std::size_t>(dim < 0 ? dim + 3 : dim);
    const Tensor t64 = Tensor::from<double>(x, Shape(shape));
    Tensor y64 = Tensor::empty(Shape(shape), DType::float64);
    opgen::kernels::Softmax(t64, dim, y64);
    check_close<double>(y64, naive_softmax(x, shape, axis), 1e-13);

    const Tensor t32 = Tensor::from<float>(xf, Shape(shape));
    Tensor y32 = Tensor::empty(Shape(shape), DType::float32);
    opgen::kernels::Softmax(t32, dim, y32);
    check_close<float>(y32, naive_softmax(xf_exact, shape, axis), 1e-6);
  }
}

// Long rows (past any SIMD width and remainder) and in-place use.
BOOST_AUTO_TEST_CASE(long_rows_in_place) {
  const std::vector<std::int64_t> shape = {3, 1027};
  const std::vector<double> x = values(3 * 1027);
  Tensor t = Tensor::from<double>(x, Shape(shape));
  opgen::kernels::Softmax(t, 1, t);
  check_close<double>(t, naive_softmax(x, shape, 1), 1e-13);
}

// Subtracting the max first keeps large inputs finite.
BOOST_AUTO_TEST_CASE(large_inputs) {
  const Tensor x = Tensor::from<float>({1000, 1001, 1002});
  Tensor y = Tensor::empty({3}, DType::float32);
  opgen::kernels::Softmax(x, 0, y);
  check_close<float>(y, naive_softmax({0, 1, 2}, {3}, 0), 1e-6);
}

// A scalar is one element: softmax 1, along dim 0 or -1 only.
BOOST_AUTO_TEST_CASE(scalar) {
  for (std::int64_t dim : {0, -1}) {
    const Tensor x = Tensor::scalar(3.5);
    Tensor y = Tensor::empty({}, DType::float64);
    opgen::kernels::Softmax(x, dim, y);
    BOOST_TEST(y.item<double>() == 1.0);
  }
  Tensor y = Tensor::empty({}, DType::float32);
  BOOST_TEST(error_text([&] { opgen::kernels::Softmax(Tensor::scalar(1.0f), 1, y); }) ==
             "nn.softmax: dim 1 is out of range for x of rank 0");
}

BOOST_AUTO_TEST_CASE(dim_out_of_range) {
  const Tensor x = Tensor::zeros({2, 3, 4}, DType::float32);
  Tensor y = Tensor::empty({2, 3, 4}, DType::float32);
  BOOST_TEST(error_text([&] { opgen::kernels::Softmax(x, 3, y); }) ==
             "nn.softmax: dim 3 is out of range for x of rank 3");
  BOOST_TEST(error_text([&] { opgen::kernels::Softmax(x, -4, y); }) ==
             "nn.softmax: dim -4 is out of range for x of rank 3");
  BOOST_TEST(error_of([&] { opgen::kernels::Softmax(x, 7, y); }).param() == "dim");
}

BOOST_AUTO_TEST_CASE(zero_size) {
  const Tensor x = Tensor::zeros({0, 3}, DType::float64);
  Tensor y = Tensor::empty({0, 3}, DType::float64);
  opgen::kernels::Softmax(x, 1, y);
  opgen::kernels::Softmax(x, 0, y);
  BOOST_TEST(y.length() == 0);
}

BOOST_AUTO_TEST_SUITE_END()
