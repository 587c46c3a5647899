// Reduction kernels (see reduce.hpp), compiled once per SIMD target by
// foreach_target.h and dispatched at run time.
#include "kernels/reduce.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/reduce.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/math-inl.h"
#include "kernels/transform-inl.h"

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// A reducer folds vectors into an accumulator `acc` plus a second one, `nan`,
// all-ones in lanes that have seen a NaN: Highway's Max does not propagate
// NaN portably. Only ReduceMax on floats uses `nan`; elsewhere the compiler
// drops it. Lanes() gives per-lane results (inner > 1), Total() one result
// from a whole vector (inner == 1).
struct SumReducer {
  template <class D>
  static hn::Vec<D> Identity(D d) {
    return hn::Zero(d);
  }
  template <class D, class V>
  static void Step(D, V& acc, V&, V v) {
    acc = hn::Add(acc, v);  // integers wrap around in every SIMD lane
  }
  template <class D, class V>
  static void Merge(D d, V& acc, V& nan, V acc2, V) {
    Step(d, acc, nan, acc2);
  }
  template <class D, class V>
  static V Lanes(D, V acc, V, size_t) {
    return acc;
  }
  template <class D, class V>
  static hn::TFromD<D> Total(D d, V acc, V, size_t) {
    return SumLanes(d, acc);
  }
};

struct MeanReducer : SumReducer {
  template <class D, class V>
  static V Lanes(D d, V acc, V, size_t n) {
    using T = hn::TFromD<D>;
    if (n == 0) return hn::NaN(d);  // rather than 0 / 0, which raises FE_INVALID
    return hn::Div(acc, hn::Set(d, static_cast<T>(n)));
  }
  template <class D, class V>
  static hn::TFromD<D> Total(D d, V acc, V, size_t n) {
    using T = hn::TFromD<D>;
    if (n == 0) return hn::GetLane(hn::NaN(d));
    return SumLanes(d, acc) / static_cast<T>(n);  // Lanes' division, on lane 0 only
  }
};

struct MaxReducer {
  template <class D>
  static hn::Vec<D> Identity(D d) {
    using T = hn::TFromD<D>;
    if constexpr (hwy::IsFloat<T>()) {
      return hn::Neg(hn::Inf(d));
    } else {
      return hn::Set(d, hwy::LowestValue<T>());
    }
  }
  template <class D, class V>
  static void Step(D d, V& acc, V& nan, V v) {
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
      acc = MaxOrderedZeros(acc, v);
      nan = hn::Or(nan, hn::VecFromMask(d, hn::IsNaN(v)));
    } else {
      acc = hn::Max(acc, v);
    }
  }
  template <class D, class V>
  static void Merge(D d, V& acc, V& nan, V acc2, V nan2) {
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
      acc = MaxOrderedZeros(acc, acc2);
      nan = hn::Or(nan, nan2);
    } else {
      Step(d, acc, nan, acc2);
    }
  }
  template <class D, class V>
  static V Lanes(D d, V acc, V nan, size_t) {
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
      return hn::IfThenElse(hn::MaskFromVec(nan), hn::NaN(d), acc);
    } else {
      return acc;
    }
  }
  template <class D, class V>
  static hn::TFromD<D> Total(D d, V acc, V nan, size_t) {
    using T = hn::TFromD<D>;
    if constexpr (hwy::IsFloat<T>()) {
      if (!hn::AllFalse(d, hn::MaskFromVec(nan))) return hn::GetLane(hn::NaN(d));
    }
    return MaxOfLanesOrdered(d, acc);
  }
};

// The product of v's lanes: on fixed-size targets a tree of halves (log2
// Lanes(d) multiplies deep rather than a chain of Lanes(d) - 1), on scalable
// ones (and the one-lane scalar target) in lane order.
template <class D>
HWY_INLINE hn::TFromD<D> ProductOfLanes(D d, hn::Vec<D> v) {
#if HWY_HAVE_SCALABLE || HWY_TARGET == HWY_SCALAR
  using T = hn::TFromD<D>;
  HWY_ALIGN T lanes[hn::MaxLanes(D())];
  hn::Store(v, d, lanes);
  T prod = lanes[0];
  for (size_t i = 1; i < hn::Lanes(d); ++i) prod *= lanes[i];
  return prod;
#else
  if constexpr (hn::MaxLanes(D()) == 1) {
    (void)d;
    return hn::GetLane(v);
  } else {
    const hn::Half<D> dh;
    return ProductOfLanes(dh, hn::Mul(hn::LowerHalf(dh, v), hn::UpperHalf(dh, v)));
  }
#endif
}

