// Reduction kernels against sequential long double / unsigned references, on
// every SIMD target, over (outer, n, inner) shapes with n = 0, inner = 1 and
// inner > 1, lengths that are not multiples of any vector length, and x
// starting 0..3 elements past an aligned address. Rows of 2 to 15 elements
// take ReduceMax's short-row path (a vector of 2, 4 or 8 lanes at most) on
// wider targets. The last three shapes
// take inner > 1 in passes of 8 rows over 4 KiB of columns at a time
// (rows of 1 KiB or more, 32 rows or more): a last pass of fewer rows, one
// to three column blocks, the last one ragged.
//
// Tolerances (stated in kernels/reduce.hpp too). eps is T's machine epsilon;
// sum|x| is the exact sum of magnitudes of the reduced elements. The bounds
// hold for any order of summation, so every target (and every split into
// accumulators) must meet them. NaN and infinite results must match exactly.
//
// | function  | float32 / float64                  | int32 / int64      | reference            |
// |-----------|------------------------------------|--------------------|----------------------|
// | Sum       | |err| <= n eps sum|x|; 0 for n = 0 | exact, wraps       | long double; unsigned |
// | Mean      | |err| <= (n + 1) eps sum|x| / n    |                    | long double sum / n  |
// | ReduceMax | exact (NaN first, -0 < +0)         | exact              | sequential max       |
#include "kernels/reduce.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tests/kernels/errors.hpp"
#include "tests/kernels/inputs.hpp"
#include "tests/kernels/sweep.hpp"
#include "tests/kernels/targets.hpp"

namespace opgen::kernel_tests {
namespace {

namespace k = opgen::kernels;

struct Shape {
  std::size_t outer, n, inner;
};

std::string ShowShape(const Shape& s) {
  return "(" + std::to_string(s.outer) + ", " + std::to_string(s.n) + ", " +
         std::to_string(s.inner) + ")";
}

const std::vector<Shape> kShapes = {
    {1, 0, 1},    {4, 0, 1},    {2, 0, 3},    {3, 0, 20},    {0, 5, 1},    {0, 5, 3},  {1, 1, 1},
    {3, 1, 1},    {1, 5, 1},    {2, 16, 1},   {3, 17, 1},    {1, 63, 1},   {2, 64, 1}, {1, 65, 1},
    {2, 97, 1},   {1, 100, 1},  {1, 1000, 1}, {2, 4099, 1},  {9, 2, 1},    {7, 3, 1},  {5, 4, 1},
    {4, 7, 1},    {6, 8, 1},    {3, 9, 1},    {5, 12, 1},    {4, 15, 1},   {3, 1, 4},  {2, 7, 2},
    {2, 5, 3},    {1, 9, 16},   {2, 3, 17},   {1, 6, 31},    {3, 4, 64},   {1, 3, 65}, {2, 11, 100},
    {1, 200, 37}, {2, 2, 1000}, {2, 37, 300}, {1, 33, 1100}, {1, 40, 2050}};

// What the kernel must produce for one output: the exact (or long double)
// value and the allowed absolute error, 0 for exact results.
struct Expected {
  long double value;
  long double bound;
};

template <typename T>
double Error(T got, const Expected& want) {
  if (want.bound == 0) return ExactError(got, want.value);
  if (std::isnan(want.value) || std::isinf(want.value)) return ExactError(got, want.value);
  if (std::isnan(got) || std::isinf(got)) return kFail;
  return static_cast<double>(std::fabs(got - want.value) / want.bound);
}

// The n elements reduced into one output, in order.
template <typename T>
std::vector<T> Column(const T* x, const Shape& s, std::size_t o, std::size_t i) {
  std::vector<T> column;
  for (std::size_t k = 0; k < s.n; ++k) column.push_back(x[(o * s.n + k) * s.inner + i]);
  return column;
}

template <typename T>
Expected SumReference(const std::vector<T>& column, bool mean) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    U sum = 0;
    for (const T v : column) sum += static_cast<U>(v);
    return {static_cast<long double>(static_cast<T>(sum)), 0};
  } else {
    const long double n = column.size();
    if (mean && column.empty()) return {std::numeric_limits<long double>::quiet_NaN(), 0};
    long double sum = 0;
    long double magnitude = 0;
    for (const T v : column) {
      sum += v;
      magnitude += std::fabs(static_cast<long double>(v));
    }
    const long double eps = std::numeric_limits<T>::epsilon();
    if (!mean) return {sum, n * eps * magnitude};
    return {sum / n, (n + 1) * eps * magnitude / n};
  }
}

