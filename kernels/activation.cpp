// Activation kernels (see activation.hpp), compiled once per SIMD target by
// foreach_target.h and dispatched at run time. Each is a handful of lane
// operations around one exp/expm1/log1p (Highway's contrib math, range-
// extended in math-inl.h), so they run at the speed of that function.
#include "kernels/activation.hpp"

#include <cmath>
#include <cstddef>
#include <limits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/activation.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/math-inl.h"
#include "kernels/transform-inl.h"

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// x e^x for x < -64, where 1 + e^x is 1 in both types and silu and mish
// are x e^x: as (x h) h with h = e^(x/2), which is normal down to x = -174
// (float) / -1416 (double), while e^x itself is subnormal below -87 / -708
// and would have lost its low bits.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V TinyTail(D d, V x) {
  using T = hn::TFromD<D>;
  const V h = ExpFull(d, hn::Mul(x, hn::Set(d, T{0.5})));
  return hn::Mul(hn::Mul(x, h), h);
}
template <class D, class V = hn::Vec<D>>
HWY_INLINE hn::Mask<D> FarNegative(D d, V x) {
  using T = hn::TFromD<D>;
  return hn::Lt(x, hn::Set(d, T{-64}));
}
// r with its lanes of x < -64 replaced by TinyTail(x), which only vectors
// holding such a lane compute: its exp would otherwise double the cost of
// every vector (float64 silu on AVX-512: 0.95 -> 1.7 Gelem/s).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V WithTinyTail(D d, V x, V r) {
  const auto far = FarNegative(d, x);
  if (HWY_LIKELY(hn::AllFalse(d, far))) return r;
  return hn::IfThenElse(far, TinyTail(d, x), r);
}

// e^x - 1 for x <= 0 (NaN handled by the callers): Highway's Expm1 on
// [-100, 0], where below -100 the result is -1 in both types anyway.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Expm1NonPositive(D d, V x) {
  using T = hn::TFromD<D>;
  return hn::Expm1(d, hn::Max(hn::Min(x, hn::Zero(d)), hn::Set(d, T{-100})));
}

// e^x - 1 for float32 lanes with x <= 0 (NaN handled by the callers), with
// relative accuracy also near 0: x = n ln2 + r and e^r - 1 from
// ExpF32ReducedM1 (x clamped at -80, where the result is -1 already, so 2^n
// stays normal), and e^x - 1 = 2^n (e^r - 1) + (2^n - 1), where 2^n - 1 is
// exact for n >= -24 and n = 0 leaves e^r - 1 alone. No division, no table.
// -0 keeps its sign.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Expm1NonPositiveF32(D d, V x) {
  const hn::RebindToSigned<D> di;
  const V xc = hn::Max(hn::Min(x, hn::Zero(d)), hn::Set(d, -80.0f));
  V t;
  const V em1 = ExpF32ReducedM1(d, xc, t);
  // The bits of 2^n: n + 127 in the exponent field (n << 23 plus those of 1).
  const V one = hn::Set(d, 1.0f);
  const V scale =
      hn::BitCast(d, hn::Add(hn::BitCast(di, one), hn::ShiftLeft<23>(hn::BitCast(di, t))));
  const V r_em1 = hn::MulAdd(scale, em1, hn::Sub(scale, one));
  // x = -0 gives r = -0 but r + r^2 P = +0.
  return hn::Or(r_em1, hn::And(x, hn::SignBit(d)));
}

template <class D, class V>
HWY_INLINE V KeepNaN(V x, V r) {
  return hn::IfThenElse(hn::IsNaN(x), x, r);
}

