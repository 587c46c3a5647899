// Softmax kernels (see softmax.hpp), compiled once per SIMD target by
// foreach_target.h and dispatched at run time.
#include "kernels/softmax.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/softmax.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/math-inl.h"
#include "kernels/matmul.hpp"
#include "kernels/transform-inl.h"

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// e^t for t = x - max <= 0 (or NaN). Where e^t is below the smallest normal
// number the result is 0 instead of a denormal: denormal arithmetic is up to
// 44x slower without FTZ/DAZ, which kernels must not set, and rows with a
// large spread (masked logits) would hit it for most elements. The absolute
// error this adds to a probability is below FLT_MIN (DBL_MIN). Flushed lanes
// compute e^0 instead, so that no denormal is produced at all. Each lane's
// result depends on that lane alone, whatever the other lanes hold (the
// float32 lanes within [-86.5, 0] always take ExpF32Fast, the others
// Highway's Exp; float64 lanes ExpFull, lane by lane too): TransposedRows
// puts rows side by side in a vector, and a row must come out the same
// whichever rows are its neighbours.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V SoftmaxExp(D d, V t) {
  using T = hn::TFromD<D>;
  // Just below ln(FLT_MIN) = -87.336544 and ln(DBL_MIN) = -708.39641853226.
  const V min_arg = hn::Set(d, static_cast<T>(sizeof(T) == 4 ? -87.33655 : -708.3964185323));
  if constexpr (sizeof(T) == 4) {
    // The common case: every lane within [-86.5, 0] (not NaN), where e^t is
    // normal and ExpF32Fast needs no flushing.
    const auto fast = hn::Ge(t, hn::Set(d, -86.5f));
    if (HWY_LIKELY(hn::AllTrue(d, fast))) return ExpF32Fast(d, t);
    const auto flush = hn::Lt(t, min_arg);
    const V zero = hn::Zero(d);
    return hn::IfThenElse(fast, ExpF32Fast(d, hn::IfThenElse(fast, t, zero)),
                          hn::IfThenZeroElse(flush, ExpHighway(d, hn::IfThenZeroElse(flush, t))));
  } else {
    // ExpFull's float64 lanes do not depend on their neighbours.
    const auto flush = hn::Lt(t, min_arg);
    return hn::IfThenZeroElse(flush, ExpFull(d, hn::IfThenZeroElse(flush, t)));
  }
}

struct ScaleOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return hn::Mul(v, hn::Set(d, static_cast<hn::TFromD<D>>(factor)));
  }
  double factor;
};

// inner == 1: one contiguous row. Three passes: the maximum, then e^(x - max)
// stored to out while summing, then a multiplication by 1 / sum (one division
// per row instead of one per element). NaN needs no tracking in the maximum:
// a NaN element makes its own e^(x - max), hence the sum and the whole row,
// NaN. Four accumulators break the dependency chains of Max and Add.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE hn::Vec<D> RowMax(D d, const T* x, size_t n) {
  const size_t N = hn::Lanes(d);
  const auto lowest = hn::Neg(hn::Inf(d));
  auto m0 = lowest, m1 = lowest, m2 = lowest, m3 = lowest;
  size_t k = 0;
  if (n >= 4 * N) {
    for (; k <= n - 4 * N; k += 4 * N) {
      m0 = hn::Max(m0, hn::LoadU(d, x + k));
      m1 = hn::Max(m1, hn::LoadU(d, x + k + N));
      m2 = hn::Max(m2, hn::LoadU(d, x + k + 2 * N));
      m3 = hn::Max(m3, hn::LoadU(d, x + k + 3 * N));
    }
  }
  for (; k + N <= n; k += N) m0 = hn::Max(m0, hn::LoadU(d, x + k));
  if (k < n) m1 = hn::Max(m1, LoadPartial(d, x + k, n - k, lowest));
  return hn::Set(d, MaxOfLanesOrdered(d, hn::Max(hn::Max(m0, m1), hn::Max(m2, m3))));
}

