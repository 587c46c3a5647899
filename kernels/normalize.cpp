// Row normalisation and bias kernels (see normalize.hpp), compiled once per
// SIMD target by foreach_target.h and dispatched at run time.
#include "kernels/normalize.hpp"

#include <cmath>
#include <cstddef>
#include <type_traits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/normalize.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/transform-inl.h"

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The statistics of one row, accumulated in float64 lanes: float32 inputs
// are loaded Lanes(dw) at a time (a half vector) and promoted, so that the
// sums carry no rounding error worth mentioning for float32 rows.
struct RowStats {
  double mean_hi = 0, mean_lo = 0, scale = 0;
};

template <typename T, class DW, class DN>
HWY_INLINE hn::Vec<DW> LoadWide(DW dw, DN dn, const T* p) {
  if constexpr (std::is_same_v<T, double>) {
    (void)dw;
    return hn::LoadU(dn, p);
  } else {
    return hn::PromoteTo(dw, hn::LoadU(dn, p));
  }
}
template <typename T, class DW, class DN>
HWY_INLINE hn::Vec<DW> LoadWidePartial(DW dw, DN dn, const T* p, size_t count) {
  const auto v = LoadPartial(dn, p, count, hn::Zero(dn));
  if constexpr (std::is_same_v<T, double>) {
    (void)dw;
    return v;
  } else {
    return hn::PromoteTo(dw, v);
  }
}

// Sum of the row, four accumulators (independent dependency chains).
template <typename T>
HWY_INLINE double RowSum(const T* x, size_t n) {
  const hn::ScalableTag<double> dw;
  const hn::Rebind<T, decltype(dw)> dn;
  const size_t N = hn::Lanes(dw);
  auto s0 = hn::Zero(dw), s1 = s0, s2 = s0, s3 = s0;
  size_t k = 0;
  if (n >= 4 * N) {
    for (; k <= n - 4 * N; k += 4 * N) {
      s0 = hn::Add(s0, LoadWide(dw, dn, x + k));
      s1 = hn::Add(s1, LoadWide(dw, dn, x + k + N));
      s2 = hn::Add(s2, LoadWide(dw, dn, x + k + 2 * N));
      s3 = hn::Add(s3, LoadWide(dw, dn, x + k + 3 * N));
    }
  }
  for (; k + N <= n; k += N) s0 = hn::Add(s0, LoadWide(dw, dn, x + k));
  if (k < n) s1 = hn::Add(s1, LoadWidePartial(dw, dn, x + k, n - k));
  return SumLanes(dw, hn::Add(hn::Add(s0, s1), hn::Add(s2, s3)));
}

