// The kernels of math's further reductions and scans (Prod and Norm2 in
// reduce.hpp, the rest in statistics.hpp) against sequential RefFloat<T>
// (errors.hpp; unsigned, for wrapping integers) references, on every SIMD
// target, over (outer, n, inner) shapes with n = 0, inner = 1 and inner > 1,
// lengths that are not multiples of any vector length, and arrays starting
// 0..3 elements past an aligned address or ending at an inaccessible page.
//
// Tolerances (stated in kernels/reduce.hpp, statistics.hpp and the specs).
// eps is T's machine epsilon; the bounds hold for any order of summation,
// so every target must meet them. NaN and infinite results must match the
// reference exactly.
//
// | function      | float32 / float64                                    | int32 / int64 |
// |---------------|------------------------------------------------------|---------------|
// | Prod          | abs err <= n eps |prod|                              | exact, wraps  |
// | Norm2         | abs err <= (n / 2 + 1) eps norm, huge and tiny data  |               |
// | Var           | abs err <= (n + 3) eps var + 2 n eps^2 mean^2        |               |
// | Std           | abs err <= ((n+3)/2 + 1) eps std + sqrt(2n) eps mean |               |
// | Dot           | abs err <= n eps sum|x y|                            | exact, wraps  |
// | Argmax/Argmin | exact (first index, first NaN, -0 == +0, -1 empty)   | exact         |
// | All/Any       | exact (bool inputs too)                              | exact         |
// | Cumsum        | bit-identical to the documented order (GroupScan)    | exact, wraps  |
//
// With --log_level=message each check prints its largest error as a
// fraction of its bound, and the float reductions their largest error in
// units of eps relative to the result (the figures quoted in the docs).
#include "kernels/statistics.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "kernels/reduce.hpp"
#include "tests/kernels/errors.hpp"
#include "tests/kernels/inputs.hpp"
#include "tests/kernels/streamed_rows.hpp"
#include "tests/kernels/sweep.hpp"
#include "tests/kernels/targets.hpp"

