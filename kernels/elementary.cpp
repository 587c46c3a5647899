// Elementary function kernels (see elementary.hpp), compiled once per SIMD
// target by foreach_target.h and dispatched at run time.
#include "kernels/elementary.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

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
// erf(x) / x - 1 as a polynomial in t = x^2, t in [0, 1]: the fit of erf(x)
// / x with 1 taken from its constant term, 2/sqrt(pi) (ErfDouble adds x
// itself, so that the constant's rounding and the last products' count
// only 0.16 of the result), kSmall1 t + kSmall0 + t^2 kSmall(t) (so that
// the rounding of kSmall's Horner sum, 0.29 at t = 1, counts 0.09).
constexpr double kSmall[] = {
    5.95717614774891140443e-11, -1.13728488567916736704e-9,  1.46597752740474358138e-8,
    -1.63503127010546950107e-7, 0.0000016461000484121368033, -0.0000149255952668311815652,
    0.000120553311116427109225, -0.000854832698083378990518, 0.00522397762481801446725,
    -0.0268661706450767932482,  0.112837916709548786662,
};
constexpr double kSmall1 = -0.376126389031837480557;
constexpr double kSmall0 = 0.12837916709551257377;
// erf(1.5 + s), s in [-1/2, 1/2], but for its constant term, erf(1.5)
// (kMidHead + kMidTail: as one double, its rounding alone was half an ulp of
// the result).
constexpr double kMidHead = 0.966105146475310724121;
constexpr double kMidTail = -3.6813007703326644e-17;
constexpr double kMid[] = {
    -2.8346118565278273247e-7,    0.00000141712164094164671886, 5.7129021894369023216e-7,
    -0.0000140386381523716580741, 0.0000179613231352112131536,  0.0000776764703241967643158,
    -0.000254449278076816472758,  -0.0000929122955129930609469, 0.00170981962785384523659,
    -0.00236267779302170624503,   -0.00474305320487889737954,   0.0193261720072090272804,
    -0.0148662861528637471256,    -0.0445988584590647253992,    0.138752004094233424408,
    -0.178395433835442147926,     0.118930289223629372831,
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
// Relative minimax fits f(t) = t + t^3 P(t^2), P's coefficients lowest
// degree first (a Remez exchange in 60-digit decimals), that
// kernels/tables/elementary_fits.py derives; the meson test
// kernels-elementary-fits holds these to it.
namespace opgen::kernels::fits {
// atan(t) for |t| <= 1/2 (Atan2): relative error 4.0e-18 (double) and
// 2.5e-10 (float) as fitted, 5.1e-18 and 4.4e-9 with the coefficients
// rounded.
constexpr double kAtanF64[12] = {
    -0x1.5555555555516p-2, 0x1.999999999114fp-3, -0x1.249249215e186p-3, 0x1.c71c7090f7251p-4,
    -0x1.745cf4cc608b5p-4, 0x1.3b113dd0b2605p-4, -0x1.10f31fa67c983p-4, 0x1.dfe97e2cfc10ep-5,
    -0x1.a3987e639fa9fp-5, 0x1.56f600f33e228p-5, -0x1.c18074d87f384p-6, 0x1.4b84d1ead2a46p-7,
};
constexpr float kAtanF32[6] = {
    -0x1.555552p-2f, 0x1.9996ecp-3f,  -0x1.244accp-3f,
    0x1.c02484p-4f,  -0x1.4706fcp-4f, 0x1.3d3894p-5f,
};
// sin(h) for |h| <= pi/4 + 0.0001 (SinCosF64): 3.6e-18 (2^-58).
constexpr double kSinF64[6] = {
    -0x1.5555555555548p-3, 0x1.111111110f7c8p-7,   -0x1.a01a019bfcdd1p-13,
    0x1.71de3566dd577p-19, -0x1.ae5e59cab7be1p-26, 0x1.5d8f9652fa286p-33,
};
}  // namespace opgen::kernels::fits
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
// Inside a transform's loop the call clobbers every vector register even
// though it is rarely taken, and g++ then keeps the loop's constants and
// inputs on the stack (cos ran 13 % slower than sin for it): kernels that
// can find those elements again after the loop leave them to a second
// pass instead (SinCosKernel, FmodKernel).
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
HWY_INLINE V Exp2Taylor14(D d, V x) {
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

// 2^x for every input: Exp2Taylor14, except for float64 lanes with |x| <=
// 1022 on AVX-512, which take Exp2F64Table (0.5 ulp against 1.05; lane by
// lane, so that no lane depends on its neighbours).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Exp2(D d, V x) {
#if OPGEN_TABLE16
  if constexpr (sizeof(hn::TFromD<D>) == 8 && hn::MaxLanes(D()) == 8) {
    // |x| <= 1022, the bits 0x408FF00000000000.
    return TableLaneByLane(
        d, x, AbsAtMostF64(d, x, 0x408FF00000000000),
        [](auto dd, auto v) HWY_ATTR { return Exp2F64Table(dd, v); },
        [](auto dd, auto v) HWY_ATTR { return Exp2Taylor14(dd, v); });
  }
#endif
  return Exp2Taylor14(d, x);
}

// Lanes where Exp2F32Fast applies: |x| <= 125 (not NaN).
template <class D, class V = hn::Vec<D>>
HWY_INLINE auto Exp2F32InRange(D d, V x) {
  return hn::Le(hn::Abs(x), hn::Set(d, 125.0f));
}

// 2^x for float32 lanes with |x| <= 125, where 2^x and every intermediate
// are normal. With 16-entry tables (OPGEN_TABLE16): x = k + j/16 + r, m = 16 k
// + j = round(16 x), |r| <= 1/32 (exact), 2^(j/16) from the table and 2^r - 1
// = r (c1 + c2 r + c3 r^2) (minimax, 1.6e-9 absolute); max error 1.08 ulp
// (the table entries are rounded). Elsewhere x = n + r, n = round(x), |r| <=
// 1/2, 2^r by a minimax polynomial of degree 6 (1.9e-9 relative) and n added
// to the exponent field: 0.95 ulp with FMA, 1.20 without. Exact for integral
// x. (Errors over every 7th float.)
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Exp2F32Fast(D d, V x) {
  const hn::RebindToSigned<D> di;
  // Adding 1.5 * 2^23 rounds to an integer held in the low mantissa bits.
  const V shift = hn::Set(d, 12582912.0f);
#if OPGEN_TABLE16
  if constexpr (hn::MaxLanes(D()) == 16) {
    const V t = hn::MulAdd(x, hn::Set(d, 16.0f), shift);
    const V r = hn::NegMulAdd(hn::Sub(t, shift), hn::Set(d, 0.0625f), x);
    V q = hn::MulAdd(hn::Set(d, 5.5505953826e-02f), r, hn::Set(d, 2.4023430386e-01f));
    q = hn::MulAdd(q, r, hn::Set(d, 6.9314718003e-01f));
    const V scale = Pow2Sixteenths(d, hn::BitCast(di, t));
    return hn::MulAdd(hn::Mul(scale, r), q, scale);
  }
#endif
  const V t = hn::Add(x, shift);
  const V r = hn::Sub(x, hn::Sub(t, shift));  // exact
  V p = hn::Set(d, 1.5345811778e-04f);
  p = hn::MulAdd(p, r, hn::Set(d, 1.3399931422e-03f));
  p = hn::MulAdd(p, r, hn::Set(d, 9.6184889597e-03f));
  p = hn::MulAdd(p, r, hn::Set(d, 5.5503287765e-02f));
  p = hn::MulAdd(p, r, hn::Set(d, 2.4022646891e-01f));
  p = hn::MulAdd(p, r, hn::Set(d, 6.9314720574e-01f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.0f));
  // p in [sqrt(1/2), sqrt(2)] times 2^n, |n| <= 125: n << 23 added to the
  // exponent field (the bits of 1.5 * 2^23 shift out).
  return hn::BitCast(d, hn::Add(hn::BitCast(di, p), hn::ShiftLeft<23>(hn::BitCast(di, t))));
}

// Lanes where Expm1F32Fast applies: x <= 88.5 (not NaN), where e^x is
// finite.
template <class D, class V = hn::Vec<D>>
HWY_INLINE auto Expm1F32InRange(D d, V x) {
  return hn::Le(x, hn::Set(d, 88.5f));
}

// Forward declaration: the fallback of Expm1F32Fast.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Expm1Full(D d, V x);

// e^x - 1 for float32 lanes in Expm1F32InRange. With 16-entry tables
// (OPGEN_TABLE16): x (clamped at -20, where the result rounds to -1) = (16 k
// + j) ln2 / 16 + r, |r| <= ln2 / 32, s = 2^k 2^(j/16) (rounded, from the
// table), e^x - 1 = (s - 1) + s (p + lo) with p = e^r - 1 = r + r^2 (c2 + c3
// r + c4 r^2) (minimax, 3.5e-10 relative) and lo = (2^(j/16) - its float) /
// its float from a second table: s - 1 is exact for |x| < ln 2 (Sterbenz),
// so small results keep their relative accuracy, and for |x| < ln2 / 32 (j =
// k = 0) the result is p itself. Max error 1.66 ulp (over every 7th float).
// Elsewhere Expm1Full.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Expm1F32Fast(D d, V x) {
#if OPGEN_TABLE16
  if constexpr (hn::MaxLanes(D()) == 16) {
    const hn::RebindToSigned<D> di;
    const V one = hn::Set(d, 1.0f);
    const V xc = hn::Max(x, hn::Set(d, -20.0f));  // also -inf
    V r;
    const V t = ReduceLn2Sixteenths</*kTwoPart=*/true>(d, xc, r);
    V q = hn::MulAdd(hn::Set(d, 4.1667660109e-02f), r, hn::Set(d, 1.6667007163e-01f));
    q = hn::MulAdd(q, r, hn::Set(d, 0.5f));
    const V p = hn::MulAdd(hn::Mul(r, r), q, r);
    const auto bits = hn::BitCast(di, t);
    const V s = Pow2Sixteenths(d, bits);
    const V e = hn::MulAdd(s, hn::Add(p, Pow2SixteenthsError(d, bits)), hn::Sub(s, one));
    // expm1(-0) = -0 (p is +0 there); other negative x give negative e.
    return hn::OrAnd(e, x, hn::SignBit(d));
  }
#endif
  return Expm1Full(d, x);
}

