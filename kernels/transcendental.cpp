// Transcendental kernels (see transcendental.hpp), compiled once per SIMD
// target by foreach_target.h and dispatched at run time.
#include "kernels/transcendental.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/transcendental.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/math-inl.h"
#include "kernels/transform-inl.h"

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Float32 square roots on AVX-512, where vsqrtps (zmm) takes about 3.4 ns
// per vector (a Sapphire Rapids class Xeon) and the FMA units are meanwhile
// idle: of every three vectors, one goes to the hardware square root and two
// to SqrtRefined, which computes the same correctly rounded result in six
// FMA-unit operations, so that the two units work side by side. 1024
// floats: 102-104 ns, against 229 for vsqrtps alone (ops_bench, one core;
// Eigen's rsqrt estimate with one Newton step, 1.7e-7 error, 110-114).
//
// SqrtRefined: r = rsqrt14(a) = (1 + e) / sqrt(a) with |e| < 2^-14 (the
// instruction's specified bound); one coupled Newton step gives y ~ sqrt(a)
// within about an ulp and h ~ 1 / (2 sqrt(a)); the residual a - y^2 is then
// exact in an FMA (a multiple of 2^(2 exponent(y) - 46), normal or zero for
// a >= 2^-80, so flushing modes do not touch it), and y + (a - y^2) h,
// rounded once, is sqrt(a) correctly rounded (Markstein's correction). Not
// proved here: checked against vsqrtps for every float32 (that CPU's
// rsqrt14), and for every float in [1, 4) with estimates spread over the
// whole |e| < 2^-14 (fixed and per-element pseudo-random errors, 55
// patterns), none differing; the kernel tests check every float32 of four
// pairs of binades on every target. Lanes outside [2^-80, inf) (zero,
// negative, tiny, subnormal, inf, NaN) take the hardware square root; below
// 2^-102 the residual would round and the form be wrong.
#undef OPGEN_SQRT_REFINED
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
#define OPGEN_SQRT_REFINED 1
template <class D, class V>
HWY_INLINE V SqrtRefined(D d, V a) {
  const hn::RebindToSigned<D> di;
  const V r = hn::ApproximateReciprocalSqrt(a);
  // r / 2, exactly (r is normal here), off the FMA units.
  const V h0 = hn::BitCast(d, hn::Sub(hn::BitCast(di, r), hn::Set(di, 1 << 23)));
  const V y0 = hn::Mul(a, r);
  const V e = hn::NegMulAdd(y0, h0, hn::Set(d, 0.5f));  // 0.5 - y0 h0
  const V y = hn::MulAdd(y0, e, y0);
  const V h = hn::MulAdd(h0, e, h0);
  return hn::MulAdd(hn::NegMulAdd(y, y, a), h, y);  // y + (a - y^2) h
}
template <class D, class V>
HWY_INLINE auto SqrtRefinedInRange(D d, V a) {
  return BitsInRange<0x17800000u, 0x7F800000u>(d, a);  // 2^-80 and +inf
}