namespace opgen::kernel_tests {
namespace {

namespace k = opgen::kernels;
using LD = long double;

struct Block {
  std::size_t outer, n, inner;
};

std::string ShowBlock(const Block& s) {
  return "(" + std::to_string(s.outer) + ", " + std::to_string(s.n) + ", " +
         std::to_string(s.inner) + ")";
}

// The last one takes inner > 1 in column passes (rows of 1 KiB or more, 32
// rows or more): a last pass of one row, one (bool), two (4-byte) or three
// (8-byte) column blocks of 4 KiB, the last one ragged.
const std::vector<Block> kBlocks = {
    {1, 2, 1},    {2, 3, 1},    {1, 6, 1},     {3, 10, 1},   {1, 1002, 1}, {1, 0, 1},  {4, 0, 1},
    {2, 0, 3},    {3, 0, 20},   {0, 5, 1},     {0, 5, 3},    {1, 1, 1},    {3, 1, 1},  {1, 5, 1},
    {2, 16, 1},   {3, 17, 1},   {1, 31, 1},    {1, 32, 1},   {1, 33, 1},   {1, 63, 1}, {2, 64, 1},
    {1, 65, 1},   {2, 97, 1},   {1, 100, 1},   {1, 1000, 1}, {2, 4099, 1}, {3, 1, 4},  {2, 7, 2},
    {2, 5, 3},    {1, 9, 16},   {2, 3, 17},    {1, 6, 31},   {3, 4, 64},   {1, 3, 65}, {2, 11, 100},
    {1, 200, 37}, {2, 2, 1000}, {2, 20000, 1}, {1, 33, 1100}};

// The data sets. Not every one suits every op; each check lists its own.
enum class Data {
  kOrdinary,         // 80% in [-1, 1], 20% in [-1000, 1000]; ints in +-1e6
  kSpecials,         // ordinary with NaN and infinities planted
  kZeros,            // mostly signed zeros, some negatives
  kTies,             // small integers: many equal values
  kShifted,          // a large mean and a small spread (variance)
  kRamp,             // a ramp plus noise: a long row's blocks differ in mean (variance)
  kHuge,             // magnitudes whose squares overflow T
  kTiny,             // magnitudes whose squares underflow T (denormals too)
  kNearOne,          // magnitudes in [0.7, 1.4], log-uniform (products stay in range)
  kNearOneSpecials,  // near one with NaN and infinities planted
  kExtremes,         // ints near their limits (wraparound)
  kOneZero,          // nonzero except one planted zero
  kOneNonzero,       // zero except one planted nonzero
};

template <typename T>
void Generate(T* x, std::size_t count, Data data, std::uint64_t seed) {
  using L = std::numeric_limits<T>;
  Random random(seed);
  constexpr bool kFloat = std::is_floating_point_v<T>;
  for (std::size_t j = 0; j < count; ++j) {
    double v = 0;
    switch (data) {
      case Data::kOrdinary:
      case Data::kSpecials:
        if constexpr (kFloat) {
          v = random.Uniform(0, 1) < 0.8 ? random.Uniform(-1, 1) : random.Uniform(-1000, 1000);
        } else {
          v = static_cast<double>(random.IntIn<std::int64_t>(-1000000, 1000000));
        }
        break;
      case Data::kZeros:
        v = random.Uniform(0, 1) < 0.8 ? (random.Uniform(0, 1) < 0.5 ? 0.0 : -0.0)
                                       : -random.Uniform(0, 10);
        break;
      case Data::kTies:
        v = static_cast<double>(random.IntIn<int>(-3, 3));
        break;
      case Data::kShifted:
        v = (sizeof(T) == 4 ? 1e4 : 1e8) + random.Uniform(0, 1);
        break;
      case Data::kRamp:
        v = static_cast<double>(j % 100000) * 1e-3 + random.Uniform(0, 1);
        break;
      case Data::kHuge:
        v = sizeof(T) == 4 ? random.LogUniform(60, 100) : random.LogUniform(500, 1000);
        break;
      case Data::kTiny:
        v = sizeof(T) == 4 ? random.LogUniform(-149, -60) : random.LogUniform(-1074, -500);
        break;
      case Data::kNearOne:
      case Data::kNearOneSpecials:
        v = random.LogUniform(-0.5, 0.5);
        break;
      case Data::kExtremes:
        if constexpr (!kFloat) {
          x[j] = random.Uniform(0, 1) < 0.5 ? L::max() - random.IntIn<T>(0, 3)
                                            : L::min() + random.IntIn<T>(0, 3);
          continue;
        }
        break;
      case Data::kOneZero:
        v = static_cast<double>(random.IntIn<int>(1, 9));
        break;
      case Data::kOneNonzero:
        v = 0;
        break;
    }
    x[j] = static_cast<T>(v);
  }
  if (count == 0) return;
  if constexpr (kFloat) {
    if (data == Data::kSpecials || data == Data::kNearOneSpecials) {
      const T specials[] = {L::quiet_NaN(), L::infinity(), -L::infinity(), L::quiet_NaN()};
      for (std::size_t s = 0; s < 4; ++s) x[(s * 7919 + 13) % count] = specials[s];
      x[count - 1] = -L::infinity();
    }
  }
  if (data == Data::kOneZero) x[(seed * 7919 + 13) % count] = T{0};
  if (data == Data::kOneNonzero) x[(seed * 7919 + 13) % count] = T{1};
}

// bool data: the int data's nonzero elements.
template <>
void Generate<bool>(bool* x, std::size_t count, Data data, std::uint64_t seed) {
  std::vector<std::int32_t> v(count);
  Generate(v.data(), count, data, seed);
  for (std::size_t j = 0; j < count; ++j) x[j] = v[j] != 0;
}

// Generate's values, generated once in the run (FillOnce).
template <typename T>
void Fill(T* x, std::size_t count, Data data, std::uint64_t seed) {
  FillOnce(x, count, std::tuple(count, data, seed),
           [&](T* values) { Generate(values, count, data, seed); });
}

// What the kernel must produce for one output: the reference value and the
// allowed absolute error, 0 for exact results.
struct Expected {
  LD value;
  LD bound;
};

template <typename T>
double Error(T got, const Expected& want) {
  if (want.bound == 0 || std::isnan(want.value) || std::isinf(want.value)) {
    return ExactError(got, want.value);
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(got) || std::isinf(got)) return kFail;
  }
  return static_cast<double>(std::fabs(static_cast<LD>(got) - want.value) / want.bound);
}

template <typename T>
std::vector<T> Column(const T* x, const Block& s, std::size_t o, std::size_t i) {
  std::vector<T> column;
  for (std::size_t j = 0; j < s.n; ++j) column.push_back(x[(o * s.n + j) * s.inner + i]);
  return column;
}

std::size_t MaxCount() {
  std::size_t count = 0;
  for (const Block& s : kBlocks) count = std::max(count, s.outer * s.n * s.inner);
  return count;
}

template <typename T>
std::string TypeName() {
  if constexpr (std::is_same_v<T, float>) return "float32";
  if constexpr (std::is_same_v<T, double>) return "float64";
  if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  return "bool";
}

// Runs kernel(x, out, outer, n, inner) for every block, data set and
// placement, and checks every output against reference(column). For float
// outputs, also tracks the largest error relative to the result in eps.
// Results of integer data and integer or bool results (Argmax, All, ...)
// are exact: tolerance 0 in the digests (digest.hpp), so they must be
// bit-identical on every target; float reductions are held to their bound.
template <typename In, typename Out, class Kernel, class Reference>
void Check(const std::string& name, const std::vector<Data>& datasets, Kernel&& kernel,
           Reference&& reference) {
  constexpr bool kExact = !std::is_floating_point_v<In> || !std::is_floating_point_v<Out>;
  Report report(name + "<" + TypeName<In>() + ">", kExact ? 0 : 1);
  double max_eps = 0;
  PageEndArray<In> x_end(MaxCount());
  PageEndArray<Out> out_end(MaxCount());
  for (const Block& block : kBlocks) {
    for (const Data data : datasets) {
      for (std::size_t placement = 0; placement < kPlacements; ++placement) {
        const std::size_t count = block.outer * block.n * block.inner;
        const std::size_t results = block.outer * block.inner;
        const bool page_end = placement == kOffsets;
        Window<In> xw(count, placement % kOffsets);
        Window<Out> ow(results, (placement + 3) % kOffsets);
        In* const x = page_end ? x_end.Place(count) : xw.data();
        Out* const out = page_end ? out_end.Place(results) : ow.data();
        Fill(x, count, data, 17 * count + placement);
        // Once in the run for these values (ReferenceOnce), not per target.
        const std::vector<Expected>& wants = ReferenceOnce<std::vector<Expected>>(
            std::tuple(report.what(), block.outer, block.n, block.inner), x, count, [&] {
              std::vector<Expected> values;
              for (std::size_t o = 0; o < block.outer; ++o) {
                for (std::size_t i = 0; i < block.inner; ++i) {
                  values.push_back(reference(Column(x, block, o, i)));
                }
              }
              return values;
            });
        kernel(x, out, block.outer, block.n, block.inner);
        for (std::size_t o = 0; o < block.outer; ++o) {
          for (std::size_t i = 0; i < block.inner; ++i) {
            const Out got = out[o * block.inner + i];
            const Expected& want = wants[o * block.inner + i];
            if constexpr (std::is_floating_point_v<Out>) {
              // Normal results only: denormal ones have fewer digits.
              if (std::isfinite(want.value) && std::isfinite(got) &&
                  std::fabs(want.value) >= std::numeric_limits<Out>::min()) {
                const LD rel = std::fabs(got - want.value) / std::fabs(want.value);
                max_eps = std::max(max_eps,
                                   static_cast<double>(rel / std::numeric_limits<Out>::epsilon()));
              }
            }
            report.Add(got, Error(got, want), [&] {
              return "block " + ShowBlock(block) + " data " +
                     std::to_string(static_cast<int>(data)) + " " + Placement(placement) + " out[" +
                     std::to_string(o) + ", " + std::to_string(i) + "] got " + Show(got) +
                     " want " + Show(want.value) + " +- " + Show(want.bound);
            });
          }
        }
        report.Require(ow.GuardsIntact(),
                       [&] { return "block " + ShowBlock(block) + ": wrote outside out"; });
      }
    }
  }
  report.Finish();
  if constexpr (std::is_floating_point_v<Out>) {
    BOOST_TEST_MESSAGE(name << "<" << TypeName<In>() << ">: max error " << max_eps
                            << " eps relative to the result");
  }
}

template <typename T>
constexpr LD Eps() {
  return std::numeric_limits<T>::epsilon();
}

// ----- references

template <typename T>
Expected ProdReference(const std::vector<T>& column) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    U prod = 1;
    for (const T v : column) prod = static_cast<U>(prod * static_cast<U>(v));
    return {static_cast<LD>(static_cast<T>(prod)), 0};
  } else {
    RefFloat<T> prod = 1;
    for (const T v : column) prod *= v;
    const LD rounded = RoundTo<T>(prod);
    if (std::isinf(rounded) || std::isnan(prod)) return {rounded, 0};
    return {prod,
            column.size() * Eps<T>() * std::fabs(prod) + std::numeric_limits<T>::denorm_min()};
  }
}

