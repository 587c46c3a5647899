// Kernels with bool operands or results (see compare.hpp), compiled once per
// SIMD target by foreach_target.h and dispatched at run time.
//
// A bool array is read and written as bytes: a vector of N lanes of T
// corresponds to N bytes, converted with DemoteTo/PromoteTo through 32-bit
// lanes (Highway 1.0.3 has no mask conversion between lane sizes) except
// on AVX-512, whose bit masks serve any lane size (kBitMasks); one
// comparison of full vectors stores a partial byte vector.
#include "kernels/compare.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/compare.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/transform-inl.h"

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The byte vector with one lane per lane of D.
template <class D>
using ByteTag = hn::Rebind<uint8_t, D>;

// Whether D is a whole AVX-512 vector, whose masks are bit masks (one bit
// per lane whatever the lane's size): a byte vector's mask of as many lanes
// is the same bits.
template <class D>
inline constexpr bool kBitMasks =
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    hn::MaxLanes(D()) * sizeof(hn::TFromD<D>) == 64;
#else
    false;
#endif

// Lanes of m as bytes 0 or 1. With bit masks one zero-masked byte move
// (through the API on Zen 5, 1K float32 less 37 -> 26 ns, isnan 31 -> 17,
// and where's BytesToMask 38 -> 33); otherwise int32 lanes narrowed.
template <class D>
HWY_INLINE hn::Vec<ByteTag<D>> MaskToBytes(D, hn::Mask<D> m) {
  if constexpr (kBitMasks<D>) {
    const ByteTag<D> d8;
    const auto m8 = hn::Mask<ByteTag<D>>::FromBits(static_cast<uint64_t>(m.raw));
    return hn::IfThenElseZero(m8, hn::Set(d8, uint8_t{1}));
  } else if constexpr (sizeof(hn::TFromD<D>) == 4) {
    const hn::Rebind<int32_t, D> di;
    return hn::DemoteTo(ByteTag<D>(), hn::IfThenElseZero(hn::RebindMask(di, m), hn::Set(di, 1)));
  } else {
    // 64-bit lanes: through float64 (0.0 or 1.0), then int32.
    const hn::Rebind<double, D> dd;
    const hn::Rebind<int32_t, D> di;
    const auto ones = hn::IfThenElseZero(hn::RebindMask(dd, m), hn::Set(dd, 1.0));
    return hn::DemoteTo(ByteTag<D>(), hn::DemoteTo(di, ones));
  }
}

// Bytes (nonzero: true) as a mask of D: with bit masks one byte compare.
template <class D>
HWY_INLINE hn::Mask<D> BytesToMask(D d, hn::Vec<ByteTag<D>> b) {
  if constexpr (kBitMasks<D>) {
    const auto m8 = hn::Ne(b, hn::Zero(ByteTag<D>()));
    return hn::Mask<D>{static_cast<typename hn::Mask<D>::Raw>(m8.raw)};
  }
  const hn::Rebind<int32_t, D> di;
  const auto wide = hn::PromoteTo(di, b);
  if constexpr (sizeof(hn::TFromD<D>) == 4) {
    return hn::RebindMask(d, hn::Ne(wide, hn::Zero(di)));
  } else {
    const hn::Rebind<int64_t, D> dl;
    return hn::RebindMask(d, hn::Ne(hn::PromoteTo(dl, wide), hn::Zero(dl)));
  }
}

// out[i] for i < n, one vector of dout per step: whole(i) gives the vector
// at i, part(i, count) stores `count` elements at i itself. With kStream,
// after partial vectors up to out's alignment, whole vectors take streaming
// stores, as UnaryTransform's do for outputs far larger than the caches.
template <bool kStream, class DO, class Whole, class Part, typename TO = hn::TFromD<DO>>
HWY_INLINE void ByVectors(DO dout, TO* out, size_t n, const Whole& whole, const Part& part) {
  const size_t N = hn::Lanes(dout);
  size_t i = 0;
  if constexpr (kStream) {
    for (const size_t head = HeadToAlign(dout, out, n); i < head;) {
      const size_t count = head - i < N ? head - i : N;
      part(i, count);
      i += count;
    }
    for (; i + N <= n; i += N) hn::Stream(whole(i), dout, out + i);
    hwy::FlushStream();
  }
  for (; i + N <= n; i += N) hn::StoreU(whole(i), dout, out + i);
  if (i < n) part(i, n - i);
}