// Product; floats and int32 (Highway 1.0.3 has no 64-bit integer Mul on
// x86, so int64 products are a scalar loop in HWY_ONCE below).
struct ProdReducer {
  template <class D>
  static hn::Vec<D> Identity(D d) {
    return hn::Set(d, hn::TFromD<D>{1});
  }
  template <class D, class V>
  static void Step(D, V& acc, V&, V v) {
    acc = hn::Mul(acc, v);  // int32 wraps around in every SIMD lane
  }
  template <class D, class V>
  static void Merge(D d, V& acc, V& nan, V acc2, V) {
    Step(d, acc, nan, acc2);
  }
  template <class D, class V>
  static V Lanes(D, V acc, V, size_t) {
    return acc;
  }
  template <class D, class V>
  static hn::TFromD<D> Total(D d, V acc, V, size_t) {
    return ProductOfLanes(d, acc);
  }
};

// Sum of squares: one multiply-add per element. Norm2 takes its square root
// and rescales the rare results whose squares overflowed or underflowed.
struct SumSquaresReducer : SumReducer {
  template <class D, class V>
  static void Step(D, V& acc, V&, V v) {
    acc = hn::MulAdd(v, v, acc);
  }
  template <class D, class V>
  static void Merge(D, V& acc, V&, V acc2, V) {
    acc = hn::Add(acc, acc2);
  }
};

// inner == 1: one contiguous row per result. Eight accumulators (four on
// shorter rows) break the dependency chains of the adds or multiplies; the
// remainder is one partial vector padded with the identity.
template <class R, class D, typename T = hn::TFromD<D>>
HWY_INLINE void ReduceRows(D d, const T* HWY_RESTRICT x, T* HWY_RESTRICT out, size_t outer,
                           size_t n) {
  const size_t N = hn::Lanes(d);
  const auto id = R::Identity(d);
  for (size_t o = 0; o < outer; ++o) {
    const T* HWY_RESTRICT row = x + o * n;
    auto a0 = id, a1 = id, a2 = id, a3 = id;
    auto n0 = hn::Zero(d), n1 = n0, n2 = n0, n3 = n0;
    size_t k = 0;
    if (n >= 8 * N) {
      auto a4 = id, a5 = id, a6 = id, a7 = id;
      auto n4 = n0, n5 = n0, n6 = n0, n7 = n0;
      // A pointer compared with the last block's start: with the index
      // `k <= n - 8 * N` g++ 12 may copy the pointer at the loop's top and
      // compare the copy, and on Zen 5 that loop read 64K float32 from the
      // L2 cache in 1.9 us against 1.3 (the same loop without the copy, or
      // with the loads in address order, 1.3; a plain intrinsic loop 1.3).
      const T* HWY_RESTRICT p = row;
      const T* const last = row + (n - 8 * N);  // where the last whole block starts, at most
      for (; p <= last; p += 8 * N) {
        R::Step(d, a0, n0, hn::LoadU(d, p));
        R::Step(d, a1, n1, hn::LoadU(d, p + N));
        R::Step(d, a2, n2, hn::LoadU(d, p + 2 * N));
        R::Step(d, a3, n3, hn::LoadU(d, p + 3 * N));
        R::Step(d, a4, n4, hn::LoadU(d, p + 4 * N));
        R::Step(d, a5, n5, hn::LoadU(d, p + 5 * N));
        R::Step(d, a6, n6, hn::LoadU(d, p + 6 * N));
        R::Step(d, a7, n7, hn::LoadU(d, p + 7 * N));
      }
      k = static_cast<size_t>(p - row);
      R::Merge(d, a0, n0, a4, n4);
      R::Merge(d, a1, n1, a5, n5);
      R::Merge(d, a2, n2, a6, n6);
      R::Merge(d, a3, n3, a7, n7);
    }
    if (n - k >= 4 * N) {
      for (; k <= n - 4 * N; k += 4 * N) {
        R::Step(d, a0, n0, hn::LoadU(d, row + k));
        R::Step(d, a1, n1, hn::LoadU(d, row + k + N));
        R::Step(d, a2, n2, hn::LoadU(d, row + k + 2 * N));
        R::Step(d, a3, n3, hn::LoadU(d, row + k + 3 * N));
      }
    }
    for (; k + N <= n; k += N) R::Step(d, a0, n0, hn::LoadU(d, row + k));
    if (k < n) R::Step(d, a1, n1, LoadPartial(d, row + k, n - k, id));
    R::Merge(d, a0, n0, a1, n1);
    R::Merge(d, a2, n2, a3, n3);
    R::Merge(d, a0, n0, a2, n2);
    out[o] = R::Total(d, a0, n0, n);
  }
}