template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void SoftmaxRow(D d, const T* x, T* out, size_t n, const T* ahead, T* scratch) {
  const size_t N = hn::Lanes(d);
  const auto lowest = hn::Neg(hn::Inf(d));
  const auto max = RowMax(d, x, n);
  // e^(x - max) goes to scratch when the row streams (see
  // ForEachSoftmaxBlock), else to out.
  T* e_out = scratch != nullptr ? scratch : out;

  // Padding lanes of the partial vector hold -inf, so their e^(x - max) is 0
  // (or NaN when max is -inf or NaN, and then the row is NaN anyway).
  auto s0 = hn::Zero(d), s1 = s0, s2 = s0, s3 = s0;
  size_t k = 0;
  if (n >= 4 * N) {
    for (; k <= n - 4 * N; k += 4 * N) {
      const auto e0 = SoftmaxExp(d, hn::Sub(hn::LoadU(d, x + k), max));
      const auto e1 = SoftmaxExp(d, hn::Sub(hn::LoadU(d, x + k + N), max));
      const auto e2 = SoftmaxExp(d, hn::Sub(hn::LoadU(d, x + k + 2 * N), max));
      const auto e3 = SoftmaxExp(d, hn::Sub(hn::LoadU(d, x + k + 3 * N), max));
      if (ahead != nullptr) PrefetchVectors(d, ahead + k, 4);  // the next row (RowMax)
      hn::StoreU(e0, d, e_out + k);
      hn::StoreU(e1, d, e_out + k + N);
      hn::StoreU(e2, d, e_out + k + 2 * N);
      hn::StoreU(e3, d, e_out + k + 3 * N);
      s0 = hn::Add(s0, e0);
      s1 = hn::Add(s1, e1);
      s2 = hn::Add(s2, e2);
      s3 = hn::Add(s3, e3);
    }
  }
  for (; k + N <= n; k += N) {
    const auto e = SoftmaxExp(d, hn::Sub(hn::LoadU(d, x + k), max));
    hn::StoreU(e, d, e_out + k);
    s0 = hn::Add(s0, e);
  }
  if (k < n) {
    const auto e = SoftmaxExp(d, hn::Sub(LoadPartial(d, x + k, n - k, lowest), max));
    StorePartial(d, e, n - k, e_out + k);
    s1 = hn::Add(s1, e);
  }
  const T sum = SumLanes(d, hn::Add(hn::Add(s0, s1), hn::Add(s2, s3)));
  UnaryTransform(d, e_out, out, n, ScaleOp{1.0 / static_cast<double>(sum)},
                 scratch != nullptr ? Stores::kRowOfStream : Stores::kAuto);
}

// inner == 1 and a row of kVectors vectors at most (n > (kVectors - 1)
// Lanes): the row stays in registers, with no second pass over memory and
// no scalar step. Rows this short are most of a call's work when there are
// many (class scores, attention over short sequences, gating over experts),
// and SoftmaxRow's loops, ordered scalar maximum and separate scaling pass
// cost several times the arithmetic there. The maximum is Highway's
// MaxOfLanes: its choice between -0 and +0 or around NaN does not change
// e^(x - max), and NaN makes the row NaN through the sum as in SoftmaxRow.
// The last vector's padding lanes take the maximum (e^0, the fast exp) and
// are then zeroed out of the sum. log_softmax takes one scalar log of the
// sum, in double, as LogSoftmaxRow does.
template <bool kLog, size_t kVectors, class D, typename T = hn::TFromD<D>>
HWY_INLINE void ShortRow(D d, const T* x, T* out, size_t n) {
  static_assert(kVectors >= 1 && kVectors <= 4);
  using V = hn::Vec<D>;
  const size_t N = hn::Lanes(d);
  const size_t tail = n - (kVectors - 1) * N;  // lanes of the last vector, 1..N
  const auto inside = hn::FirstN(d, tail);
  const auto lowest = hn::Neg(hn::Inf(d));
  // The last vector is v[kVectors - 1]; unused vectors are never computed.
  const auto load = [&](size_t j) HWY_ATTR -> V {
    if (j + 1 < kVectors || tail == N) return hn::LoadU(d, x + j * N);
    return LoadPartial(d, x + j * N, tail, lowest);
  };
  V v0 = load(0), v1 = lowest, v2 = lowest, v3 = lowest;
  if constexpr (kVectors > 1) v1 = load(1);
  if constexpr (kVectors > 2) v2 = load(2);
  if constexpr (kVectors > 3) v3 = load(3);
  V m = v0;
  if constexpr (kVectors > 1) m = hn::Max(m, v1);
  if constexpr (kVectors > 2) m = hn::Max(m, v2);
  if constexpr (kVectors > 3) m = hn::Max(m, v3);
  m = hn::MaxOfLanes(d, m);
  // e^(v - m) of vector j, 0 in the last vector's padding lanes.
  const auto exp = [&](size_t j, V v) HWY_ATTR -> V {
    if (j + 1 < kVectors) return SoftmaxExp(d, hn::Sub(v, m));
    return hn::IfThenElseZero(inside, SoftmaxExp(d, hn::Sub(hn::IfThenElse(inside, v, m), m)));
  };
  const V e0 = exp(0, v0);
  V e1 = hn::Zero(d), e2 = e1, e3 = e1;
  if constexpr (kVectors > 1) e1 = exp(1, v1);
  if constexpr (kVectors > 2) e2 = exp(2, v2);
  if constexpr (kVectors > 3) e3 = exp(3, v3);
  const V s = hn::SumOfLanes(d, hn::Add(hn::Add(e0, e1), hn::Add(e2, e3)));
  V f;
  if constexpr (kLog) {
    f = hn::Set(d, static_cast<T>(std::log(static_cast<double>(hn::GetLane(s)))));
  } else {
    f = hn::Div(hn::Set(d, T{1}), s);
  }
  const auto store = [&](size_t j, V v, V e) HWY_ATTR {
    const V y = kLog ? hn::Sub(hn::Sub(v, m), f) : hn::Mul(e, f);
    if (j + 1 < kVectors || tail == N) {
      hn::StoreU(y, d, out + j * N);
    } else {
      StorePartial(d, y, tail, out + j * N);
    }
  };
  store(0, v0, e0);
  if constexpr (kVectors > 1) store(1, v1, e1);
  if constexpr (kVectors > 2) store(2, v2, e2);
  if constexpr (kVectors > 3) store(3, v3, e3);
}