// loop(std::true_type()) out of line: the streaming variant of a loop that
// takes its kStream as a type, kept out of the common path's code.
template <class Loop>
HWY_NOINLINE void Streamed(Loop loop) {
  loop(std::true_type());
}

// loop(kStream) with kStream true (through Streamed) when one input, n
// elements of elem_bytes (the widest operand's), is at least StreamBytes()
// and vectors of dout can be streamed (kCanStream: 16 bytes or more, so
// the byte outputs of comparisons and isnan/isinf stream only from 16
// lanes of 32-bit elements, AVX-512 and SVE; where's outputs on every
// target but SCALAR). Zen 5, 16M float32 through the
// API: where 2.7 -> 3.1-3.3 Gelem/s, less 4.3 -> 4.7-5.3, isnan 7.3 ->
// 8.6-9.2. The work per element is a compare or a select, so these loops
// are bound by memory; prefetching ahead as UnaryTransform does measured
// alike. loop captures by value: by reference, its captures would be kept
// in memory on the common path too (1K less took 26 -> 29 ns).
template <class DO, class Loop>
HWY_INLINE void ByVectorsMaybeStreamed(DO, size_t n, size_t elem_bytes, const Loop& loop) {
  if constexpr (kCanStream<DO>) {
    if (n * elem_bytes >= StreamBytes()) return Streamed(loop);
  }
  loop(std::false_type());
}

// out[i] = pred(d, x[i], y[i]) as bytes.
template <class D, class Pred, typename T = hn::TFromD<D>>
HWY_INLINE void CompareTransform(D d, const T* x, const T* y, uint8_t* out, size_t n,
                                 const Pred& pred) {
  const ByteTag<D> d8;
  ByVectorsMaybeStreamed(d8, n, sizeof(T), [=](auto stream) HWY_ATTR {
    ByVectors<decltype(stream)::value>(
        d8, out, n,
        [&](size_t i)
            HWY_ATTR { return MaskToBytes(d, pred(d, hn::LoadU(d, x + i), hn::LoadU(d, y + i))); },
        [&](size_t i, size_t count) HWY_ATTR {
          const auto vx = LoadPartial(d, x + i, count, PaddingLanes(d));
          const auto vy = LoadPartial(d, y + i, count, PaddingLanes(d));
          StorePartial(d8, MaskToBytes(d, pred(d, vx, vy)), count, out + i);
        });
  });
}

// out[i] = pred(d, x[i]) as bytes.
template <class D, class Pred, typename T = hn::TFromD<D>>
HWY_INLINE void TestTransform(D d, const T* x, uint8_t* out, size_t n, const Pred& pred) {
  const ByteTag<D> d8;
  ByVectorsMaybeStreamed(d8, n, sizeof(T), [=](auto stream) HWY_ATTR {
    ByVectors<decltype(stream)::value>(
        d8, out, n, [&](size_t i) HWY_ATTR { return MaskToBytes(d, pred(d, hn::LoadU(d, x + i))); },
        [&](size_t i, size_t count) HWY_ATTR {
          const auto v = LoadPartial(d, x + i, count, PaddingLanes(d));
          StorePartial(d8, MaskToBytes(d, pred(d, v)), count, out + i);
        });
  });
}

// out[i] = cond[i] ? x[i] : y[i].
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void Select(D d, const uint8_t* cond, const T* x, const T* y, T* out, size_t n) {
  const ByteTag<D> d8;
  ByVectorsMaybeStreamed(d, n, sizeof(T), [=](auto stream) HWY_ATTR {
    ByVectors<decltype(stream)::value>(
        d, out, n,
        [&](size_t i) HWY_ATTR {
          const auto m = BytesToMask(d, hn::LoadU(d8, cond + i));
          return hn::IfThenElse(m, hn::LoadU(d, x + i), hn::LoadU(d, y + i));
        },
        [&](size_t i, size_t count) HWY_ATTR {
          const auto m = BytesToMask(d, LoadPartial(d8, cond + i, count, hn::Zero(d8)));
          const auto vx = LoadPartial(d, x + i, count, hn::Zero(d));
          const auto vy = LoadPartial(d, y + i, count, hn::Zero(d));
          StorePartial(d, hn::IfThenElse(m, vx, vy), count, out + i);
        });
  });
}

