// LayerNorm, RmsNorm and BiasAdd (kernels/normalize.hpp) on every SIMD
// target: rows of every length 1..70 and a few long ones, arrays 0..3
// elements past an aligned address or ending at an inaccessible page, out
// separate and out == x, weight and bias present or not.
//
// The norms against a RefFloat<T> reference (errors.hpp), in units of
//   eps ((1 + |z|) |w| + |b|) + min_normal
// (eps and min_normal of T, z the exact normalised value, w = 1 and b = 0
// when absent; the 1: the mean is known to about eps of the deviations,
// an absolute error where z is near 0), within kNormTolerance; data centred on 0, rows far from 0
// (mean 1000, deviations ~1: the mean's own rounding must not show), and
// rows holding NaN or an infinity. BiasAdd exactly. Outputs past the
// streaming threshold (streaming stores) exactly as the same rows one call each
// (streamed_rows.hpp).
#include "kernels/normalize.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tests/kernels/errors.hpp"
#include "tests/kernels/inputs.hpp"
#include "tests/kernels/streamed_rows.hpp"
#include "tests/kernels/sweep.hpp"
#include "tests/kernels/targets.hpp"

namespace opgen::kernel_tests {
namespace {

namespace k = opgen::kernels;

// Measured at most 1.7 (float32) and 2.8 (float64) on AVX3/AVX2/SSE4/
// SSSE3/SCALAR; kernels/normalize.hpp states 4.
constexpr double kNormTolerance = 4;

std::vector<std::size_t> RowLengths() {
  std::vector<std::size_t> lengths;
  for (std::size_t n = 1; n <= 70; ++n) lengths.push_back(n);
  for (const std::size_t n : {95, 100, 257, 1001, 1024}) lengths.push_back(n);
  return lengths;
}

// kHuge and kTiny: deviations whose float32 squares overflow or fall below
// FLT_MIN (the float32 kernel's float64 fallback), kTiny with eps = 0.
enum class Data { kCentred, kFar, kSpecials, kHuge, kTiny };

template <typename T>
void GenerateRows(T* x, std::size_t rows, std::size_t n, Data data, std::uint64_t seed) {
  using L = std::numeric_limits<T>;
  Random random(seed);
  for (std::size_t j = 0; j < rows * n; ++j) {
    const double scale = data == Data::kHuge ? 1e20 : data == Data::kTiny ? 1e-25 : 1;
    x[j] = static_cast<T>(data == Data::kFar ? random.Uniform(999, 1001)
                                             : scale * random.Uniform(-3, 3));
  }
  if (data != Data::kSpecials) return;
  // Row 0 gets a NaN, row 1 a +inf, row 2 a -inf (rows == 3).
  const T specials[] = {L::quiet_NaN(), L::infinity(), -L::infinity()};
  for (std::size_t r = 0; r < rows && r < 3; ++r) x[r * n + (7 * r + 3) % n] = specials[r];
}

// GenerateRows's values, generated once in the run (FillOnce).
template <typename T>
void FillRows(T* x, std::size_t rows, std::size_t n, Data data, std::uint64_t seed) {
  FillOnce(x, rows * n, std::tuple(rows, n, data, seed),
           [&](T* values) { GenerateRows(values, rows, n, data, seed); });
}

// The exact result of one row, in R = RefFloat<T> (errors.hpp), and its
// error unit, written to want[0, n) and unit[0, n).
template <typename T, typename R = RefFloat<T>>
void NormReference(const T* row, std::size_t n, const T* w, const T* b, double eps, bool centre,
                   R* want, R* unit) {
  using L = std::numeric_limits<T>;
  R mean = 0;
  if (centre) {
    // Corrected two-pass: the long double sum of a float64 row near 1000
    // is off by ~n 2^-54 relative, a few float64 ulp of the deviations.
    for (std::size_t k = 0; k < n; ++k) mean += row[k];
    mean /= static_cast<R>(n);
    R correction = 0;
    for (std::size_t k = 0; k < n; ++k) correction += row[k] - mean;
    mean += correction / static_cast<R>(n);
  }
  R ss = 0;
  for (std::size_t k = 0; k < n; ++k) ss += (row[k] - mean) * (row[k] - mean);
  const R scale = 1 / std::sqrt(ss / static_cast<R>(n) + static_cast<R>(eps));
  for (std::size_t k = 0; k < n; ++k) {
    const R z = (row[k] - mean) * scale;
    const R wk = w != nullptr ? w[k] : 1;
    const R bk = b != nullptr ? b[k] : 0;
    want[k] = z * wk + bk;
    unit[k] = L::epsilon() * ((1 + std::fabs(z)) * std::fabs(wk) + std::fabs(bk)) + L::min();
  }
}

template <typename T>
using Refs = std::vector<RefFloat<T>>;

template <typename T>
void CheckNorm(const std::string& name, bool centre, bool with_weight, bool with_bias) {
  const std::size_t rows = 3;
  Report report(name, kNormTolerance);
  Random params(7);
  std::vector<T> w(1024), b(1024);
  for (T& v : w) v = static_cast<T>(params.Uniform(-2, 2));
  for (T& v : b) v = static_cast<T>(params.Uniform(-2, 2));
  const T* wp = with_weight ? w.data() : nullptr;
  const T* bp = with_bias ? b.data() : nullptr;
  PageEndArray<T> x_end(rows * 1024), out_end(rows * 1024);
  for (const std::size_t n : RowLengths()) {
    for (const Data data : {Data::kCentred, Data::kFar, Data::kSpecials, Data::kHuge, Data::kTiny}) {
      const double eps = data == Data::kTiny ? 0 : 1e-5;
      for (std::size_t placement = 0; placement < kPlacements; ++placement) {
        for (const bool in_place : {false, true}) {
          const std::size_t count = rows * n;
          const bool page_end = placement == kOffsets;
          Window<T> xw(count, placement % kOffsets);
          Window<T> ow(count, (placement + 1) % kOffsets);
          T* const x = page_end ? x_end.Place(count) : xw.data();
          T* const out = page_end ? out_end.Place(count) : ow.data();
          FillRows(x, rows, n, data, 13 * n + placement);
          // The references of every row: once in the run for these values
          // (ReferenceOnce; w and b are the same in every call), not per
          // target, store form or for the in-place pass.
          const auto& refs =
              ReferenceOnce<std::pair<Refs<T>, Refs<T>>>(std::tuple(name, n, eps), x, count, [&] {
                std::pair<Refs<T>, Refs<T>> r{Refs<T>(count), Refs<T>(count)};
                for (std::size_t row = 0; row < rows; ++row) {
                  NormReference(x + row * n, n, wp, bp, eps, centre, &r.first[row * n],
                                &r.second[row * n]);
                }
                return r;
              });
          const Refs<T>& want = refs.first;
          const Refs<T>& unit = refs.second;
          const T* in = x;
          if (in_place) {
            std::copy(x, x + count, out);
            in = out;
          }
          if (centre) {
            k::LayerNorm(in, out, rows, n, wp, bp, eps);
          } else {
            k::RmsNorm(in, out, rows, n, wp, eps);
          }
          for (std::size_t r = 0; r < rows; ++r) {
            for (std::size_t j = 0; j < n; ++j) {
              const T got = out[r * n + j];
              const RefFloat<T> want_j = want[r * n + j];
              const double error =
                  std::isnan(want_j) ? ExactError(got, want_j)
                  : std::isnan(got)
                      ? kFail
                      : static_cast<double>(std::fabs(got - want_j) / unit[r * n + j]);
              report.Add(got, error, [&] {
                return "n=" + std::to_string(n) + " data " +
                       std::to_string(static_cast<int>(data)) + " " + Placement(placement) +
                       (in_place ? " out==x" : " out!=x") + " [" + std::to_string(r) + ", " +
                       std::to_string(j) + "] x=" + Show(x[r * n + j]) + " got " + Show(got) +
                       " want " + Show(want_j);
              });
            }
          }
          report.Require(ow.GuardsIntact() && xw.GuardsIntact(),
                         [&] { return "wrote outside [0, count)"; });
        }
      }
    }
  }
  report.Finish();
}

template <typename T>
void CheckNorms(const char* type) {
  const std::string t = std::string("<") + type + ">";
  for (const bool w : {false, true}) {
    for (const bool b : {false, true}) {
      CheckNorm<T>("LayerNorm" + t + (w ? " weight" : "") + (b ? " bias" : ""), true, w, b);
    }
    // RmsNorm's output pass picks its vectors by NarrowStores.
    ForEachStoreForm([&] { CheckNorm<T>("RmsNorm" + t + (w ? " weight" : ""), false, w, false); });
  }
}

struct BiasShape {
  std::size_t outer, n, inner;
};

template <typename T>
void CheckBiasAdd(const char* name) {
  const std::vector<BiasShape> shapes = {{1, 0, 1},  {2, 3, 0},   {1, 1, 1},  {3, 1, 5},
                                         {2, 7, 1},  {4, 17, 1},  {1, 70, 1}, {3, 100, 1},
                                         {2, 3, 2},  {2, 5, 15},  {1, 4, 16}, {2, 3, 33},
                                         {1, 2, 70}, {2, 9, 100}, {1, 64, 64}};
  Report report(name, 0);
  Random random(3);
  for (const BiasShape& s : shapes) {
    for (std::size_t placement = 0; placement < kOffsets; ++placement) {
      for (const bool in_place : {false, true}) {
        const std::size_t count = s.outer * s.n * s.inner;
        Window<T> xw(count, placement);
        Window<T> ow(count, (placement + 1) % kOffsets);
        Window<T> bw(s.n, (placement + 2) % kOffsets);
        for (std::size_t j = 0; j < count; ++j) xw[j] = static_cast<T>(random.Uniform(-10, 10));
        for (std::size_t c = 0; c < s.n; ++c) bw[c] = static_cast<T>(random.Uniform(-10, 10));
        if (in_place) {
          std::copy(xw.data(), xw.data() + count, ow.data());
          k::BiasAdd(ow.data(), bw.data(), ow.data(), s.outer, s.n, s.inner);
        } else {
          k::BiasAdd(xw.data(), bw.data(), ow.data(), s.outer, s.n, s.inner);
        }
        for (std::size_t j = 0; j < count; ++j) {
          const std::size_t c = j / s.inner % s.n;
          const T want = xw[j] + bw[c];
          report.Add(ow[j], ExactError(ow[j], want), [&] {
            return "shape (" + std::to_string(s.outer) + ", " + std::to_string(s.n) + ", " +
                   std::to_string(s.inner) + ") [" + std::to_string(j) + "] got " + Show(ow[j]) +
                   " want " + Show(want);
          });
        }
        report.Require(ow.GuardsIntact() && xw.GuardsIntact() && bw.GuardsIntact(),
                       [&] { return "wrote outside the arrays"; });
      }
    }
  }
  report.Finish();
}

// RequireStreamedRowsMatch for both norms, with and without weight and
// bias (in place too: each row's statistics, and the next row's, are taken
// before the row is written).
template <typename T>
void CheckStreamedRows(const char* name) {
  Random random(63);
  std::vector<T> w(kRowLength), b(kRowLength);
  for (std::size_t i = 0; i < kRowLength; ++i) {
    w[i] = static_cast<T>(random.Uniform(0.5, 2));
    b[i] = static_cast<T>(random.Uniform(-1, 1));
  }
  for (int variant = 0; variant < 6; ++variant) {
    const T* wp = variant % 3 != 0 ? w.data() : nullptr;
    const T* bp = variant % 3 == 2 ? b.data() : nullptr;
    const bool rms = variant >= 3;
    RequireStreamedRowsMatch<T>(
        std::string(name) + (rms ? " RmsNorm" : " LayerNorm") + " variant " + std::to_string(variant),
        -3, 5, [&](const T* in, T* out, std::size_t rows) {
          if (rms) {
            k::RmsNorm(in, out, rows, kRowLength, wp, 1e-5);
          } else {
            k::LayerNorm(in, out, rows, kRowLength, wp, bp, 1e-5);
          }
        });
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(normalize)

BOOST_AUTO_TEST_CASE(streamed_rows_match_row_by_row) {
  ForEachTarget([](std::int64_t) {
    CheckStreamedRows<float>("float32");
    CheckStreamedRows<double>("float64");
  });
}

BOOST_AUTO_TEST_CASE(norms_float32_within_bound) {
  ForEachTarget([](std::int64_t) { CheckNorms<float>("float32"); });
}

BOOST_AUTO_TEST_CASE(norms_float64_within_bound) {
  ForEachTarget([](std::int64_t) { CheckNorms<double>("float64"); });
}

BOOST_AUTO_TEST_CASE(bias_add_exact) {
  ForEachTarget([](std::int64_t) {
    CheckBiasAdd<float>("BiasAdd<float32>");
    CheckBiasAdd<double>("BiasAdd<float64>");
  });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace opgen::kernel_tests