// The rows of ShortRow: (n + Lanes - 1) / Lanes vectors, 1 to 4.
template <bool kLog, class D, typename T = hn::TFromD<D>>
HWY_INLINE void ShortRows(D d, const T* x, T* out, size_t rows, size_t n) {
  const size_t N = hn::Lanes(d);
  const auto each = [&](auto row) HWY_ATTR {
    for (size_t o = 0; o < rows; ++o) row(x + o * n, out + o * n);
  };
  switch ((n + N - 1) / N) {
    case 1:
      each([&](const T* xo, T* oo) HWY_ATTR { ShortRow<kLog, 1>(d, xo, oo, n); });
      break;
    case 2:
      each([&](const T* xo, T* oo) HWY_ATTR { ShortRow<kLog, 2>(d, xo, oo, n); });
      break;
    case 3:
      each([&](const T* xo, T* oo) HWY_ATTR { ShortRow<kLog, 3>(d, xo, oo, n); });
      break;
    default:
      each([&](const T* xo, T* oo) HWY_ATTR { ShortRow<kLog, 4>(d, xo, oo, n); });
      break;
  }
}

template <bool kPartial, class D, typename T = hn::TFromD<D>>
HWY_INLINE hn::Vec<D> LoadColumns(D d, const T* p, size_t count) {
  if constexpr (kPartial) {
    return LoadPartial(d, p, count, PaddingLanes(d));
  } else {
    (void)count;
    return hn::LoadU(d, p);
  }
}
template <bool kPartial, class D, typename T = hn::TFromD<D>>
HWY_INLINE void StoreColumns(D d, hn::Vec<D> v, T* p, size_t count) {
  if constexpr (kPartial) {
    StorePartial(d, v, count, p);
  } else {
    (void)count;
    hn::StoreU(v, d, p);
  }
}

// The maximum of each of `count` adjacent columns of an (n, inner) block
// (the first pass of SoftmaxColumns and LogSoftmaxColumns).
template <bool kPartial, class D, typename T = hn::TFromD<D>>
HWY_INLINE hn::Vec<D> ColumnsMax(D d, const T* x, size_t n, size_t inner, size_t count) {
  auto max = hn::Neg(hn::Inf(d));
  for (size_t k = 0; k < n; ++k) {
    max = hn::Max(max, LoadColumns<kPartial>(d, x + k * inner, count));
  }
  return max;
}

// ColumnsMax for 4 vectors of columns.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void ColumnsMax4(D d, const T* x, size_t n, size_t inner, hn::Vec<D>& m0,
                            hn::Vec<D>& m1, hn::Vec<D>& m2, hn::Vec<D>& m3) {
  const size_t N = hn::Lanes(d);
  m0 = m1 = m2 = m3 = hn::Neg(hn::Inf(d));
  for (size_t k = 0; k < n; ++k) {
    const T* p = x + k * inner;
    m0 = hn::Max(m0, hn::LoadU(d, p));
    m1 = hn::Max(m1, hn::LoadU(d, p + N));
    m2 = hn::Max(m2, hn::LoadU(d, p + 2 * N));
    m3 = hn::Max(m3, hn::LoadU(d, p + 3 * N));
  }
}

// inner > 1: `count` adjacent columns (one vector, or fewer when kPartial) of
// an (n, inner) block starting at x and out, vectorised along inner with the
// same three passes as SoftmaxRow, each lane one column.
template <bool kPartial, class D, typename T = hn::TFromD<D>>
HWY_INLINE void SoftmaxColumns(D d, const T* x, T* out, size_t n, size_t inner, size_t count) {
  const auto max = ColumnsMax<kPartial>(d, x, n, inner, count);
  auto sum = hn::Zero(d);
  for (size_t k = 0; k < n; ++k) {
    const auto e = SoftmaxExp(d, hn::Sub(LoadColumns<kPartial>(d, x + k * inner, count), max));
    StoreColumns<kPartial>(d, e, out + k * inner, count);
    sum = hn::Add(sum, e);
  }
  const auto inv = hn::Div(hn::Set(d, T{1}), sum);
  for (size_t k = 0; k < n; ++k) {
    T* p = out + k * inner;
    StoreColumns<kPartial>(d, hn::Mul(LoadColumns<kPartial>(d, p, count), inv), p, count);
  }
}

