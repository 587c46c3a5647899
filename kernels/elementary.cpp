// Elementary function kernels (see elementary.hpp), compiled once per SIMD
// target by foreach_target.h and dispatched at run time.
#include "kernels/elementary.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/elementary.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/math-inl.h"
#include "kernels/transform-inl.h"

// Polynomial coefficients, highest degree first, fitted by mpmath's
// chebyfit (Chebyshev interpolation) to 50 digits; each fit's error is
// below 2^-60 of the function on its interval.
// Defined once: this file is compiled once per target.
#ifndef OPGEN_KERNELS_ELEMENTARY_ERF_FIT_
#define OPGEN_KERNELS_ELEMENTARY_ERF_FIT_
namespace opgen::kernels::erf_fit {
// erf(x) / x as a polynomial in t = x^2, t in [0, 1].
constexpr double kSmall[] = {
    5.95717614774891140443e-11, -1.13728488567916736704e-9,  1.46597752740474358138e-8,
    -1.63503127010546950107e-7, 0.0000016461000484121368033, -0.0000149255952668311815652,
    0.000120553311116427109225, -0.000854832698083378990518, 0.00522397762481801446725,
    -0.0268661706450767932482,  0.112837916709548786662,     -0.376126389031837480557,
    1.12837916709551257377,
};
// erf(1.5 + s), s in [-1/2, 1/2].
constexpr double kMid[] = {
    -2.8346118565278273247e-7,    0.00000141712164094164671886, 5.7129021894369023216e-7,
    -0.0000140386381523716580741, 0.0000179613231352112131536,  0.0000776764703241967643158,
    -0.000254449278076816472758,  -0.0000929122955129930609469, 0.00170981962785384523659,
    -0.00236267779302170624503,   -0.00474305320487889737954,   0.0193261720072090272804,
    -0.0148662861528637471256,    -0.0445988584590647253992,    0.138752004094233424408,
    -0.178395433835442147926,     0.118930289223629372831,      0.966105146475310724121,
};
// erfc(x) e^(x^2) x as a polynomial in w = 1/x - 1/3, x in [2, 6].
constexpr double kLarge[] = {
    -3.90550203060550453587, 4.88824061425036160932,    -2.52261379851977093186,
    0.172264008792333596668, 0.921927218425942453557,   -0.958163890972475987354,
    0.483095370572987304947, 0.0188840512504744961688,  -0.284770533493629715763,
    0.275999943740700686597, -0.0966576743785287415853, -0.102622062120616092132,
    0.195680210079564131882, -0.115372847415906828723,  -0.142959340438842225761,
    0.537003453544169887161,
};
}  // namespace opgen::kernels::erf_fit
#endif  // OPGEN_KERNELS_ELEMENTARY_ERF_FIT_

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// c[0] x^(N-1) + ... + c[N-1] by Horner's rule.
template <class D, class V, std::size_t N>
HWY_INLINE V Polynomial(D d, const double (&c)[N], V x) {
  using T = hn::TFromD<D>;
  V acc = hn::Set(d, static_cast<T>(c[0]));
  for (std::size_t i = 1; i < N; ++i) acc = hn::MulAdd(acc, x, hn::Set(d, static_cast<T>(c[i])));
  return acc;
}

// Replaces the lanes of r selected by `mask` with f(x lane[, y lane]): the
// rare inputs a vector path does not cover go to the C library one by one.
template <class D, class V, class M, class F>
HWY_INLINE V ScalarLanes(D d, M mask, V r, V x, V y, F f) {
  using T = hn::TFromD<D>;
  if (hn::AllFalse(d, mask)) return r;
  HWY_ALIGN T rs[hn::MaxLanes(D())];
  HWY_ALIGN T xs[hn::MaxLanes(D())];
  HWY_ALIGN T ys[hn::MaxLanes(D())];
  HWY_ALIGN T ms[hn::MaxLanes(D())];
  hn::Store(r, d, rs);
  hn::Store(x, d, xs);
  hn::Store(y, d, ys);
  hn::Store(hn::IfThenElseZero(mask, hn::Set(d, T{1})), d, ms);
  for (std::size_t i = 0; i < hn::Lanes(d); ++i) {
    if (ms[i] != 0) rs[i] = f(xs[i], ys[i]);
  }
  return hn::Load(d, rs);
}