// out[i] = cond[i] ? x[i] : y[i] on bytes, each result normalised to 0/1.
// Unlike Select, all three arrays have one byte per element, so the mask
// comes from a byte comparison of the same width (no promotion).
template <class D>
HWY_INLINE void SelectBytes(D d, const uint8_t* cond, const uint8_t* x, const uint8_t* y,
                            uint8_t* out, size_t n) {
  const auto zero = hn::Zero(d);
  const auto one = hn::Set(d, uint8_t{1});
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto m = hn::Eq(hn::LoadU(d, cond + i), zero);
    hn::StoreU(hn::Min(hn::IfThenElse(m, hn::LoadU(d, y + i), hn::LoadU(d, x + i)), one), d,
               out + i);
  }
  if (i < n) {
    const size_t rest = n - i;
    const auto m = hn::Eq(LoadPartial(d, cond + i, rest, zero), zero);
    const auto vx = LoadPartial(d, x + i, rest, zero);
    const auto vy = LoadPartial(d, y + i, rest, zero);
    StorePartial(d, hn::Min(hn::IfThenElse(m, vy, vx), one), rest, out + i);
  }
}

struct EqualOp {
  template <class D, class V>
  HWY_INLINE hn::Mask<D> operator()(D, V a, V b) const {
    return hn::Eq(a, b);
  }
};
struct NotEqualOp {
  template <class D, class V>
  HWY_INLINE hn::Mask<D> operator()(D, V a, V b) const {
    // Not Ne: on AVX2/AVX-512, Highway 1.0.3's float Ne is an ordered
    // comparison, false where either operand is NaN.
    return hn::Not(hn::Eq(a, b));
  }
};
struct LessOp {
  template <class D, class V>
  HWY_INLINE hn::Mask<D> operator()(D, V a, V b) const {
    return hn::Lt(a, b);
  }
};
struct LessEqualOp {
  template <class D, class V>
  HWY_INLINE hn::Mask<D> operator()(D, V a, V b) const {
    // Highway 1.0.3 has Le/Ge for floats only; for integers (no NaN) they
    // are the complements of Gt/Lt.
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
      return hn::Le(a, b);
    } else {
      return hn::Not(hn::Gt(a, b));
    }
  }
};
struct GreaterOp {
  template <class D, class V>
  HWY_INLINE hn::Mask<D> operator()(D, V a, V b) const {
    return hn::Gt(a, b);
  }
};
struct GreaterEqualOp {
  template <class D, class V>
  HWY_INLINE hn::Mask<D> operator()(D, V a, V b) const {
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
      return hn::Ge(a, b);
    } else {
      return hn::Not(hn::Lt(a, b));
    }
  }
};
struct IsnanOp {
  template <class D, class V>
  HWY_INLINE hn::Mask<D> operator()(D, V a) const {
    return hn::IsNaN(a);
  }
};
struct IsinfOp {
  template <class D, class V>
  HWY_INLINE hn::Mask<D> operator()(D, V a) const {
    return hn::IsInf(a);
  }
};

// Logical ops on whole byte vectors: each byte normalised to 0/1 first.
struct LogicalAndOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    const V one = hn::Set(d, uint8_t{1});
    return hn::And(hn::Min(a, one), hn::Min(b, one));
  }
};
struct LogicalOrOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    return hn::Min(hn::Or(a, b), hn::Set(d, uint8_t{1}));
  }
};
struct LogicalNotOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a) const {
    const V one = hn::Set(d, uint8_t{1});
    return hn::Xor(hn::Min(a, one), one);
  }
};