template <typename T>
Expected Norm2Reference(const std::vector<T>& column) {
  using R = RefFloat<T>;
  R max = 0;
  bool nan = false;
  for (const T v : column) {
    nan = nan || std::isnan(v);
    max = std::max<R>(max, std::fabs(static_cast<R>(v)));
  }
  if (nan) return {std::numeric_limits<LD>::quiet_NaN(), 0};
  if (std::isinf(max) || max == 0) return {max, 0};
  R sum = 0;
  for (const T v : column) sum += (v / max) * (v / max);
  const LD norm = max * std::sqrt(sum);
  // Plus half the spacing of denormal results, which have fewer digits.
  return {norm, (column.size() / 2.0L + 1) * Eps<T>() * norm +
                    static_cast<LD>(std::numeric_limits<T>::denorm_min()) / 2};
}

// The exact population moments of the column (long double, two passes).
template <typename T>
Expected VarianceReference(const std::vector<T>& column, std::int64_t ddof, bool root) {
  const LD nan = std::numeric_limits<LD>::quiet_NaN();
  const auto n = static_cast<std::int64_t>(column.size());
  if (n <= ddof || n == 0) return {nan, 0};
  using R = RefFloat<T>;
  R sum = 0;
  for (const T v : column) sum += v;
  if (!std::isfinite(sum)) return {nan, 0};  // inf - inf in the deviations
  const R mean_r = sum / static_cast<R>(n);
  R squares_r = 0;
  for (const T v : column) squares_r += (v - mean_r) * (v - mean_r);
  const LD mean = mean_r;
  const LD squares = squares_r;
  const LD var = squares / (n - ddof);
  const LD eps = Eps<T>();
  const LD var_bound = (n + 3) * eps * var + 2 * n * eps * eps * mean * mean;
  if (!root) return {var, var_bound};
  const LD sd = std::sqrt(var);
  // d sqrt(v) = dv / (2 sqrt v); below sqrt(var_bound) the square root's
  // slope is unbounded, hence the second term.
  return {sd, ((n + 3) * eps / 2 + eps) * sd + std::sqrt(2 * n) * eps * std::fabs(mean)};
}

