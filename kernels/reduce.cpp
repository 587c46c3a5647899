// Reduction kernels (see reduce.hpp), compiled once per SIMD target by
// foreach_target.h and dispatched at run time.
#include "kernels/reduce.hpp"

#include <cstddef>
#include <cstdint>

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
    return hn::GetLane(hn::SumOfLanes(d, acc));
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
  static hn::TFromD<D> Total(D d, V acc, V nan, size_t n) {
    return hn::GetLane(Lanes(d, hn::SumOfLanes(d, acc), nan, n));
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

// inner == 1: one contiguous row per result. Four accumulators break the
// dependency chain of the adds; the remainder is one partial vector padded
// with the identity.
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
    if (n >= 4 * N) {
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

// inner > 1: the inner results of one (n, inner) block, vectorised along
// inner. Accumulators for 4 vectors of columns stay in registers while the
// rows stream past, so x is read once and out written once; each lane sums
// its column in row order, exactly like a sequential loop.
template <class R, class D, typename T = hn::TFromD<D>>
HWY_INLINE void ReduceColumns(D d, const T* HWY_RESTRICT x, T* HWY_RESTRICT out, size_t n,
                              size_t inner) {
  const size_t N = hn::Lanes(d);
  const auto id = R::Identity(d);
  size_t i = 0;
  if (inner >= 4 * N) {
    for (; i <= inner - 4 * N; i += 4 * N) {
      auto a0 = id, a1 = id, a2 = id, a3 = id;
      auto n0 = hn::Zero(d), n1 = n0, n2 = n0, n3 = n0;
      for (size_t k = 0; k < n; ++k) {
        const T* HWY_RESTRICT p = x + k * inner + i;
        R::Step(d, a0, n0, hn::LoadU(d, p));
        R::Step(d, a1, n1, hn::LoadU(d, p + N));
        R::Step(d, a2, n2, hn::LoadU(d, p + 2 * N));
        R::Step(d, a3, n3, hn::LoadU(d, p + 3 * N));
      }
      hn::StoreU(R::Lanes(d, a0, n0, n), d, out + i);
      hn::StoreU(R::Lanes(d, a1, n1, n), d, out + i + N);
      hn::StoreU(R::Lanes(d, a2, n2, n), d, out + i + 2 * N);
      hn::StoreU(R::Lanes(d, a3, n3, n), d, out + i + 3 * N);
    }
  }
  for (; i + N <= inner; i += N) {
    auto a = id;
    auto nan = hn::Zero(d);
    for (size_t k = 0; k < n; ++k) R::Step(d, a, nan, hn::LoadU(d, x + k * inner + i));
    hn::StoreU(R::Lanes(d, a, nan, n), d, out + i);
  }
  if (i < inner) {
    const size_t rest = inner - i;
    auto a = id;
    auto nan = hn::Zero(d);
    for (size_t k = 0; k < n; ++k) {
      R::Step(d, a, nan, LoadPartial(d, x + k * inner + i, rest, id));
    }
    StorePartial(d, R::Lanes(d, a, nan, n), rest, out + i);
  }
}

template <class R, typename T>
HWY_INLINE void Reduce(const T* HWY_RESTRICT x, T* HWY_RESTRICT out, size_t outer, size_t n,
                       size_t inner) {
  const hn::ScalableTag<T> d;
  if (inner == 1) {
    ReduceRows<R>(d, x, out, outer, n);
    return;
  }
  for (size_t o = 0; o < outer; ++o) {
    ReduceColumns<R>(d, x + o * n * inner, out + o * inner, n, inner);
  }
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

#undef OPGEN_REDUCE

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace opgen::kernels {

// clang-format off
#define OPGEN_EXPORT_REDUCE(Name, Suffix, T)                                      \
  HWY_EXPORT(Name##Suffix);                                                       \
  void Name(const T* x, T* out, std::size_t outer, std::size_t n, std::size_t inner) { \
    HWY_DYNAMIC_DISPATCH(Name##Suffix)(x, out, outer, n, inner);                  \
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

#undef OPGEN_EXPORT_REDUCE

}  // namespace opgen::kernels
#endif  // HWY_ONCE