// SoftmaxColumns for 4 vectors of columns at once: each pass then reads 4
// vectors per row instead of one, so for inner >= 4 vectors the rows stream
// through the cache 3 times in all rather than 3 times per vector.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void SoftmaxColumns4(D d, const T* x, T* out, size_t n, size_t inner) {
  const size_t N = hn::Lanes(d);
  hn::Vec<D> m0, m1, m2, m3;
  ColumnsMax4(d, x, n, inner, m0, m1, m2, m3);
  auto s0 = hn::Zero(d), s1 = s0, s2 = s0, s3 = s0;
  for (size_t k = 0; k < n; ++k) {
    const T* p = x + k * inner;
    T* q = out + k * inner;
    const auto e0 = SoftmaxExp(d, hn::Sub(hn::LoadU(d, p), m0));
    const auto e1 = SoftmaxExp(d, hn::Sub(hn::LoadU(d, p + N), m1));
    const auto e2 = SoftmaxExp(d, hn::Sub(hn::LoadU(d, p + 2 * N), m2));
    const auto e3 = SoftmaxExp(d, hn::Sub(hn::LoadU(d, p + 3 * N), m3));
    hn::StoreU(e0, d, q);
    hn::StoreU(e1, d, q + N);
    hn::StoreU(e2, d, q + 2 * N);
    hn::StoreU(e3, d, q + 3 * N);
    s0 = hn::Add(s0, e0);
    s1 = hn::Add(s1, e1);
    s2 = hn::Add(s2, e2);
    s3 = hn::Add(s3, e3);
  }
  const auto one = hn::Set(d, T{1});
  s0 = hn::Div(one, s0);
  s1 = hn::Div(one, s1);
  s2 = hn::Div(one, s2);
  s3 = hn::Div(one, s3);
  for (size_t k = 0; k < n; ++k) {
    T* q = out + k * inner;
    hn::StoreU(hn::Mul(hn::LoadU(d, q), s0), d, q);
    hn::StoreU(hn::Mul(hn::LoadU(d, q + N), s1), d, q + N);
    hn::StoreU(hn::Mul(hn::LoadU(d, q + 2 * N), s2), d, q + 2 * N);
    hn::StoreU(hn::Mul(hn::LoadU(d, q + 3 * N), s3), d, q + 3 * N);
  }
}

// y = (x - max) - log_sum for LogSoftmaxRow.
struct ShiftOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    using T = hn::TFromD<D>;
    return hn::Sub(hn::Sub(v, hn::Set(d, static_cast<T>(max))), hn::Set(d, static_cast<T>(log_sum)));
  }
  double max, log_sum;
};

// log_softmax of one contiguous row: the maximum, the sum of e^(x - max)
// (not stored), then y = (x - max) - ln(sum) with one scalar log per row.
// x - max is exact or rounded relative to itself, and |x - max| <= |y|, so
// y keeps its relative accuracy however negative it is; near y = 0 the
// error is absolute: the relative error of the sum. A NaN or +inf in the
// row, or a row of -inf, makes some x - max NaN, hence the sum, the log
// and every y NaN.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void LogSoftmaxRow(D d, const T* x, T* out, size_t n, Stores stores, const T* ahead) {
  const size_t N = hn::Lanes(d);
  const auto lowest = hn::Neg(hn::Inf(d));
  const auto max = RowMax(d, x, n);
  auto s0 = hn::Zero(d), s1 = s0, s2 = s0, s3 = s0;
  size_t k = 0;
  if (n >= 4 * N) {
    for (; k <= n - 4 * N; k += 4 * N) {
      s0 = hn::Add(s0, SoftmaxExp(d, hn::Sub(hn::LoadU(d, x + k), max)));
      s1 = hn::Add(s1, SoftmaxExp(d, hn::Sub(hn::LoadU(d, x + k + N), max)));
      s2 = hn::Add(s2, SoftmaxExp(d, hn::Sub(hn::LoadU(d, x + k + 2 * N), max)));
      s3 = hn::Add(s3, SoftmaxExp(d, hn::Sub(hn::LoadU(d, x + k + 3 * N), max)));
      if (ahead != nullptr) PrefetchVectors(d, ahead + k, 4);  // the next row (RowMax)
    }
  }
  for (; k + N <= n; k += N) s0 = hn::Add(s0, SoftmaxExp(d, hn::Sub(hn::LoadU(d, x + k), max)));
  if (k < n) s1 = hn::Add(s1, SoftmaxExp(d, hn::Sub(LoadPartial(d, x + k, n - k, lowest), max)));
  const T sum = SumLanes(d, hn::Add(hn::Add(s0, s1), hn::Add(s2, s3)));
  const double log_sum = std::log(static_cast<double>(sum));
  UnaryTransform(d, x, out, n, ShiftOp{static_cast<double>(hn::GetLane(max)), log_sum}, stores);
}

