// The drivers (detail/drivers.hpp) with small plain-C++ kernels that log
// their calls, checked against naive index-by-index references written here
// independently of the drivers' planning.
#include "opgen/detail/drivers.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <vector>

using opgen::DType;
using opgen::Shape;
using opgen::Tensor;
namespace d = opgen::detail;

namespace {

// ---------------------------------------------------------------------------
// Logged test kernels

struct CallLog {
  int calls = 0;
  std::size_t max_n = 0;
  std::size_t total = 0;
  void record(std::size_t n) {
    ++calls;
    max_n = std::max(max_n, n);
    total += n;
  }
};
CallLog g_log;

void reset_log() { g_log = CallLog(); }

// out = 1000 x + y: every output tells which x and which y it came from.
void combine(const std::int64_t* x, const std::int64_t* y, std::int64_t* out, std::size_t n) {
  g_log.record(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = x[i] * 1000 + y[i];
}

// out = 10^6 x + 1000 y + z.
void combine3(const std::int64_t* x, const std::int64_t* y, const std::int64_t* z,
              std::int64_t* out, std::size_t n) {
  g_log.record(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = x[i] * 1000000 + y[i] * 1000 + z[i];
}

// A bool condition choosing between doubles: In0 differs from In1.
void select(const bool* c, const double* a, const double* b, double* out, std::size_t n) {
  g_log.record(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = c[i] ? a[i] : b[i];
}

// Extra scalar args are passed through on every call.
void affine(const double* x, const double* y, double* out, std::size_t n, double a,
            std::int64_t b) {
  g_log.record(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = a * x[i] + y[i] + static_cast<double>(b);
}

void negate(const float* x, float* out, std::size_t n) {
  g_log.record(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = -x[i];
}

void above(const double* x, bool* out, std::size_t n, double threshold) {
  g_log.record(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = x[i] > threshold;
}

// The reduction kernel contract: out[o * inner + i] = sum over k of
// x[(o * n + k) * inner + i].
void sum(const std::int64_t* x, std::int64_t* out, std::size_t outer, std::size_t n,
         std::size_t inner) {
  g_log.record(n);
  for (std::size_t o = 0; o < outer; ++o) {
    for (std::size_t i = 0; i < inner; ++i) {
      std::int64_t s = 0;
      for (std::size_t k = 0; k < n; ++k) s += x[(o * n + k) * inner + i];
      out[o * inner + i] = s;
    }
  }
}

void any(const bool* x, bool* out, std::size_t outer, std::size_t n, std::size_t inner,
         bool negate_result) {
  g_log.record(n);
  for (std::size_t o = 0; o < outer; ++o) {
    for (std::size_t i = 0; i < inner; ++i) {
      bool r = false;
      for (std::size_t k = 0; k < n; ++k) r = r || x[(o * n + k) * inner + i];
      out[o * inner + i] = r != negate_result;
    }
  }
}

// Running sum along the axis: depends on the order of the n elements.
void running_sum(const std::int64_t* x, std::int64_t* out, std::size_t outer, std::size_t n,
                 std::size_t inner) {
  g_log.record(n);
  for (std::size_t o = 0; o < outer; ++o) {
    for (std::size_t i = 0; i < inner; ++i) {
      std::int64_t s = 0;
      for (std::size_t k = 0; k < n; ++k) {
        s += x[(o * n + k) * inner + i];
        out[(o * n + k) * inner + i] = s;
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Naive references

using Dims = std::vector<std::int64_t>;

std::int64_t count(const Dims& s) {
  std::int64_t n = 1;
  for (std::int64_t v : s) n *= v;
  return n;
}

Dims broadcast(const std::vector<Dims>& shapes) {
  std::size_t rank = 0;
  for (const Dims& s : shapes) rank = std::max(rank, s.size());
  Dims out(rank, 1);
  for (const Dims& s : shapes) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      std::int64_t& o = out[rank - s.size() + i];
      if (s[i] != 1) o = s[i];
    }
  }
  return out;
}

// The multi-index of linear index `i` in shape `s`.
Dims unravel(std::int64_t i, const Dims& s) {
  Dims idx(s.size());
  for (std::size_t k = s.size(); k-- > 0;) {
    idx[k] = i % s[k];
    i /= s[k];
  }
  return idx;
}

// The linear index in `s` of output multi-index `idx` under broadcasting.
std::int64_t broadcast_index(const Dims& idx, const Dims& s) {
  std::int64_t i = 0;
  const std::size_t shift = idx.size() - s.size();
  for (std::size_t k = 0; k < s.size(); ++k) i = i * s[k] + (s[k] == 1 ? 0 : idx[k + shift]);
  return i;
}

// Distinct small values so that combine()'s outputs identify their inputs.
Tensor iota(const Dims& s, std::int64_t start) {
  Tensor t = Tensor::empty(Shape(s), DType::int64);
  for (std::int64_t i = 0; i < t.length(); ++i) t.data<std::int64_t>()[i] = start + i;
  return t;
}

std::vector<std::int64_t> naive_combine(const Tensor& x, const Tensor& y) {
  const Dims sx = x.shape().to_vector(), sy = y.shape().to_vector();
  const Dims so = broadcast({sx, sy});
  std::vector<std::int64_t> out;
  for (std::int64_t i = 0; i < count(so); ++i) {
    const Dims idx = unravel(i, so);
    out.push_back(x.data<std::int64_t>()[broadcast_index(idx, sx)] * 1000 +
                  y.data<std::int64_t>()[broadcast_index(idx, sy)]);
  }
  return out;
}

Tensor run_combine(const Tensor& x, const Tensor& y) {
  Tensor out =
      Tensor::empty(Shape(broadcast({x.shape().to_vector(), y.shape().to_vector()})), DType::int64);
  d::binary<std::int64_t, std::int64_t>(x, y, out, combine);
  return out;
}

// Sum over `dims` (empty: all), kept dimensions in order.
std::vector<std::int64_t> naive_sum(const Tensor& x, const Dims& dims) {
  const Dims s = x.shape().to_vector();
  std::vector<bool> reduced(s.size(), dims.empty());
  for (std::int64_t dim : dims)
    reduced[static_cast<std::size_t>(dim < 0 ? dim + static_cast<std::int64_t>(s.size()) : dim)] =
        true;
  Dims kept;
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (!reduced[k]) kept.push_back(s[k]);
  }
  std::vector<std::int64_t> out(static_cast<std::size_t>(count(kept)), 0);
  for (std::int64_t i = 0; i < x.length(); ++i) {
    const Dims idx = unravel(i, s);
    std::int64_t o = 0;
    std::size_t j = 0;
    for (std::size_t k = 0; k < s.size(); ++k) {
      if (!reduced[k]) o = o * kept[j++] + idx[k];
    }
    out[static_cast<std::size_t>(o)] += x.data<std::int64_t>()[i];
  }
  return out;
}

Tensor run_sum(const Tensor& x, const Dims& dims) {
  const Dims s = x.shape().to_vector();
  std::int64_t n = 1;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const bool r =
        dims.empty() || std::find(dims.begin(), dims.end(), std::int64_t(k)) != dims.end() ||
        std::find(dims.begin(), dims.end(), std::int64_t(k) - std::int64_t(s.size())) != dims.end();
    if (!r) n *= s[k];
  }
  Tensor out = Tensor::empty(Shape{n}, DType::int64);  // the layout of any kept-dims shape
  d::reduce<std::int64_t, std::int64_t>(x, dims, out, sum);
  return out;
}

// Every subset of {0, ..., rank - 1}, as dims lists (the empty one means all).
std::vector<Dims> subsets(int rank) {
  std::vector<Dims> all;
  for (int mask = 0; mask < (1 << rank); ++mask) {
    Dims dims;
    for (int k = 0; k < rank; ++k) {
      if (mask & (1 << k)) dims.push_back(k);
    }
    all.push_back(dims);
  }
  return all;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(drivers)

// ---------------------------------------------------------------------------
// unary

// One kernel call over the whole buffer.
BOOST_AUTO_TEST_CASE(unary_whole_buffer) {
  const Tensor x = Tensor::from<float>({1, -2, 3, -4, 5, -6}, {2, 3});
  Tensor out = Tensor::empty({2, 3}, DType::float32);
  reset_log();
  d::unary<float, float>(x, out, negate);
  BOOST_TEST(g_log.calls == 1);
  BOOST_TEST(g_log.max_n == 6u);
  BOOST_TEST(out.to_vector<float>() == (std::vector<float>{-1, 2, -3, 4, -5, 6}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(unary_args_outputs_and_aliasing) {
  const Tensor x = Tensor::from<double>({0.5, 1.5, 2.5});
  Tensor out = Tensor::empty({3}, DType::bool_);
  d::unary<double, bool>(x, out, above, 1.0);
  BOOST_TEST(!out.data<bool>()[0]);
  BOOST_TEST(out.data<bool>()[1]);
  BOOST_TEST(out.data<bool>()[2]);

  Tensor y = Tensor::from<float>({1, 2});
  d::unary<float, float>(y, y, negate);  // in place
  BOOST_TEST(y.to_vector<float>() == (std::vector<float>{-1, -2}),
             boost::test_tools::per_element());

  const Tensor empty = Tensor::empty({0, 4}, DType::float32);
  Tensor empty_out = Tensor::empty({0, 4}, DType::float32);
  reset_log();
  d::unary<float, float>(empty, empty_out, negate);
  BOOST_TEST(g_log.calls == 0);
}

// ---------------------------------------------------------------------------
// binary

// Equal shapes (or equal element counts, which means equal layouts): one call.
BOOST_AUTO_TEST_CASE(binary_equal_shapes) {
  const Tensor x = iota({2, 3}, 1);
  const Tensor y = iota({2, 3}, 10);
  reset_log();
  const Tensor out = run_combine(x, y);
  BOOST_TEST(g_log.calls == 1);
  BOOST_TEST(out.to_vector<std::int64_t>() == naive_combine(x, y),
             boost::test_tools::per_element());

  const Tensor y3 = iota({1, 2, 3}, 10);
  reset_log();
  const Tensor out3 = run_combine(x, y3);
  BOOST_TEST(g_log.calls == 1);
  BOOST_TEST((out3.shape() == Shape{1, 2, 3}));
  BOOST_TEST(out3.to_vector<std::int64_t>() == naive_combine(x, y3),
             boost::test_tools::per_element());
}

// A one-element operand, on either side, is repeated from a chunk buffer.
BOOST_AUTO_TEST_CASE(binary_scalar_broadcast) {
  const Tensor big = iota({3, 700}, 1);  // 2100 elements: 5 chunks of at most 512
  for (const Tensor& one : {Tensor::scalar<std::int64_t>(7), iota({1, 1}, 7), iota({1}, 7)}) {
    reset_log();
    Tensor out = run_combine(one, big);
    BOOST_TEST(g_log.calls == 5);
    BOOST_TEST(g_log.max_n == d::kBroadcastChunk);
    BOOST_TEST(g_log.total == 2100u);
    BOOST_TEST(out.to_vector<std::int64_t>() == naive_combine(one, big),
               boost::test_tools::per_element());
    reset_log();
    out = run_combine(big, one);
    BOOST_TEST(g_log.calls == 5);
    BOOST_TEST(out.to_vector<std::int64_t>() == naive_combine(big, one),
               boost::test_tools::per_element());
  }
  // Fewer elements than a chunk: one call.
  reset_log();
  const Tensor small = iota({3}, 1);
  BOOST_TEST(run_combine(small, Tensor::scalar<std::int64_t>(4)).to_vector<std::int64_t>() ==
                 naive_combine(small, Tensor::scalar<std::int64_t>(4)),
             boost::test_tools::per_element());
  BOOST_TEST(g_log.calls == 1);
}

// The general path on a catalogue of shapes, both operand orders.
BOOST_AUTO_TEST_CASE(binary_general_shapes) {
  const std::vector<std::pair<Dims, Dims>> cases = {
      {{2, 3}, {3}},
      {{2, 1}, {1, 3}},
      {{4, 1, 3}, {2, 1}},
      {{0, 3}, {3}},
      {{2, 3, 4}, {3, 1}},
      {{5, 1, 1, 6}, {1, 4, 1, 1}},
      {{3, 1}, {3, 4}},
      {{2, 1, 4}, {2, 3, 1}},
      {{1, 3, 1, 5}, {2, 1, 4, 1}},
      {{4, 5, 6}, {1, 5, 6}},
      {{4, 5, 6}, {4, 1, 6}},
      {{2, 1000}, {2, 1}},
      {{1}, {0}},
      {{3, 2, 1, 2, 1, 2}, {2, 1, 2, 1}},
  };
  for (const auto& [a, b] : cases) {
    const Tensor x = iota(a, 1);
    const Tensor y = iota(b, 1);
    BOOST_TEST(run_combine(x, y).to_vector<std::int64_t>() == naive_combine(x, y),
               boost::test_tools::per_element());
    BOOST_TEST(run_combine(y, x).to_vector<std::int64_t>() == naive_combine(y, x),
               boost::test_tools::per_element());
  }
}

// One kernel call per contiguous run, after collapsing dimensions that are
// contiguous for every operand; runs longer than a chunk are split only for
// repeated operands.
BOOST_AUTO_TEST_CASE(binary_run_counts) {
  struct Case {
    Dims x, y;
    int calls;
    std::size_t max_n;
  };
  const Case cases[] = {
      {{2, 3}, {3}, 2, 3},                               // one run per row
      {{3, 1000}, {1000}, 3, 1000},                      // contiguous rows are not chunked
      {{4, 5, 6}, {1, 5, 6}, 4, 30},                     // [5, 6] collapses into one run
      {{1000, 1}, {1, 1000}, 2000, d::kBroadcastChunk},  // x repeated: 2 chunks per row
      {{0, 3}, {3}, 0, 0},                               // nothing to compute
      {{2, 1, 3}, {1, 3}, 2, 3},                         // size-1 dims are dropped
  };
  for (const Case& c : cases) {
    reset_log();
    const Tensor x = iota(c.x, 1);
    const Tensor y = iota(c.y, 1);
    const Tensor out = run_combine(x, y);
    BOOST_TEST(g_log.calls == c.calls);
    BOOST_TEST(g_log.max_n == c.max_n);
    BOOST_TEST(out.to_vector<std::int64_t>() == naive_combine(x, y),
               boost::test_tools::per_element());
  }
}

// out may be x itself (the in-place variants of ops) on every path.
BOOST_AUTO_TEST_CASE(binary_aliasing) {
  // Equal shapes, out == x == y.
  Tensor a = iota({2, 3}, 1);
  const std::vector<std::int64_t> same = naive_combine(a, a);
  d::binary<std::int64_t, std::int64_t>(a, a, a, combine);
  BOOST_TEST(a.to_vector<std::int64_t>() == same, boost::test_tools::per_element());

  // General path: x [2, 3] against y [3], out == x.
  Tensor x = iota({2, 3}, 1);
  const Tensor y = iota({3}, 50);
  const std::vector<std::int64_t> general = naive_combine(x, y);
  d::binary<std::int64_t, std::int64_t>(x, y, x, combine);
  BOOST_TEST(x.to_vector<std::int64_t>() == general, boost::test_tools::per_element());

  // One-element operand, out == the other operand, several chunks.
  Tensor z = iota({1300}, 1);
  const Tensor s = Tensor::scalar<std::int64_t>(9);
  const std::vector<std::int64_t> scalar = naive_combine(s, z);
  d::binary<std::int64_t, std::int64_t>(s, z, z, combine);
  BOOST_TEST(z.to_vector<std::int64_t>() == scalar, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(binary_kernel_args) {
  const Tensor x = Tensor::from<double>({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor y = Tensor::from<double>({10, 20}, {2, 1});
  Tensor out = Tensor::empty({2, 3}, DType::float64);
  d::binary<double, double>(x, y, out, affine, 2.0, std::int64_t{100});
  BOOST_TEST(out.to_vector<double>() == (std::vector<double>{112, 114, 116, 128, 130, 132}),
             boost::test_tools::per_element());
  reset_log();
  d::binary<double, double>(x, x, out, affine, -1.0, std::int64_t{0});
  BOOST_TEST(out.to_vector<double>() == std::vector<double>(6, 0.0),
             boost::test_tools::per_element());
  BOOST_TEST(g_log.calls == 1);
}

// As generated code calls the drivers: a kernel pointer constant of the
// driver's kernel type, template arguments deduced from it, and args that
// convert to the kernel's parameter types.
BOOST_AUTO_TEST_CASE(kernel_pointer_types) {
  constexpr d::BinaryKernel<double, double, double, std::int64_t> kAffine = affine;
  constexpr d::UnaryKernel<double, bool, double> kAbove = above;
  constexpr d::TernaryKernel<bool, double, double> kSelect = select;
  constexpr d::ReduceKernel<std::int64_t, std::int64_t> kSum = sum;
  constexpr d::AxisKernel<std::int64_t> kRunning = running_sum;
  const Tensor x = Tensor::from<double>({1, 2});
  Tensor out = Tensor::empty({2}, DType::float64);
  d::binary(x, x, out, kAffine, 1, 1);
  BOOST_TEST(out.to_vector<double>() == (std::vector<double>{3, 5}),
             boost::test_tools::per_element());
  Tensor flags = Tensor::empty({2}, DType::bool_);
  d::unary(x, flags, kAbove, 1);
  BOOST_TEST(flags.data<bool>()[1]);
  const Tensor c = Tensor::from<bool>({false, true});
  d::ternary(c, x, Tensor::scalar(0.0), out, kSelect);
  BOOST_TEST(out.to_vector<double>() == (std::vector<double>{0, 2}),
             boost::test_tools::per_element());
  const Tensor i = iota({2, 2}, 1);
  Tensor total = Tensor::empty({}, DType::int64);
  d::reduce(i, {}, total, kSum);
  BOOST_TEST(total.item<std::int64_t>() == 10);
  Tensor running = Tensor::empty({2, 2}, DType::int64);
  d::along_axis(i, 1, running, kRunning);
  BOOST_TEST(running.to_vector<std::int64_t>() == (std::vector<std::int64_t>{1, 3, 3, 7}),
             boost::test_tools::per_element());
}

// ---------------------------------------------------------------------------
// ternary

BOOST_AUTO_TEST_CASE(ternary_paths) {
  auto naive = [](const Tensor& x, const Tensor& y, const Tensor& z) {
    const Dims sx = x.shape().to_vector(), sy = y.shape().to_vector(), sz = z.shape().to_vector();
    const Dims so = broadcast({sx, sy, sz});
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < count(so); ++i) {
      const Dims idx = unravel(i, so);
      out.push_back(x.data<std::int64_t>()[broadcast_index(idx, sx)] * 1000000 +
                    y.data<std::int64_t>()[broadcast_index(idx, sy)] * 1000 +
                    z.data<std::int64_t>()[broadcast_index(idx, sz)]);
    }
    return out;
  };
  const std::vector<std::vector<Dims>> cases = {
      {{2, 3}, {2, 3}, {2, 3}},        // equal: one call
      {{}, {600}, {1}},                // one-element operands: chunks
      {{2, 1}, {3}, {}},               // general
      {{4, 1, 3}, {2, 1}, {1, 2, 3}},  // general, three ranks
      {{0, 2}, {2}, {1}},              // empty
      {{3, 1, 5}, {1, 4, 1}, {3, 4, 5}},
  };
  for (const std::vector<Dims>& c : cases) {
    const Tensor x = iota(c[0], 1), y = iota(c[1], 1), z = iota(c[2], 1);
    Tensor out = Tensor::empty(Shape(broadcast(c)), DType::int64);
    reset_log();
    d::ternary<std::int64_t, std::int64_t, std::int64_t>(x, y, z, out, combine3);
    BOOST_TEST(out.to_vector<std::int64_t>() == naive(x, y, z), boost::test_tools::per_element());
    if (c[0] == c[1] && c[1] == c[2]) {
      BOOST_TEST(g_log.calls == 1);
    }
    BOOST_TEST(g_log.max_n <= std::max<std::size_t>(d::kBroadcastChunk, 30));
  }
  // Aliasing: out == z.
  Tensor z = iota({2, 3}, 1);
  const Tensor x = iota({3}, 1), y = Tensor::scalar<std::int64_t>(5);
  const std::vector<std::int64_t> expected = naive(x, y, z);
  d::ternary<std::int64_t, std::int64_t, std::int64_t>(x, y, z, z, combine3);
  BOOST_TEST(z.to_vector<std::int64_t>() == expected, boost::test_tools::per_element());
}

// A bool condition broadcast against double branches (In0 != In1).
BOOST_AUTO_TEST_CASE(ternary_mixed_types) {
  const Tensor c = Tensor::from<bool>({true, false}, {2, 1});
  const Tensor a = Tensor::from<double>({1, 2, 3});
  const Tensor b = Tensor::scalar(-1.0);
  Tensor out = Tensor::empty({2, 3}, DType::float64);
  d::ternary<bool, double, double>(c, a, b, out, select);
  BOOST_TEST(out.to_vector<double>() == (std::vector<double>{1, 2, 3, -1, -1, -1}),
             boost::test_tools::per_element());
}

// ---------------------------------------------------------------------------
// reduce

// Every subset of the dims of rank-3 and rank-4 tensors (with size-1 and
// negative-index variants), against the naive sum.
BOOST_AUTO_TEST_CASE(reduce_every_subset) {
  for (const Dims& shape : {Dims{2, 3, 4}, Dims{2, 1, 3, 4}, Dims{3, 1, 1, 5}, Dims{5, 2, 1, 3}}) {
    const Tensor x = iota(shape, 1);
    for (const Dims& dims : subsets(static_cast<int>(shape.size()))) {
      reset_log();
      const Tensor out = run_sum(x, dims);
      BOOST_TEST(out.to_vector<std::int64_t>() == naive_sum(x, dims),
                 boost::test_tools::per_element());
      BOOST_TEST(g_log.calls == 1);
      Dims negative;
      for (std::int64_t dim : dims)
        negative.push_back(dim - static_cast<std::int64_t>(shape.size()));
      BOOST_TEST(run_sum(x, negative).to_vector<std::int64_t>() == naive_sum(x, dims),
                 boost::test_tools::per_element());
    }
  }
}

// A contiguous block runs in place as (outer, n, inner); scattered dims are
// transposed first (then inner == 1).
BOOST_AUTO_TEST_CASE(reduce_block_and_transpose) {
  const Tensor x = iota({2, 3, 4}, 1);
  reset_log();
  run_sum(x, {1});
  BOOST_TEST(g_log.max_n == 3u);
  reset_log();
  run_sum(x, {0, 2});  // scattered: copy with [3] kept first, [2, 4] reduced last
  BOOST_TEST(g_log.max_n == 8u);
  // Size-1 dims between reduced dims do not break a block.
  const Tensor y = iota({4, 1, 5}, 1);
  reset_log();
  const Tensor out = run_sum(y, {0, 2});
  BOOST_TEST(g_log.max_n == 20u);
  BOOST_TEST(out.to_vector<std::int64_t>() == naive_sum(y, {0, 2}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(reduce_zero_size_and_scalars) {
  for (const Dims& shape : {Dims{2, 0, 3}, Dims{0, 3}, Dims{3, 0}}) {
    const Tensor x = iota(shape, 1);
    for (const Dims& dims : subsets(static_cast<int>(shape.size()))) {
      const Tensor out = run_sum(x, dims);
      BOOST_TEST(out.to_vector<std::int64_t>() == naive_sum(x, dims),
                 boost::test_tools::per_element());
    }
  }
  // n == 0 with outputs: the kernel writes its identity.
  const Tensor e = iota({2, 0, 3}, 1);
  reset_log();
  BOOST_TEST(run_sum(e, {1}).to_vector<std::int64_t>() == std::vector<std::int64_t>(6, 0),
             boost::test_tools::per_element());
  BOOST_TEST(g_log.calls == 1);
  // No outputs: no call.
  reset_log();
  run_sum(e, {0});
  BOOST_TEST(g_log.calls == 0);

  const Tensor s = Tensor::scalar<std::int64_t>(42);
  for (const Dims& dims : {Dims{}, Dims{0}, Dims{-1}}) {
    Tensor out = Tensor::empty({}, DType::int64);
    d::reduce<std::int64_t, std::int64_t>(s, dims, out, sum);
    BOOST_TEST(out.item<std::int64_t>() == 42);
  }
}

// One-byte elements through the transposed path, with a kernel arg.
BOOST_AUTO_TEST_CASE(reduce_bool_with_args) {
  // x[i][j][k] is true only at (1, 2, 0).
  Tensor x = Tensor::zeros({2, 3, 2}, DType::bool_);
  x.data<bool>()[1 * 6 + 2 * 2 + 0] = true;
  Tensor out = Tensor::empty({3}, DType::bool_);
  const std::vector<std::int64_t> dims = {0, 2};
  d::reduce<bool, bool>(x, dims, out, any, false);
  BOOST_TEST(!out.data<bool>()[0]);
  BOOST_TEST(!out.data<bool>()[1]);
  BOOST_TEST(out.data<bool>()[2]);
  d::reduce<bool, bool>(x, dims, out, any, true);
  BOOST_TEST(!out.data<bool>()[2]);
  BOOST_TEST(out.data<bool>()[0]);
}

// ---------------------------------------------------------------------------
// along_axis

BOOST_AUTO_TEST_CASE(along_axis_every_dim) {
  const Dims shape = {2, 3, 4};
  const Tensor x = iota(shape, 1);
  for (int dim = 0; dim < 3; ++dim) {
    // Naive running sum along `dim`.
    std::vector<std::int64_t> expected(static_cast<std::size_t>(x.length()));
    for (std::int64_t i = 0; i < x.length(); ++i) {
      Dims idx = unravel(i, shape);
      std::int64_t s = 0;
      for (std::int64_t k = 0; k <= idx[static_cast<std::size_t>(dim)]; ++k) {
        Dims j = idx;
        j[static_cast<std::size_t>(dim)] = k;
        s += x.data<std::int64_t>()[(j[0] * 3 + j[1]) * 4 + j[2]];
      }
      expected[static_cast<std::size_t>(i)] = s;
    }
    Tensor out = Tensor::empty(Shape(shape), DType::int64);
    reset_log();
    d::along_axis<std::int64_t>(x, dim, out, running_sum);
    BOOST_TEST(g_log.calls == 1);
    BOOST_TEST(out.to_vector<std::int64_t>() == expected, boost::test_tools::per_element());
    Tensor in_place = x.clone();
    d::along_axis<std::int64_t>(in_place, dim, in_place, running_sum);
    BOOST_TEST(in_place.to_vector<std::int64_t>() == expected, boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(along_axis_edges) {
  const Tensor s = Tensor::scalar<std::int64_t>(5);
  Tensor out = Tensor::empty({}, DType::int64);
  d::along_axis<std::int64_t>(s, 0, out, running_sum);
  BOOST_TEST(out.item<std::int64_t>() == 5);
  const Tensor e = Tensor::empty({3, 0}, DType::int64);
  Tensor e_out = Tensor::empty({3, 0}, DType::int64);
  reset_log();
  d::along_axis<std::int64_t>(e, 0, e_out, running_sum);
  BOOST_TEST(g_log.calls == 0);
}

BOOST_AUTO_TEST_SUITE_END()