// e^x - 1 through Highway's Expm1, valid up to about +104 (float) / +706
// (double), which maps NaN to garbage and -0 to +0: clamp where the result
// has long overflowed, keep NaN, and give negative x (-0 included) the
// sign their results have.
template <class D, class V>
HWY_INLINE V Expm1Highway(D d, V x) {
  using T = hn::TFromD<D>;
  const V clamp = hn::Set(d, static_cast<T>(sizeof(T) == 4 ? 128.0 : 1024.0));
  const V r = hn::OrAnd(hn::Expm1(d, hn::Min(x, clamp)), x, hn::SignBit(d));
  const V big = hn::Set(d, static_cast<T>(sizeof(T) == 4 ? 89.0 : 710.0));
  return hn::IfThenElse(hn::IsNaN(x), x, hn::IfThenElse(hn::Gt(x, big), hn::Inf(d), r));
}

// e^x - 1: Expm1Highway, except for float64 lanes with x <= 708.4 on
// AVX-512, which take Expm1F64Table (lane by lane, so that no lane depends
// on its neighbours).
template <class D, class V>
HWY_INLINE V Expm1Full(D d, V x) {
#if OPGEN_TABLE16
  if constexpr (sizeof(hn::TFromD<D>) == 8 && hn::MaxLanes(D()) == 8) {
    return TableLaneByLane(
        d, x, hn::Le(x, hn::Set(d, 708.4)),  // false for NaN
        [](auto dd, auto v) HWY_ATTR { return Expm1F64Table(dd, v); },
        [](auto dd, auto v) HWY_ATTR { return Expm1Highway(dd, v); });
  }
#endif
  return Expm1Highway(d, x);
}

// ln(1 + x) for every input. u = 1 + x rounded and c = x - (u - 1), the
// rounding error of that sum: exact for -1 < x <= 2^24 (u - 1 is exact
// and so is the difference, a representable error); past 2^24 c is off by
// an ulp of x or two, and c/u adds at most 0.25 ulp to ln(u) >= 16.6.
// ln(1 + x) = ln(u) + ln(1 + c/u) = ln(u) + c/u + O((c/u)^2), |c/u| <=
// 2^-24 (float) or 2^-53 (double). ln(u) is Highway's Log (0.96 ulp), whose
// reduction keeps results near 0 relatively accurate; where u = 1 (|x|
// below half an ulp of 1) c = x is the result, taken as is so that -0
// stays -0. Max error 1.44 ulp over every float (float64: 1.44 over the
// kernel tests' inputs). Highway's Log1p forms ln(u) x / (u - 1) instead,
// a multiplication more to round (2.42 ulp). Lanes that are not finite
// x > -1 compute garbage that the last select replaces as C's log1p does.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Log1pHighway(D d, V x) {
  const V one = hn::Set(d, hn::TFromD<D>{1});
  const V minus_one = hn::Neg(one);
  const auto regular = hn::And(hn::Gt(x, minus_one), hn::IsFinite(x));
  // +inf and NaN map to themselves, -1 to -inf, below -1 to NaN.
  const V special = hn::IfThenElse(hn::Eq(x, minus_one), hn::Neg(hn::Inf(d)),
                                   hn::IfThenElse(hn::Lt(x, minus_one), hn::NaN(d), x));
  const V u = hn::Add(one, x);
  const V c = hn::Sub(x, hn::Sub(u, one));
  // u >= 2^-24 is normal: Highway's Log without its handling of
  // subnormals, as Highway's own Log1p calls it.
  const V ln_u = hn::impl::Log<D, V, /*kAllowSubnormals=*/false>(d, u);
  const V r = hn::IfThenElse(hn::Eq(u, one), x, hn::Add(ln_u, hn::Div(c, u)));
  return hn::IfThenElse(regular, r, special);
}

// Lanes where the table forms of log1p apply: -1 < x < inf (not NaN).
template <class D, class V = hn::Vec<D>>
HWY_INLINE auto Log1pInRange(D d, V x) {
  using T = hn::TFromD<D>;
  return hn::And(hn::Gt(x, hn::Set(d, T{-1})), hn::Lt(x, hn::Inf(d)));
}

// ln(1 + x) for every input: Log1pHighway, except for float64 lanes in
// Log1pInRange on AVX-512, which take LnTableF64 of u = 1 + x rounded with
// c = x - (u - 1), its rounding error, as the correction (as Log1pF32Fast;
// lane by lane, so that no lane depends on its neighbours). Max error 0.66
// ulp on the kernel tests' inputs, against 1.44; no division. float64 on
// Zen 5: [1024, 1024] 1180 -> 830 us (numpy 1040-1080), 64K 71 -> 51
// (numpy 48-51).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Log1pFull(D d, V x) {
#if OPGEN_TABLE16
  if constexpr (sizeof(hn::TFromD<D>) == 8 && hn::MaxLanes(D()) == 8) {
    return TableLaneByLane(
        d, x, Log1pInRange(d, x),
        [](auto dd, auto v) HWY_ATTR {
          // ln(1 + x) has the sign of x; -0 stays -0.
          return hn::OrAnd(Log1pTableF64(dd, v), v, hn::SignBit(dd));
        },
        [](auto dd, auto v) HWY_ATTR { return Log1pHighway(dd, v); });
  }
#endif
  return Log1pHighway(d, x);
}

// ln(1 + x) for float32 lanes in Log1pInRange: LnTableF32 of u = 1 + x
// rounded and c = x - (u - 1), its rounding error (as in Log1pFull; exact
// for x < 2^24, and far below an ulp of the result past it). Max error 0.66
// ulp over every float in range, 6.1e-8 relative (Log1pFull: 1.44 ulp,
// 1.3e-7). No division, no log.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Log1pF32Fast(D d, V x) {
#if OPGEN_TABLE16
  if constexpr (hn::MaxLanes(D()) == 16) {
    const V one = hn::Set(d, 1.0f);
    const V u = hn::Add(one, x);
    const V c = hn::Sub(x, hn::Sub(u, one));
    // ln(1 + x) has the sign of x; -0 stays -0.
    return hn::OrAnd(LnTableF32</*kCorrection=*/true>(d, u, c), x, hn::SignBit(d));
  }
#endif
  return Log1pFull(d, x);
}

// log2(x) through Highway's Log2, which covers (0, max] only (Log2Full's
// fallback, and every target's float64 but AVX-512's; float32 where the
// fast form does not apply). Highway's is not
// exact for every power of 2 (float64: 364 of 2^-1022 .. 2^1023 off by an
// ulp on AVX2, SSE4, SSSE3 and scalar): normal powers of 2 (mantissa bits
// all 0) take their exponent.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Log2Highway(D d, V x) {
  using T = hn::TFromD<D>;
  constexpr int kMantissa = sizeof(T) == 4 ? 23 : 52;
  using TI = hn::TFromD<hn::RebindToSigned<D>>;
  const hn::RebindToSigned<D> di;
  const V zero = hn::Zero(d);
  const V one = hn::Set(d, T{1});
  const auto regular = hn::And(hn::Gt(x, zero), hn::IsFinite(x));
  const V special = hn::IfThenElse(hn::Eq(x, zero), hn::Neg(hn::Inf(d)),
                                   hn::IfThenElse(hn::Lt(x, zero), hn::NaN(d), x));
  const auto bits = hn::BitCast(di, x);
  const auto field = hn::ShiftRight<kMantissa>(bits);  // x > 0: the exponent field
  const auto power_of_2 = hn::RebindMask(
      d, hn::And(hn::Eq(hn::And(bits, hn::Set(di, (TI{1} << kMantissa) - 1)), hn::Zero(di)),
                 hn::Gt(field, hn::Zero(di))));
  const V exponent = hn::ConvertTo(d, hn::Sub(field, hn::Set(di, sizeof(T) == 4 ? 127 : 1023)));
  const V log2 = hn::IfThenElse(power_of_2, exponent, hn::Log2(d, hn::IfThenElse(regular, x, one)));
  return hn::IfThenElse(regular, log2, special);
}