template <typename T>
Expected MaxReference(const std::vector<T>& column) {
  using L = std::numeric_limits<T>;
  long double max = std::is_integral_v<T> ? L::lowest() : -L::infinity();
  for (const T v : column) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(v)) return {L::quiet_NaN(), 0};
      if (v == max && v == 0) {
        max = std::signbit(v) ? max : v;  // -0 < +0
        continue;
      }
    }
    if (v > max) max = v;
  }
  return {max, 0};
}

// Datasets: ordinary values; the same with NaN and infinities planted in
// some outputs' elements; signed zeros and negative numbers (the sign of a
// zero maximum); integers near the extremes (wraparound).
enum class Data { kOrdinary, kSpecials, kZeros, kExtremes };

template <typename T>
void Fill(T* x, std::size_t count, Data data, std::uint64_t seed) {
  using L = std::numeric_limits<T>;
  Random random(seed);
  for (std::size_t j = 0; j < count; ++j) {
    if constexpr (std::is_floating_point_v<T>) {
      switch (data) {
        case Data::kZeros:
          x[j] = random.Uniform(0, 1) < 0.8 ? (random.Uniform(0, 1) < 0.5 ? T{0} : -T{0})
                                            : static_cast<T>(-random.Uniform(0, 10));
          break;
        default:
          x[j] = static_cast<T>(random.Uniform(0, 1) < 0.8 ? random.Uniform(-1, 1)
                                                           : random.Uniform(-1000, 1000));
      }
    } else {
      x[j] = data == Data::kExtremes
                 ? (random.Uniform(0, 1) < 0.5 ? L::max() - random.IntIn<T>(0, 3)
                                               : L::min() + random.IntIn<T>(0, 3))
                 : random.IntIn<T>(-1000000, 1000000);
    }
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (data == Data::kSpecials && count > 0) {
      const T specials[] = {L::quiet_NaN(), L::infinity(), -L::infinity(), L::infinity()};
      for (std::size_t s = 0; s < 4; ++s) x[(s * 7919 + 13) % count] = specials[s];
      x[count - 1] = -L::infinity();
    }
  }
}

std::size_t MaxCount() {
  std::size_t count = 0;
  for (const Shape& s : kShapes) count = std::max(count, s.outer * s.n * s.inner);
  return count;
}

// Runs kernel(x, out, outer, n, inner) for every shape, dataset and
// placement and checks every output against reference(column). `tolerance`
// is 1 (the errors are fractions of each result's bound) or 0 for a check
// whose every result is exact (integer sums, ReduceMax), which the digests
// (digest.hpp) then require to be bit-identical on every target.
template <typename T, class Kernel, class Reference>
void Check(const std::string& name, double tolerance, std::vector<Data> datasets, Kernel&& kernel,
           Reference&& reference) {
  Report report(name, tolerance);
  PageEndArray<T> x_end(MaxCount()), out_end(MaxCount());
  for (const Shape& shape : kShapes) {
    for (const Data data : datasets) {
      for (std::size_t placement = 0; placement < kPlacements; ++placement) {
        const std::size_t count = shape.outer * shape.n * shape.inner;
        const std::size_t results = shape.outer * shape.inner;
        const bool page_end = placement == kOffsets;
        Window<T> xw(count, placement % kOffsets);
        Window<T> ow(results, (placement + 3) % kOffsets);
        T* const x = page_end ? x_end.Place(count) : xw.data();
        T* const out = page_end ? out_end.Place(results) : ow.data();
        Fill(x, count, data, 17 * count + placement);
        // Once in the run for these values (ReferenceOnce), not per target.
        const std::vector<Expected>& wants = ReferenceOnce<std::vector<Expected>>(
            std::tuple(name, shape.outer, shape.n, shape.inner), x, count, [&] {
              std::vector<Expected> values;
              for (std::size_t o = 0; o < shape.outer; ++o) {
                for (std::size_t i = 0; i < shape.inner; ++i) {
                  values.push_back(reference(Column(x, shape, o, i)));
                }
              }
              return values;
            });
        kernel(x, out, shape.outer, shape.n, shape.inner);
        for (std::size_t o = 0; o < shape.outer; ++o) {
          for (std::size_t i = 0; i < shape.inner; ++i) {
            const T got = out[o * shape.inner + i];
            const Expected& want = wants[o * shape.inner + i];
            report.Add(got, Error(got, want), [&] {
              return "shape " + ShowShape(shape) + " data " +
                     std::to_string(static_cast<int>(data)) + " " + Placement(placement) + " out[" +
                     std::to_string(o) + ", " + std::to_string(i) + "] got " + Show(got) +
                     " want " + Show(want.value) + " +- " + Show(want.bound);
            });
          }
        }
        report.Require(ow.GuardsIntact(),
                       [&] { return "shape " + ShowShape(shape) + ": wrote outside out"; });
      }
    }
  }
  report.Finish();
}