// inner > 1: log_softmax of `count` adjacent columns, as SoftmaxColumns,
// with a vector log of the sums.
template <bool kPartial, class D, typename T = hn::TFromD<D>>
HWY_INLINE void LogSoftmaxColumns(D d, const T* x, T* out, size_t n, size_t inner, size_t count) {
  const auto max = ColumnsMax<kPartial>(d, x, n, inner, count);
  auto sum = hn::Zero(d);
  for (size_t k = 0; k < n; ++k) {
    sum = hn::Add(sum, SoftmaxExp(d, hn::Sub(LoadColumns<kPartial>(d, x + k * inner, count), max)));
  }
  const auto log_sum = LogFull(d, sum);
  for (size_t k = 0; k < n; ++k) {
    const auto v = LoadColumns<kPartial>(d, x + k * inner, count);
    StoreColumns<kPartial>(d, hn::Sub(hn::Sub(v, max), log_sum), out + k * inner, count);
  }
}

// LogSoftmaxColumns for 4 vectors of columns at once (as SoftmaxColumns4).
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void LogSoftmaxColumns4(D d, const T* x, T* out, size_t n, size_t inner) {
  const size_t N = hn::Lanes(d);
  hn::Vec<D> m0, m1, m2, m3;
  ColumnsMax4(d, x, n, inner, m0, m1, m2, m3);
  auto s0 = hn::Zero(d), s1 = s0, s2 = s0, s3 = s0;
  for (size_t k = 0; k < n; ++k) {
    const T* p = x + k * inner;
    s0 = hn::Add(s0, SoftmaxExp(d, hn::Sub(hn::LoadU(d, p), m0)));
    s1 = hn::Add(s1, SoftmaxExp(d, hn::Sub(hn::LoadU(d, p + N), m1)));
    s2 = hn::Add(s2, SoftmaxExp(d, hn::Sub(hn::LoadU(d, p + 2 * N), m2)));
    s3 = hn::Add(s3, SoftmaxExp(d, hn::Sub(hn::LoadU(d, p + 3 * N), m3)));
  }
  s0 = LogFull(d, s0);
  s1 = LogFull(d, s1);
  s2 = LogFull(d, s2);
  s3 = LogFull(d, s3);
  for (size_t k = 0; k < n; ++k) {
    const T* p = x + k * inner;
    T* q = out + k * inner;
    hn::StoreU(hn::Sub(hn::Sub(hn::LoadU(d, p), m0), s0), d, q);
    hn::StoreU(hn::Sub(hn::Sub(hn::LoadU(d, p + N), m1), s1), d, q + N);
    hn::StoreU(hn::Sub(hn::Sub(hn::LoadU(d, p + 2 * N), m2), s2), d, q + 2 * N);
    hn::StoreU(hn::Sub(hn::Sub(hn::LoadU(d, p + 3 * N), m3), s3), d, q + 3 * N);
  }
}

// Columns of long rows (column passes, transform-inl.h), from rows of 4
// KiB: the three passes of SoftmaxColumns4 run a block of columns at a
// time, the first two in passes of rows with each column's max and sum
// parked on the stack (in L1), the last row by row. One group of columns
// down all n rows read each row's 256 bytes on another page when rows are
// 4 KiB or more, three times over. Each lane computes what it did before,
// in the same order, so results are bit for bit the same. Zen 5, float32
// softmax over dim 0, us, before → after: [64, 1024] 33 → 15, [512, 1024]
// 292-296 → 176-184, [256, 4096] 600-608 → 295-302; log_softmax 24.5 →
// 12.5, 205 → 139-142, 429-433 → 266-272. Rows of 1200 bytes
// ([2048, 300]) took 20 % longer in passes (135-138 us against 160-167).
inline constexpr size_t kSoftmaxPassBytes = 4096;