// float64 on AVX-512: vsqrtpd (zmm) takes about 16 cycles per vector on a
// Sapphire Rapids class Xeon (Emerald Rapids, 1200 doubles in L1: 1203
// ns), where Eigen's rsqrt14 and two Newton steps, 2.7e-16 relative error,
// ran 2.5 times as fast. SqrtRefinedF64 is SqrtRefined with a second
// coupled Newton step (14, 28, then about 53 bits in y and h), ten
// FMA-unit operations: 446 ns alone, 367 with one vector in four to
// vsqrtpd (one in two: 603, one in three 432, one in five 394). The
// residual a - y^2 is exact and normal for a >= 2^-960 (a multiple of
// 2^(2 exponent(y) - 104), about 2^(exponent(a) - 52) in size). Not
// proved here: none of 160 million results differed from vsqrtpd (a third
// at random in [2^-960, 2^1024), two thirds whose square root lies within
// a few ulp of a midpoint between doubles, the hard cases of rounding,
// scaled over 2^+-900), nor of 32 million with estimates spread over
// the whole |e| < 2^-14; with one Newton step 0.7 % of them did.
template <class D, class V>
HWY_INLINE V SqrtRefinedF64(D d, V a) {
  const hn::RebindToSigned<D> di;
  const V r{_mm512_rsqrt14_pd(a.raw)};
  const V half = hn::Set(d, 0.5);
  V h = hn::BitCast(d, hn::Sub(hn::BitCast(di, r), hn::Set(di, std::int64_t{1} << 52)));
  V y = hn::Mul(a, r);
  for (int step = 0; step < 2; ++step) {
    const V e = hn::NegMulAdd(y, h, half);  // 0.5 - y h
    y = hn::MulAdd(y, e, y);
    h = hn::MulAdd(h, e, h);
  }
  return hn::MulAdd(hn::NegMulAdd(y, y, a), h, y);  // y + (a - y^2) h
}
// a in [2^-960, +inf): its bits, offset so that the range is one signed
// comparison (BitsInRange's for 64-bit lanes).
template <class D, class V>
HWY_INLINE auto SqrtRefinedF64InRange(D d, V a) {
  const hn::RebindToSigned<D> di;
  constexpr std::uint64_t kLo = 0x03F0000000000000u, kHi = 0x7FF0000000000000u;
  const auto shifted = hn::Add(hn::BitCast(di, a),
                               hn::Set(di, static_cast<std::int64_t>(0x8000000000000000u - kLo)));
  const auto limit = hn::Set(di, static_cast<std::int64_t>((kHi - kLo) ^ 0x8000000000000000u));
  return hn::RebindMask(d, hn::Lt(shifted, limit));
}
#else
#define OPGEN_SQRT_REFINED 0
#endif

// Square roots, correctly rounded: vsqrtps / vsqrtpd (Highway's Sqrt), or
// on AVX-512 for float64 vectors wholly in SqrtRefinedF64InRange, that
// form (the streamed arrays and the tails of SqrtF64's groups).
struct SqrtOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
#if OPGEN_SQRT_REFINED
    if constexpr (sizeof(hn::TFromD<D>) == 8 && sizeof(V) == 64) {
      if (HWY_LIKELY(hn::AllTrue(d, SqrtRefinedF64InRange(d, v)))) return SqrtRefinedF64(d, v);
    }
#else
    static_cast<void>(d);
#endif
    return hn::Sqrt(v);
  }
};

struct ExpOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return ExpFull(d, v);
  }
};
// Fast (AVX-512): float32 vectors whose lanes are all normal, finite and
// positive take LnTableF32, 0.55 ulp over every such float (Highway's Log,
// LogFull's core and every other target's: 0.96 ulp) and 1.1-1.4x as fast
// on Zen 4 (ops_bench, 1K to 16M).
#if OPGEN_TABLE16
using LogOp =
    FastFormOp<decltype([](auto d, auto v) OPGEN_FORM_ATTR { return LogFull(d, v); }),
               decltype([](auto d, auto v) OPGEN_FORM_ATTR {
                 if constexpr (hn::MaxLanes(decltype(d)()) == 16) {
                   return LnTableF32</*kCorrection=*/false>(d, v, v);
                 } else {
                   return LogFull(d, v);
                 }
               }),
               decltype([](auto d, auto v) OPGEN_FORM_ATTR { return PositiveNormalF32(d, v); })>;