// Sums of d = x - mean and of d^2 (without kCentre, d = x and only d^2),
// in independent chains: four each with kCentre (a subtraction, an
// addition and a multiply-add per vector), eight without (one multiply-add
// per vector, so that the loads bound the loop, not the multiply-adds'
// latency). With two chains each (64 dependent multiply-adds per chain in
// a row of 1024 doubles), float64 rows of 1024 took 180-214 ns for
// rms_norm and 301-332 for layer_norm, where Eigen's took 165-191 and
// 276-311; now 143-167 and 271-319 (ops_bench, Emerald Rapids, alternating
// builds).
template <bool kCentre, typename T>
HWY_INLINE void CentredSums(const T* x, size_t n, double mean, double& sum_d, double& sum_d2) {
  const hn::ScalableTag<double> dw;
  const hn::Rebind<T, decltype(dw)> dn;
  using V = hn::Vec<decltype(dw)>;
  const size_t N = hn::Lanes(dw);
  const V m = hn::Set(dw, mean);
  const auto deviation = [&](size_t k) HWY_ATTR {
    const V v = LoadWide(dw, dn, x + k);
    return kCentre ? hn::Sub(v, m) : v;
  };
  V a0 = hn::Zero(dw), a1 = a0, a2 = a0, a3 = a0;
  V q0 = a0, q1 = a0, q2 = a0, q3 = a0, q4 = a0, q5 = a0, q6 = a0, q7 = a0;
  size_t k = 0;
  if constexpr (kCentre) {
    if (n >= 4 * N) {
      for (; k <= n - 4 * N; k += 4 * N) {
        const V d0 = deviation(k), d1 = deviation(k + N);
        const V d2 = deviation(k + 2 * N), d3 = deviation(k + 3 * N);
        a0 = hn::Add(a0, d0);
        a1 = hn::Add(a1, d1);
        a2 = hn::Add(a2, d2);
        a3 = hn::Add(a3, d3);
        q0 = hn::MulAdd(d0, d0, q0);
        q1 = hn::MulAdd(d1, d1, q1);
        q2 = hn::MulAdd(d2, d2, q2);
        q3 = hn::MulAdd(d3, d3, q3);
      }
    }
  } else if (n >= 8 * N) {
    for (; k <= n - 8 * N; k += 8 * N) {
      const V d0 = deviation(k), d1 = deviation(k + N), d2 = deviation(k + 2 * N);
      const V d3 = deviation(k + 3 * N), d4 = deviation(k + 4 * N), d5 = deviation(k + 5 * N);
      const V d6 = deviation(k + 6 * N), d7 = deviation(k + 7 * N);
      q0 = hn::MulAdd(d0, d0, q0);
      q1 = hn::MulAdd(d1, d1, q1);
      q2 = hn::MulAdd(d2, d2, q2);
      q3 = hn::MulAdd(d3, d3, q3);
      q4 = hn::MulAdd(d4, d4, q4);
      q5 = hn::MulAdd(d5, d5, q5);
      q6 = hn::MulAdd(d6, d6, q6);
      q7 = hn::MulAdd(d7, d7, q7);
    }
  }
  // The remaining whole vectors (at most seven) alternate between two
  // chains, the partial one a third.
  for (; k + 2 * N <= n; k += 2 * N) {
    const V d0 = deviation(k), d1 = deviation(k + N);
    if constexpr (kCentre) {
      a0 = hn::Add(a0, d0);
      a1 = hn::Add(a1, d1);
    }
    q0 = hn::MulAdd(d0, d0, q0);
    q1 = hn::MulAdd(d1, d1, q1);
  }
  if (k + N <= n) {
    const V d0 = deviation(k);
    if constexpr (kCentre) a0 = hn::Add(a0, d0);
    q0 = hn::MulAdd(d0, d0, q0);
    k += N;
  }
  if (k < n) {
    // The padding lanes (0) must not add (0 - mean)^2.
    V d2 = LoadWidePartial(dw, dn, x + k, n - k);
    if constexpr (kCentre) {
      d2 = hn::IfThenElseZero(hn::FirstN(dw, n - k), hn::Sub(d2, m));
      a2 = hn::Add(a2, d2);
    }
    q2 = hn::MulAdd(d2, d2, q2);
  }
  sum_d = kCentre ? SumLanes(dw, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3))) : 0.0;
  sum_d2 = SumLanes(dw, hn::Add(hn::Add(hn::Add(q0, q1), hn::Add(q2, q3)),
                                hn::Add(hn::Add(q4, q5), hn::Add(q6, q7))));
}

// acc + the lanes of the float vector v, in float64 lanes.
template <class DF, class DW>
HWY_INLINE hn::Vec<DW> AddWidened(DF df, hn::Vec<DF> v, DW dw, hn::Vec<DW> acc) {
  (void)df;
#if HWY_TARGET == HWY_SCALAR
  return hn::Add(acc, hn::PromoteTo(dw, v));
#else
  (void)dw;
  // Half a float vector per double vector: promote through the tag of that
  // half (on scalable targets it differs from DW in its kPow2 only, so the
  // vector types are the same).
  const hn::Half<DF> dh;
  const hn::Rebind<double, decltype(dh)> dwh;
  // One addition on acc's dependency chain per call.
  return hn::Add(acc, hn::Add(hn::PromoteTo(dwh, hn::LowerHalf(dh, v)),
                              hn::PromoteTo(dwh, hn::UpperHalf(dh, v))));
#endif
}