#if !HWY_NATIVE_FMA
// a * b = product + err exactly, for float32 or float64 lanes, without
// FMA: Dekker's product on Veltkamp-split halves.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V TwoProductNoFma(D d, V a, V b, V& err) {
  using T = hn::TFromD<D>;
  const V split = hn::Set(d, static_cast<T>(sizeof(T) == 4 ? 4097.0 : 134217729.0));
  const V product = hn::Mul(a, b);
  const V ca = hn::Mul(a, split);
  const V a_hi = hn::Sub(ca, hn::Sub(ca, a));
  const V a_lo = hn::Sub(a, a_hi);
  const V cb = hn::Mul(b, split);
  const V b_hi = hn::Sub(cb, hn::Sub(cb, b));
  const V b_lo = hn::Sub(b, b_hi);
  err = hn::Add(hn::Add(hn::Add(hn::Sub(hn::Mul(a_hi, b_hi), product), hn::Mul(a_hi, b_lo)),
                        hn::Mul(a_lo, b_hi)),
                hn::Mul(a_lo, b_lo));
  return product;
}
#endif

// float64 lanes rounded to float32, overflowing to +-inf: the emulated
// DemoteTo (SCALAR, EMU128) saturates to +-FLT_MAX instead.
template <class DF, class VD>
HWY_INLINE hn::Vec<DF> DemoteToFloat(DF df, VD v) {
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128
  const hn::Rebind<double, DF> dd;
  HWY_ALIGN double wide[hn::MaxLanes(decltype(dd)())];
  HWY_ALIGN float narrow[hn::MaxLanes(DF())];
  hn::Store(v, dd, wide);
  for (std::size_t i = 0; i < hn::Lanes(df); ++i) narrow[i] = static_cast<float>(wide[i]);
  return hn::Load(df, narrow);
#else
  return hn::DemoteTo(df, v);
#endif
}

// The Taylor coefficients of e^(r ln 2) = 2^r, highest degree first.
template <int kTerms>
struct Exp2Taylor {
  double c[kTerms];
  constexpr Exp2Taylor() : c() {
    constexpr double kLn2 = 0.693147180559945309417232121458176568;
    double term = 1;
    for (int k = 0; k < kTerms; ++k) {
      c[kTerms - 1 - k] = term;
      term = term * kLn2 / (k + 1);
    }
  }
};

// 2^x: x = n + r, n = round(x), |r| <= 1/2; 2^r = e^(r ln 2) by its Taylor
// series (truncation below 0.1 ulp: 8 terms for float, 14 for double), and
// 2^n as two factors built in the exponent field so that each stays normal
// down to the smallest denormal result (one rounding, at the last product).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Exp2(D d, V x) {
  using T = hn::TFromD<D>;
  const hn::RebindToSigned<D> di;
  using TI = hn::TFromD<decltype(di)>;
  constexpr bool kFloat = sizeof(T) == 4;
  constexpr int kMantissa = kFloat ? 23 : 52;
  constexpr TI kBias = kFloat ? 127 : 1023;
  // Beyond these, 2^x has overflowed or underflowed to 0 already.
  const V lo = hn::Set(d, static_cast<T>(kFloat ? -152 : -1077));
  const V hi = hn::Set(d, static_cast<T>(kFloat ? 129 : 1025));
  const V xc = hn::Min(hn::Max(x, lo), hi);
  const V n = hn::Round(xc);
  const V r = hn::Sub(xc, n);  // exact
  static constexpr Exp2Taylor<kFloat ? 8 : 14> kTaylor;
  const V p = Polynomial(d, kTaylor.c, r);
  const auto ni = hn::ConvertTo(di, n);
  const auto half = hn::ShiftRight<1>(ni);
  const V s1 = hn::BitCast(d, hn::ShiftLeft<kMantissa>(hn::Add(half, hn::Set(di, kBias))));
  const V s2 =
      hn::BitCast(d, hn::ShiftLeft<kMantissa>(hn::Add(hn::Sub(ni, half), hn::Set(di, kBias))));
  return hn::IfThenElse(hn::IsNaN(x), x, hn::Mul(hn::Mul(p, s1), s2));
}