template <bool kMax, typename T>
Expected ArgReference(const std::vector<T>& column) {
  if (column.empty()) return {-1, 0};
  std::size_t best = 0;
  for (std::size_t j = 1; j < column.size(); ++j) {
    const T v = column[j];
    const T b = column[best];
    bool better = kMax ? v > b : v < b;
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(b)) better = false;
      if (std::isnan(v) && !std::isnan(b)) better = true;
    }
    if (better) best = j;
  }
  return {static_cast<LD>(best), 0};
}

template <bool kAll, typename T>
Expected DecideReference(const std::vector<T>& column) {
  for (const T v : column) {
    const bool nonzero = v != T{0};  // NaN != 0
    if (kAll && !nonzero) return {0, 0};
    if (!kAll && nonzero) return {1, 0};
  }
  return {kAll ? 1.0L : 0.0L, 0};
}

// ----- data sets per element type

template <typename T>
std::vector<Data> FloatOr(std::vector<Data> floats, std::vector<Data> ints) {
  return std::is_floating_point_v<T> ? floats : ints;
}

template <typename T>
void CheckProd() {
  Check<T, T>(
      "Prod",
      FloatOr<T>({Data::kNearOne, Data::kNearOneSpecials, Data::kZeros, Data::kTies},
                 {Data::kOrdinary, Data::kExtremes, Data::kTies}),
      [](const T* x, T* out, std::size_t outer, std::size_t n, std::size_t inner) {
        k::Prod(x, out, outer, n, inner);
      },
      [](const std::vector<T>& column) { return ProdReference(column); });
}

template <typename T>
void CheckNorm2() {
  Check<T, T>(
      "Norm2", {Data::kOrdinary, Data::kSpecials, Data::kZeros, Data::kHuge, Data::kTiny},
      [](const T* x, T* out, std::size_t outer, std::size_t n, std::size_t inner) {
        k::Norm2(x, out, outer, n, inner);
      },
      [](const std::vector<T>& column) { return Norm2Reference(column); });
}

template <typename T>
void CheckVariance(std::int64_t ddof, bool root) {
  Check<T, T>(
      std::string(root ? "Std" : "Var") + "(ddof=" + std::to_string(ddof) + ")",
      {Data::kOrdinary, Data::kSpecials, Data::kShifted, Data::kTies, Data::kRamp},
      [=](const T* x, T* out, std::size_t outer, std::size_t n, std::size_t inner) {
        if (root) {
          k::Std(x, out, outer, n, inner, ddof);
        } else {
          k::Var(x, out, outer, n, inner, ddof);
        }
      },
      [=](const std::vector<T>& column) { return VarianceReference(column, ddof, root); });
}

