// Softmax and LogSoftmax against a RefFloat<T> reference (errors.hpp), on
// every SIMD target, over (outer, n, inner) shapes (n = 0, inner = 1 and
// inner > 1, lengths that are not multiples of any vector length), x
// starting 0..3 elements past an aligned address, out separate and out == x.
// Shape (1, 33, 1030) takes inner > 1 in column blocks and passes of 8 rows
// (rows of 4 KiB or more, 32 rows or more): a last pass of one row, two
// (float32) or three (float64) column blocks, the last one ragged. The
// shapes after it are many short rows, which are held in registers when they
// are at most 4 vectors long (ShortRows): 1 to 4 vectors, whole and partial,
// depending on the target, and 65 elements, past 4 vectors of AVX-512
// floats.
//
// Tolerance (stated in kernels/softmax.hpp too), for each output p_k with
// d_k = |x_k - max|, eps and min_normal of T:
//   |got - p_k| <= (4 + n + d_k) eps p_k + min_normal
// 4 eps covers exp (< 1.1 ulp), 1 / sum and the product; n eps the sum;
// d_k eps the rounding of x_k - max in T, which exp turns into a relative
// error; min_normal the flush of results below the normal range to 0. A
// NaN reference (row containing NaN or +inf, row of -inf) requires NaN.
// LogSoftmax: |got - y_k| <= (4 + n) eps max(1, |y_k|) (kernels/softmax.hpp).
// Outputs past the streaming threshold (LogSoftmax's rows then stream their
// stores, kernels/transform-inl.h StreamRows; streamed_rows.hpp) exactly as the same rows one call
// each, for both kernels.
#include "kernels/softmax.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tests/kernels/errors.hpp"
#include "tests/kernels/inputs.hpp"
#include "tests/kernels/streamed_rows.hpp"
#include "tests/kernels/sweep.hpp"
#include "tests/kernels/targets.hpp"