// Between the passes of ReduceColumns a column's running state waits in
// out: acc, with NaN in the lanes that `nan` marks (only ReduceMax's floats
// use `nan`; NaN in a parked acc marks them again when it resumes).
template <class R, class D, class V>
HWY_INLINE V Park(D d, V acc, V nan) {
  if constexpr (std::is_same_v<R, MaxReducer> && hwy::IsFloat<hn::TFromD<D>>()) {
    return hn::IfThenElse(hn::MaskFromVec(nan), hn::NaN(d), acc);
  } else {
    (void)d;
    (void)nan;
    return acc;
  }
}
template <class R, class D, class V>
HWY_INLINE void Resume(D d, V parked, V& acc, V& nan) {
  acc = parked;
  if constexpr (std::is_same_v<R, MaxReducer> && hwy::IsFloat<hn::TFromD<D>>()) {
    nan = hn::VecFromMask(d, hn::IsNaN(parked));
  } else {
    nan = hn::Zero(d);
  }
}

// ReduceColumns takes column passes (transform-inl.h) from rows of this
// many bytes; shorter rows lie close enough for one walk.
inline constexpr size_t kReducePassBytes = 1024;

// One pass of ReduceColumns: rows [k0, k1) into the columns [c0, c1),
// whose state starts from the identity (first) or from out, and ends as
// the results (last) or parked in out.
template <class R, class D, typename T = hn::TFromD<D>>
HWY_INLINE void ColumnPass(D d, const T* HWY_RESTRICT x, T* HWY_RESTRICT out, size_t n,
                           size_t inner, size_t c0, size_t c1, size_t k0, size_t k1, bool first,
                           bool last) {
  const size_t N = hn::Lanes(d);
  const auto id = R::Identity(d);
  const auto zero = hn::Zero(d);
  const auto begin = [&](size_t i, auto& a, auto& nan) HWY_ATTR {
    if (first) {
      a = id;
      nan = zero;
    } else {
      Resume<R>(d, hn::LoadU(d, out + i), a, nan);
    }
  };
  const auto end = [&](size_t i, auto a, auto nan) HWY_ATTR {
    hn::StoreU(last ? R::Lanes(d, a, nan, n) : Park<R>(d, a, nan), d, out + i);
  };
  size_t i = c0;
  if (c1 - c0 >= 4 * N) {
    for (; i <= c1 - 4 * N; i += 4 * N) {
      auto a0 = id, a1 = id, a2 = id, a3 = id;
      auto n0 = zero, n1 = zero, n2 = zero, n3 = zero;
      begin(i, a0, n0);
      begin(i + N, a1, n1);
      begin(i + 2 * N, a2, n2);
      begin(i + 3 * N, a3, n3);
      for (size_t k = k0; k < k1; ++k) {
        const T* HWY_RESTRICT p = x + k * inner + i;
        R::Step(d, a0, n0, hn::LoadU(d, p));
        R::Step(d, a1, n1, hn::LoadU(d, p + N));
        R::Step(d, a2, n2, hn::LoadU(d, p + 2 * N));
        R::Step(d, a3, n3, hn::LoadU(d, p + 3 * N));
      }
      end(i, a0, n0);
      end(i + N, a1, n1);
      end(i + 2 * N, a2, n2);
      end(i + 3 * N, a3, n3);
    }
  }
  for (; i + N <= c1; i += N) {
    auto a = id;
    auto nan = zero;
    begin(i, a, nan);
    for (size_t k = k0; k < k1; ++k) R::Step(d, a, nan, hn::LoadU(d, x + k * inner + i));
    end(i, a, nan);
  }
  if (i < c1) {
    const size_t rest = c1 - i;
    auto a = id;
    auto nan = zero;
    if (!first) Resume<R>(d, LoadPartial(d, out + i, rest, id), a, nan);
    for (size_t k = k0; k < k1; ++k) {
      R::Step(d, a, nan, LoadPartial(d, x + k * inner + i, rest, id));
    }
    StorePartial(d, last ? R::Lanes(d, a, nan, n) : Park<R>(d, a, nan), rest, out + i);
  }
}