// x < 0 ? 0 : (x > 6 ? 6 : x): NaN and -0 pass through. On x86 that is
// Min(6, Max(0, x)) exactly (see OPGEN_MINMAX_SECOND_OPERAND), two
// operations; elsewhere comparisons and selects.
struct Relu6Op {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    using T = hn::TFromD<D>;
#if OPGEN_MINMAX_SECOND_OPERAND
    return hn::Min(hn::Set(d, T{6}), hn::Max(hn::Zero(d), x));
#else
    return hn::IfThenZeroElse(hn::Lt(x, hn::Zero(d)),
                              hn::IfThenElse(hn::Gt(x, hn::Set(d, T{6})), hn::Set(d, T{6}), x));
#endif
  }
};
// b (e^x - 1) for the lanes with x < 0 (the others finite or NaN, to be
// dropped); b = 1 unless kScale (a multiplication less).
template <bool kScale, class D, class V>
HWY_INLINE V ScaledExpm1Negative(D d, V x, hn::TFromD<D> b) {
  using T = hn::TFromD<D>;
  V em1;
#if OPGEN_TABLE16
  if constexpr (sizeof(T) == 8 && hn::MaxLanes(D()) == 8) {
    // AVX-512 float64, no range check: Expm1F64Table on min(x, 0) (0 for
    // NaN on x86, the second operand), b applied inside its last FMA.
    const V xn = hn::Min(x, hn::Zero(d));
    return kScale ? Expm1F64Table<true>(d, xn, hn::Set(d, b)) : Expm1F64Table<false, -1>(d, xn);
  }
  if constexpr (sizeof(T) == 4 && hn::MaxLanes(D()) == 16) {
    // AVX-512 float32, no range check: x clamped to [-80, 80] by one
    // vrangeps (the operand of smaller magnitude, with the sign of x; NaN
    // gives the other operand), e^x - 1 from Expm1F32Table.
    em1 = Expm1F32Table(d, V{_mm512_range_ps(x.raw, hn::Set(d, 80.0f).raw, 0x02)});
  } else
#endif
      if constexpr (sizeof(T) == 4) {
    em1 = Expm1NonPositiveF32(d, x);
  } else {
    em1 = Expm1NonPositive(d, x);
  }
  return kScale ? hn::Mul(hn::Set(d, b), em1) : em1;
}
// x > 0 ? a x : b (e^x - 1), NaN and -0 passing through as a x (x < 0
// selects the negative part); a = 1 unless kScalePositive, b = 1 unless
// kScaleNegative. elu (a = 1, b = alpha) and selu (a = scale, b = scale
// alpha).
template <bool kScalePositive, bool kScaleNegative, class D, class V>
HWY_INLINE V ExpLinear(D d, V x, hn::TFromD<D> a, hn::TFromD<D> b) {
  const V neg = ScaledExpm1Negative<kScaleNegative>(d, x, b);
  const V pos = kScalePositive ? hn::Mul(hn::Set(d, a), x) : x;
  return hn::IfThenElse(hn::Lt(x, hn::Zero(d)), neg, pos);
}
// kUnitAlpha: alpha is 1 (the op's default), one multiplication less.
template <typename T, bool kUnitAlpha = false>
struct EluOp {
  T alpha;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    return ExpLinear</*kScalePositive=*/false, !kUnitAlpha>(d, x, T{1}, alpha);
  }
};
struct SeluOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    using T = hn::TFromD<D>;
    constexpr double kScale = 1.0507009873554804934193349852946;
    constexpr double kScaleAlpha = 1.7580993408473768599402175208123;
    return ExpLinear<true, true>(d, x, static_cast<T>(kScale), static_cast<T>(kScaleAlpha));
  }
};
// Fast: float32 vectors whose lanes all lie in SigmoidInRange (x >= -86.5,
// where sigmoid(x) ~ e^x and x sigmoid(x) are still normal), checked four
// vectors at a time; a single vector takes the general form. kDivide: see
// UnaryTransformDivider.
template <bool kDivide>
constexpr auto kSiluFull = [](auto d, auto x) OPGEN_FORM_ATTR {
  // x * sigmoid(x): sigmoid keeps relative accuracy for x << 0; -inf * 0 is
  // the only NaN to fix.
  const auto r = WithTinyTail(d, x, hn::Mul(x, Sigmoid<kDivide>(d, x)));
  return hn::IfThenZeroElse(hn::Eq(x, hn::Neg(hn::Inf(d))), r);
};
template <bool kDivide>
constexpr auto kSiluFast =
    [](auto d, auto x) OPGEN_FORM_ATTR { return hn::Mul(x, SigmoidInRangeF32<kDivide>(d, x)); };