// Inequality of bools as truth values: bytes normalised to 0/1, then xor;
// equality flips that 0/1 result.
struct BoolNotEqualOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    const V one = hn::Set(d, uint8_t{1});
    return hn::Xor(hn::Min(a, one), hn::Min(b, one));
  }
};
struct BoolEqualOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    return hn::Xor(BoolNotEqualOp()(d, a, b), hn::Set(d, uint8_t{1}));
  }
};

// bool and uint8_t are both one byte; unsigned char may alias any object.
inline const uint8_t* Bytes(const bool* p) { return reinterpret_cast<const uint8_t*>(p); }
inline uint8_t* Bytes(bool* p) { return reinterpret_cast<uint8_t*>(p); }

// clang-format off
#define OPGEN_COMPARE(Name, Suffix, T)                                       \
  void Name##Suffix(const T* x, const T* y, bool* out, size_t n) {           \
    CompareTransform(hn::ScalableTag<T>(), x, y, Bytes(out), n, Name##Op()); \
  }
#define OPGEN_COMPARE_ALL(Name)                                              \
  OPGEN_COMPARE(Name, F32, float) OPGEN_COMPARE(Name, F64, double)           \
  OPGEN_COMPARE(Name, I32, int32_t) OPGEN_COMPARE(Name, I64, int64_t)
#define OPGEN_TEST(Name, Suffix, T)                                          \
  void Name##Suffix(const T* x, bool* out, size_t n) {                       \
    TestTransform(hn::ScalableTag<T>(), x, Bytes(out), n, Name##Op());       \
  }
#define OPGEN_WHERE(Suffix, T)                                               \
  void Where##Suffix(const bool* cond, const T* x, const T* y, T* out,       \
                     size_t n) {                                             \
    Select(hn::ScalableTag<T>(), Bytes(cond), x, y, out, n);                 \
  }
// clang-format on

OPGEN_COMPARE_ALL(Equal)
OPGEN_COMPARE_ALL(NotEqual)
OPGEN_COMPARE_ALL(Less)
OPGEN_COMPARE_ALL(LessEqual)
OPGEN_COMPARE_ALL(Greater)
OPGEN_COMPARE_ALL(GreaterEqual)
OPGEN_TEST(Isnan, F32, float)
OPGEN_TEST(Isnan, F64, double)
OPGEN_TEST(Isinf, F32, float)
OPGEN_TEST(Isinf, F64, double)
OPGEN_WHERE(F32, float)
OPGEN_WHERE(F64, double)
OPGEN_WHERE(I32, int32_t)
OPGEN_WHERE(I64, int64_t)

void LogicalAndB(const bool* x, const bool* y, bool* out, size_t n) {
  BinaryTransform(hn::ScalableTag<uint8_t>(), Bytes(x), Bytes(y), Bytes(out), n, LogicalAndOp());
}
void LogicalOrB(const bool* x, const bool* y, bool* out, size_t n) {
  BinaryTransform(hn::ScalableTag<uint8_t>(), Bytes(x), Bytes(y), Bytes(out), n, LogicalOrOp());
}
void LogicalNotB(const bool* x, bool* out, size_t n) {
  UnaryTransform(hn::ScalableTag<uint8_t>(), Bytes(x), Bytes(out), n, LogicalNotOp());
}
void EqualB(const bool* x, const bool* y, bool* out, size_t n) {
  BinaryTransform(hn::ScalableTag<uint8_t>(), Bytes(x), Bytes(y), Bytes(out), n, BoolEqualOp());
}
void NotEqualB(const bool* x, const bool* y, bool* out, size_t n) {
  BinaryTransform(hn::ScalableTag<uint8_t>(), Bytes(x), Bytes(y), Bytes(out), n,
                  BoolNotEqualOp());
}
void WhereB(const bool* cond, const bool* x, const bool* y, bool* out, size_t n) {
  SelectBytes(hn::ScalableTag<uint8_t>(), Bytes(cond), Bytes(x), Bytes(y), Bytes(out), n);
}