// inner > 1: the inner results of one (n, inner) block, vectorised along
// inner. Accumulators for 4 vectors of columns stay in registers while the
// rows pass, so each lane sums its column in row order, exactly like a
// sequential loop. Long rows are taken 4 KiB of columns at a time, in
// passes of kColumnPassRows rows, the state parked in out (in the L1
// cache) between passes: one pass per group of columns down all n rows
// read each row's 256 bytes (AVX-512 floats) on another page when rows are
// 4 KiB or more, where the hardware prefetchers stop, and rows 4 KiB apart
// share L1 sets. A pass reads its rows' runs one after another, which the
// prefetchers follow; the parking costs a load and a store per vector per
// 8 rows. Zen 5, float32 sum over dim 0, us, one pass per group against
// passes: [512, 1024] 54-62 against 26-27, [256, 4096] 106-113 against
// 54-57, [4096, 256] 62-64 against 47-48, [64, 1024] 3.3-3.5 against
// 2.3-2.4; reduce_max [2048, 512] 70-76 against 66-72. 16 rows per pass
// ran slower than 8 ([512, 1024] 34-36), 4 slower where rows are few or
// short; passes over fewer than 32 rows made reduce_max of [16, 65536]
// 18 % slower.
template <class R, class D, typename T = hn::TFromD<D>>
HWY_INLINE void ReduceColumns(D d, const T* HWY_RESTRICT x, T* HWY_RESTRICT out, size_t n,
                              size_t inner) {
  if (!TakesColumnPasses(d, n, inner, kReducePassBytes)) {
    ColumnPass<R>(d, x, out, n, inner, 0, inner, 0, n, true, true);
    return;
  }
  ForEachColumnBlock<T>(inner, [&](size_t c0, size_t c1) HWY_ATTR {
    ForEachRowPass(n, [&](size_t k0, size_t k1) HWY_ATTR {
      ColumnPass<R>(d, x, out, n, inner, c0, c1, k0, k1, k0 == 0, k1 == n);
    });
  });
}