// log2(x) for every input: Log2Highway, except for float64 lanes that are
// normal, finite and positive on AVX-512, which take LnTableF64's log2 form
// (lane by lane, so that no lane depends on its neighbours).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Log2Full(D d, V x) {
#if OPGEN_TABLE16
  if constexpr (sizeof(hn::TFromD<D>) == 8 && hn::MaxLanes(D()) == 8) {
    return TableLaneByLane(
        d, x, PositiveNormalF64(d, x),
        [](auto dd, auto v)
            HWY_ATTR { return LnTableF64</*kDoubleDouble=*/false, /*kLog2=*/true>(dd, v); },
        [](auto dd, auto v) HWY_ATTR { return Log2Highway(dd, v); });
  }
#endif
  return Log2Highway(d, x);
}

// log2(x) for float32 lanes in PositiveNormalF32. With 16-entry tables
// (OPGEN_TABLE16): x = 2^k z, z in [0.7, 1.4), and 1/c for the sixteenth of
// that interval z falls in from a table, log2(x) = k + log2(c) + log2(1 + r)
// with r = z/c - 1 (one FMA, |r| < 0.0299) and log2(1 + r) = r + r P(r),
// P(r) = (log2(e) - 1) + c2 r + c3 r^2 + c4 r^3 (least squares for the
// relative error, 2.5e-8); the interval around 1 has c = 1, so results near
// 0 keep their relative accuracy, and powers of 2 are exact. No division.
// The sum is ordered for its roundings: r last in r + r P(r) (P's leading
// coefficient rounds at 2^-26 relative, log2(e) at 2^-24), and k after
// log2(c) + log2(1 + r) (k + log2(c) rounded first cost up to an ulp of
// results just below 0.5). Max error 1.51 ulp over every normal float,
// 1.2e-7 relative, near x = 0.98 where log2(c) and log2(1 + r) partly
// cancel (c at the end of each sixteenth nearer 1 avoids that cancellation
// and measures 1.25 ulp, but needs a fifth coefficient: 8 % slower for the
// same relative error). Elsewhere Log2Full.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Log2F32Fast(D d, V x) {
#if OPGEN_TABLE16
  if constexpr (hn::MaxLanes(D()) == 16) {
    const hn::RebindToSigned<D> di;
    // 1/c, a float near 1 / (the middle of each sixteenth) whose
    // -log2(1/c) is within 3.3e-4 ulp of a float (so that its rounding
    // costs nothing where log2(x) is small), and that float.
    HWY_ALIGN static constexpr float kInvC[16] = {
        1.39905441f,  1.34040582f,  1.28616989f,  1.23672867f, 1.19090354f,  1.14800787f,
        1.10820603f,  1.07131994f,  1.03649414f,  1.0f,        0.947974086f, 0.89495492f,
        0.847839594f, 0.805113018f, 0.766618788f, 0.731483459f};
    HWY_ALIGN static constexpr float kLogC[16] = {
        -0.484452069f, -0.422669858f,  -0.363081217f, -0.306529015f, -0.252056569f, -0.199132532f,
        -0.148226127f, -0.0993893892f, -0.0517119542f, 0.0f,         0.0770804733f, 0.160113081f,
        0.238136753f,  0.312736779f,   0.383418739f,  0.451102853f};
    hn::Vec<decltype(di)> k, idx;
    const V z = SplitSixteenths(d, x, k, idx);
    const V r = hn::MulSub(z, Lookup16(d, kInvC, idx), hn::Set(d, 1.0f));
    V p = hn::MulAdd(hn::Set(d, -0.361086488f), r, hn::Set(d, 0.48115173f));
    p = hn::MulAdd(p, r, hn::Set(d, -0.721347392f));
    p = hn::MulAdd(p, r, hn::Set(d, 0.442695022f));
    const V t = hn::Add(Lookup16(d, kLogC, idx), hn::MulAdd(r, p, r));
    return hn::Add(hn::ConvertTo(d, k), t);
  }
#endif
  return Log2Full(d, x);
}

// The reduction of SinCosF32, |x| <= 39000. sin: x = n pi + r, n =
// round(x / pi); cos: |x| = (n + 1/2) pi - r, n = round(|x| / pi - 1/2);
// either way the result is (-1)^n sin(r) with |r| <= pi/2 (a few 1e-4
// past it where n's rounding misses). n pi is subtracted in three parts of
// pi by fused multiply-adds (for cos (n + 1/2) pi), the first exactly for
// |x| >= 1: both terms are multiples of 2^-23 (|n| < 2^14) and their
// difference is below 2. Below 1, n = 0 for sin, while cos's r = pi/2 -
// |x| is rounded (up to about half an ulp of the result near |x| = 0.57).
// The other two round once each. Returns r; t = magic + n, whose lowest
// bit is n's parity.
template <bool kSin, class D, class V = hn::Vec<D>>
HWY_INLINE V ReduceByPi(D d, V x, V& t) {
  // 1/pi, and pi in three parts: float(pi), float(pi - A), float(pi - A - B).
  const V inv_pi = hn::Set(d, 0x1.45f306p-2f);
  const V pi_a = hn::Set(d, 0x1.921fb6p+1f);
  const V pi_b = hn::Set(d, -0x1.777a5cp-24f);
  const V pi_c = hn::Set(d, -0x1.ee59dap-49f);
  // t + magic rounds t to an integer.
  const V magic = hn::Set(d, 0x1.8p+23f);
  V r;
  if constexpr (kSin) {
    t = hn::MulAdd(x, inv_pi, magic);
    const V n = hn::Sub(t, magic);
    r = hn::NegMulAdd(n, pi_a, x);
    r = hn::NegMulAdd(n, pi_b, r);
    r = hn::NegMulAdd(n, pi_c, r);
  } else {
    const V a = hn::Abs(x);
    t = hn::Add(hn::MulAdd(a, inv_pi, hn::Set(d, -0.5f)), magic);
    // n + 1/2 on the adders: the multiply-adders are the busier units.
    const V m = hn::Add(hn::Sub(t, magic), hn::Set(d, 0.5f));
    r = hn::MulSub(m, pi_a, a);
    r = hn::MulAdd(m, pi_b, r);
    r = hn::MulAdd(m, pi_c, r);
  }
  return r;
}

// (-1)^n in the sign bit, from ReduceByPi's t.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V ParitySign(D d, V t) {
  const hn::RebindToSigned<D> di;
  return hn::BitCast(d, hn::ShiftLeft<sizeof(hn::TFromD<D>) * 8 - 1>(hn::BitCast(di, t)));
}

// sin and cos of float32 lanes, |x| <= 39000, in float lanes: ReduceByPi,
// then sin(r) = r + r^3 P(r^2), P of degree 3 (a relative minimax fit on
// [0, pi/2 + 0.005], 6.3e-9) by Estrin's scheme. Two fewer conversions
// and one multiply fewer than Highway's Sin and Cos, which float32 keeps on
// targets without FMA (float64: SinCosF64 on every target).
template <bool kSin, class D, class V = hn::Vec<D>>
HWY_INLINE V SinCosF32(D d, V x) {
  V t;
  const V r = ReduceByPi<kSin>(d, x, t);
  const V s = hn::Mul(r, r);
  const V p01 = hn::MulAdd(s, hn::Set(d, 0x1.110ec8p-7f), hn::Set(d, -0x1.55554cp-3f));
  const V p23 = hn::MulAdd(s, hn::Set(d, 0x1.5d9d30p-19f), hn::Set(d, -0x1.9f6dcep-13f));
  const V p = hn::MulAdd(hn::Mul(s, s), p23, p01);
  // Rounding takes a few results one ulp past +-1 (of the 2.4e9 floats,
  // cos 32804 and sin 40; Highway's cos 4.4 million): a clamp would cost
  // 10 %. cos(+-0) is exactly 1; sin(-0) comes out +0, which SinCos sets
  // right.
  return hn::Xor(hn::MulAdd(hn::Mul(r, s), p, r), ParitySign(d, t));
}