template <bool kLog, class D, typename T = hn::TFromD<D>>
HWY_INLINE void SoftmaxColumnPasses(D d, const T* x, T* out, size_t n, size_t inner) {
  const size_t N = hn::Lanes(d);
  constexpr size_t kWidth = kColumnBlockBytes / sizeof(T);
  HWY_ALIGN T max_state[kWidth];
  HWY_ALIGN T sum_state[kWidth];
  const size_t width = kWidth;
  // body(i, count, v) for each vector of columns [i, i + count) of the
  // block [c0, c1) and its state's offset v.
  const auto vectors = [&](size_t c0, size_t c1, const auto& body) HWY_ATTR {
    for (size_t i = c0; i < c1; i += N) body(i, c1 - i < N ? c1 - i : N, i - c0);
  };
  for (size_t c0 = 0; c0 < inner; c0 += width) {
    const size_t c1 = inner - c0 <= width ? inner : c0 + width;
    for (size_t k0 = 0; k0 < n; k0 += kColumnPassRows) {
      const size_t k1 = n - k0 <= kColumnPassRows ? n : k0 + kColumnPassRows;
      vectors(c0, c1, [&](size_t i, size_t count, size_t v) HWY_ATTR {
        auto m = k0 == 0 ? hn::Neg(hn::Inf(d)) : hn::Load(d, max_state + v);
        if (count == N) {
          for (size_t k = k0; k < k1; ++k) m = hn::Max(m, hn::LoadU(d, x + k * inner + i));
        } else {
          for (size_t k = k0; k < k1; ++k) {
            m = hn::Max(m, LoadColumns<true>(d, x + k * inner + i, count));
          }
        }
        hn::Store(m, d, max_state + v);
      });
    }
    for (size_t k0 = 0; k0 < n; k0 += kColumnPassRows) {
      const size_t k1 = n - k0 <= kColumnPassRows ? n : k0 + kColumnPassRows;
      vectors(c0, c1, [&](size_t i, size_t count, size_t v) HWY_ATTR {
        const auto m = hn::Load(d, max_state + v);
        auto s = k0 == 0 ? hn::Zero(d) : hn::Load(d, sum_state + v);
        for (size_t k = k0; k < k1; ++k) {
          const auto e =
              SoftmaxExp(d, hn::Sub(count == N ? hn::LoadU(d, x + k * inner + i)
                                               : LoadColumns<true>(d, x + k * inner + i, count),
                                    m));
          if constexpr (!kLog) {
            if (count == N) {
              hn::StoreU(e, d, out + k * inner + i);
            } else {
              StoreColumns<true>(d, e, out + k * inner + i, count);
            }
          }
          s = hn::Add(s, e);
        }
        hn::Store(s, d, sum_state + v);
      });
    }
    vectors(c0, c1, [&](size_t, size_t, size_t v) HWY_ATTR {
      const auto s = hn::Load(d, sum_state + v);
      hn::Store(kLog ? LogFull(d, s) : hn::Div(hn::Set(d, T{1}), s), d, sum_state + v);
    });
    for (size_t k = 0; k < n; ++k) {
      vectors(c0, c1, [&](size_t i, size_t count, size_t v) HWY_ATTR {
        const auto f = hn::Load(d, sum_state + v);
        T* q = out + k * inner + i;
        if constexpr (kLog) {
          const T* p = x + k * inner + i;
          const auto m = hn::Load(d, max_state + v);
          const auto y =
              hn::Sub(hn::Sub(count == N ? hn::LoadU(d, p) : LoadColumns<true>(d, p, count), m), f);
          if (count == N) {
            hn::StoreU(y, d, q);
          } else {
            StoreColumns<true>(d, y, q, count);
          }
        } else if (count == N) {
          hn::StoreU(hn::Mul(hn::LoadU(d, q), f), d, q);
        } else {
          StoreColumns<true>(d, hn::Mul(LoadColumns<true>(d, q, count), f), q, count);
        }
      });
    }
  }
}

// The columns of one (n, inner) block, inner > 1: 4 vectors, then one
// vector, then a partial vector at a time.
template <bool kLog, class D, typename T = hn::TFromD<D>>
HWY_INLINE void ColumnGroups(D d, const T* xo, T* oo, size_t n, size_t inner) {
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + 4 * N <= inner; i += 4 * N) {
    if constexpr (kLog) {
      LogSoftmaxColumns4(d, xo + i, oo + i, n, inner);
    } else {
      SoftmaxColumns4(d, xo + i, oo + i, n, inner);
    }
  }
  for (; i + N <= inner; i += N) {
    if constexpr (kLog) {
      LogSoftmaxColumns<false>(d, xo + i, oo + i, n, inner, N);
    } else {
      SoftmaxColumns<false>(d, xo + i, oo + i, n, inner, N);
    }
  }
  if (i < inner) {
    if constexpr (kLog) {
      LogSoftmaxColumns<true>(d, xo + i, oo + i, n, inner, inner - i);
    } else {
      SoftmaxColumns<true>(d, xo + i, oo + i, n, inner, inner - i);
    }
  }
}

// Rows of at most TransposedRowMax elements, kTransposedRows at a time,
// transposed into a block in the L1 cache (kernels::Transpose) so that each
// lane holds one row, run through the column kernels (each lane sums its
// row in order) and transposed back. Short rows fill only part of a vector
// in ShortRow and pay its two reductions across the lanes per row, while
// here a vector does the work of as many rows as it has lanes. The last
// block takes the rows left over, padded to whole vectors, so a row's
// result does not depend on where the caller's rows (or a thread's share
// of them) begin: every lane computes by itself (SoftmaxExp, LogFull), and
// calls of fewer than kSequentialRows rows take SequentialRow, which
// computes the same bits one row at a time. Zen 5, float32, ns per row,
// interleaved runs against ShortRow: [65536, 8] 5.6-9.1 against 14.8-15.7,
// [65536, 10] 7.9-11.5 against 15.3-17.2; softmax rows of one whole vector
// or more were as fast or faster in ShortRow ([65536, 16] 10.6-12.6
// against 10.9-17.0, [16384, 32] 17-19 against 29-32). log_softmax's vector
// log replaces a scalar one per row: [65536, 16] 11.3-17.7 against
// 25.2-29.1, [16384, 32] 24.6-33.6 against 34.5-39.6, [16384, 64]
// 71-79 against 36-54.
inline constexpr size_t kTransposedRows = 64;
template <bool kLog, class D>
HWY_INLINE size_t TransposedRowMax(D d) {
  return kLog ? 2 * hn::Lanes(d) : hn::Lanes(d) - 1;
}