template <bool kMax, typename T>
void CheckArg() {
  Check<T, std::int64_t>(
      kMax ? "Argmax" : "Argmin",
      FloatOr<T>({Data::kOrdinary, Data::kSpecials, Data::kZeros, Data::kTies},
                 {Data::kOrdinary, Data::kExtremes, Data::kTies}),
      [](const T* x, std::int64_t* out, std::size_t outer, std::size_t n, std::size_t inner) {
        if (kMax) {
          k::Argmax(x, out, outer, n, inner);
        } else {
          k::Argmin(x, out, outer, n, inner);
        }
      },
      [](const std::vector<T>& column) { return ArgReference<kMax>(column); });
}

template <bool kAll, typename T>
void CheckDecide() {
  std::vector<Data> data = {Data::kTies, Data::kOneZero, Data::kOneNonzero};
  if constexpr (std::is_floating_point_v<T>) {
    data.push_back(Data::kZeros);
    data.push_back(Data::kSpecials);
  }
  Check<T, bool>(
      kAll ? "All" : "Any", data,
      [](const T* x, bool* out, std::size_t outer, std::size_t n, std::size_t inner) {
        if (kAll) {
          k::All(x, out, outer, n, inner);
        } else {
          k::Any(x, out, outer, n, inner);
        }
      },
      [](const std::vector<T>& column) { return DecideReference<kAll>(column); });
}

// The order statistics.hpp documents for one contiguous row, written out
// lane by lane in A (T, or unsigned T so that integers wrap): groups of 16
// bytes, s = [a, a+b, a+(b+c), (a+b)+(c+d)] (or [a, a+b] for 8-byte T),
// out = C + s with C the previous group's last output, -0 (or 0) at first.
template <typename A>
void GroupScan(const A* x, A* out, std::size_t n) {
  constexpr std::size_t kGroup = 16 / sizeof(A);
  const A fill = std::is_floating_point_v<A> ? static_cast<A>(-0.0) : A{0};
  A carry = fill;
  for (std::size_t k = 0; k < n; k += kGroup) {
    const auto at = [&](std::size_t i) { return k + i < n ? x[k + i] : fill; };
    A s[kGroup];
    if constexpr (kGroup == 4) {
      s[0] = at(0);
      s[1] = static_cast<A>(at(0) + at(1));
      s[2] = static_cast<A>(at(0) + static_cast<A>(at(1) + at(2)));
      s[3] = static_cast<A>(static_cast<A>(at(0) + at(1)) + static_cast<A>(at(2) + at(3)));
    } else {
      s[0] = at(0);
      s[1] = static_cast<A>(at(0) + at(1));
    }
    for (std::size_t i = 0; i < kGroup && k + i < n; ++i) out[k + i] = static_cast<A>(carry + s[i]);
    carry = static_cast<A>(carry + s[kGroup - 1]);
  }
}

// Cumsum: every block, data set and placement, out separate and out == x;
// each output must equal, bit for bit, GroupScan along a contiguous row
// (inner == 1) and the sequential sum in index order down a column
// (inner > 1).
template <typename T>
void CheckCumsum() {
  using A = typename std::conditional_t<std::is_floating_point_v<T>, std::type_identity<T>,
                                        std::make_unsigned<T>>::type;
  Report report("Cumsum<" + TypeName<T>() + ">", 0);
  PageEndArray<T> x_end(MaxCount()), out_end(MaxCount());
  const std::vector<Data> datasets = FloatOr<T>({Data::kOrdinary, Data::kSpecials, Data::kZeros},
                                                {Data::kOrdinary, Data::kExtremes});
  for (const Block& block : kBlocks) {
    for (const Data data : datasets) {
      for (std::size_t placement = 0; placement < kPlacements; ++placement) {
        for (const bool in_place : {false, true}) {
          const std::size_t count = block.outer * block.n * block.inner;
          const bool page_end = placement == kOffsets;
          Window<T> xw(count, placement % kOffsets);
          Window<T> ow(count, (placement + 3) % kOffsets);
          T* const x = page_end ? x_end.Place(count) : xw.data();
          T* const out = page_end ? out_end.Place(count) : ow.data();
          Fill(x, count, data, 17 * count + placement);
          std::vector<T> want(count);
          for (std::size_t o = 0; block.inner == 1 && o < block.outer; ++o) {
            std::vector<A> row(x + o * block.n, x + (o + 1) * block.n), scanned(block.n);
            GroupScan(row.data(), scanned.data(), block.n);
            std::copy(scanned.begin(), scanned.end(), want.begin() + o * block.n);
          }
          for (std::size_t o = 0; block.inner > 1 && o < block.outer; ++o) {
            for (std::size_t i = 0; i < block.inner; ++i) {
              // numpy's add.accumulate: the first output is the first
              // input (so -0 stays -0), then one addition per element.
              A sum = 0;
              for (std::size_t j = 0; j < block.n; ++j) {
                const std::size_t at = (o * block.n + j) * block.inner + i;
                sum = j == 0 ? static_cast<A>(x[at]) : static_cast<A>(sum + static_cast<A>(x[at]));
                want[at] = static_cast<T>(sum);
              }
            }
          }
          if (in_place) {
            std::copy(x, x + count, out);
            k::Cumsum(out, out, block.outer, block.n, block.inner);
          } else {
            k::Cumsum(x, out, block.outer, block.n, block.inner);
          }
          for (std::size_t at = 0; at < count; ++at) {
            report.Add(out[at], ExactError(out[at], static_cast<RefFloat<T>>(want[at])), [&] {
              return "block " + ShowBlock(block) + " data " +
                     std::to_string(static_cast<int>(data)) + " " + Placement(placement) +
                     (in_place ? " out==x" : " out!=x") + " [" + std::to_string(at) + "] got " +
                     Show(out[at]) + " want " + Show(want[at]);
            });
          }
          report.Require(ow.GuardsIntact() && xw.GuardsIntact(),
                         [&] { return "block " + ShowBlock(block) + ": wrote outside"; });
        }
      }
    }
  }
  report.Finish();
}