// The reduction of SinCosF64, |x| <= 39000: x = n pi/2 + r, n = round(x
// 2/pi), r = r_hi + r_lo (returned, and r_lo) with |r| <= pi/4 (about
// 1e-11 past it where 2/pi's rounding moves n). t = magic + n (+ 1 with
// kCos), whose two lowest bits are n's (n + 1's) quadrant.
//
// With FMA, pi/2 in three parts: A (53 bits), B (38 bits, so that n B is
// exact, |n| < 2^15) and C. x - n A is exact: both are multiples of 2^-52
// for |x| >= 1, of 2^-53 where n = +-1 and x >= 1/2, and their difference
// is below 1. Fast2Sum splits its difference with n B exactly, also where
// |x - n A| < |n B| (x near a multiple of pi/2): both are then multiples
// of 2^-91 below 2^-38, and so are Fast2Sum's two subtractions (exact). n
// C (below 2^-78) rounds once into r_lo; what C leaves of pi/2, 4.9e-45,
// times n is below 2^-133.
//
// Without FMA (n A would round), Cody and Waite's split in four parts:
// A1, A2 and A3 of 37, 38 and 38 bits, so that n times each is exact, and
// A4. x - n A1 is exact by the same argument as x - n A (n A1 is a
// multiple of 2^-36); Fast2Sum splits its difference with n A2 (below
// 2^-23) exactly, also where |x - n A1| < |n A2|: multiples of 2^-76 then.
// n A3 (below 2^-63) and n A4 round into r_lo. What A4 leaves of pi/2, 1.6e-52, times n is below
// 2^-157.
template <bool kCos, class D, class V = hn::Vec<D>>
HWY_INLINE V ReduceByHalfPiF64(D d, V x, V& t, V& r_lo) {
  const V two_over_pi = hn::Set(d, 0x1.45f306dc9c883p-1);
  // t + magic rounds t to an integer; (magic + 1) - magic is exactly 1.
  const V magic = hn::Set(d, kCos ? 0x1.8p+52 + 1 : 0x1.8p+52);
  t = hn::MulAdd(x, two_over_pi, magic);
  const V n = hn::Sub(t, magic);
#if HWY_NATIVE_FMA
  const V r1 = hn::NegMulAdd(n, hn::Set(d, 0x1.921fb54442d18p+0), x);
  const V nb = hn::Mul(n, hn::Set(d, 0x1.1a62633148p-54));
  const V r = hn::Sub(r1, nb);
  r_lo = hn::NegMulAdd(n, hn::Set(d, -0x1.1fc8f8cbb5bf7p-93), hn::Sub(hn::Sub(r1, r), nb));
#else
  const V r1 = hn::Sub(x, hn::Mul(n, hn::Set(d, 0x1.921fb5444p+0)));
  const V nb = hn::Mul(n, hn::Set(d, 0x1.68c234c4c8p-39));
  const V r = hn::Sub(r1, nb);
  const V e = hn::Sub(hn::Sub(r1, r), nb);
  r_lo = hn::Sub(hn::Sub(e, hn::Mul(n, hn::Set(d, -0x1.9d747f23ep-79))),
                 hn::Mul(n, hn::Set(d, -0x1.976b7ed8fbbadp-118)));
#endif
  return r;
}

// sin and cos of float64 lanes, |x| <= 39000: ReduceByHalfPiF64, then by
// the quadrant k = n (sin) or n + 1 (cos), (-1)^floor(k/2) times sin(r)
// (k even) or cos(r) = 1 - 2 sin^2(r/2) (k odd): one polynomial for both
// kinds of lane, sin(h + h_lo) = h + w with h = r or r/2, w = h q + cos(h)
// h_lo, q = h^2 P(h^2), P a relative minimax fit of degree 5 (fits::
// kSinF64, 3.6e-18 on |h| <= pi/4). |w| is at most 0.11 |sin h|, so the
// roundings inside w count a tenth. Max error 0.81 ulp over 12 million
// inputs (in [-7, 7], in [-39000, 39000] and near odd multiples of pi/4,
// where the largest errors lie: the cos form at |r| = pi/4); without FMA
// 0.98 over 20 million (Highway's Sin and Cos, which it replaced there,
// 2.30 and 2.54, 5 % faster for sin on SSE4, as fast for cos). Two details
// take it there from 0.92 for one operation: h_lo's factor cos(h), not 1
// (h_lo reaches half an ulp of h, cos(h) 0.71), and cos as 1 - r a with a
// = h + w (2 + q), r a = 2 (h + w)^2, where 1 - 2 S S with S = h + w
// rounded counted S's rounding twice. Against SLEEF's u10 on Zen 5 (bench
// accuracy output) 1.06-1.29e-16 relative against 1.06-1.12e-16. The pi
// reduction and sin(r) on |r| <= pi/2 that this replaced measured 2.07 and
// 2.22 ulp (its polynomial's term reached 0.57 there and its three
// roundings counted in full; 2.5e-16 relative, 2.3 times SLEEF's) and ran
// 13 % faster for sin, 2 % slower for cos (its own reduction differs); the
// extra h^2 rounding error in q (2 operations) gives 0.73 ulp, 12 % slower.
// The result stays within [-1, 1] (|sin h| <= sin(pi/4 + 1e-11), and 1 -
// r a <= 1): no clamp.
template <bool kSin, class D, class V = hn::Vec<D>>
HWY_INLINE V SinCosF64(D d, V x) {
  const hn::RebindToSigned<D> di;
  V t, r_lo;
  const V r = ReduceByHalfPiF64<!kSin>(d, x, t, r_lo);
  const auto k = hn::BitCast(di, t);
  const auto odd = hn::RebindMask(d, hn::TestBit(k, hn::Set(di, 1)));
  const V half = hn::IfThenElse(odd, hn::Set(d, 0.5), hn::Set(d, 1.0));
  const V h = hn::Mul(r, half);
  const V h_lo = hn::Mul(r_lo, half);
  const V s = hn::Mul(h, h);
  // P from the fits (kSinF64) by Horner's rule: one multiplication fewer
  // than Estrin's scheme (3 % faster; the loop's independent vectors hide
  // the longer chain).
  const auto coef = [d](int i) { return hn::Set(d, fits::kSinF64[i]); };
  V p = hn::MulAdd(s, coef(5), coef(4));
  for (int i = 3; i >= 0; --i) p = hn::MulAdd(p, s, coef(i));
  const V q = hn::Mul(s, p);
  // w = sin(h + h_lo) - h = h q + cos(h) h_lo, with cos(h) = 1 + 3 q up to
  // s^2 / 60: q (h + 3 h_lo) + h_lo.
  const V w = hn::MulAdd(q, hn::MulAdd(h_lo, hn::Set(d, 3.0), h), h_lo);
  // Even k: a = h + w = sin(h + h_lo). Odd k (h = r/2): a = h + w (2 + q),
  // so that r a = 2 h a = 2 (h + w)^2 (w^2 = h q w up to h_lo's terms):
  // cos(r) = 1 - r a with only a rounded, not sin(h) and its square.
  const V a = hn::MulAdd(w, hn::IfThenElse(odd, hn::Add(q, hn::Set(d, 2.0)), hn::Set(d, 1.0)), h);
  const V cos_r = hn::NegMulAdd(r, a, hn::Set(d, 1.0));
  // floor(k/2)'s parity, bit 1 of k, to the sign bit.
  const V sign = hn::And(hn::BitCast(d, hn::ShiftLeft<62>(k)), hn::Set(d, -0.0));
  return hn::Xor(hn::IfThenElse(odd, cos_r, a), sign);
}

// sin or cos of lanes with |x| <= 39000 (or x NaN: NaN).
template <bool kSin, class D, class V = hn::Vec<D>>
HWY_INLINE V SinCosCore(D d, V x) {
  using T = hn::TFromD<D>;
  // float32 without FMA keeps Highway's form: ReduceByPi's first step is
  // exact only when fused.
  constexpr bool kHighway = std::is_same_v<T, float> && !HWY_NATIVE_FMA;
  V r;
  if constexpr (kHighway) {
    r = kSin ? hn::Sin(d, x) : hn::Cos(d, x);
  } else if constexpr (std::is_same_v<T, float>) {
    r = SinCosF32<kSin>(d, x);
  } else {
    r = SinCosF64<kSin>(d, x);
  }
  // C (Annex F) asks for sin(+-0) = +-0 and cos(+-0) = 1 exactly. All
  // forms give sin(-0) = +0; Highway's cos(+-0) is one ulp or more below 1
  // (SinCosF32's and SinCosF64's are 1).
  if constexpr (kSin || kHighway) {
    r = hn::IfThenElse(hn::Eq(x, hn::Zero(d)), kSin ? x : hn::Set(d, T{1}), r);
  }
  return r;
}