// The maximum of one float row of n >= Lanes(d) elements, exact as
// MaxReducer's but in 1.5 ops per vector for ordinary data: plain Max, which
// returns one of its operands unless one is NaN (and either sign of equal
// zeros), and per pair of vectors a check x * y + check, which is NaN for
// good once an element is NaN (or infinite, or past 1.8e19 in float32 so
// that products overflow). The last vector overlaps the previous ones (Max
// is idempotent). The rare rows that need more are redone: those whose check
// is NaN by the exact reducer, and a zero maximum takes its sign from
// whether the row holds a +0.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE T MaxRowFloat(D d, const T* HWY_RESTRICT row, size_t n) {
  const size_t N = hn::Lanes(d);
  auto m0 = hn::LoadU(d, row), m1 = m0, m2 = m0, m3 = m0;
  auto c0 = hn::Zero(d), c1 = c0, c2 = c0, c3 = c0;
  size_t k = 0;
  if (n >= 8 * N) {
    auto m4 = m0, m5 = m0, m6 = m0, m7 = m0;
    for (; k <= n - 8 * N; k += 8 * N) {
      auto v0 = hn::LoadU(d, row + k);
      auto v1 = hn::LoadU(d, row + k + N);
      auto v2 = hn::LoadU(d, row + k + 2 * N);
      auto v3 = hn::LoadU(d, row + k + 3 * N);
      auto v4 = hn::LoadU(d, row + k + 4 * N);
      auto v5 = hn::LoadU(d, row + k + 5 * N);
      auto v6 = hn::LoadU(d, row + k + 6 * N);
      auto v7 = hn::LoadU(d, row + k + 7 * N);
      InRegister(v0);
      InRegister(v1);
      InRegister(v2);
      InRegister(v3);
      InRegister(v4);
      InRegister(v5);
      InRegister(v6);
      InRegister(v7);
      m0 = hn::Max(m0, v0);
      m1 = hn::Max(m1, v1);
      m2 = hn::Max(m2, v2);
      m3 = hn::Max(m3, v3);
      m4 = hn::Max(m4, v4);
      m5 = hn::Max(m5, v5);
      m6 = hn::Max(m6, v6);
      m7 = hn::Max(m7, v7);
      c0 = hn::MulAdd(v0, v1, c0);
      c1 = hn::MulAdd(v2, v3, c1);
      c2 = hn::MulAdd(v4, v5, c2);
      c3 = hn::MulAdd(v6, v7, c3);
    }
    m0 = hn::Max(m0, m4);
    m1 = hn::Max(m1, m5);
    m2 = hn::Max(m2, m6);
    m3 = hn::Max(m3, m7);
  }
  for (; k + N <= n; k += N) {
    const auto v = hn::LoadU(d, row + k);
    m0 = hn::Max(m0, v);
    c0 = hn::Add(c0, v);
  }
  if (k < n) {
    const auto v = hn::LoadU(d, row + n - N);
    m1 = hn::Max(m1, v);
    c1 = hn::Add(c1, v);
  }
  const auto check = hn::Add(hn::Add(c0, c1), hn::Add(c2, c3));
  if (!hn::AllFalse(d, hn::IsNaN(check))) {
    T out;
    ReduceRows<MaxReducer>(d, row, &out, 1, n);
    return out;
  }
  const auto m = hn::Max(hn::Max(m0, m1), hn::Max(m2, m3));
  T max = hn::GetLane(hn::MaxOfLanes(d, m));
  // EMU128's MaxOfLanes turns -inf into the lowest finite value.
  if (max == hwy::LowestValue<T>()) max = MaxOfLanesOrdered(d, m);
  if (max != 0) return max;
  for (size_t j = 0; j < n; ++j) {
    if (row[j] == 0 && !std::signbit(row[j])) return T{0};
  }
  return -T{0};
}

// Every case but the one below: blocks of columns, several rows, rows past
// kLongRowBytes, and the maximum of float rows.
template <class R, typename T>
HWY_NOINLINE void ReduceGeneral(const T* HWY_RESTRICT x, T* HWY_RESTRICT out, size_t outer,
                                size_t n, size_t inner) {
  if (inner != 1) {
    const hn::ScalableTag<T> d;
    for (size_t o = 0; o < outer; ++o) {
      ReduceColumns<R>(d, x + o * n * inner, out + o * inner, n, inner);
    }
    return;
  }
  if constexpr (std::is_same_v<R, MaxReducer> && hwy::IsFloat<T>()) {
    if (n < hn::Lanes(hn::ScalableTag<T>()) && n >= 2) {
      // Rows shorter than a vector in the widest vector they fill (its
      // last load overlapping the first): ReduceRows's exact reducer and
      // its ordered scalar maximum across the lanes took rows of 8 floats
      // 21 ns each on Zen 5 with AVX-512, rows of 16 in MaxRowFloat 4.7.
      const auto rows = [&](auto d) HWY_ATTR {
        for (size_t o = 0; o < outer; ++o) out[o] = MaxRowFloat(d, x + o * n, n);
      };
      if (n >= 8) return rows(hn::CappedTag<T, 8>());
      if (n >= 4) return rows(hn::CappedTag<T, 4>());
      return rows(hn::CappedTag<T, 2>());
    }
  }
  WithRowTag<T>(n, [&](auto d) HWY_ATTR {
    if constexpr (std::is_same_v<R, MaxReducer> && hwy::IsFloat<T>()) {
      if (n >= hn::Lanes(d)) {
        for (size_t o = 0; o < outer; ++o) out[o] = MaxRowFloat(d, x + o * n, n);
        return;
      }
    }
    ReduceRows<R>(d, x, out, outer, n);
  });
}