// Dot: every n in [0, kMaxN] and some long vectors, at every placement.
template <typename T>
void CheckDot() {
  Report report("Dot<" + TypeName<T>() + ">", std::is_integral_v<T> ? 0 : 1);
  double max_eps = 0;
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= kMaxN; ++n) lengths.push_back(n);
  for (const std::size_t n : {1000, 4099, 65537}) lengths.push_back(n);
  PageEndArray<T> x_end(65537), y_end(65537);
  const std::vector<Data> datasets = FloatOr<T>({Data::kOrdinary, Data::kSpecials, Data::kTies},
                                                {Data::kOrdinary, Data::kExtremes});
  for (const std::size_t n : lengths) {
    for (const Data data : datasets) {
      for (std::size_t placement = 0; placement < kPlacements; ++placement) {
        const bool page_end = placement == kOffsets;
        Window<T> xw(n, placement % kOffsets);
        Window<T> yw(n, (placement + 1) % kOffsets);
        T* const x = page_end ? x_end.Place(n) : xw.data();
        T* const y = page_end ? y_end.Place(n) : yw.data();
        Fill(x, n, data, 17 * n + placement);
        Fill(y, n, data, 31 * n + placement + 5);
        const T got = k::Dot(x, y, n);
        Expected want;
        if constexpr (std::is_integral_v<T>) {
          using U = std::make_unsigned_t<T>;
          U sum = 0;
          for (std::size_t j = 0; j < n; ++j) {
            sum = static_cast<U>(sum + static_cast<U>(static_cast<U>(x[j]) * static_cast<U>(y[j])));
          }
          want = {static_cast<LD>(static_cast<T>(sum)), 0};
        } else {
          using R = RefFloat<T>;
          R sum = 0;
          R magnitude = 0;
          for (std::size_t j = 0; j < n; ++j) {
            sum += static_cast<R>(x[j]) * y[j];
            magnitude += std::fabs(static_cast<R>(x[j]) * y[j]);
          }
          want = {std::isnan(magnitude) ? magnitude : sum, n * Eps<T>() * magnitude};
          if (std::isfinite(sum) && sum != 0 && std::isfinite(got)) {
            max_eps =
                std::max(max_eps, static_cast<double>(std::fabs(got - sum) / magnitude / Eps<T>()));
          }
        }
        report.Add(got, Error(got, want), [&] {
          return "n " + std::to_string(n) + " data " + std::to_string(static_cast<int>(data)) +
                 " " + Placement(placement) + " got " + Show(got) + " want " + Show(want.value) +
                 " +- " + Show(want.bound);
        });
      }
    }
  }
  report.Finish();
  if constexpr (std::is_floating_point_v<T>) {
    BOOST_TEST_MESSAGE("Dot<" << TypeName<T>() << ">: max error " << max_eps
                              << " eps relative to sum|x y|");
  }
}