// float32 rows, one pass: the sums of d = x - shift and of d^2, shift
// x[0] (layer_norm; the shifted-data algorithm, whose cancellation in
// sum(d^2) - sum(d)^2 / n is harmless in float64) or 0 (rms_norm). Blocks
// of 16 vectors are summed in float (at most six roundings per term) and
// their sums added to float64 accumulators, so the float error does not
// grow with n while most of the work stays in full float vectors. Each
// widening costs five operations (an extract, two conversions, two
// additions), so 16-vector blocks spend half as many on it as 8-vector
// ones did (1K rms_norm rows: 5 of 24 operations per 16 vectors instead of
// 10 of 28).
template <bool kCentre>
HWY_INLINE void FloatSums(const float* x, size_t n, double& sum_d, double& sum_d2) {
  const hn::ScalableTag<float> d;
  const hn::Repartition<double, decltype(d)> dw;
  const size_t N = hn::Lanes(d);
  const auto shift = hn::Set(d, kCentre ? x[0] : 0.0f);
  const auto neg_shift = hn::Neg(shift);
  const auto one = FmaOne(d);
  // d = x - shift (x itself without kCentre), the subtraction on the
  // multiply-add units (AddOnFma) or on the adders. With kCentre a block of
  // 16 vectors has 37 additions and 16 multiplies: 12 of the 16 shifts go to
  // the multiply-add units, as 6 of 8 measured best on Zen 4 (1K rows 0.88
  // -> 0.94-1.02 x Eigen).
  const auto load = [&](const float* p, size_t i) {
    const auto v = hn::LoadU(d, p);
    if constexpr (!kCentre) {
      (void)i;
      return v;
    } else {
      return i % 4 != 3 ? AddOnFma(v, neg_shift, one) : hn::Sub(v, shift);
    }
  };
  using V = hn::Vec<decltype(d)>;
  auto a = hn::Zero(dw), q = a;
  size_t k = 0;
  if (n >= 16 * N) {
    for (; k <= n - 16 * N; k += 16 * N) {
      // Four chains of four terms each for d and d^2, then two additions:
      // at most six roundings per term. (Named chains: sizeless SVE and
      // RVV vectors cannot form arrays.)
      const float* p = x + k;
      V d0 = load(p, 0), d1 = load(p + N, 1), d2 = load(p + 2 * N, 2), d3 = load(p + 3 * N, 3);
      V s0 = d0, s1 = d1, s2 = d2, s3 = d3;
      V c0 = hn::Mul(d0, d0), c1 = hn::Mul(d1, d1), c2 = hn::Mul(d2, d2), c3 = hn::Mul(d3, d3);
      for (size_t g = 1; g < 4; ++g) {
        p += 4 * N;
        d0 = load(p, 0);
        d1 = load(p + N, 1);
        d2 = load(p + 2 * N, 2);
        d3 = load(p + 3 * N, 3);
        if constexpr (kCentre) {
          s0 = hn::Add(s0, d0);
          s1 = hn::Add(s1, d1);
          s2 = hn::Add(s2, d2);
          s3 = hn::Add(s3, d3);
        }
        c0 = hn::MulAdd(d0, d0, c0);
        c1 = hn::MulAdd(d1, d1, c1);
        c2 = hn::MulAdd(d2, d2, c2);
        c3 = hn::MulAdd(d3, d3, c3);
      }
      if constexpr (kCentre) a = AddWidened(d, hn::Add(hn::Add(s0, s1), hn::Add(s2, s3)), dw, a);
      q = AddWidened(d, hn::Add(hn::Add(c0, c1), hn::Add(c2, c3)), dw, q);
    }
  }
  if (k < n) {
    // Fewer than 16 vectors left: summed in float on four chains of at most
    // four terms, as in a block, and widened once.
    V ta0 = hn::Zero(d), ta1 = ta0, ta2 = ta0, ta3 = ta0;
    V tq0 = ta0, tq1 = ta0, tq2 = ta0, tq3 = ta0;
    const auto add = [&](V v, V& ta, V& tq) {
      const auto d0 = hn::Sub(v, shift);
      if constexpr (kCentre) ta = hn::Add(ta, d0);
      tq = hn::MulAdd(d0, d0, tq);
    };
    for (; k + 4 * N <= n; k += 4 * N) {
      add(hn::LoadU(d, x + k), ta0, tq0);
      add(hn::LoadU(d, x + k + N), ta1, tq1);
      add(hn::LoadU(d, x + k + 2 * N), ta2, tq2);
      add(hn::LoadU(d, x + k + 3 * N), ta3, tq3);
    }
    // At most three whole vectors and a partial one, one per chain; the
    // padding lanes hold the shift: d = 0 there.
    const auto next = [&] {
      const auto v = k + N <= n ? hn::LoadU(d, x + k) : LoadPartial(d, x + k, n - k, shift);
      k += N;
      return v;
    };
    add(next(), ta0, tq0);
    if (k < n) add(next(), ta1, tq1);
    if (k < n) add(next(), ta2, tq2);
    if (k < n) add(next(), ta3, tq3);
    if constexpr (kCentre) {
      a = AddWidened(d, hn::Add(hn::Add(ta0, ta1), hn::Add(ta2, ta3)), dw, a);
    }
    q = AddWidened(d, hn::Add(hn::Add(tq0, tq1), hn::Add(tq2, tq3)), dw, q);
  }
  sum_d = SumLanes(dw, a);
  sum_d2 = SumLanes(dw, q);
}

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
// 1 / sqrt(v) for 0 < v < 1e300, within 2^-40 of it: vrsqrt14sd's estimate
// y (relative error below 2^-14) times (1 - r)^(-1/2) = 1 + r / 2 + 3 r^2 / 8
// + ..., r = 1 - v y^2, whose first three terms leave under 5 r^3 / 16. Four
// dependent multiply-adds after the estimate, against a division and a
// square root (about 35 cycles on Zen 4) on the chain between a row's
// statistics and its output pass.
HWY_INLINE double RefinedRsqrt(double v) {
  const __m128d vv = _mm_set_sd(v);
  const __m128d y = _mm_rsqrt14_sd(vv, vv);
  const __m128d r = _mm_fnmadd_sd(vv, _mm_mul_sd(y, y), _mm_set_sd(1.0));
  const __m128d p = _mm_fmadd_sd(r, _mm_set_sd(0.375), _mm_set_sd(0.5));
  return _mm_cvtsd_f64(_mm_fmadd_sd(_mm_mul_sd(y, r), p, y));
}
#endif