namespace opgen::kernel_tests {
namespace {

namespace k = opgen::kernels;

struct Shape {
  std::size_t outer, n, inner;
};

const std::vector<Shape> kFixedShapes = {
    {1, 0, 1},    {3, 0, 4},    {0, 4, 1},   {1, 1, 1},   {4, 1, 1},     {1, 1, 5},  {1, 2, 1},
    {2, 15, 1},   {1, 16, 1},   {3, 17, 1},  {1, 49, 1},  {2, 64, 1},    {1, 95, 1}, {2, 100, 1},
    {1, 1024, 1}, {2, 1001, 1}, {3, 5, 2},   {2, 7, 3},   {1, 10, 16},   {2, 4, 17}, {1, 33, 31},
    {2, 3, 64},   {1, 5, 65},   {2, 9, 100}, {1, 300, 7}, {1, 33, 1030}, {37, 5, 1}, {19, 16, 1},
    {9, 33, 1},   {5, 64, 1},   {3, 65, 1}};

// The fixed shapes, then every row length 1..70 (inner == 1, two rows).
std::vector<Shape> AllShapes() {
  std::vector<Shape> shapes = kFixedShapes;
  for (std::size_t n = 1; n <= 70; ++n) shapes.push_back({2, n, 1});
  return shapes;
}
const std::vector<Shape> kShapes = AllShapes();

enum class Data { kOrdinary, kWide, kSpecials };

template <typename T>
void Generate(T* x, const Shape& s, Data data, std::uint64_t seed) {
  using L = std::numeric_limits<T>;
  Random random(seed);
  const std::size_t count = s.outer * s.n * s.inner;
  for (std::size_t j = 0; j < count; ++j) {
    // kWide reaches far below ln(min_normal) relative to the row maximum.
    x[j] = static_cast<T>(data == Data::kWide ? random.Uniform(-800, 10) : random.Uniform(-10, 10));
  }
  if (data != Data::kSpecials || count == 0) return;
  // Output column (0, 0) all -inf; others get a NaN, a +inf, some -inf.
  for (std::size_t k = 0; k < s.n; ++k) x[k * s.inner] = -L::infinity();
  const T specials[] = {L::quiet_NaN(), L::infinity(), -L::infinity(), -L::infinity()};
  for (std::size_t t = 0; t < 4; ++t) x[(t * 7919 + 5 * s.inner + 1) % count] = specials[t];
}

// Generate's values, generated once in the run (FillOnce).
template <typename T>
void Fill(T* x, const Shape& s, Data data, std::uint64_t seed) {
  FillOnce(x, s.outer * s.n * s.inner, std::tuple(s.outer, s.n, s.inner, data, seed),
           [&](T* values) { Generate(values, s, data, seed); });
}

// Reference outputs of one (o, i) column in R = RefFloat<T>, and their
// bounds, appended to p and bound; kLog: of LogSoftmax, within (4 + n) eps
// max(1, |y|).
template <bool kLog, typename T, typename R>
void Reference(const std::vector<T>& column, std::vector<R>& p, std::vector<R>& bound) {
  using L = std::numeric_limits<T>;
  const std::size_t n = column.size();
  const std::size_t first = p.size();
  R max = -std::numeric_limits<R>::infinity();
  bool nan = false;
  for (const T v : column) {
    nan = nan || std::isnan(v);
    max = std::max<R>(max, v);
  }
  R sum = 0;
  p.resize(first + n, 0);
  bound.resize(first + n, 0);
  R* const q = p.data() + first;
  R* const b = bound.data() + first;
  for (std::size_t k = 0; k < n; ++k) {
    q[k] = nan ? L::quiet_NaN() : std::exp(column[k] - max);  // -inf - -inf is NaN too
    sum += q[k];
  }
  const R eps = L::epsilon();
  if constexpr (kLog) {
    const R lse = std::log(sum);
    for (std::size_t k = 0; k < n; ++k) {
      q[k] = nan ? q[k] : column[k] - max - lse;
      b[k] = (4 + n) * eps * std::max<R>(1, std::fabs(q[k]));
    }
    return;
  }
  for (std::size_t k = 0; k < n; ++k) {
    q[k] /= sum;
    const R d = std::fabs(column[k] - max);
    b[k] = L::min() + (q[k] > 0 ? (4 + n + d) * eps * q[k] : 0);
  }
}

// The outputs of every column of a call and their bounds (Reference).
template <typename T>
struct References {
  std::vector<RefFloat<T>> p, bound;
};

std::size_t MaxCount() {
  std::size_t count = 0;
  for (const Shape& s : kShapes) count = std::max(count, s.outer * s.n * s.inner);
  return count;
}

template <bool kLog, typename T>
void CheckSoftmax(const char* name) {
  Report report(name, 1);
  // LogSoftmax's largest error in eps max(1, |y|), for its spec's notes.
  double max_eps = 0;
  PageEndArray<T> x_end(MaxCount()), out_end(MaxCount());
  for (const Shape& s : kShapes) {
    for (const Data data : {Data::kOrdinary, Data::kWide, Data::kSpecials}) {
      for (std::size_t placement = 0; placement < kPlacements; ++placement) {
        for (const bool in_place : {false, true}) {
          const std::size_t count = s.outer * s.n * s.inner;
          const bool page_end = placement == kOffsets;
          Window<T> xw(count, placement % kOffsets);
          Window<T> ow(count, (placement + 1) % kOffsets);
          T* const x = page_end ? x_end.Place(count) : xw.data();
          T* const out = page_end ? out_end.Place(count) : ow.data();
          Fill(x, s, data, 31 * count + placement);
          // The references of every column, (o, i, k) in order: once in
          // the run for these values (ReferenceOnce), not per target or
          // for the in-place pass.
          const References<T>& ref = ReferenceOnce<References<T>>(
              std::tuple(std::string(name), s.outer, s.n, s.inner), x, count, [&] {
                References<T> r;
                for (std::size_t o = 0; o < s.outer; ++o) {
                  for (std::size_t i = 0; i < s.inner; ++i) {
                    std::vector<T> column;
                    for (std::size_t k = 0; k < s.n; ++k)
                      column.push_back(x[(o * s.n + k) * s.inner + i]);
                    Reference<kLog>(column, r.p, r.bound);
                  }
                }
                return r;
              });
          if (in_place) {
            std::copy(x, x + count, out);
            if constexpr (kLog) {
              k::LogSoftmax(out, out, s.outer, s.n, s.inner);
            } else {
              k::Softmax(out, out, s.outer, s.n, s.inner);
            }
          } else if constexpr (kLog) {
            k::LogSoftmax(x, out, s.outer, s.n, s.inner);
          } else {
            k::Softmax(x, out, s.outer, s.n, s.inner);
          }
          for (std::size_t o = 0; o < s.outer; ++o) {
            for (std::size_t i = 0; i < s.inner; ++i) {
              std::vector<T> column;
              for (std::size_t k = 0; k < s.n; ++k)
                column.push_back(x[(o * s.n + k) * s.inner + i]);
              const std::size_t first = (o * s.inner + i) * s.n;
              for (std::size_t k = 0; k < s.n; ++k) {
                const T got = out[(o * s.n + k) * s.inner + i];
                const RefFloat<T> want = ref.p[first + k];
                const double error =
                    std::isnan(want) || std::isinf(want) ? ExactError(got, want)
                    : std::isnan(got)
                        ? kFail
                        : static_cast<double>(std::fabs(got - want) / ref.bound[first + k]);
                if (kLog && !std::isnan(want) && !std::isnan(got)) {
                  max_eps = std::max(max_eps, error * static_cast<double>(4 + s.n));
                }
                report.Add(got, error, [&] {
                  return "shape (" + std::to_string(s.outer) + ", " + std::to_string(s.n) + ", " +
                         std::to_string(s.inner) + ") data " +
                         std::to_string(static_cast<int>(data)) + " " + Placement(placement) +
                         (in_place ? " out==x" : " out!=x") + " [" + std::to_string(o) + ", " +
                         std::to_string(k) + ", " + std::to_string(i) + "] x=" + Show(column[k]) +
                         " got " + Show(got) + " want " + Show(want);
                });
              }
            }
          }
          report.Require(ow.GuardsIntact() && xw.GuardsIntact(),
                         [&] { return "wrote outside [0, count)"; });
        }
      }
    }
  }
  report.Finish();
  if (kLog) BOOST_TEST_MESSAGE(name << ": max error " << max_eps << " eps max(1, |y|)");
}

// RequireStreamedRowsMatch for both kernels (Softmax streams rows of up to
// 16 KiB, kRowLength's among them, through a scratch row).
template <typename T>
void CheckStreamedRows(const char* name) {
  for (const bool log : {false, true}) {
    RequireStreamedRowsMatch<T>(std::string(name) + (log ? " LogSoftmax" : " Softmax"), -10, 10,
                                [&](const T* in, T* out, std::size_t rows) {
                                  if (log) {
                                    k::LogSoftmax(in, out, rows, kRowLength, 1);
                                  } else {
                                    k::Softmax(in, out, rows, kRowLength, 1);
                                  }
                                });
  }
}

// Short rows (inner == 1) side by side in the same vectors (TransposedRows),
// one at a time to the same bits (SequentialRow, calls of fewer than 8
// rows) or each in its own vector (ShortRow): every row of a call over many
// rows exactly as when the call starts at another row (a thread's share of
// the rows does), leaving 8 rows or fewer, and as the row alone, out
// separate and out == x: the same bits, except that a NaN may be another
// NaN (kernels/softmax.cpp, SequentialRow). The data mixes rows within
// exp's fast range with rows reaching far below it (kWide) and NaN, +inf
// and rows of -inf, so that neighbours differ in range.
template <typename T>
bool SameValues(const T* a, const T* b, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (std::memcmp(a + i, b + i, sizeof(T)) != 0 && !(std::isnan(a[i]) && std::isnan(b[i]))) {
      return false;
    }
  }
  return true;
}

template <bool kLog, typename T>
void CheckRowsIndependent(const char* name) {
  const auto run = [](const T* x, T* out, std::size_t rows, std::size_t n) {
    if constexpr (kLog) {
      k::LogSoftmax(x, out, rows, n, 1);
    } else {
      k::Softmax(x, out, rows, n, 1);
    }
  };
  constexpr std::size_t kRows = 150;
  for (const std::size_t n : {1, 2, 3, 5, 8, 10, 15, 16, 17, 31, 32, 33, 64}) {
    const std::size_t count = kRows * n;
    std::vector<T> x(count), all(count), part(count), alone(count);
    Random random(7 * n);
    for (std::size_t r = 0; r < kRows; ++r) {
      const bool wide = r % 3 == 1;
      for (std::size_t k = 0; k < n; ++k) {
        x[r * n + k] = static_cast<T>(wide ? random.Uniform(-800, 10) : random.Uniform(-10, 10));
      }
    }
    using L = std::numeric_limits<T>;
    x[5 * n] = L::quiet_NaN();
    x[11 * n + n / 2] = L::infinity();
    for (std::size_t k = 0; k < n; ++k) x[20 * n + k] = -L::infinity();
    // NaN next to +inf (whose inf - inf is a NaN of another sign), and two
    // NaNs of opposite signs: which NaN a row ends with must not depend on
    // the path either.
    x[30 * n] = L::infinity();
    x[30 * n + n - 1] = L::quiet_NaN();
    x[40 * n] = -L::quiet_NaN();
    x[40 * n + n / 2] = L::quiet_NaN();
    run(x.data(), all.data(), kRows, n);
    for (const std::size_t start : {1, 7, 64, 100, 142, 143, 145}) {
      std::copy(x.begin(), x.end(), part.begin());
      run(part.data() + start * n, part.data() + start * n, kRows - start, n);
      BOOST_TEST_INFO(name << ": rows of " << n << ", in place from row " << start);
      BOOST_REQUIRE(SameValues(part.data() + start * n, all.data() + start * n, count - start * n));
    }
    for (std::size_t r = 0; r < kRows; ++r) run(x.data() + r * n, alone.data() + r * n, 1, n);
    BOOST_TEST_INFO(name << ": rows of " << n << ", one call each");
    BOOST_REQUIRE(SameValues(alone.data(), all.data(), count));
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(softmax)

BOOST_AUTO_TEST_CASE(short_rows_independent_of_their_neighbours) {
  ForEachTarget([](std::int64_t) {
    CheckRowsIndependent<false, float>("Softmax<float32>");
    CheckRowsIndependent<false, double>("Softmax<float64>");
    CheckRowsIndependent<true, float>("LogSoftmax<float32>");
    CheckRowsIndependent<true, double>("LogSoftmax<float64>");
  });
}

BOOST_AUTO_TEST_CASE(streamed_rows_match_row_by_row) {
  ForEachTarget([](std::int64_t) {
    CheckStreamedRows<float>("float32");
    CheckStreamedRows<double>("float64");
  });
}

BOOST_AUTO_TEST_CASE(softmax_float32_within_bound) {
  ForEachTarget([](std::int64_t) { CheckSoftmax<false, float>("Softmax<float32>"); });
}

BOOST_AUTO_TEST_CASE(softmax_float64_within_bound) {
  ForEachTarget([](std::int64_t) { CheckSoftmax<false, double>("Softmax<float64>"); });
}

BOOST_AUTO_TEST_CASE(log_softmax_float32_within_bound) {
  ForEachTarget([](std::int64_t) { CheckSoftmax<true, float>("LogSoftmax<float32>"); });
}

BOOST_AUTO_TEST_CASE(log_softmax_float64_within_bound) {
  ForEachTarget([](std::int64_t) { CheckSoftmax<true, double>("LogSoftmax<float64>"); });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace opgen::kernel_tests