// e^x - 1. Highway's Expm1 is valid up to about +104 (float) / +706
// (double) and maps NaN to garbage: clamp where the result has long
// overflowed, keep NaN.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Expm1Full(D d, V x) {
  using T = hn::TFromD<D>;
  const V clamp = hn::Set(d, static_cast<T>(sizeof(T) == 4 ? 128.0 : 1024.0));
  const V r = hn::Expm1(d, hn::Min(x, clamp));
  const V big = hn::Set(d, static_cast<T>(sizeof(T) == 4 ? 89.0 : 710.0));
  return hn::IfThenElse(hn::IsNaN(x), x, hn::IfThenElse(hn::Gt(x, big), hn::Inf(d), r));
}

// ln(1 + x). Highway's Log1p is valid for finite x > -1.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Log1pFull(D d, V x) {
  const V minus_one = hn::Set(d, hn::TFromD<D>{-1});
  const auto regular = hn::And(hn::Gt(x, minus_one), hn::IsFinite(x));
  // +inf and NaN map to themselves, -1 to -inf, below -1 to NaN.
  const V special = hn::IfThenElse(hn::Eq(x, minus_one), hn::Neg(hn::Inf(d)),
                                   hn::IfThenElse(hn::Lt(x, minus_one), hn::NaN(d), x));
  return hn::IfThenElse(regular, hn::Log1p(d, hn::IfThenElse(regular, x, hn::Zero(d))), special);
}

// log2(x). Highway's Log2 covers (0, max] only.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Log2Full(D d, V x) {
  const V zero = hn::Zero(d);
  const V one = hn::Set(d, hn::TFromD<D>{1});
  const auto regular = hn::And(hn::Gt(x, zero), hn::IsFinite(x));
  const V special = hn::IfThenElse(hn::Eq(x, zero), hn::Neg(hn::Inf(d)),
                                   hn::IfThenElse(hn::Lt(x, zero), hn::NaN(d), x));
  return hn::IfThenElse(regular, hn::Log2(d, hn::IfThenElse(regular, x, one)), special);
}

// Highway's Sin and Cos reduce the argument with a few-term pi: exact
// enough only for |x| <= 39000.
template <bool kSin, class D, class V = hn::Vec<D>>
HWY_INLINE V SinCos(D d, V x) {
  using T = hn::TFromD<D>;
  const auto inside = hn::Le(hn::Abs(x), hn::Set(d, T{39000}));
  const V xi = hn::IfThenElseZero(inside, x);
  const V r = kSin ? hn::Sin(d, xi) : hn::Cos(d, xi);
  return ScalarLanes(d, hn::Not(inside), r, x, x,
                     [](T a, T) -> T { return kSin ? std::sin(a) : std::cos(a); });
}

// erf in float64 lanes (see elementary.hpp).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V ErfDouble(D d, V x) {
  const V ax = hn::Abs(x);
  const V one = hn::Set(d, 1.0);
  const V t = hn::Mul(ax, ax);
  const V small = hn::Mul(ax, Polynomial(d, erf_fit::kSmall, t));
  const V mid = Polynomial(d, erf_fit::kMid, hn::Sub(ax, hn::Set(d, 1.5)));
  // u = 1/|x| for |x| in [2, 6]; other lanes take 1/2 (any finite value).
  const auto tail = hn::Lt(ax, hn::Set(d, 6.0));
  const V u =
      hn::Div(one, hn::IfThenElse(hn::And(tail, hn::Ge(ax, hn::Set(d, 2.0))), ax, hn::Set(d, 2.0)));
  const V q = Polynomial(d, erf_fit::kLarge, hn::Sub(u, hn::Set(d, 1.0 / 3)));
  const V erfc = hn::Mul(hn::Mul(ExpFull(d, hn::Neg(t)), q), u);
  const V large = hn::IfThenElse(tail, hn::Sub(one, erfc), one);
  const V r = hn::IfThenElse(hn::Lt(ax, one), small,
                             hn::IfThenElse(hn::Lt(ax, hn::Set(d, 2.0)), mid, large));
  return hn::IfThenElse(hn::IsNaN(x), x, hn::CopySignToAbs(r, x));
}