template <typename T>
HWY_INLINE RowStats Stats(const T* x, size_t n, double eps, bool centre) {
  RowStats s;
  const double count = static_cast<double>(n);
  if constexpr (std::is_same_v<T, float>) {
    // Off the row's dependency chain (they depend on n and eps only): the
    // chain from the last sum to the scale is one multiply-add, one add, one
    // division and one square root, scale = sqrt(n / (n var + n eps)), or
    // on AVX-512 two multiply-adds and RefinedRsqrt of var + eps.
    const double inv_count = 1 / count;
    const double count_eps = count * eps;
    const double tiny = 1e-30 * count;
    double sum_d = 0, sum_d2 = 0;
    if (centre) {
      FloatSums<true>(x, n, sum_d, sum_d2);
    } else {
      FloatSums<false>(x, n, sum_d, sum_d2);
    }
    const double shift_mean = sum_d * inv_count;
    double m2 = centre ? sum_d2 - sum_d * shift_mean : sum_d2;  // n var
    m2 = m2 < 0 ? 0.0 : m2;  // rounding may leave it just below 0
    // d^2 in float may have overflowed (|d| > 1.8e19, or an infinity or
    // NaN in the row) or lost bits below FLT_MIN (|d| < 1e-19): then the
    // two float64 passes below decide. Not (a <= b) is also true for NaN.
    if (HWY_LIKELY(sum_d2 <= 1e38 && m2 + count_eps >= tiny)) {
      if (centre) {
        const double mean = static_cast<double>(x[0]) + shift_mean;
        s.mean_hi = static_cast<double>(static_cast<float>(mean));
        s.mean_lo = mean - s.mean_hi;
      }
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
      const double v = m2 * inv_count + eps;  // at least 1e-30 here
      if (HWY_LIKELY(v < 1e300)) {
        s.scale = RefinedRsqrt(v);
        return s;
      }
#endif
      s.scale = std::sqrt(count / (m2 + count_eps));
      return s;
    }
  }
  // float64 (and the rare float32 rows above): two passes, the mean, then
  // the sums of d = x - mean and d^2 in float64 lanes.
  const double mean = centre ? RowSum(x, n) / count : 0.0;
  double sum_d = 0, sum_d2 = 0;
  if (centre) {
    CentredSums<true>(x, n, mean, sum_d, sum_d2);
  } else {
    CentredSums<false>(x, n, mean, sum_d, sum_d2);
  }
  double var = sum_d2 / count;
  if (centre) {
    // The corrected two-pass algorithm: sum_d / n is the rounding error of
    // the first mean, removed from the mean and (squared) from the variance.
    const double correction = sum_d / count;
    var -= correction * correction;
    var = var < 0 ? 0.0 : var;  // rounding may leave it just below 0 (NaN stays)
    // mean + correction as hi + lo, hi a T: mean - hi is exact.
    s.mean_hi = static_cast<double>(static_cast<T>(mean + correction));
    s.mean_lo = (mean - s.mean_hi) + correction;
  }
  s.scale = 1 / std::sqrt(var + eps);
  return s;
}