// Highway's Sin and Cos reduce the argument with a few-term pi: exact
// enough only for |x| <= 39000 (and so are SinCosF32's and SinCosF64's
// reductions). Lanes beyond (and infinities and NaN) keep x and set
// `outside`; SinCosKernel gives them to the C library after the vector
// pass (not ScalarLanes: see there).
template <class D, class V = hn::Vec<D>>
HWY_INLINE auto SinCosInRange(D d, V x) {
  return hn::Le(hn::Abs(x), hn::Set(d, hn::TFromD<D>{39000}));
}
template <bool kSin, class D, class V = hn::Vec<D>>
HWY_INLINE V SinCosInside(D d, V x, bool& outside) {
  const auto inside = SinCosInRange(d, x);
  outside |= !hn::AllTrue(d, inside);
  return hn::IfThenElse(inside, SinCosCore<kSin>(d, hn::IfThenElseZero(inside, x)), x);
}

// erf in float64 lanes (see elementary.hpp). Below |x| = 1, x + x P with P
// = erf(x)/x - 1 (|P| <= 0.16), split as t^2 (...) + (c1 t + c0); in [1,
// 2), erf(1.5) in two parts. As x P(t) with P's constant 2/sqrt(pi) and
// erf(1.5) as one double, the errors were 1.44-1.50 ulp, 1.95 times
// SLEEF's u10 in the bench's accuracy output; now 0.99 (1.43e-16 relative
// against SLEEF's 1.18e-16), for three more operations.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V ErfDouble(D d, V x) {
  const V ax = hn::Abs(x);
  const V one = hn::Set(d, 1.0);
  const V t = hn::Mul(ax, ax);
  const V small_p =
      hn::MulAdd(Polynomial(d, erf_fit::kSmall, t), hn::Mul(t, t),
                 hn::MulAdd(t, hn::Set(d, erf_fit::kSmall1), hn::Set(d, erf_fit::kSmall0)));
  const V small = hn::MulAdd(ax, small_p, ax);
  const V s = hn::Sub(ax, hn::Set(d, 1.5));
  const V mid =
      hn::Add(hn::MulAdd(Polynomial(d, erf_fit::kMid, s), s, hn::Set(d, erf_fit::kMidTail)),
              hn::Set(d, erf_fit::kMidHead));
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

// erf(a) for float32 lanes with |a| <= 3.92: a P(a^2) / Q(a^2), P and Q of
// degree 5, fitted for opgen (linearised least squares for the relative
// error, then Lawson's reweighting): 2.1e-8 relative before rounding; the
// rounding errors of the coefficients and of the two Horner chains where
// a^2 is large (up to 15) dominate: at most 6.05 ulp with FMA (3.6e-7
// relative; Eigen 3.4's rational: 3.8e-7), 7.53 without (4.5e-7), near
// |a| = 3.5 (measured over every float in [2, 3.92]). With FMA, P is scaled
// to a leading coefficient of 1 (so is Q, by the same factor): its first
// Horner step is an addition, which leaves the multiply-add units one
// operation fewer (7 % faster). The result may exceed 1 in magnitude by a
// few ulp.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V ErfRationalF32(D d, V a) {
  const V t = hn::Mul(a, a);
#if HWY_NATIVE_FMA
  V p = hn::Add(t, hn::Set(d, 1.405099345e+02f));
  p = hn::MulAdd(p, t, hn::Set(d, 1.879349759e+03f));
  p = hn::MulAdd(p, t, hn::Set(d, 2.609711426e+04f));
  p = hn::MulAdd(p, t, hn::Set(d, 9.453790522e+04f));
  p = hn::MulAdd(p, t, hn::Set(d, 5.569376647e+05f));
  V q = hn::Set(d, 1.867322513e+01f);
  q = hn::MulAdd(q, t, hn::Set(d, 5.777793837e+02f));
  q = hn::MulAdd(q, t, hn::Set(d, 7.430272995e+03f));
  q = hn::MulAdd(q, t, hn::Set(d, 5.654102628e+04f));
  q = hn::MulAdd(q, t, hn::Set(d, 2.483060949e+05f));
  q = hn::MulAdd(q, t, hn::Set(d, 4.935731808e+05f));
#else
  // Without FMA the scaled coefficients round less favourably.
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
  q = hn::MulAdd(q, t, hn::Set(d, 1.0f));
#endif
  return hn::Div(hn::Mul(a, p), q);
}

// erf in float32 lanes other than NaN: ErfRationalF32 on x clamped to |x| <=
// 3.92 and then to |result| <= 1 (+-1 from |x| = 3.92 up, where erfc(x) <
// 2^-25, so erf rounds to 1). One division, no exp, no float64 (the float64
// evaluation was 15 times slower).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V ErfFloatNotNaN(D d, V x) {
  const V one = hn::Set(d, 1.0f);
  const V limit = hn::Set(d, 3.92f);
  // Without FMA the rational at the limit rounds to 1 - ulp: beyond it 1
  // is taken explicitly.
  const V ax = hn::Abs(x);
  const V r = ErfRationalF32(d, hn::Min(ax, limit));
  return hn::CopySignToAbs(hn::IfThenElse(hn::Ge(ax, limit), one, hn::Min(r, one)), x);
}

// erf in float32 lanes, every input. On AVX-512 the two clamps are
// vmaxps/vminps with x (then the result) as the second operand, which they
// return where either operand is NaN: NaN passes through without a check,
// signed zeros keep their sign, and (with FMA) the rational reaches 1 at the
// limit.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V ErfFloat(D d, V x) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  if constexpr (hn::MaxLanes(D()) == 16) {
    const V one = hn::Set(d, 1.0f);
    const V limit = hn::Set(d, 3.92f);
    const V a{_mm512_min_ps(limit.raw, _mm512_max_ps(hn::Neg(limit).raw, x.raw))};
    const V r = ErfRationalF32(d, a);
    return V{_mm512_min_ps(one.raw, _mm512_max_ps(hn::Neg(one).raw, r.raw))};
  }
#endif
  // Min may turn NaN into a number, hence the check.
  return hn::IfThenElse(hn::IsNaN(x), x, ErfFloatNotNaN(d, x));
}

// C's round: halfway cases away from zero. trunc(x) plus 1 toward x's
// side when the (exact) fraction is at least 1/2; infinities give a NaN
// fraction and stay.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V RoundAway(D d, V x) {
  using T = hn::TFromD<D>;
#if OPGEN_NATIVE_ROUNDING
  // trunc(x + copysign(h, x)) with h the largest T below 1/2: the sum
  // (rounded to nearest) crosses the next integer exactly when the fraction
  // is at least 1/2 (h + 1/2 rounds to 1, h + (1/2 - ulp) stays below it),
  // and x itself where |x| >= 2^(digits-1) is already an integer. 3
  // operations instead of 8; the same results.
  const T h = sizeof(T) == 4 ? T(0x1.fffffep-2f) : T(0x1.fffffffffffffp-2);
  return hn::Trunc(hn::Add(x, hn::CopySign(hn::Set(d, h), x)));
#else
  const V t = hn::Trunc(x);
  const V frac = hn::Abs(hn::Sub(x, t));
  const V step = hn::IfThenElseZero(hn::Ge(frac, hn::Set(d, T{0.5})), hn::Set(d, T{1}));
  return hn::CopySign(hn::Add(hn::Abs(t), step), x);
#endif
}

// The bounds of FmodInside's lanes: |x| < 2^digits |y| and, below kHuge,
// Dekker's split of y (without FMA) cannot overflow.
template <typename T>
struct FmodBounds {
  static constexpr T kLimit = sizeof(T) == 4 ? T(16777216.0) : T(9007199254740992.0);
  static constexpr T kHuge = sizeof(T) == 4 ? T(1e34) : T(1e304);
};

// Whether FmodInside computes fmod(a, b): the scalar form of its `fast`
// mask, the same comparisons of the same values.
template <typename T>
HWY_INLINE bool FmodInsideLane(T a, T b) {
  using B = FmodBounds<T>;
  const T ab = std::abs(b);
  return std::isfinite(a) && ab < B::kHuge && ab > T{0} && std::abs(a) < ab * B::kLimit;
}

// C's fmod for finite x and finite nonzero y with |x| < 2^digits |y|: q =
// trunc(x / y) is then exact or one too large in magnitude (never too
// small: rounding is monotonic), and x - q y is computed exactly (it is
// representable: the remainder, or the remainder minus y); a result of the
// wrong sign is moved back by |y|. Other lanes (and |y| near the top of
// the range) are left to std::fmod: `fast` says which.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V FmodInside(D d, V x, V y, hn::Mask<D>& fast) {
  using T = hn::TFromD<D>;
  using B = FmodBounds<T>;
  const V ay = hn::Abs(y);
  fast = hn::And(hn::And(hn::IsFinite(x), hn::Lt(ay, hn::Set(d, B::kHuge))),
                 hn::And(hn::Gt(ay, hn::Zero(d)), hn::Lt(hn::Abs(x), hn::Mul(ay, hn::Set(d, B::kLimit)))));
  const V xs = hn::IfThenElse(fast, x, hn::Zero(d));
  const V ys = hn::IfThenElse(fast, y, hn::Set(d, T{1}));
  const V q = hn::Trunc(hn::Div(xs, ys));