template <typename T>
std::string Name(const char* op) {
  if constexpr (std::is_same_v<T, float>) return std::string(op) + "<float32>";
  if constexpr (std::is_same_v<T, double>) return std::string(op) + "<float64>";
  if constexpr (std::is_same_v<T, std::int32_t>) return std::string(op) + "<int32>";
  return std::string(op) + "<int64>";
}

template <typename T>
std::vector<Data> Datasets() {
  if constexpr (std::is_floating_point_v<T>) {
    return {Data::kOrdinary, Data::kSpecials, Data::kZeros};
  } else {
    return {Data::kOrdinary, Data::kExtremes};
  }
}

template <typename T>
void CheckSum() {
  Check<T>(
      Name<T>("Sum"), std::is_integral_v<T> ? 0 : 1, Datasets<T>(),
      [](const T* x, T* out, std::size_t outer, std::size_t n, std::size_t inner) {
        k::Sum(x, out, outer, n, inner);
      },
      [](const std::vector<T>& column) { return SumReference(column, false); });
}

template <typename T>
void CheckMean() {
  Check<T>(
      Name<T>("Mean"), 1, Datasets<T>(),
      [](const T* x, T* out, std::size_t outer, std::size_t n, std::size_t inner) {
        k::Mean(x, out, outer, n, inner);
      },
      [](const std::vector<T>& column) { return SumReference(column, true); });
}

template <typename T>
void CheckMax() {
  Check<T>(
      Name<T>("ReduceMax"), 0, Datasets<T>(),
      [](const T* x, T* out, std::size_t outer, std::size_t n, std::size_t inner) {
        k::ReduceMax(x, out, outer, n, inner);
      },
      [](const std::vector<T>& column) { return MaxReference(column); });
}

// One row of more than 16 MiB, which the AVX-512 target reduces in 256-bit
// vectors (kernels/reduce.cpp, Reduce), with a length that is no multiple
// of a vector. Its elements are small integers, so that every partial sum
// and the sum are exact in any order (below 2^24): Sum must be exact, Mean
// the sum divided by n within an ulp and a half, ReduceMax exact, and then
// NaN once a NaN is planted near the end; a row of -0 with one +0 near its
// end has the maximum +0.
template <typename T>
void CheckLongRow() {
  const std::size_t n = (std::size_t{16} << 20) / sizeof(T) + 37;
  std::vector<T> x(n);
  long double sum = 0;
  for (std::size_t j = 0; j < n; ++j) {
    x[j] = static_cast<T>(static_cast<int>((j * 7919 + j / 5) % 7) - 3);
    sum += x[j];
  }
  x[n / 3] = T{5};  // the maximum, once
  sum += 5 - static_cast<long double>(static_cast<int>((n / 3 * 7919 + n / 3 / 5) % 7) - 3);
  BOOST_TEST_CONTEXT(Name<T>("long row")) {
    T out = 0;
    k::Sum(x.data(), &out, 1, n, 1);
    BOOST_TEST(static_cast<long double>(out) == sum);
    k::Mean(x.data(), &out, 1, n, 1);
    const long double mean = sum / static_cast<long double>(n);
    BOOST_TEST(std::fabs(out - mean) <= 1.5L * std::numeric_limits<T>::epsilon() * std::fabs(mean));
    k::ReduceMax(x.data(), &out, 1, n, 1);
    BOOST_TEST(out == T{5});
    x[n - 3] = std::numeric_limits<T>::quiet_NaN();
    k::ReduceMax(x.data(), &out, 1, n, 1);
    BOOST_TEST(std::isnan(out));
    std::fill(x.begin(), x.end(), -T{0});
    x[n - 5] = T{0};
    k::ReduceMax(x.data(), &out, 1, n, 1);
    BOOST_TEST((out == 0 && !std::signbit(out)));
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(reduce)

BOOST_AUTO_TEST_CASE(long_rows_within_bound) {
  ForEachTargetAndStoreForm([] {
    CheckLongRow<float>();
    CheckLongRow<double>();
  });
}

BOOST_AUTO_TEST_CASE(sum_within_bound_and_wraps) {
  ForEachTarget([](std::int64_t) {
    CheckSum<float>();
    CheckSum<double>();
    CheckSum<std::int32_t>();
    CheckSum<std::int64_t>();
  });
}

BOOST_AUTO_TEST_CASE(mean_within_bound) {
  ForEachTarget([](std::int64_t) {
    CheckMean<float>();
    CheckMean<double>();
  });
}

BOOST_AUTO_TEST_CASE(reduce_max_is_exact) {
  ForEachTarget([](std::int64_t) {
    CheckMax<float>();
    CheckMax<double>();
    CheckMax<std::int32_t>();
    CheckMax<std::int64_t>();
  });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace opgen::kernel_tests