// y = ((x - mean_hi) * scale - mean_lo * scale) [* w] [+ b] in T lanes:
// x - mean_hi is exact or within half an ulp of itself, so the mean's own
// rounding to T (large against the deviations of a row far from 0) never
// reaches y.
// Without kCentre (rms_norm) just y = x * scale [* w].
template <bool kCentre, bool kWeight, bool kBias, class D, class V = hn::Vec<D>,
          typename T = hn::TFromD<D>>
HWY_INLINE V NormOne(D d, V v, V hi, V lo_scale, V scale, const T* w, const T* b, size_t k,
                     size_t count) {
  V y;
  if constexpr (kCentre) {
    y = hn::MulSub(hn::Sub(v, hi), scale, lo_scale);
  } else {
    (void)hi;
    (void)lo_scale;
    y = hn::Mul(v, scale);
  }
  const size_t N = hn::Lanes(d);
  if constexpr (kWeight) {
    const V wv = count == N ? hn::LoadU(d, w + k) : LoadPartial(d, w + k, count, hn::Zero(d));
    if constexpr (kBias) {
      const V bv = count == N ? hn::LoadU(d, b + k) : LoadPartial(d, b + k, count, hn::Zero(d));
      return hn::MulAdd(y, wv, bv);
    }
    return hn::Mul(y, wv);
  } else if constexpr (kBias) {
    const V bv = count == N ? hn::LoadU(d, b + k) : LoadPartial(d, b + k, count, hn::Zero(d));
    return hn::Add(y, bv);
  }
  return y;
}

// One row's output pass in d's vectors, streamed or stored.
template <bool kCentre, bool kWeight, bool kBias, class D, typename T = hn::TFromD<D>>
HWY_INLINE void NormRow(D d, const T* row, T* o, size_t n, const T* w, const T* b,
                        const RowStats& s, bool stream, const T* ahead) {
  const size_t N = hn::Lanes(d);
  const auto hi = hn::Set(d, static_cast<T>(s.mean_hi));
  const auto lo = hn::Set(d, static_cast<T>(s.mean_lo * s.scale));
  const auto scale = hn::Set(d, static_cast<T>(s.scale));
  size_t k = 0;
  if (n >= 2 * N) {
    for (; k <= n - 2 * N; k += 2 * N) {
      const auto y0 =
          NormOne<kCentre, kWeight, kBias>(d, hn::LoadU(d, row + k), hi, lo, scale, w, b, k, N);
      const auto y1 = NormOne<kCentre, kWeight, kBias>(d, hn::LoadU(d, row + k + N), hi, lo, scale,
                                                       w, b, k + N, N);
      if (ahead != nullptr) PrefetchVectors(d, ahead + k, 2);
      if (stream) {
        hn::Stream(y0, d, o + k);
        hn::Stream(y1, d, o + k + N);
      } else {
        hn::StoreU(y0, d, o + k);
        hn::StoreU(y1, d, o + k + N);
      }
    }
  }
  for (; k + N <= n; k += N) {
    hn::StoreU(
        NormOne<kCentre, kWeight, kBias>(d, hn::LoadU(d, row + k), hi, lo, scale, w, b, k, N), d,
        o + k);
  }
  if (k < n) {
    const size_t rest = n - k;
    const auto v = LoadPartial(d, row + k, rest, hn::Zero(d));
    StorePartial(d, NormOne<kCentre, kWeight, kBias>(d, v, hi, lo, scale, w, b, k, rest), rest,
                 o + k);
  }
}