#if HWY_NATIVE_FMA
  V r = hn::NegMulAdd(q, ys, xs);
#else
  V err;
  const V p = TwoProduct(d, q, ys, err);
  V r = hn::Sub(hn::Sub(xs, p), err);
#endif
  const hn::RebindToSigned<D> di;
  const auto signs_differ =
      hn::RebindMask(d, hn::Lt(hn::BitCast(di, hn::Xor(r, xs)), hn::Zero(di)));
  const auto wrong_sign = hn::And(hn::Ne(r, hn::Zero(d)), signs_differ);
  r = hn::IfThenElse(wrong_sign, hn::Add(r, hn::CopySign(hn::Abs(ys), xs)), r);
  return hn::CopySign(r, xs);  // a zero remainder has x's sign
}

// fmod for every lane, the rest through std::fmod lane by lane.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Fmod(D d, V x, V y) {
  using T = hn::TFromD<D>;
  hn::Mask<D> fast;
  const V r = FmodInside(d, x, y, fast);
  return ScalarLanes(d, hn::Not(fast), r, x, y, [](T a, T b) -> T { return std::fmod(a, b); });
}

// atan2(y, x) for finite x and y whose magnitudes sum to a finite value,
// with one division. With a = |x| and b = |y|, atan2(b, x) = k pi/4 +
// atan(t) with
//   a >= 2b:    t = b / x,              k = 0 (x >= +0) or 4 (x <= -0);
//   b > 2a:     t = -x / b,             k = 2;
//   otherwise:  t = +-(b - a)/(a + b),  k = 1 (x > 0) or 3 (x < 0),
// so |t| <= 1/2, and b - a is exact (Sterbenz: a/2 <= b <= 2a). Each t is
// the x > 0 form with x's sign, and k = 2 + (k for x > 0, less 2) with x's
// sign. atan(t) = t + t^3 P(t^2), P a relative minimax fit (fits) by
// Estrin's scheme; the result takes y's sign. k pi/4 is split in two, the
// high part short enough that k times it is exact; the high part and t
// are summed exactly (Fast2Sum: the high part is 0 or exceeds |t|), so the
// sum rounds once. Both zero: b / max(a, the least subnormal) = 0, C's
// result with k = 0 or 4. A NaN input gives a NaN t and a NaN result.
// `sum` returns a + b, infinite for the inputs this does not cover.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Atan2Finite(D d, V y, V x, V& sum) {
  using T = hn::TFromD<D>;
  constexpr bool kFloat = sizeof(T) == 4;
  const V x_sign = hn::And(x, hn::SignBit(d));
  const V a = hn::Abs(x);
  const V b = hn::Abs(y);
  const auto in_a = hn::Ge(a, hn::Add(b, b));
  const auto in_c = hn::Gt(b, hn::Add(a, a));
  sum = hn::Add(a, b);
  const V least = hn::Set(d, std::numeric_limits<T>::denorm_min());
  const V num = hn::IfThenElse(in_a, b, hn::IfThenElse(in_c, hn::Neg(a), hn::Sub(b, a)));
  const V den = hn::IfThenElse(in_a, hn::Max(a, least), hn::IfThenElse(in_c, b, sum));
  V t, t_lo;
  if constexpr (kFloat) {
    t = hn::Xor(hn::Div(num, den), x_sign);
  } else {
    // t + t_lo = num / (den + den_lo) to about 2^-100: den_lo, a + b's
    // rounding error where den is that sum (Fast2Sum on the larger and the
    // smaller), and the quotient's remainder num - t den (exact by FMA),
    // both divided by den. With t rounded the error reached 1.32 ulp (2.1e-16
    // relative in the bench, 1.94 times glibc's); now 0.83 (1.17e-16), for a
    // second division: 0.43-0.61 Gelem/s against 0.57-0.65 (1K and 64K,
    // SLEEF u10 0.23-0.29). The reciprocal of den and two products instead
    // would overflow for subnormal den.
    const V q = hn::Div(num, den);
    const V rem = hn::NegMulAdd(q, den, num);
    const V den_lo = hn::IfThenElseZero(hn::Not(hn::Or(in_a, in_c)),
                                        hn::Add(hn::Sub(hn::Max(a, b), sum), hn::Min(a, b)));
    t = hn::Xor(q, x_sign);
    t_lo = hn::Xor(hn::Div(hn::NegMulAdd(q, den_lo, rem), den), x_sign);
  }
  // k - 2 for x > 0, then with x's sign.
  const V m = hn::Xor(x_sign, hn::IfThenElse(in_a, hn::Set(d, T{-2}),
                                             hn::IfThenElseZero(hn::Not(in_c), hn::Set(d, T{-1}))));
  const T pi4_hi = static_cast<T>(kFloat ? 0x1.921fbp-1 : 0x1.921fb54442d18p-1);
  const T pi4_lo = static_cast<T>(kFloat ? 0x1.5110b4p-23 : 0x1.1a62633145c07p-55);
  const V base_hi = hn::MulAdd(m, hn::Set(d, pi4_hi), hn::Set(d, 2 * pi4_hi));
  const V base_lo = hn::MulAdd(m, hn::Set(d, pi4_lo), hn::Set(d, 2 * pi4_lo));
  const V s = hn::Mul(t, t);
  const V s2 = hn::Mul(s, s);
  const V s4 = hn::Mul(s2, s2);
  V poly;
  if constexpr (kFloat) {
    const auto& c = fits::kAtanF32;
    const V p01 = hn::MulAdd(s, hn::Set(d, c[1]), hn::Set(d, c[0]));
    const V p23 = hn::MulAdd(s, hn::Set(d, c[3]), hn::Set(d, c[2]));
    const V p45 = hn::MulAdd(s, hn::Set(d, c[5]), hn::Set(d, c[4]));
    poly = hn::MulAdd(s4, p45, hn::MulAdd(s2, p23, p01));
  } else {
    const auto& c = fits::kAtanF64;
    const V p01 = hn::MulAdd(s, hn::Set(d, c[1]), hn::Set(d, c[0]));
    const V p23 = hn::MulAdd(s, hn::Set(d, c[3]), hn::Set(d, c[2]));
    const V p45 = hn::MulAdd(s, hn::Set(d, c[5]), hn::Set(d, c[4]));
    const V p67 = hn::MulAdd(s, hn::Set(d, c[7]), hn::Set(d, c[6]));
    const V p89 = hn::MulAdd(s, hn::Set(d, c[9]), hn::Set(d, c[8]));
    const V p1011 = hn::MulAdd(s, hn::Set(d, c[11]), hn::Set(d, c[10]));
    const V q03 = hn::MulAdd(s2, p23, p01);
    const V q47 = hn::MulAdd(s2, p67, p45);
    const V q811 = hn::MulAdd(s2, p1011, p89);
    poly = hn::MulAdd(s4, hn::MulAdd(s4, q811, q47), q03);
  }
  const V hi = hn::Add(base_hi, t);
  const V err = hn::Add(hn::Sub(base_hi, hi), t);
  V small = hn::MulAdd(hn::Mul(s, t), poly, base_lo);
  // t_lo's slope: atan'(t) = 1 - t^2 up to t^4.
  if constexpr (!kFloat) small = hn::Add(small, hn::NegMulAdd(s, t_lo, t_lo));
  const V r = hn::Add(hi, hn::Add(err, small));
  return hn::CopySignToAbs(r, y);
}

// atan2(y, x): Atan2Finite, and for the lanes it does not cover (an
// infinite input, or |x| + |y| past the largest finite value) Atan2Finite
// again on inputs that give the same angle: with an infinite input, +-1
// for infinite ones and +-0 for finite ones, signs kept (C's special
// cases: atan2(y, -inf) = +-pi, atan2(+-inf, -inf) = +-3pi/4, ...);
// otherwise both divided by 4 (exact for inputs that large). Max error
// 1.45 ulp (float32) and 1.32 (float64) on the kernel tests' inputs: t's
// rounding, up to an ulp of a result that lies a binade below t, and in
// the middle range a + b's. [1024, 1024] float64 on Zen 5: 1576 -> 1030
// us (Highway's Atan after a first division: two divisions and a degree-39
// polynomial); float32 531 -> 427.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Atan2(D d, V y, V x) {
  using T = hn::TFromD<D>;
  V sum;
  const V r = Atan2Finite(d, y, x, sum);
  const auto outside = hn::IsInf(sum);
  if (HWY_LIKELY(hn::AllFalse(d, outside))) return r;
  const auto x_inf = hn::IsInf(x);
  const auto y_inf = hn::IsInf(y);
  const auto any_inf = hn::Or(x_inf, y_inf);
  const V one = hn::Set(d, T{1});
  const V quarter = hn::Set(d, T{0.25});
  const V x2 =
      hn::IfThenElse(any_inf, hn::CopySign(hn::IfThenElseZero(x_inf, one), x), hn::Mul(x, quarter));
  const V y2 =
      hn::IfThenElse(any_inf, hn::CopySign(hn::IfThenElseZero(y_inf, one), y), hn::Mul(y, quarter));
  V unused;
  return hn::IfThenElse(outside, Atan2Finite(d, y2, x2, unused), r);
}