constexpr auto kSiluInRange = [](auto d, auto x) OPGEN_FORM_ATTR { return SigmoidInRange(d, x); };
template <bool kDivide>
using SiluOp = FastFormOp<decltype(kSiluFull<kDivide>), decltype(kSiluFast<kDivide>),
                          decltype(kSiluInRange), /*kFastAlone=*/false>;
// ln(1 + u) for float32 lanes with u in [0, 1]: u + u^2 Q(u), Q of degree 9
// fitted for opgen (reweighted least squares for the minimax relative error
// of u (1 + u Q(u)), then each coefficient rounded to float and the rest
// refitted): 9e-10 relative before rounding errors, about 1.2 ulp after.
// Relative also for tiny u; no division, no log.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Log1pUnitF32(D d, V u) {
  V q = hn::Set(d, 2.085126471e-03f);
  q = hn::MulAdd(q, u, hn::Set(d, -1.369430218e-02f));
  q = hn::MulAdd(q, u, hn::Set(d, 4.211979359e-02f));
  q = hn::MulAdd(q, u, hn::Set(d, -8.324402571e-02f));
  q = hn::MulAdd(q, u, hn::Set(d, 1.247983128e-01f));
  q = hn::MulAdd(q, u, hn::Set(d, -1.613527536e-01f));
  q = hn::MulAdd(q, u, hn::Set(d, 1.989964247e-01f));
  q = hn::MulAdd(q, u, hn::Set(d, -2.498886585e-01f));
  q = hn::MulAdd(q, u, hn::Set(d, 3.333271444e-01f));
  q = hn::MulAdd(q, u, hn::Set(d, -4.999998808e-01f));
  return hn::MulAdd(u, hn::Mul(u, q), u);
}
// ln(1 + u) for u = e^-|x| in [0, 1]: Highway's Log1p, except for float64
// on AVX-512: Log1pTableF64 (math-inl.h; u = 0 gives 0, u below 2^-53
// gives u). Softplus's float64 error in the
// bench went from 2.8-4.0e-16, 1.4-1.8 times Eigen's, to Eigen's 2.0-2.2e-16.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Log1pOfUnit(D d, V u) {
#if OPGEN_TABLE16
  if constexpr (sizeof(hn::TFromD<D>) == 8 && hn::MaxLanes(D()) == 8) return Log1pTableF64(d, u);
#endif
  return hn::Log1p(d, u);
}
// Fast: float32 vectors whose lanes all have |x| <= 86.5, where e^-|x| is
// normal: one exp (ExpF32Fast, negation folded) and Log1pUnitF32. Checked
// four vectors at a time, as SiluOp.
using SoftplusOp =
    FastFormOp<decltype([](auto d, auto x) OPGEN_FORM_ATTR {
                 // e^-|x| in [0, 1]: no overflow.
                 const auto e = ExpFull(d, hn::Neg(hn::Abs(x)));
                 const auto r =
                     hn::Add(hn::IfThenZeroElse(hn::Lt(x, hn::Zero(d)), x), Log1pOfUnit(d, e));
                 return KeepNaN<decltype(d)>(x, r);
               }),
               decltype([](auto d, auto x) OPGEN_FORM_ATTR {
                 const auto e = ExpF32Fast<true>(d, hn::Abs(x));
                 return hn::Add(hn::IfThenZeroElse(hn::Lt(x, hn::Zero(d)), x), Log1pUnitF32(d, e));
               }),
               decltype([](auto d, auto x)
                            OPGEN_FORM_ATTR { return hn::Le(hn::Abs(x), hn::Set(d, 86.5f)); }),
               /*kFastAlone=*/false>;