// One row of more than 16 MiB, which the AVX-512 target reads in 256-bit
// vectors with NarrowStores (kernels/transform-inl.h, WithRowTag; the test
// runs both forms), no multiple of a vector
// long: Argmax and Argmin find the first of two equal extremes, one in the
// first and one in the last vector, then a NaN planted after them.
template <typename T>
void CheckArgLongRow() {
  const std::size_t n = (std::size_t{16} << 20) / sizeof(T) + 37;
  std::vector<T> x(n);
  for (std::size_t j = 0; j < n; ++j) x[j] = static_cast<T>(static_cast<int>(j * 7919 % 1001) - 500);
  x[3] = x[n - 2] = T{600};
  x[5] = x[n - 1] = T{-600};
  std::int64_t out = -1;
  BOOST_TEST_CONTEXT("long row of " << (sizeof(T) == 4 ? "float32" : "float64")) {
    k::Argmax(x.data(), &out, 1, n, 1);
    BOOST_TEST(out == 3);
    k::Argmin(x.data(), &out, 1, n, 1);
    BOOST_TEST(out == 5);
    x[n / 2] = std::numeric_limits<T>::quiet_NaN();
    k::Argmax(x.data(), &out, 1, n, 1);
    BOOST_TEST(out == static_cast<std::int64_t>(n / 2));
    k::Argmin(x.data(), &out, 1, n, 1);
    BOOST_TEST(out == static_cast<std::int64_t>(n / 2));
  }
}