// Outputs of StreamBytes() or more (StreamRows) take streaming stores: the
// rows are read once and written once, so caching the output only evicts.
// The statistics run one row ahead: the scalar chain that ends each row's
// statistics (a horizontal sum, then the scale) then overlaps the next row's
// statistics pass instead of holding up this row's output pass. Row r + 1
// is read before row r is written, which in-place calls (out == x) allow.
// A streamed output pass also prefetches row r + 2, one cache line per
// line it stores, for the statistics pass that follows: rows that start
// on a new page found the hardware prefetchers (which stop at page
// boundaries) behind, and rms_norm's light statistics loop left them
// further behind than layer_norm's. Kernel alone, 16M floats, medians over
// 8 output placements (2 for rows of 256K), rms_norm and layer_norm: rows
// of 1024 4.0-4.05 -> 2.7-3.1 ms and 3.3-3.35 -> 2.7-2.85; rows of 256K
// 6.0 -> 5.4-5.8 and 8.3-8.8 -> 5.5-6.1; rows of 256 (four to a page)
// unchanged.
template <bool kCentre, bool kWeight, bool kBias, class D, typename T = hn::TFromD<D>>
HWY_INLINE void NormRowsIn(D d, const T* x, T* out, size_t rows, size_t n, const T* w, const T* b,
                           double eps, bool stream) {
  RowStats next = rows > 0 ? Stats(x, n, eps, kCentre) : RowStats{};
  for (size_t r = 0; r < rows; ++r) {
    const T* row = x + r * n;
    const RowStats s = next;
    if (r + 1 < rows) next = Stats(row + n, n, eps, kCentre);
    const T* ahead = stream && r + 2 < rows ? row + 2 * n : nullptr;
    NormRow<kCentre, kWeight, kBias>(d, row, out + r * n, n, w, b, s, stream, ahead);
  }
}

// rms_norm's output pass (a load, one or two multiplies and a store per
// vector) runs in 256-bit vectors in the L1 cache on Zen 4 (NarrowStores),
// as the light elementwise ops do (WithStoreTag): 1K rows 98.3 -> 93.4 ns
// (ops_bench, medians of 12 processes). layer_norm's, with a subtraction
// more, took longer so at 1K (132 -> 141 ns), and both at 1M floats (5-6 %),
// so they keep whole vectors.
template <bool kCentre, bool kWeight, bool kBias, typename T>
HWY_INLINE void NormRows(const T* x, T* out, size_t rows, size_t n, const T* w, const T* b,
                         double eps) {
  const hn::ScalableTag<T> d;
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  if constexpr (!kCentre) {
    if (rows * n * sizeof(T) < kWideStoreBytes && NarrowStores()) {
      return NormRowsIn<kCentre, kWeight, kBias>(hn::CappedTag<T, 32 / sizeof(T)>(), x, out, rows,
                                                 n, w, b, eps, false);
    }
  }
#endif
  const bool stream = StreamRows(d, out, rows, n);
  NormRowsIn<kCentre, kWeight, kBias>(d, x, out, rows, n, w, b, eps, stream);
  if (stream) hwy::FlushStream();
}

template <typename T>
HWY_INLINE void Normalise(const T* x, T* out, size_t rows, size_t n, const T* w, const T* b,
                          double eps, bool centre) {
  if (n == 0) return;
  if (!centre) {
    // rms_norm: no bias.
    if (w != nullptr) return NormRows<false, true, false>(x, out, rows, n, w, b, eps);
    return NormRows<false, false, false>(x, out, rows, n, w, b, eps);
  }
  if (w != nullptr && b != nullptr) return NormRows<true, true, true>(x, out, rows, n, w, b, eps);
  if (w != nullptr) return NormRows<true, true, false>(x, out, rows, n, w, b, eps);
  if (b != nullptr) return NormRows<true, false, true>(x, out, rows, n, w, b, eps);
  NormRows<true, false, false>(x, out, rows, n, w, b, eps);
}