// x / (1 + |x|). Infinities would give inf / inf: on x86 x is first
// clamped to +-2^100 by Max and Min, which return their NaN second operand
// (OPGEN_MINMAX_SECOND_OPERAND) and keep -0; then 2^100 / (1 + 2^100) is 1,
// as softsign(x) rounds to +-1 for every |x| > 2^53. Two cheap operations
// instead of a class test and a select: on Zen 5, 1K float32 softsign took
// 42 ns against 50 and 64K 2.84 us against 3.32 (the kernel alone, medians
// over buffer placements). Elsewhere Max and Min may drop a NaN, so the
// infinities are selected after the division.
struct SoftsignDivide {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    using T = hn::TFromD<D>;
#if OPGEN_MINMAX_SECOND_OPERAND
    const V c = hn::Min(hn::Set(d, T{0x1p100}), hn::Max(hn::Set(d, T{-0x1p100}), x));
    return hn::Div(c, hn::Add(hn::Set(d, T{1}), hn::Abs(c)));
#else
    const V r = hn::Div(x, hn::Add(hn::Set(d, T{1}), hn::Abs(x)));
    return hn::IfThenElse(hn::IsInf(x), hn::CopySign(hn::Set(d, T{1}), x), r);
#endif
  }
};
#if HWY_NATIVE_FMA
// Fast: float32 vectors whose lanes all have |x| <= 2^64 (so that 1 / d is
// normal), without the division (zmm vdivps: about 2.8 ns per vector on a
// Sapphire Rapids class Xeon): r = 1 / d from ReciprocalNewton, q = x r and
// one correction q + (x - d q) r (the remainder exact by FMA, or rounded far
// below an ulp where the estimate is coarse), within about half an ulp of
// x / d like the quotient itself; the rounding of d = 1 + |x| still
// dominates (1.50 ulp either way). The correction would give +0 for x = -0,
// hence the sign copied from x (|result| < 1 keeps it otherwise).
// The first vector of each four still divides (DividerShare::kDivision): the
// divider then works beside the FMA units; with FastDivider the first three
// do (Zen 4: 1K 110 ns all divided, 114-130 one in four, 85-89 three in
// four). Without FMA the remainder would round: those targets divide.
using SoftsignOp = FastFormOp<SoftsignDivide, decltype([](auto d, auto x) OPGEN_FORM_ATTR {
                                const auto den = hn::Add(hn::Set(d, 1.0f), hn::Abs(x));
                                const auto r = ReciprocalNewton(d, den);
                                const auto q = hn::Mul(x, r);
                                return hn::CopySign(hn::MulAdd(hn::NegMulAdd(den, q, x), r, q), x);
                              }),
                              decltype([](auto d, auto x) OPGEN_FORM_ATTR {
                                return hn::Le(hn::Abs(x), hn::Set(d, 0x1p64f));
                              }),
                              /*kFastAlone=*/true, DividerShare::kDivision>;