// erf in float32 lanes: x P(x^2) / Q(x^2), P and Q of degree 5, on |x| <
// 3.92, and +-1 beyond (where erfc(x) < 2^-25, so erf rounds to 1). Fitted
// for opgen (linearised least squares for the relative error, then Lawson's
// reweighting): 2.1e-8 relative before rounding; the rounding errors of the
// coefficients and of the two Horner chains where x^2 is large (up to 15)
// dominate: at most 5.50 ulp with FMA, 6.17 without (3.7e-7 relative; Eigen
// 3.4's rational: 3.8e-7), near |x| = 3.6. One division, no exp, no
// float64 (the float64 evaluation was 15 times slower).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V ErfFloat(D d, V x) {
  const V one = hn::Set(d, 1.0f);
  const V limit = hn::Set(d, 3.92f);
  const V ax = hn::Abs(x);
  const V a = hn::Min(ax, limit);
  const V t = hn::Mul(a, a);
  V p = hn::Set(d, 2.026042011e-06f);
  p = hn::MulAdd(p, t, hn::Set(d, 2.846790303e-04f));
  p = hn::MulAdd(p, t, hn::Set(d, 3.807641566e-03f));
  p = hn::MulAdd(p, t, hn::Set(d, 5.287384987e-02f));
  p = hn::MulAdd(p, t, hn::Set(d, 1.915377676e-01f));
  p = hn::MulAdd(p, t, hn::Set(d, 1.128379107e+00f));
  V q = hn::Set(d, 3.783273860e-05f);
  q = hn::MulAdd(q, t, hn::Set(d, 1.170605305e-03f));
  q = hn::MulAdd(q, t, hn::Set(d, 1.505404525e-02f));
  q = hn::MulAdd(q, t, hn::Set(d, 1.145544946e-01f));
  q = hn::MulAdd(q, t, hn::Set(d, 5.030785799e-01f));
  q = hn::MulAdd(q, t, one);
  const V r = hn::IfThenElse(hn::Ge(ax, limit), one, hn::Min(hn::Div(hn::Mul(a, p), q), one));
  // Min may return its second operand for NaN lanes (x86), hence the check.
  return hn::IfThenElse(hn::IsNaN(x), x, hn::CopySignToAbs(r, x));
}

// C's round: halfway cases away from zero. trunc(x) plus 1 toward x's
// side when the (exact) fraction is at least 1/2; infinities give a NaN
// fraction and stay.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V RoundAway(D d, V x) {
  using T = hn::TFromD<D>;
  const V t = hn::Trunc(x);
  const V frac = hn::Abs(hn::Sub(x, t));
  const V step = hn::IfThenElseZero(hn::Ge(frac, hn::Set(d, T{0.5})), hn::Set(d, T{1}));
  return hn::CopySign(hn::Add(hn::Abs(t), step), x);
}

// C's fmod for finite x and finite nonzero y with |x| < 2^digits |y|: q =
// trunc(x / y) is then exact or one too large in magnitude (never too
// small: rounding is monotonic), and x - q y is computed exactly (it is
// representable: the remainder, or the remainder minus y); a result of the
// wrong sign is moved back by |y|. Other lanes (and |y| near the top of
// the range) through std::fmod.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Fmod(D d, V x, V y) {
  using T = hn::TFromD<D>;
  constexpr double kLimit = sizeof(T) == 4 ? 16777216.0 : 9007199254740992.0;  // 2^digits
  const V ay = hn::Abs(y);
  // Below kHuge, Dekker's split of y (without FMA) cannot overflow.
  constexpr double kHuge = sizeof(T) == 4 ? 1e34 : 1e304;
  const auto fast =
      hn::And(hn::And(hn::IsFinite(x), hn::Lt(ay, hn::Set(d, static_cast<T>(kHuge)))),
              hn::And(hn::Gt(ay, hn::Zero(d)),
                      hn::Lt(hn::Abs(x), hn::Mul(ay, hn::Set(d, static_cast<T>(kLimit))))));
  const V xs = hn::IfThenElse(fast, x, hn::Zero(d));
  const V ys = hn::IfThenElse(fast, y, hn::Set(d, T{1}));
  const V q = hn::Trunc(hn::Div(xs, ys));