// One row of TransposedRows's lengths (at most 2 Lanes) by itself, with the
// same result to the bit: the same maximum (only its value enters: x - max
// and e^(x - max) do not depend on the sign of a zero maximum), the same
// lane-wise SoftmaxExp, the terms summed one after another from 0 as a
// lane of the column kernels sums them, the same division or LogFull. A
// row holding NaN (or +inf, whose inf - inf is NaN) is NaN either way, but
// which NaN (its sign and payload) is not promised: x86 keeps one operand's
// NaN, and compilers may swap the operands of an addition. A few rows take
// this instead of transposing: a block for one row of 10 floats took 280
// ns, its column kernels running one vector n times.
template <bool kLog, class D, typename T = hn::TFromD<D>>
HWY_INLINE void SequentialRow(D d, const T* x, T* out, size_t n) {
  using V = hn::Vec<D>;
  const size_t N = hn::Lanes(d);
  const auto lowest = hn::Neg(hn::Inf(d));
  const size_t n0 = n < N ? n : N;  // lanes of the first vector; n - n0 of the second
  const V v0 = n0 == N ? hn::LoadU(d, x) : LoadPartial(d, x, n0, lowest);
  const V v1 =
      n > N ? (n == 2 * N ? hn::LoadU(d, x + N) : LoadPartial(d, x + N, n - N, lowest)) : lowest;
  const V m = hn::MaxOfLanes(d, hn::Max(v0, v1));
  const auto in0 = hn::FirstN(d, n0);
  const auto in1 = hn::FirstN(d, n - n0);
  const V e0 = hn::IfThenElseZero(in0, SoftmaxExp(d, hn::Sub(hn::IfThenElse(in0, v0, m), m)));
  const V e1 = hn::IfThenElseZero(in1, SoftmaxExp(d, hn::Sub(hn::IfThenElse(in1, v1, m), m)));
  HWY_ALIGN T terms[2 * hn::MaxLanes(D())];
  hn::Store(e0, d, terms);
  hn::Store(e1, d, terms + N);
  T sum = T{0};
  for (size_t k = 0; k < n; ++k) sum += terms[k];
  const V s = hn::Set(d, sum);
  const V f = kLog ? LogFull(d, s) : hn::Div(hn::Set(d, T{1}), s);
  const V y0 = kLog ? hn::Sub(hn::Sub(v0, m), f) : hn::Mul(e0, f);
  const V y1 = kLog ? hn::Sub(hn::Sub(v1, m), f) : hn::Mul(e1, f);
  if (n0 == N) {
    hn::StoreU(y0, d, out);
  } else {
    StorePartial(d, y0, n0, out);
  }
  if (n == 2 * N) {
    hn::StoreU(y1, d, out + N);
  } else if (n > N) {
    StorePartial(d, y1, n - N, out + N);
  }
}

// Below this many rows TransposedRows takes SequentialRow for each row.
inline constexpr size_t kSequentialRows = 8;

template <bool kLog, class D, typename T = hn::TFromD<D>>
HWY_INLINE void TransposedRows(D d, const T* x, T* out, size_t rows, size_t n) {
  if (rows < kSequentialRows) {
    for (size_t o = 0; o < rows; ++o) SequentialRow<kLog>(d, x + o * n, out + o * n, n);
    return;
  }
  using U = hwy::MakeUnsigned<T>;
  constexpr size_t B = kTransposedRows;
  const size_t N = hn::Lanes(d);
  HWY_ALIGN T block[(B + hn::MaxLanes(D())) * 2 * hn::MaxLanes(D())];
  for (size_t o = 0; o < rows; o += B) {
    const size_t count = rows - o < B ? rows - o : B;
    // Whole vectors only: the partial ones' masked stores and loads of the
    // same lines (the exp pass, then the scaling pass) stalled a call on
    // one row of 10 floats for 460 ns. The padding lanes compute from 0.
    const size_t width = (count + N - 1) / N * N;
    if (width != count) {
      for (size_t k = 0; k < n; ++k)
        std::fill(block + k * width + count, block + (k + 1) * width, T{0});
    }
    Transpose(reinterpret_cast<const U*>(x + o * n), static_cast<ptrdiff_t>(n), n, count,
              reinterpret_cast<U*>(block), width);
    ColumnGroups<kLog>(d, block, block, n, width);
    Transpose(reinterpret_cast<const U*>(block), static_cast<ptrdiff_t>(width), count, n,
              reinterpret_cast<U*>(out + o * n), n);
  }
}