// 1 / v within 2^-14 relative (v > 0 normal): rcp14 on AVX-512, a division
// elsewhere.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V RoughReciprocalF64(D d, V v) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  if constexpr (sizeof(V) == 64) {
    (void)d;
    return V{_mm512_rcp14_pd(v.raw)};
  }
#endif
  return hn::Div(hn::Set(d, 1.0), v);
}

// hypot in float64 lanes. With a = max(|x|, |y|) and b = min(|x|, |y|), both
// are scaled by the power of 2 that takes a into [1, 2) (exactly; [2^-52, 4)
// at the ends of the range, a subnormal or a >= 2^1023), so that a^2 neither
// overflows nor underflows (b^2 may underflow only where it is below a^2's
// last bit). a^2 + b^2 is then a double-double from exact products
// (TwoProduct), and its square root h is corrected by the residual:
// h + (s - h^2) / (2h), s - h^2 exact by Sterbenz, 1 / h from rcp14 on
// AVX-512 (the correction is below an ulp of h, so 14 bits of it are
// plenty). One rounding of consequence: measured 0.50 ulp for normal
// results and 0.75 for subnormal ones (rounded twice: the scaled result,
// then its scaling back), against 1.79 for a sqrt(1 + (b/a)^2), at the same
// speed on AVX-512 (a square root and no division; 64K on Zen 5: 1.50
// Gelem/s, SLEEF's u05 0.53).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V HypotDouble(D d, V x, V y) {
  const hn::RebindToUnsigned<D> du;
  const V ax = hn::Abs(x);
  const V ay = hn::Abs(y);
  const V a = hn::Max(ax, ay);
  const V b = hn::Min(ax, ay);
  // a clamped to normal numbers below 2^1023; its exponent field E gives
  // the scale 2^(1023 - e) and back 2^(e - 1023), both normal.
  const V ac = hn::Min(hn::Max(a, hn::Set(d, 0x1p-1022)), hn::Set(d, 0x1p1022));
  const auto exponent = hn::And(hn::BitCast(du, ac), hn::Set(du, 0x7FF0000000000000ull));
  const V back = hn::BitCast(d, exponent);
  const V scale = hn::BitCast(d, hn::Sub(hn::Set(du, 2046ull << 52), exponent));
  const V as = hn::Mul(a, scale);
  const V bs = hn::Mul(b, scale);
  V a2_lo, b2_lo, h2_lo;
  const V a2 = TwoProduct(d, as, as, a2_lo);
  const V b2 = TwoProduct(d, bs, bs, b2_lo);
  const V s = hn::Add(a2, b2);  // Fast2Sum: a2 >= b2
  const V s_lo = hn::Add(hn::Sub(b2, hn::Sub(s, a2)), hn::Add(a2_lo, b2_lo));
  const V h = hn::Sqrt(s);
  const V h2 = TwoProduct(d, h, h, h2_lo);
  const V residual = hn::Add(hn::Sub(hn::Sub(s, h2), h2_lo), s_lo);
  // h = 0 (x = y = 0): a residual of 0 times 1 / 2^-1022.
  const V half_inv_h =
      hn::Mul(hn::Set(d, 0.5), RoughReciprocalF64(d, hn::Max(h, hn::Set(d, 0x1p-1022))));
  const V r = hn::Mul(hn::MulAdd(residual, half_inv_h, h), back);
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
  return DemoteToFloatOrInf(df, dd, fixed);
}

// float32 on AVX2/AVX-512: RsqrtAccurate when every lane is a normal
// positive number (most vectors), 1 / Sqrt(x) otherwise.
#if OPGEN_RSQRT_NEWTON && (HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL)
// On AVX-512 CPUs with FastDivider one vector of four takes 1 / Sqrt(x)
// all the same (DividerShare::kSqrtDivision), so that the divider works
// beside the FMA units: Zen 4, 1K 125 -> 111 ns, 64K and 1M 10 % less
// time; those vectors are within 1.45 ulp, the others 1.04.
//
// float64: the rcp14 family's estimate r0 (rsqrt14, relative error below
// 2^-14, subnormal inputs included) and two Newton steps r + (r/2) e, e = 1 -
// (x r) r by one FMA: about 2^-28 after the first, and after the second the
// rounding of x r (2^-54 in r) and the result's. No square root, division
// or branch: where x r0 is NaN (x = +-0, +inf, negative or NaN) r0 is
// already the result (+-inf, +0, NaN). Zen 5, 1K: 2.2 -> 5.6-5.7 Gelem/s,
// level with Eigen's rsqrt14 and Newton steps (a range check and branch per
// vector held it at 0.85 of Eigen); 1.05 ulp over the tests' inputs,
// against 1.42 for 1 / Sqrt(x).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V RsqrtF64(D d, V x) {
  if constexpr (sizeof(V) == 64) {
    const V one = hn::Set(d, 1.0);
    const V half = hn::Set(d, 0.5);
    const V r0{_mm512_rsqrt14_pd(x.raw)};
    const V xr = hn::Mul(x, r0);
    V r = hn::MulAdd(hn::Mul(r0, half), hn::NegMulAdd(xr, r0, one), r0);
    r = hn::MulAdd(hn::Mul(r, half), hn::NegMulAdd(hn::Mul(x, r), r, one), r);
    return hn::IfThenElse(hn::IsNaN(xr), r0, r);
  }
  return hn::Div(hn::Set(d, 1.0), hn::Sqrt(x));
}
using RsqrtOp =
    FastFormOp<decltype([](auto d, auto x) OPGEN_FORM_ATTR {
                 using T = hn::TFromD<decltype(d)>;
                 if constexpr (sizeof(T) == 8) {
                   return RsqrtF64(d, x);
                 } else {
                   return hn::Div(hn::Set(d, T{1}), hn::Sqrt(x));
                 }
               }),
               decltype([](auto d, auto x) OPGEN_FORM_ATTR { return RsqrtAccurate(d, x); }),
               decltype([](auto d, auto x) OPGEN_FORM_ATTR { return RsqrtAccurateInRange(d, x); }),
               /*kFastAlone=*/true, DividerShare::kSqrtDivision>;
#else
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
#endif
struct ReciprocalDivide {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return hn::Div(hn::Set(d, hn::TFromD<D>{1}), v);
  }
};
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
// Fast, on AVX-512: float32 vectors whose lanes all have 2^-125 <= |x| <
// 2^126 (1 / x normal) and a significand other than all ones.
// ReciprocalNewton (rcp14, relative error < 2^-14, and one Newton step)
// gives y within an ulp of 1 / x; Markstein's correction y + y (1 - x y)
// is then the correctly rounded reciprocal for every x but those whose
// significand is all ones (his theorem's exception; here one ulp low),
// which divide. Four FMA-unit
// operations against a division of about 2.8 ns per vector (zmm vdivps, a
// Sapphire Rapids class Xeon); the first vector of each four still divides
// (DividerShare::kDivision), so that the divider works beside the FMA units. On
// CPUs with a fast divider (FastDivider: AMD Zen 4, about 1.6 ns per
// vector) the first three of each four divide: 1K 80-81 ns, against 105-107
// all divided and 131-151 one in four.
// Checked for every float32 on AVX-512 (that CPU's rcp14), none differing
// from the division.
using ReciprocalOp = FastFormOp<ReciprocalDivide, decltype([](auto d, auto x) OPGEN_FORM_ATTR {
                                  const auto y = ReciprocalNewton(d, x);
                                  return hn::MulAdd(y, hn::NegMulAdd(x, y, hn::Set(d, 1.0f)), y);
                                }),
                                decltype([](auto d, auto x) OPGEN_FORM_ATTR {
                                  const hn::RebindToSigned<decltype(d)> di;
                                  const auto a = hn::Abs(x);
                                  const auto m = hn::Set(di, 0x7FFFFF);
                                  const auto not_all_ones = hn::RebindMask(
                                      d, hn::Ne(hn::And(hn::BitCast(di, x), m), m));
                                  // 2^-125 <= |x| < 2^126.
                                  return hn::And(BitsInRange<0x01000000u, 0x7E800000u>(d, a),
                                                 not_all_ones);
                                }),
                                /*kFastAlone=*/true, DividerShare::kDivision>;