#if HWY_NATIVE_FMA
  V r = hn::NegMulAdd(q, ys, xs);
#else
  V err;
  const V p = TwoProductNoFma(d, q, ys, err);
  V r = hn::Sub(hn::Sub(xs, p), err);
#endif
  const hn::RebindToSigned<D> di;
  const auto signs_differ =
      hn::RebindMask(d, hn::Lt(hn::BitCast(di, hn::Xor(r, xs)), hn::Zero(di)));
  const auto wrong_sign = hn::And(hn::Ne(r, hn::Zero(d)), signs_differ);
  r = hn::IfThenElse(wrong_sign, hn::Add(r, hn::CopySign(hn::Abs(ys), xs)), r);
  r = hn::CopySign(r, xs);  // a zero remainder has x's sign
  return ScalarLanes(d, hn::Not(fast), r, x, y, [](T a, T b) -> T { return std::fmod(a, b); });
}

// atan2(y, x): a = atan(min(|x|,|y|) / max(|x|,|y|)) in [0, pi/4], then
// pi/2 - a when |y| > |x|, pi - a when x is negative (or -0), and y's sign.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Atan2(D d, V y, V x) {
  using T = hn::TFromD<D>;
  const V ax = hn::Abs(x);
  const V ay = hn::Abs(y);
  const auto y_larger = hn::Gt(ay, ax);
  const V num = hn::IfThenElse(y_larger, ax, ay);
  const V den = hn::IfThenElse(y_larger, ay, ax);
  // 0/0 (both zero) counts as 0, inf/inf (both infinite) as 1.
  const auto both_inf = hn::And(hn::IsInf(x), hn::IsInf(y));
  V z = hn::Div(num, hn::IfThenElse(hn::Eq(den, hn::Zero(d)), hn::Set(d, T{1}), den));
  z = hn::IfThenElse(both_inf, hn::Set(d, T{1}), z);
  V a = hn::Atan(d, z);
  // pi/2 and pi in two parts: the high part's rounding error would be up
  // to half an ulp of the result.
  constexpr bool kFloat = sizeof(T) == 4;
  const V pi_half_hi =
      hn::Set(d, static_cast<T>(kFloat ? 1.57079637050628662109375
                                       : 1.5707963267948965579989817342720925807952880859375));
  const V pi_half_lo =
      hn::Set(d, static_cast<T>(kFloat ? -4.37113900018624283e-8 : 6.12323399573676588613e-17));
  a = hn::IfThenElse(y_larger, hn::Add(hn::Sub(pi_half_hi, a), pi_half_lo), a);
  const V pi_hi = hn::Add(pi_half_hi, pi_half_hi);  // exact
  const V pi_lo = hn::Add(pi_half_lo, pi_half_lo);
  const hn::RebindToSigned<D> di;
  const auto x_negative = hn::RebindMask(d, hn::Lt(hn::BitCast(di, x), hn::Zero(di)));
  a = hn::IfThenElse(x_negative, hn::Add(hn::Sub(pi_hi, a), pi_lo), a);
  const V r = hn::CopySign(a, y);
  return hn::IfThenElse(hn::Or(hn::IsNaN(x), hn::IsNaN(y)), hn::Add(x, y), r);
}

// hypot in float64 lanes: a sqrt(1 + (b/a)^2) with a = max(|x|, |y|).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V HypotDouble(D d, V x, V y) {
  const V ax = hn::Abs(x);
  const V ay = hn::Abs(y);
  const V a = hn::Max(ax, ay);
  const V b = hn::Min(ax, ay);
  const auto zero = hn::Eq(a, hn::Zero(d));
  const V ratio = hn::Div(b, hn::IfThenElse(zero, hn::Set(d, 1.0), a));
  const V r = hn::Mul(a, hn::Sqrt(hn::MulAdd(ratio, ratio, hn::Set(d, 1.0))));
  const auto inf = hn::Or(hn::IsInf(x), hn::IsInf(y));
  const auto nan = hn::Or(hn::IsNaN(x), hn::IsNaN(y));
  return hn::IfThenElse(inf, hn::Inf(d), hn::IfThenElse(nan, hn::Add(x, y), r));
}