// The commonest reduction, a whole contiguous tensor into one result, in a
// function of its own: inlined into the exported one with the other cases,
// it shared their prologue (six registers saved, the stack realigned) and
// its loop's placement moved with theirs. Out of line, sum and mean run at
// a plain AVX-512 loop's speed. Zen 5, 1K float32 kernel alone, ns per call:
// sum 10.0-12.1 before (by code placement), 9.0 after, mean 10.6-11.7
// before, 9.45 after; a plain intrinsic loop 8.9 and 9.4 (with the
// division).
template <class R, typename T>
HWY_NOINLINE void ReduceOneRow(const T* HWY_RESTRICT x, T* HWY_RESTRICT out, size_t n) {
  ReduceRows<R>(hn::ScalableTag<T>(), x, out, 1, n);
}

template <class R, typename T>
HWY_INLINE void Reduce(const T* HWY_RESTRICT x, T* HWY_RESTRICT out, size_t outer, size_t n,
                       size_t inner) {
  if constexpr (!std::is_same_v<R, MaxReducer> || !hwy::IsFloat<T>()) {
    if (inner == 1 && outer == 1 && n * sizeof(T) <= kLongRowBytes) {
      return ReduceOneRow<R>(x, out, n);
    }
  }
  ReduceGeneral<R>(x, out, outer, n, inner);
}

// clang-format off
#define OPGEN_REDUCE(Name, Suffix, T, Reducer)                                    \
  void Name##Suffix(const T* HWY_RESTRICT x, T* HWY_RESTRICT out, size_t outer,   \
                    size_t n, size_t inner) {                                     \
    Reduce<Reducer>(x, out, outer, n, inner);                                     \
  }
// clang-format on

OPGEN_REDUCE(Sum, F32, float, SumReducer)
OPGEN_REDUCE(Sum, F64, double, SumReducer)
OPGEN_REDUCE(Sum, I32, int32_t, SumReducer)
OPGEN_REDUCE(Sum, I64, int64_t, SumReducer)
OPGEN_REDUCE(Mean, F32, float, MeanReducer)
OPGEN_REDUCE(Mean, F64, double, MeanReducer)
OPGEN_REDUCE(ReduceMax, F32, float, MaxReducer)
OPGEN_REDUCE(ReduceMax, F64, double, MaxReducer)
OPGEN_REDUCE(ReduceMax, I32, int32_t, MaxReducer)
OPGEN_REDUCE(ReduceMax, I64, int64_t, MaxReducer)
OPGEN_REDUCE(Prod, F32, float, ProdReducer)
OPGEN_REDUCE(Prod, F64, double, ProdReducer)
OPGEN_REDUCE(Prod, I32, int32_t, ProdReducer)
OPGEN_REDUCE(SumSquares, F32, float, SumSquaresReducer)
OPGEN_REDUCE(SumSquares, F64, double, SumSquaresReducer)