#undef OPGEN_COMPARE
#undef OPGEN_COMPARE_ALL
#undef OPGEN_TEST
#undef OPGEN_WHERE

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"
namespace opgen::kernels {

// clang-format off
#define OPGEN_EXPORT_COMPARE(Name, Suffix, T)                                \
  HWY_EXPORT(Name##Suffix);                                                  \
  void Name(const T* x, const T* y, bool* out, std::size_t n) {              \
    OPGEN_DYNAMIC_DISPATCH(Name##Suffix)(x, y, out, n);                        \
  }
#define OPGEN_EXPORT_COMPARE_ALL(Name)                                       \
  OPGEN_EXPORT_COMPARE(Name, F32, float)                                     \
  OPGEN_EXPORT_COMPARE(Name, F64, double)                                    \
  OPGEN_EXPORT_COMPARE(Name, I32, std::int32_t)                              \
  OPGEN_EXPORT_COMPARE(Name, I64, std::int64_t)
#define OPGEN_EXPORT_TEST(Name, Suffix, T)                                   \
  HWY_EXPORT(Name##Suffix);                                                  \
  void Name(const T* x, bool* out, std::size_t n) {                          \
    OPGEN_DYNAMIC_DISPATCH(Name##Suffix)(x, out, n);                           \
  }
#define OPGEN_EXPORT_WHERE(Suffix, T)                                        \
  HWY_EXPORT(Where##Suffix);                                                 \
  void Where(const bool* cond, const T* x, const T* y, T* out,               \
             std::size_t n) {                                                \
    OPGEN_DYNAMIC_DISPATCH(Where##Suffix)(cond, x, y, out, n);                 \
  }
// clang-format on

OPGEN_EXPORT_COMPARE_ALL(Equal)
OPGEN_EXPORT_COMPARE_ALL(NotEqual)
OPGEN_EXPORT_COMPARE_ALL(Less)
OPGEN_EXPORT_COMPARE_ALL(LessEqual)
OPGEN_EXPORT_COMPARE_ALL(Greater)
OPGEN_EXPORT_COMPARE_ALL(GreaterEqual)
OPGEN_EXPORT_TEST(Isnan, F32, float)
OPGEN_EXPORT_TEST(Isnan, F64, double)
OPGEN_EXPORT_TEST(Isinf, F32, float)
OPGEN_EXPORT_TEST(Isinf, F64, double)
OPGEN_EXPORT_WHERE(F32, float)
OPGEN_EXPORT_WHERE(F64, double)
OPGEN_EXPORT_WHERE(I32, std::int32_t)
OPGEN_EXPORT_WHERE(I64, std::int64_t)

HWY_EXPORT(LogicalAndB);
HWY_EXPORT(LogicalOrB);
HWY_EXPORT(LogicalNotB);
void LogicalAnd(const bool* x, const bool* y, bool* out, std::size_t n) {
  OPGEN_DYNAMIC_DISPATCH(LogicalAndB)(x, y, out, n);
}
void LogicalOr(const bool* x, const bool* y, bool* out, std::size_t n) {
  OPGEN_DYNAMIC_DISPATCH(LogicalOrB)(x, y, out, n);
}
void LogicalNot(const bool* x, bool* out, std::size_t n) {
  OPGEN_DYNAMIC_DISPATCH(LogicalNotB)(x, out, n);
}

HWY_EXPORT(EqualB);
HWY_EXPORT(NotEqualB);
HWY_EXPORT(WhereB);
void Equal(const bool* x, const bool* y, bool* out, std::size_t n) {
  OPGEN_DYNAMIC_DISPATCH(EqualB)(x, y, out, n);
}
void NotEqual(const bool* x, const bool* y, bool* out, std::size_t n) {
  OPGEN_DYNAMIC_DISPATCH(NotEqualB)(x, y, out, n);
}
void Where(const bool* cond, const bool* x, const bool* y, bool* out, std::size_t n) {
  OPGEN_DYNAMIC_DISPATCH(WhereB)(cond, x, y, out, n);
}

#undef OPGEN_EXPORT_COMPARE
#undef OPGEN_EXPORT_COMPARE_ALL
#undef OPGEN_EXPORT_TEST
#undef OPGEN_EXPORT_WHERE

}  // namespace opgen::kernels
#endif  // HWY_ONCE