// hypot in float32 lanes, through float64: the squares and their sum are
// exact there (no overflow, no underflow), so one sqrt and one rounding.
template <class DF, class VF = hn::Vec<DF>>
HWY_INLINE VF HypotFloat(DF df, VF x, VF y) {
  const hn::Rebind<double, DF> dd;
  const auto xd = hn::PromoteTo(dd, x);
  const auto yd = hn::PromoteTo(dd, y);
  const auto r = hn::Sqrt(hn::MulAdd(xd, xd, hn::Mul(yd, yd)));
  // inf^2 + NaN^2 would be NaN; hypot(+-inf, NaN) is +inf.
  const auto fixed = hn::IfThenElse(hn::Or(hn::IsInf(xd), hn::IsInf(yd)), hn::Inf(dd), r);
  return DemoteToFloat(df, fixed);
}

// float32 on AVX2/AVX-512: RsqrtAccurate when every lane is a normal
// positive number (most vectors), 1 / Sqrt(x) otherwise.
struct RsqrtOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
#if OPGEN_RSQRT_NEWTON
    if constexpr (sizeof(hn::TFromD<D>) == 4) {
      if (HWY_LIKELY(hn::AllTrue(d, RsqrtAccurateInRange(d, v)))) return RsqrtAccurate(d, v);
    }
#endif
    return hn::Div(hn::Set(d, hn::TFromD<D>{1}), hn::Sqrt(v));
  }
};
struct ReciprocalOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return hn::Div(hn::Set(d, hn::TFromD<D>{1}), v);
  }
};
struct Exp2Op {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return Exp2(d, v);
  }
};
struct Expm1Op {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return Expm1Full(d, v);
  }
};
struct Log1pOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return Log1pFull(d, v);
  }
};
struct Log2Op {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return Log2Full(d, v);
  }
};
struct SinOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return SinCos<true>(d, v);
  }
};
struct CosOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return SinCos<false>(d, v);
  }
};
struct ErfOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    if constexpr (sizeof(hn::TFromD<D>) == 4) {
      return ErfFloat(d, v);
    } else {
      return ErfDouble(d, v);
    }
  }
};
struct RoundOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return RoundAway(d, v);
  }
};
struct TruncOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V v) const {
    // The sign of zero restored, as Floor and Ceil do: Highway 1.0.3's EMU128
    // Trunc (clang builds it instead of SCALAR) gives +0 for -0.
    return hn::CopySign(hn::Trunc(v), v);
  }
};
struct SignOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    using T = hn::TFromD<D>;
    const V zero = hn::Zero(d);
    const V s = hn::Sub(hn::IfThenElseZero(hn::Gt(v, zero), hn::Set(d, T{1})),
                        hn::IfThenElseZero(hn::Lt(v, zero), hn::Set(d, T{1})));
    if constexpr (hwy::IsFloat<T>()) {
      return hn::IfThenElse(hn::IsNaN(v), v, s);
    } else {
      return s;
    }
  }
};
struct FmodOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    return Fmod(d, a, b);
  }
};
struct Atan2Op {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    return Atan2(d, a, b);
  }
};
struct HypotOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    if constexpr (sizeof(hn::TFromD<D>) == 4) {
      return HypotFloat(d, a, b);
    } else {
      return HypotDouble(d, a, b);
    }
  }
};

// float32 ops computed in float64 run on half-width float vectors, one per
// float64 vector.
using HalfFloatTag = hn::Rebind<float, hn::ScalableTag<double>>;

// clang-format off
#define OPGEN_UNARY(Name, Suffix, T, Tag)                                    \
  void Name##Suffix(const T* x, T* out, size_t n) {                          \
    UnaryTransform(Tag(), x, out, n, Name##Op());                            \
  }
#define OPGEN_BINARY(Name, Suffix, T, Tag)                                   \
  void Name##Suffix(const T* x, const T* y, T* out, size_t n) {              \
    BinaryTransform(Tag(), x, y, out, n, Name##Op());                        \
  }