#undef OPGEN_REDUCE

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"
namespace opgen::kernels {

// clang-format off
#define OPGEN_EXPORT_REDUCE(Name, Suffix, T)                                      \
  HWY_EXPORT(Name##Suffix);                                                       \
  void Name(const T* x, T* out, std::size_t outer, std::size_t n, std::size_t inner) { \
    OPGEN_DYNAMIC_DISPATCH(Name##Suffix)(x, out, outer, n, inner);                  \
  }
// clang-format on

OPGEN_EXPORT_REDUCE(Sum, F32, float)
OPGEN_EXPORT_REDUCE(Sum, F64, double)
OPGEN_EXPORT_REDUCE(Sum, I32, std::int32_t)
OPGEN_EXPORT_REDUCE(Sum, I64, std::int64_t)
OPGEN_EXPORT_REDUCE(Mean, F32, float)
OPGEN_EXPORT_REDUCE(Mean, F64, double)
OPGEN_EXPORT_REDUCE(ReduceMax, F32, float)
OPGEN_EXPORT_REDUCE(ReduceMax, F64, double)
OPGEN_EXPORT_REDUCE(ReduceMax, I32, std::int32_t)
OPGEN_EXPORT_REDUCE(ReduceMax, I64, std::int64_t)
OPGEN_EXPORT_REDUCE(Prod, F32, float)
OPGEN_EXPORT_REDUCE(Prod, F64, double)
OPGEN_EXPORT_REDUCE(Prod, I32, std::int32_t)

#undef OPGEN_EXPORT_REDUCE

void Prod(const std::int64_t* x, std::int64_t* out, std::size_t outer, std::size_t n,
          std::size_t inner) {
  // Unsigned arithmetic wraps around without undefined behaviour.
  for (std::size_t o = 0; o < outer; ++o) {
    for (std::size_t i = 0; i < inner; ++i) {
      std::uint64_t prod = 1;
      for (std::size_t k = 0; k < n; ++k) {
        prod *= static_cast<std::uint64_t>(x[(o * n + k) * inner + i]);
      }
      out[o * inner + i] = static_cast<std::int64_t>(prod);
    }
  }
}

namespace {

HWY_EXPORT(SumSquaresF32);
HWY_EXPORT(SumSquaresF64);

void SumSquares(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner) {
  OPGEN_DYNAMIC_DISPATCH(SumSquaresF32)(x, out, outer, n, inner);
}
void SumSquares(const double* x, double* out, std::size_t outer, std::size_t n, std::size_t inner) {
  OPGEN_DYNAMIC_DISPATCH(SumSquaresF64)(x, out, outer, n, inner);
}

// The norm of the n elements x[k * stride], k < n, without overflow or
// underflow: scaled by the largest magnitude, summed in double.
template <typename T>
T ScaledNorm(const T* x, std::size_t n, std::size_t stride) {
  double max = 0;
  bool nan = false;
  for (std::size_t k = 0; k < n; ++k) {
    const double a = std::fabs(static_cast<double>(x[k * stride]));
    nan = nan || std::isnan(a);
    max = a > max ? a : max;
  }
  if (nan) return std::numeric_limits<T>::quiet_NaN();
  if (max == 0 || std::isinf(max)) return static_cast<T>(max);
  double sum = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double s = static_cast<double>(x[k * stride]) / max;
    sum += s * s;
  }
  return static_cast<T>(max * std::sqrt(sum));
}

// Squares of float32 overflow past |x| ~ 1.8e19 and lose precision below
// ~1e-19 (and ~1e154 / 1e-154 for float64). A sum of squares that is
// infinite or below min_normal / eps may have done either: those results
// (rare, and identical on every target since the rescale is scalar) are
// recomputed; the rest take the fast path's square root.
template <typename T>
void Norm2Impl(const T* x, T* out, std::size_t outer, std::size_t n, std::size_t inner) {
  using L = std::numeric_limits<T>;
  SumSquares(x, out, outer, n, inner);
  const T tiny = L::min() / L::epsilon();
  for (std::size_t o = 0; o < outer; ++o) {
    for (std::size_t i = 0; i < inner; ++i) {
      T& r = out[o * inner + i];
      if (std::isinf(r) || r < tiny) {
        r = ScaledNorm(x + o * n * inner + i, n, inner);
      } else {
        r = std::sqrt(r);
      }
    }
  }
}

}  // namespace

void Norm2(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner) {
  Norm2Impl(x, out, outer, n, inner);
}
void Norm2(const double* x, double* out, std::size_t outer, std::size_t n, std::size_t inner) {
  Norm2Impl(x, out, outer, n, inner);
}

}  // namespace opgen::kernels
#endif  // HWY_ONCE