void LayerNormF32(const float* x, float* out, size_t rows, size_t n, const float* w,
                  const float* b, double eps) {
  Normalise(x, out, rows, n, w, b, eps, true);
}
void LayerNormF64(const double* x, double* out, size_t rows, size_t n, const double* w,
                  const double* b, double eps) {
  Normalise(x, out, rows, n, w, b, eps, true);
}
void RmsNormF32(const float* x, float* out, size_t rows, size_t n, const float* w, double eps) {
  Normalise(x, out, rows, n, w, static_cast<const float*>(nullptr), eps, false);
}
void RmsNormF64(const double* x, double* out, size_t rows, size_t n, const double* w,
                double eps) {
  Normalise(x, out, rows, n, w, static_cast<const double*>(nullptr), eps, false);
}

struct AddOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::Add(a, b);
  }
};
template <typename T>
struct AddScalarOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return hn::Add(v, hn::Set(d, value));
  }
  T value;
};

// inner == 1: b is added to every row of n elements; else b[c] to each
// contiguous block of inner elements.
template <typename T>
HWY_INLINE void BiasAddT(const T* x, const T* b, T* out, size_t outer, size_t n, size_t inner) {
  const hn::ScalableTag<T> d;
  for (size_t o = 0; o < outer; ++o) {
    const size_t at = o * n * inner;
    if (inner == 1) {
      BinaryTransform(d, x + at, b, out + at, n, AddOp{});
      continue;
    }
    for (size_t c = 0; c < n; ++c) {
      UnaryTransform(d, x + at + c * inner, out + at + c * inner, inner, AddScalarOp<T>{b[c]});
    }
  }
}

void BiasAddF32(const float* x, const float* b, float* out, size_t outer, size_t n, size_t inner) {
  BiasAddT(x, b, out, outer, n, inner);
}
void BiasAddF64(const double* x, const double* b, double* out, size_t outer, size_t n,
                size_t inner) {
  BiasAddT(x, b, out, outer, n, inner);
}

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"
namespace opgen::kernels {

HWY_EXPORT(LayerNormF32);
HWY_EXPORT(LayerNormF64);
HWY_EXPORT(RmsNormF32);
HWY_EXPORT(RmsNormF64);
HWY_EXPORT(BiasAddF32);
HWY_EXPORT(BiasAddF64);

void LayerNorm(const float* x, float* out, std::size_t rows, std::size_t n, const float* weight,
               const float* bias, double eps) {
  OPGEN_DYNAMIC_DISPATCH(LayerNormF32)(x, out, rows, n, weight, bias, eps);
}
void LayerNorm(const double* x, double* out, std::size_t rows, std::size_t n,
               const double* weight, const double* bias, double eps) {
  OPGEN_DYNAMIC_DISPATCH(LayerNormF64)(x, out, rows, n, weight, bias, eps);
}
void RmsNorm(const float* x, float* out, std::size_t rows, std::size_t n, const float* weight,
             double eps) {
  OPGEN_DYNAMIC_DISPATCH(RmsNormF32)(x, out, rows, n, weight, eps);
}
void RmsNorm(const double* x, double* out, std::size_t rows, std::size_t n, const double* weight,
             double eps) {
  OPGEN_DYNAMIC_DISPATCH(RmsNormF64)(x, out, rows, n, weight, eps);
}
void BiasAdd(const float* x, const float* b, float* out, std::size_t outer, std::size_t n,
             std::size_t inner) {
  OPGEN_DYNAMIC_DISPATCH(BiasAddF32)(x, b, out, outer, n, inner);
}
void BiasAdd(const double* x, const double* b, double* out, std::size_t outer, std::size_t n,
             std::size_t inner) {
  OPGEN_DYNAMIC_DISPATCH(BiasAddF64)(x, b, out, outer, n, inner);
}

}  // namespace opgen::kernels
#endif  // HWY_ONCE