#define OPGEN_UNARY_FLOAT(Name)                                              \
  OPGEN_UNARY(Name, F32, float, hn::ScalableTag<float>)                      \
  OPGEN_UNARY(Name, F64, double, hn::ScalableTag<double>)
#define OPGEN_BINARY_FLOAT(Name)                                             \
  OPGEN_BINARY(Name, F32, float, hn::ScalableTag<float>)                     \
  OPGEN_BINARY(Name, F64, double, hn::ScalableTag<double>)
// clang-format on

OPGEN_UNARY_FLOAT(Rsqrt)
OPGEN_UNARY_FLOAT(Reciprocal)
OPGEN_UNARY_FLOAT(Exp2)
OPGEN_UNARY_FLOAT(Expm1)
OPGEN_UNARY_FLOAT(Log1p)
OPGEN_UNARY_FLOAT(Log2)
OPGEN_UNARY_FLOAT(Sin)
OPGEN_UNARY_FLOAT(Cos)
OPGEN_UNARY_FLOAT(Erf)
OPGEN_UNARY_FLOAT(Round)
OPGEN_UNARY_FLOAT(Trunc)
OPGEN_UNARY_FLOAT(Sign)
OPGEN_UNARY(Sign, I32, int32_t, hn::ScalableTag<int32_t>)
OPGEN_UNARY(Sign, I64, int64_t, hn::ScalableTag<int64_t>)
OPGEN_BINARY_FLOAT(Fmod)
OPGEN_BINARY_FLOAT(Atan2)
OPGEN_BINARY(Hypot, F32, float, HalfFloatTag)
OPGEN_BINARY(Hypot, F64, double, hn::ScalableTag<double>)

#undef OPGEN_UNARY
#undef OPGEN_BINARY
#undef OPGEN_UNARY_FLOAT
#undef OPGEN_BINARY_FLOAT

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
#define OPGEN_EXPORT_BINARY(Name, Suffix, T)                                 \
  HWY_EXPORT(Name##Suffix);                                                  \
  void Name(const T* x, const T* y, T* out, std::size_t n) {                 \
    OPGEN_DYNAMIC_DISPATCH(Name##Suffix)(x, y, out, n);                        \
  }
#define OPGEN_EXPORT_UNARY_FLOAT(Name)                                       \
  OPGEN_EXPORT_UNARY(Name, F32, float) OPGEN_EXPORT_UNARY(Name, F64, double)
#define OPGEN_EXPORT_BINARY_FLOAT(Name)                                      \
  OPGEN_EXPORT_BINARY(Name, F32, float) OPGEN_EXPORT_BINARY(Name, F64, double)
// clang-format on

OPGEN_EXPORT_UNARY_FLOAT(Rsqrt)
OPGEN_EXPORT_UNARY_FLOAT(Reciprocal)
OPGEN_EXPORT_UNARY_FLOAT(Exp2)
OPGEN_EXPORT_UNARY_FLOAT(Expm1)
OPGEN_EXPORT_UNARY_FLOAT(Log1p)
OPGEN_EXPORT_UNARY_FLOAT(Log2)
OPGEN_EXPORT_UNARY_FLOAT(Sin)
OPGEN_EXPORT_UNARY_FLOAT(Cos)
OPGEN_EXPORT_UNARY_FLOAT(Erf)
OPGEN_EXPORT_UNARY_FLOAT(Round)
OPGEN_EXPORT_UNARY_FLOAT(Trunc)
OPGEN_EXPORT_UNARY_FLOAT(Sign)
OPGEN_EXPORT_UNARY(Sign, I32, std::int32_t)
OPGEN_EXPORT_UNARY(Sign, I64, std::int64_t)
OPGEN_EXPORT_BINARY_FLOAT(Fmod)
OPGEN_EXPORT_BINARY_FLOAT(Atan2)
OPGEN_EXPORT_BINARY_FLOAT(Hypot)

#undef OPGEN_EXPORT_UNARY
#undef OPGEN_EXPORT_BINARY
#undef OPGEN_EXPORT_UNARY_FLOAT
#undef OPGEN_EXPORT_BINARY_FLOAT

}  // namespace opgen::kernels
#endif  // HWY_ONCE