#else
struct LogOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return LogFull(d, v);
  }
};
#endif
struct TanhOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    if constexpr (sizeof(hn::TFromD<D>) == 4) {
      return TanhFloat32(d, v);
    } else {
#if OPGEN_TABLE16
      if constexpr (hn::MaxLanes(D()) == 8) return TanhF64Table(d, v);
#endif
      return hn::Tanh(d, v);
    }
  }
};
// Fast: float32 vectors whose lanes all lie in SigmoidInRange (Sigmoid
// checks one vector at a time itself). kDivide: see UnaryTransformDivider.
template <bool kDivide>
constexpr auto kSigmoidFull = [](auto d, auto v) OPGEN_FORM_ATTR { return Sigmoid<kDivide>(d, v); };
template <bool kDivide>
constexpr auto kSigmoidFast =
    [](auto d, auto v) OPGEN_FORM_ATTR { return SigmoidInRangeF32<kDivide>(d, v); };
constexpr auto kSigmoidInRange = [](auto d, auto v)
                                     OPGEN_FORM_ATTR { return SigmoidInRange(d, v); };
template <bool kDivide>
using SigmoidOp = FastFormOp<decltype(kSigmoidFull<kDivide>), decltype(kSigmoidFast<kDivide>),
                             decltype(kSigmoidInRange), /*kFastAlone=*/false>;
// Fast: float32 vectors whose sigmoid arguments 2u all lie in SigmoidInRange
// (|x| below about 11.6), so x is finite.
template <bool kDivide>
constexpr auto kGeluFull = [](auto d, auto v) OPGEN_FORM_ATTR { return Gelu<kDivide>(d, v); };
template <bool kDivide>
constexpr auto kGeluFast = [](auto d, auto v) OPGEN_FORM_ATTR {
  return hn::Mul(v, SigmoidInRangeF32<kDivide>(d, GeluTwoU(d, v)));
};
constexpr auto kGeluInRange = [](auto d, auto v)
                                  OPGEN_FORM_ATTR { return SigmoidInRange(d, GeluTwoU(d, v)); };
template <bool kDivide>
using GeluOp = FastFormOp<decltype(kGeluFull<kDivide>), decltype(kGeluFast<kDivide>),
                          decltype(kGeluInRange), /*kFastAlone=*/false>;

// clang-format off
#define OPGEN_UNARY(Name, Suffix, T)                                         \
  void Name##Suffix(const T* x, T* out, size_t n) {                          \
    UnaryTransform(hn::ScalableTag<T>(), x, out, n, Name##Op());             \
  }
#define OPGEN_UNARY_FLOAT(Name)                                              \
  OPGEN_UNARY(Name, F32, float) OPGEN_UNARY(Name, F64, double)
// clang-format on