#else
using SoftsignOp = SoftsignDivide;
#endif
#if OPGEN_MINMAX_SECOND_OPERAND && HWY_NATIVE_FMA
// s = clamp((x + 3) / 6, 0, 1) without a division, and xm = max(x, -3) (NaN
// and -0 pass): u = -3 - xm = -(x + 3) clamped at -6, s0 = u (-c) with c =
// 1/6 rounded, and one correction step s = s0 - (u + 6 s0) c (u + 6 s0 is
// exact by FMA), which leaves s within about half an ulp of (x + 3) / 6.
// u = -6 gives s = 1 exactly, and u = +0 (x <= -3) gives s = -0. NaN gives
// NaN.
template <class D, class V>
HWY_INLINE V ClampedSixth(D d, V x, V& xm) {
  using T = hn::TFromD<D>;
  const V c = hn::Set(d, static_cast<T>(1.0 / 6));
  xm = hn::Max(hn::Set(d, T{-3}), x);
  const V u = hn::Max(hn::Set(d, T{-6}), hn::Sub(hn::Set(d, T{-3}), xm));
  const V s0 = hn::Mul(u, hn::Neg(c));
  return hn::NegMulAdd(hn::MulAdd(s0, hn::Set(d, T{6}), u), c, s0);
}
#endif
struct HardSigmoidOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
#if OPGEN_MINMAX_SECOND_OPERAND && HWY_NATIVE_FMA
    // The -0 of x <= -3 plus +0 is +0; every other s is unchanged.
    V xm;
    return hn::Add(ClampedSixth(d, x, xm), hn::Zero(d));
#else
    using T = hn::TFromD<D>;
    // (x + 3) / 6 rather than x / 6 + 0.5: no cancellation near x = -3.
    const V mid = hn::Div(hn::Add(x, hn::Set(d, T{3})), hn::Set(d, T{6}));
    return hn::IfThenZeroElse(hn::Le(x, hn::Set(d, T{-3})),
                              hn::IfThenElse(hn::Ge(x, hn::Set(d, T{3})), hn::Set(d, T{1}), mid));
#endif
  }
};
struct HardSwishOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
#if OPGEN_MINMAX_SECOND_OPERAND && HWY_NATIVE_FMA
    // xm s: x >= 3 gives x, and x <= -3 gives xm (-0) = +0. Max error 1.87
    // ulp over every float32 in (-3, 3) (1.91 with the division).
    V xm;
    const V s = ClampedSixth(d, x, xm);
    return hn::Mul(xm, s);
#else
    using T = hn::TFromD<D>;
    const V mid = hn::Div(hn::Mul(x, hn::Add(x, hn::Set(d, T{3}))), hn::Set(d, T{6}));
    return hn::IfThenZeroElse(hn::Le(x, hn::Set(d, T{-3})),
                              hn::IfThenElse(hn::Ge(x, hn::Set(d, T{3})), x, mid));
#endif
  }
};
// tanh(ln(1 + e)) = ((1 + e)^2 - 1) / ((1 + e)^2 + 1) = n / (n + 2), with
// e = e^x and n = e (e + 2). Past x = 40 the factor is 1 in both types, and
// clamping there keeps n finite.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V MishFactor(D d, V e) {
  using T = hn::TFromD<D>;
  const V n = hn::Mul(e, hn::Add(e, hn::Set(d, T{2})));
  return hn::Div(n, hn::Add(n, hn::Set(d, T{2})));
}
// Fast: float32 vectors whose lanes all lie in SigmoidInRange (x >= -86.5,
// where e^x is normal; +inf too), one exp with no range checks of its own.
// Checked four vectors at a time, as SiluOp.
using MishOp =
    FastFormOp<decltype([](auto d, auto x) OPGEN_FORM_ATTR {
                 using T = hn::TFromD<decltype(d)>;
                 const auto e = ExpFull(d, hn::Min(x, hn::Set(d, T{40})));
                 const auto r = WithTinyTail(d, x, hn::Mul(x, MishFactor(d, e)));
                 return KeepNaN<decltype(d)>(x,
                                             hn::IfThenZeroElse(hn::Eq(x, hn::Neg(hn::Inf(d))), r));
               }),
               decltype([](auto d, auto x) OPGEN_FORM_ATTR {
                 return hn::Mul(x, MishFactor(d, ExpF32Fast(d, hn::Min(x, hn::Set(d, 40.0f)))));
               }),
               decltype([](auto d, auto x) OPGEN_FORM_ATTR { return SigmoidInRange(d, x); }),
               /*kFastAlone=*/false>;