// The longest softmax row that streams, in bytes: a scratch row of this
// size lives on the stack (see ForEachSoftmaxBlock).
inline constexpr size_t kScratchBytes = 16384;

// The layout walk Softmax and LogSoftmax share: each of the `outer` (n,
// inner) blocks as one row when inner == 1 (rows of up to TransposedRowMax
// all together in TransposedRows; else held in registers when they are 4
// vectors or fewer, ShortRows), else as columns, 4 vectors, then one
// vector, then a partial vector at a time; kLog picks the LogSoftmax
// kernels of each step.
template <bool kLog, typename T>
HWY_INLINE void ForEachSoftmaxBlock(const T* x, T* out, size_t outer, size_t n, size_t inner) {
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  if (n == 0) return;
  if (inner == 1 && n <= TransposedRowMax<kLog>(d)) {
    TransposedRows<kLog>(d, x, out, outer, n);
    return;
  }
  if (inner == 1 && n <= 4 * N) {
    ShortRows<kLog>(d, x, out, outer, n);
    return;
  }
  // Rows of a large output stream their stores (StreamRows). softmax's
  // rows only if they fit kScratchBytes: its exp pass stores e^(x - max) to
  // a scratch row in the L1 cache, which its last pass rescales into out.
  // Rescaling e^(x - max) stored in out itself, with streaming stores over
  // those cached lines, was slower than ordinary stores (as was computing
  // e^(x - max) a second time); through the scratch row 16M floats in rows
  // of 1024 took 3.7-4.25 ms against 3.96-4.9 (kernel alone, interleaved
  // rounds, medians over 4 output placements), as the output lines are no
  // longer read before they are written.
  const Stores stores =
      inner == 1 && (kLog || n * sizeof(T) <= kScratchBytes) && StreamRows(d, out, outer, n)
          ? Stores::kRowOfStream
          : Stores::kAuto;
  HWY_ALIGN T scratch[kLog ? 1 : kScratchBytes / sizeof(T)];
  const bool prefetch = inner == 1 && outer * n * sizeof(T) >= kPrefetchRowsBytes;
  for (size_t o = 0; o < outer; ++o) {
    const T* xo = x + o * n * inner;
    T* oo = out + o * n * inner;
    if (inner == 1) {
      const T* ahead = prefetch && o + 1 < outer ? xo + n : nullptr;
      if constexpr (kLog) {
        LogSoftmaxRow(d, xo, oo, n, stores, ahead);
      } else {
        SoftmaxRow(d, xo, oo, n, ahead, stores == Stores::kRowOfStream ? scratch : nullptr);
      }
      continue;
    }
    if (TakesColumnPasses(d, n, inner, kSoftmaxPassBytes)) {
      SoftmaxColumnPasses<kLog>(d, xo, oo, n, inner);
      continue;
    }
    ColumnGroups<kLog>(d, xo, oo, n, inner);
  }
  if (stores == Stores::kRowOfStream) hwy::FlushStream();
}

void SoftmaxF32(const float* x, float* out, size_t outer, size_t n, size_t inner) {
  ForEachSoftmaxBlock</*kLog=*/false>(x, out, outer, n, inner);
}
void SoftmaxF64(const double* x, double* out, size_t outer, size_t n, size_t inner) {
  ForEachSoftmaxBlock</*kLog=*/false>(x, out, outer, n, inner);
}
void LogSoftmaxF32(const float* x, float* out, size_t outer, size_t n, size_t inner) {
  ForEachSoftmaxBlock</*kLog=*/true>(x, out, outer, n, inner);
}
void LogSoftmaxF64(const double* x, double* out, size_t outer, size_t n, size_t inner) {
  ForEachSoftmaxBlock</*kLog=*/true>(x, out, outer, n, inner);
}

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"
namespace opgen::kernels {

HWY_EXPORT(SoftmaxF32);
HWY_EXPORT(SoftmaxF64);
HWY_EXPORT(LogSoftmaxF32);
HWY_EXPORT(LogSoftmaxF64);

void Softmax(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner) {
  OPGEN_DYNAMIC_DISPATCH(SoftmaxF32)(x, out, outer, n, inner);
}
void Softmax(const double* x, double* out, std::size_t outer, std::size_t n, std::size_t inner) {
  OPGEN_DYNAMIC_DISPATCH(SoftmaxF64)(x, out, outer, n, inner);
}
void LogSoftmax(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner) {
  OPGEN_DYNAMIC_DISPATCH(LogSoftmaxF32)(x, out, outer, n, inner);
}
void LogSoftmax(const double* x, double* out, std::size_t outer, std::size_t n,
                std::size_t inner) {
  OPGEN_DYNAMIC_DISPATCH(LogSoftmaxF64)(x, out, outer, n, inner);
}

}  // namespace opgen::kernels
#endif  // HWY_ONCE