// Rows long enough that ArgRowFloat's blocks grow past 64 vectors (n / 64
// elements each, rounded down to four vectors: from 69632 float32
// elements at 16 lanes) but short enough for every data set: ties in many
// blocks, signed zeros, ordinary values, and a planted extreme in the
// middle of a late block with its equal in the last block.
template <typename T>
void CheckArgLargeBlocks() {
  for (const std::size_t n : {std::size_t{70001}, std::size_t{200003}}) {
    std::vector<T> x(n);
    for (const Data data : {Data::kOrdinary, Data::kTies, Data::kZeros}) {
      Generate(x.data(), n, data, n + static_cast<std::size_t>(data));
      const auto check = [&](const char* what) {
        std::int64_t out = -1;
        BOOST_TEST_CONTEXT("n " << n << ", data " << static_cast<int>(data) << ", " << what) {
          k::Argmax(x.data(), &out, 1, n, 1);
          BOOST_TEST(out == static_cast<std::int64_t>(ArgReference<true>(x).value));
          k::Argmin(x.data(), &out, 1, n, 1);
          BOOST_TEST(out == static_cast<std::int64_t>(ArgReference<false>(x).value));
        }
      };
      check("as generated");
      x[n / 2 + 17] = x[n - 3] = T{5000};
      x[n / 3 + 5] = x[n - 2] = T{-5000};
      check("planted");
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(statistics)

BOOST_AUTO_TEST_CASE(argmax_argmin_of_a_long_row) {
  ForEachTargetAndStoreForm([] {
    CheckArgLongRow<float>();
    CheckArgLongRow<double>();
  });
}

BOOST_AUTO_TEST_CASE(argmax_argmin_in_large_blocks) {
  ForEachTarget([](std::int64_t) {
    CheckArgLargeBlocks<float>();
    CheckArgLargeBlocks<double>();
  });
}

BOOST_AUTO_TEST_CASE(prod_within_bound_and_wraps) {
  ForEachTarget([](std::int64_t) {
    CheckProd<float>();
    CheckProd<double>();
    CheckProd<std::int32_t>();
    CheckProd<std::int64_t>();
  });
}

BOOST_AUTO_TEST_CASE(norm2_within_bound_without_overflow) {
  ForEachTarget([](std::int64_t) {
    CheckNorm2<float>();
    CheckNorm2<double>();
  });
}

BOOST_AUTO_TEST_CASE(var_std_within_bound) {
  ForEachTarget([](std::int64_t) {
    for (const std::int64_t ddof : {0, 1}) {
      for (const bool root : {false, true}) {
        CheckVariance<float>(ddof, root);
        CheckVariance<double>(ddof, root);
      }
    }
  });
}

// Var keeps the bound's first term alone, (n + 3) eps var, on rows whose
// mean is large against their spread: the 2 n eps^2 mean^2 of the table
// allows for the mean's rounding, which the corrected pass 2 removes, and
// which the pass that drops the deviation sum (TwoPass) may leave only when
// it is below eps var / 16. Offsets around the point where it stops
// dropping it (|mean| near 20 sigma at n = 1024) and far past it (1e5: an
// uncorrected float mean there is off by several percent of the variance).
template <typename T>
void CheckVarianceOfShiftedRows() {
  Random random(71);
  const LD eps = Eps<T>();
  for (const double offset : {0.0, 3.0, 10.0, 30.0, 1e5}) {
    for (const std::size_t n : {5, 100, 1024, 4099, 8192}) {
      std::vector<T> x(n);
      for (T& v : x) v = static_cast<T>(offset + random.Uniform(-1, 1));
      T out = 0;
      k::Var(x.data(), &out, 1, n, 1, 0);
      const Expected ref = VarianceReference(x, 0, false);
      const LD bound = (static_cast<LD>(n) + 3) * eps * ref.value;
      BOOST_TEST_INFO("offset " << offset << ", n " << n << ": " << out << " against "
                                << static_cast<double>(ref.value));
      BOOST_TEST(std::fabs(static_cast<LD>(out) - ref.value) <= bound);
    }
  }
}

BOOST_AUTO_TEST_CASE(var_of_shifted_rows_keeps_relative_accuracy) {
  ForEachTarget([](std::int64_t) {
    CheckVarianceOfShiftedRows<float>();
    CheckVarianceOfShiftedRows<double>();
  });
}

// Rows of an input of 1 MiB or more prefetch the next row (Variance): each
// row's result must be the one it gets alone, a call of one row, which
// does not; the rows are 130 elements, so pass 2 ends on a partial vector.
template <typename T>
void CheckVarianceRowsMatchAlone() {
  const std::size_t n = 130, rows = (std::size_t{1} << 20) / (n * sizeof(T)) + 2;
  Random random(67);
  std::vector<T> x(rows * n), all(rows), one(1);
  for (T& v : x) v = static_cast<T>(random.Uniform(-3, 5));
  k::Var(x.data(), all.data(), rows, n, 1, 1);
  for (std::size_t r = 0; r < rows; ++r) {
    k::Var(x.data() + r * n, one.data(), 1, n, 1, 1);
    if (all[r] != one[0]) {
      BOOST_TEST_INFO("row " << r << " of " << rows);
      BOOST_REQUIRE_EQUAL(all[r], one[0]);
    }
  }
}

BOOST_AUTO_TEST_CASE(var_rows_of_a_large_input_match_each_row_alone) {
  ForEachTarget([](std::int64_t) {
    CheckVarianceRowsMatchAlone<float>();
    CheckVarianceRowsMatchAlone<double>();
  });
}

BOOST_AUTO_TEST_CASE(argmax_argmin_exact) {
  ForEachTarget([](std::int64_t) {
    CheckArg<true, float>();
    CheckArg<true, double>();
    CheckArg<true, std::int32_t>();
    CheckArg<true, std::int64_t>();
    CheckArg<false, float>();
    CheckArg<false, double>();
    CheckArg<false, std::int32_t>();
    CheckArg<false, std::int64_t>();
  });
}

BOOST_AUTO_TEST_CASE(all_any_exact) {
  ForEachTarget([](std::int64_t) {
    CheckDecide<true, float>();
    CheckDecide<true, double>();
    CheckDecide<true, std::int32_t>();
    CheckDecide<true, std::int64_t>();
    CheckDecide<true, bool>();
    CheckDecide<false, float>();
    CheckDecide<false, double>();
    CheckDecide<false, std::int32_t>();
    CheckDecide<false, std::int64_t>();
    CheckDecide<false, bool>();
  });
}

BOOST_AUTO_TEST_CASE(cumsum_order) {
  ForEachTarget([](std::int64_t) {
    CheckCumsum<float>();
    CheckCumsum<double>();
    CheckCumsum<std::int32_t>();
    CheckCumsum<std::int64_t>();
  });
}

// Rows of a large output stream their stores: the same bits as one row
// per call (ordinary stores), out separate and in place.
template <typename T>
void CheckCumsumStreamed() {
  RequireStreamedRowsMatch<T>(
      "Cumsum<" + TypeName<T>() + ">", -1000, 1000,
      [](const T* in, T* out, std::size_t rows) { k::Cumsum(in, out, rows, kRowLength, 1); });
}

BOOST_AUTO_TEST_CASE(cumsum_streamed_rows_match) {
  ForEachTarget([](std::int64_t) {
    CheckCumsumStreamed<float>();
    CheckCumsumStreamed<double>();
    CheckCumsumStreamed<std::int32_t>();
    CheckCumsumStreamed<std::int64_t>();
  });
}

BOOST_AUTO_TEST_CASE(dot_within_bound_and_wraps) {
  ForEachTarget([](std::int64_t) {
    CheckDot<float>();
    CheckDot<double>();
    CheckDot<std::int32_t>();
    CheckDot<std::int64_t>();
  });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace opgen::kernel_tests