#if OPGEN_SQRT_REFINED
// Groups of three vectors, not FastFormOp's DividerShare: one vector in
// four to vsqrtps measured 110-112 ns at 1K and 6.9-7.1 us at 64K in
// ops_bench, one in three 102-107 ns and 6.5-6.7 us.
void SqrtF32(const float* x, float* out, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  // Arrays that UnaryTransform streams are bound by memory, not by vsqrtps.
  if (n * sizeof(float) < StreamBytes()) {
    for (; i + 3 * N <= n; i += 3 * N) {
      const auto a0 = hn::LoadU(d, x + i);
      const auto a1 = hn::LoadU(d, x + i + N);
      const auto a2 = hn::LoadU(d, x + i + 2 * N);
      const auto y0 = hn::Sqrt(a0);
      hn::Vec<decltype(d)> y1, y2;
      if (HWY_LIKELY(
              hn::AllTrue(d, hn::And(SqrtRefinedInRange(d, a1), SqrtRefinedInRange(d, a2))))) {
        y1 = SqrtRefined(d, a1);
        y2 = SqrtRefined(d, a2);
      } else {
        y1 = hn::Sqrt(a1);
        y2 = hn::Sqrt(a2);
      }
      hn::StoreU(y0, d, out + i);
      hn::StoreU(y1, d, out + i + N);
      hn::StoreU(y2, d, out + i + 2 * N);
    }
  }
  UnaryTransform(d, x + i, out + i, n - i, SqrtOp());
}
// Groups of kGroup vectors of x from its start, the first of each to
// vsqrtpd, the others to SqrtRefinedF64 (or all to vsqrtpd where one is
// out of its range). Returns how many elements it did.
template <size_t kGroup, class D, typename T = hn::TFromD<D>>
HWY_INLINE size_t SqrtGroupsF64(D d, const T* HWY_RESTRICT x, T* HWY_RESTRICT out, size_t n) {
  static_assert(kGroup >= 2);
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + kGroup * N <= n; i += kGroup * N) {
    hn::Vec<D> a[kGroup];
    for (size_t j = 0; j < kGroup; ++j) a[j] = hn::LoadU(d, x + i + j * N);
    auto ok = SqrtRefinedF64InRange(d, a[1]);
    for (size_t j = 2; j < kGroup; ++j) ok = hn::And(ok, SqrtRefinedF64InRange(d, a[j]));
    hn::StoreU(hn::Sqrt(a[0]), d, out + i);
    if (HWY_LIKELY(hn::AllTrue(d, ok))) {
      for (size_t j = 1; j < kGroup; ++j) hn::StoreU(SqrtRefinedF64(d, a[j]), d, out + i + j * N);
    } else {
      for (size_t j = 1; j < kGroup; ++j) hn::StoreU(hn::Sqrt(a[j]), d, out + i + j * N);
    }
  }
  return i;
}
// Groups of four vectors, one to vsqrtpd (see SqrtRefinedF64); on CPUs
// with FastDivider (AMD's, whose vsqrtpd took about as long as Eigen's
// ten-operation form on Zen 5) groups of two. Not measured on an AMD CPU:
// the two units work side by side, so a group of two takes the longer of
// one vsqrtpd and one SqrtRefinedF64, not both.
void SqrtF64(const double* x, double* out, size_t n) {
  const hn::ScalableTag<double> d;
  size_t i = 0;
  if (n * sizeof(double) < StreamBytes()) {
    i = FastDivider() ? SqrtGroupsF64<2>(d, x, out, n) : SqrtGroupsF64<4>(d, x, out, n);
  }
  UnaryTransform(d, x + i, out + i, n - i, SqrtOp());
}
#else
OPGEN_UNARY(Sqrt, F32, float)
OPGEN_UNARY(Sqrt, F64, double)
#endif
OPGEN_UNARY_FLOAT(Exp)
OPGEN_UNARY_FLOAT(Log)
OPGEN_UNARY_FLOAT(Tanh)
OPGEN_UNARY_DIVIDER_KERNELS(Sigmoid)
OPGEN_UNARY_DIVIDER_KERNELS(Gelu)

#undef OPGEN_UNARY
#undef OPGEN_UNARY_FLOAT

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"
namespace opgen::kernels {

// clang-format off
#define OPGEN_EXPORT_UNARY(Name, Suffix, T)                                  \
  HWY_EXPORT(Name##Suffix);                                                  \
  void Name(const T* x, T* out, std::size_t n) {                             \
    OPGEN_DYNAMIC_DISPATCH(Name##Suffix)(x, out, n);                           \
  }
#define OPGEN_EXPORT_UNARY_FLOAT(Name)                                       \
  OPGEN_EXPORT_UNARY(Name, F32, float) OPGEN_EXPORT_UNARY(Name, F64, double)
// clang-format on

OPGEN_EXPORT_UNARY_FLOAT(Sqrt)
OPGEN_EXPORT_UNARY_FLOAT(Exp)
OPGEN_EXPORT_UNARY_FLOAT(Log)
OPGEN_EXPORT_UNARY_FLOAT(Tanh)
OPGEN_EXPORT_UNARY_FLOAT(Sigmoid)
OPGEN_EXPORT_UNARY_FLOAT(Gelu)

#undef OPGEN_EXPORT_UNARY
#undef OPGEN_EXPORT_UNARY_FLOAT

}  // namespace opgen::kernels
#endif  // HWY_ONCE