// clang-format off
#define OPGEN_ACTIVATION_TARGET(Name)                                        \
  void Name##F32(const float* x, float* out, size_t n) {                     \
    UnaryTransform(hn::ScalableTag<float>(), x, out, n, Name##Op());         \
  }                                                                          \
  void Name##F64(const double* x, double* out, size_t n) {                   \
    UnaryTransform(hn::ScalableTag<double>(), x, out, n, Name##Op());        \
  }
// clang-format on
OPGEN_LIGHT_UNARY_FLOAT(Relu6)
OPGEN_ACTIVATION_TARGET(Selu)
OPGEN_UNARY_DIVIDER_KERNELS(Silu)
OPGEN_ACTIVATION_TARGET(Softplus)
OPGEN_ACTIVATION_TARGET(Softsign)
OPGEN_ACTIVATION_TARGET(HardSigmoid)
OPGEN_ACTIVATION_TARGET(HardSwish)
OPGEN_ACTIVATION_TARGET(Mish)
#undef OPGEN_ACTIVATION_TARGET

// An infinite alpha (or a float32 alpha past FLT_MAX) takes the formula
// literally, element by element: -inf for x < 0 and NaN for x = +-0 (inf
// times expm1(+-0)), which the vector forms, built for a finite alpha (the
// op's check), would not give. alpha = 1, the op's default, saves a
// multiplication (float64 on AVX-512: the unscaled table form).
template <typename T>
HWY_INLINE void EluT(const T* x, T* out, size_t n, T alpha) {
  if (!(alpha <= std::numeric_limits<T>::max())) {
    for (size_t i = 0; i < n; ++i) out[i] = x[i] > 0 ? x[i] : alpha * std::expm1(x[i]);
  } else if (alpha == T{1}) {
    UnaryTransform(hn::ScalableTag<T>(), x, out, n, EluOp<T, true>{alpha});
  } else {
    UnaryTransform(hn::ScalableTag<T>(), x, out, n, EluOp<T>{alpha});
  }
}
void EluF32(const float* x, float* out, size_t n, float alpha) { EluT(x, out, n, alpha); }
void EluF64(const double* x, double* out, size_t n, double alpha) { EluT(x, out, n, alpha); }

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"
namespace opgen::kernels {

// clang-format off
#define OPGEN_EXPORT_ACTIVATION(Name)                                        \
  HWY_EXPORT(Name##F32);                                                     \
  HWY_EXPORT(Name##F64);                                                     \
  void Name(const float* x, float* out, std::size_t n) {                     \
    OPGEN_DYNAMIC_DISPATCH(Name##F32)(x, out, n);                              \
  }                                                                          \
  void Name(const double* x, double* out, std::size_t n) {                   \
    OPGEN_DYNAMIC_DISPATCH(Name##F64)(x, out, n);                              \
  }
// clang-format on
OPGEN_EXPORT_ACTIVATION(Relu6)
OPGEN_EXPORT_ACTIVATION(Selu)
OPGEN_EXPORT_ACTIVATION(Silu)
OPGEN_EXPORT_ACTIVATION(Softplus)
OPGEN_EXPORT_ACTIVATION(Softsign)
OPGEN_EXPORT_ACTIVATION(HardSigmoid)
OPGEN_EXPORT_ACTIVATION(HardSwish)
OPGEN_EXPORT_ACTIVATION(Mish)
#undef OPGEN_EXPORT_ACTIVATION

HWY_EXPORT(EluF32);
HWY_EXPORT(EluF64);
void Elu(const float* x, float* out, std::size_t n, double alpha) {
  OPGEN_DYNAMIC_DISPATCH(EluF32)(x, out, n, static_cast<float>(alpha));
}
void Elu(const double* x, double* out, std::size_t n, double alpha) {
  OPGEN_DYNAMIC_DISPATCH(EluF64)(x, out, n, alpha);
}

}  // namespace opgen::kernels
#endif  // HWY_ONCE