#else
using ReciprocalOp = ReciprocalDivide;
#endif
// Fast: float32 vectors whose lanes all lie in Exp2F32InRange (also taken
// one vector at a time; likewise Expm1Op and Log2Op).
using Exp2Op =
    FastFormOp<decltype([](auto d, auto v) OPGEN_FORM_ATTR { return Exp2(d, v); }),
               decltype([](auto d, auto v) OPGEN_FORM_ATTR { return Exp2F32Fast(d, v); }),
               decltype([](auto d, auto v) OPGEN_FORM_ATTR { return Exp2F32InRange(d, v); })>;
// Fast: float32 vectors whose lanes all lie in Expm1F32InRange.
using Expm1Op =
    FastFormOp<decltype([](auto d, auto v) OPGEN_FORM_ATTR { return Expm1Full(d, v); }),
               decltype([](auto d, auto v) OPGEN_FORM_ATTR { return Expm1F32Fast(d, v); }),
               decltype([](auto d, auto v) OPGEN_FORM_ATTR { return Expm1F32InRange(d, v); })>;
// Fast: float32 vectors whose lanes all lie in Log1pInRange.
using Log1pOp =
    FastFormOp<decltype([](auto d, auto v) OPGEN_FORM_ATTR { return Log1pFull(d, v); }),
               decltype([](auto d, auto v) OPGEN_FORM_ATTR { return Log1pF32Fast(d, v); }),
               decltype([](auto d, auto v) OPGEN_FORM_ATTR { return Log1pInRange(d, v); })>;
// Fast: float32 vectors whose lanes all lie in PositiveNormalF32.
using Log2Op =
    FastFormOp<decltype([](auto d, auto v) OPGEN_FORM_ATTR { return Log2Full(d, v); }),
               decltype([](auto d, auto v) OPGEN_FORM_ATTR { return Log2F32Fast(d, v); }),
               decltype([](auto d, auto v) OPGEN_FORM_ATTR { return PositiveNormalF32(d, v); })>;
// `outside`: whether some lane was left for SinCosKernel's second pass.
// Fast: vectors wholly within SinCosInRange, without SinCosInside's two
// selections (one check per four vectors: 6 % less time for float64 sin).
template <bool kSin>
struct SinCosOp {
  mutable bool outside = false;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return SinCosInside<kSin>(d, v, outside);
  }
  template <class D, class V>
  HWY_INLINE V Fast(D d, V v) const {
    return SinCosCore<kSin>(d, v);
  }
  template <class D, class V>
  HWY_INLINE auto InRange(D d, V v) const {
    return SinCosInRange(d, v);
  }
};

// sin or cos of x[0, n): the vector pass, then the C library for the
// elements it left as they were. Those are the only ones not within 1 + a
// few ulp of [-1, 1], which also holds where out is x.
template <bool kSin, class D, typename T = hn::TFromD<D>>
HWY_INLINE void SinCosKernel(D d, const T* x, T* out, size_t n) {
  const SinCosOp<kSin> op;
  UnaryTransform(d, x, out, n, op);
  if (HWY_LIKELY(!op.outside)) return;
  for (size_t i = 0; i < n; ++i) {
    const T v = out[i];
    if (!(std::abs(v) <= T{39000})) out[i] = kSin ? std::sin(v) : std::cos(v);
  }
}
// Fast: float32 vectors without NaN (not on AVX-512, where ErfFloat needs
// no check).
struct ErfOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    if constexpr (sizeof(hn::TFromD<D>) == 4) {
      return ErfFloat(d, v);
    } else {
      return ErfDouble(d, v);
    }
  }
#if HWY_TARGET != HWY_AVX3 && HWY_TARGET != HWY_AVX3_DL
  template <class D, class V, HWY_IF_LANE_SIZE(hn::TFromD<D>, 4)>
  HWY_INLINE V Fast(D d, V v) const {
    return ErfFloatNotNaN(d, v);
  }
  template <class D, class V, HWY_IF_LANE_SIZE(hn::TFromD<D>, 4)>
  HWY_INLINE auto InRange(D, V v) const {
    return hn::Eq(v, v);
  }
#endif
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
    return SignedIntegral(hn::Trunc(v), v);
  }
};
struct SignOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    using T = hn::TFromD<D>;
    const V zero = hn::Zero(d);
    if constexpr (hwy::IsFloat<T>()) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
      // One vfixupimm: it classifies each lane and answers from a table of
      // one nibble per class, here (class 7 down to 0) positive +1,
      // negative -1, +inf +1, -inf -1, +1 +1, zero +0, SNaN and QNaN the
      // quiet input, which is what the expression below gives (v + 0 quiets
      // a NaN and keeps its payload). The expression takes five operations,
      // which bound sign in the L1 cache: 1K floats 59-65 -> 35-47 ns
      // (ops_bench, one core; 64K, bound by the L2 cache, unchanged).
      constexpr int kTable = static_cast<int>(0xA9A9A822u);
      const auto raw = v.raw;
      if constexpr (sizeof(T) == 4 && sizeof(V) == 64) {
        return V{_mm512_fixupimm_ps(raw, raw, _mm512_set1_epi32(kTable), 0)};
      } else if constexpr (sizeof(T) == 4 && sizeof(V) == 32) {
        return V{_mm256_fixupimm_ps(raw, raw, _mm256_set1_epi32(kTable), 0)};
      } else if constexpr (sizeof(T) == 4) {
        return V{_mm_fixupimm_ps(raw, raw, _mm_set1_epi32(kTable), 0)};
      } else if constexpr (sizeof(V) == 64) {
        return V{_mm512_fixupimm_pd(raw, raw, _mm512_set1_epi64(kTable), 0)};
      } else if constexpr (sizeof(V) == 32) {
        return V{_mm256_fixupimm_pd(raw, raw, _mm256_set1_epi64x(kTable), 0)};
      } else {
        return V{_mm_fixupimm_pd(raw, raw, _mm_set1_epi64x(kTable), 0)};
      }
#else
      // +-1 with the sign of v where |v| > 0; v + 0 elsewhere, which is +0
      // for either zero and keeps NaN.
      return hn::IfThenElse(hn::Gt(hn::Abs(v), zero), hn::CopySign(hn::Set(d, T{1}), v),
                            hn::Add(v, zero));
#endif
    } else {
      return hn::Sub(hn::IfThenElseZero(hn::Gt(v, zero), hn::Set(d, T{1})),
                     hn::IfThenElseZero(hn::Lt(v, zero), hn::Set(d, T{1})));
    }
  }
};
struct FmodOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    return Fmod(d, a, b);
  }
};
// FmodInside alone; `outside`: whether a lane was left to std::fmod.
struct FmodInsideOp {
  mutable bool outside = false;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    hn::Mask<D> fast;
    const V r = FmodInside(d, a, b, fast);
    outside |= !hn::AllTrue(d, fast);
    return r;
  }
};

// fmod of x[0, n) and y[0, n). Where out is neither x nor y, the vector
// pass leaves the elements it does not cover for a second pass through
// std::fmod (x and y are still there; see ScalarLanes for why). Where out
// is x or y, ScalarLanes calls the C library inside the loop.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void FmodKernel(D d, const T* x, const T* y, T* out, size_t n) {
  if (out == x || out == y) {
    BinaryTransform(d, x, y, out, n, FmodOp());
    return;
  }
  const FmodInsideOp op;
  BinaryTransform(d, x, y, out, n, op);
  if (HWY_LIKELY(!op.outside)) return;
  for (size_t i = 0; i < n; ++i) {
    if (!FmodInsideLane(x[i], y[i])) out[i] = std::fmod(x[i], y[i]);
  }
}
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
void SinF32(const float* x, float* out, size_t n) {
  SinCosKernel<true>(hn::ScalableTag<float>(), x, out, n);
}
void SinF64(const double* x, double* out, size_t n) {
  SinCosKernel<true>(hn::ScalableTag<double>(), x, out, n);
}
void CosF32(const float* x, float* out, size_t n) {
  SinCosKernel<false>(hn::ScalableTag<float>(), x, out, n);
}
void CosF64(const double* x, double* out, size_t n) {
  SinCosKernel<false>(hn::ScalableTag<double>(), x, out, n);
}
OPGEN_UNARY_FLOAT(Erf)
OPGEN_LIGHT_UNARY_FLOAT(Round)
OPGEN_LIGHT_UNARY_FLOAT(Trunc)
OPGEN_UNARY_FLOAT(Sign)
OPGEN_UNARY(Sign, I32, int32_t, hn::ScalableTag<int32_t>)
OPGEN_UNARY(Sign, I64, int64_t, hn::ScalableTag<int64_t>)
void FmodF32(const float* x, const float* y, float* out, size_t n) {
  FmodKernel(hn::ScalableTag<float>(), x, y, out, n);
}
void FmodF64(const double* x, const double* y, double* out, size_t n) {
  FmodKernel(hn::ScalableTag<double>(), x, y, out, n);
}
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
