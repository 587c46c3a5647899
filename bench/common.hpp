// Shared by the benchmark programs: the inputs every implementation sees,
// the double-precision references and the error measure.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

namespace bench {

/// The inputs of every op: x[i] = lo + (hi - lo) u_i with u_i the golden-ratio
/// multiplicative hash of i, mixed by MurmurHash3's 32-bit finaliser, over
/// 2^32, rounded to float. The mix matters: the bare golden-ratio sequence is
/// so regular that every SIMD lane of a reduction (stride 16 or 128) sees a
/// sequence of its own with correlated rounding errors (prod's error grew
/// with n, not with its square root). bench/numpy_bench.py computes the same
/// numbers, so numpy sees the same inputs. The float64 table's inputs are the
/// same numbers unrounded (T = double).
template <class T>
void fill_inputs(T* x, std::size_t n, double lo, double hi, std::uint32_t salt) {
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t h = static_cast<std::uint32_t>((i + salt) * 2654435761ULL);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    x[i] = static_cast<T>(lo + (hi - lo) * (h / 4294967296.0));
  }
}

/// The NaN input set of the ops whose definition covers NaN (ops_bench.cpp's
/// nan_set): x[i] becomes NaN where i % 61 == 7, y[i] where i % 67 == 3.
/// bench/numpy_bench.py plants the same NaNs.
template <class T>
void plant_nans(T* x, std::size_t n, std::size_t period, std::size_t first) {
  for (std::size_t i = first; i < n; i += period) x[i] = static_cast<T>(NAN);
}
inline constexpr std::size_t kNanPeriodX = 61, kNanFirstX = 7;
inline constexpr std::size_t kNanPeriodY = 67, kNanFirstY = 3;

/// An input domain: values uniform in [lo, hi].
struct Range {
  double lo, hi;
};

/// max |y - r| / max(|r|, floor) over the elements (|y - r| where that
/// denominator is 0), computed in R, the reference's type (double for float
/// results, long double for double ones). A NaN where the reference has one
/// is exact; a NaN on one side only is an infinite error (a result that drops
/// a NaN input, or makes one, is wrong however fast).
template <class T, class R>
double max_rel_error(const T* y, const R* r, std::size_t n, double floor = 0) {
  R e = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isnan(y[i]) || std::isnan(r[i])) {
      if (std::isnan(y[i]) != std::isnan(r[i])) return HUGE_VAL;
      continue;
    }
    if (static_cast<R>(y[i]) == r[i]) continue;  // infinities too
    const R d = std::fabs(static_cast<R>(y[i]) - r[i]);
    const R den = std::fmax(std::fabs(r[i]), static_cast<R>(floor));
    R rel = den != 0 ? d / den : d;
    if (std::isnan(rel)) return HUGE_VAL;  // inf / inf: an infinity of the wrong sign
    e = std::max(e, rel);
  }
  return static_cast<double>(e);
}

/// A 64-byte aligned float buffer (16M floats at most here).
struct Buffer {
  float* p = nullptr;
  std::size_t n = 0;
  explicit Buffer(std::size_t count) : n(count) {
    p = static_cast<float*>(::operator new[](count * sizeof(float) + 64, std::align_val_t(64)));
  }
  ~Buffer() { ::operator delete[](p, std::align_val_t(64)); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

}  // namespace bench
