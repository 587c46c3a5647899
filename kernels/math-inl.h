// Per-target vector math shared by the kernels: IEEE-complete wrappers around
// hwy/contrib/math (whose Exp and Log cover only part of the input range),
// the compositions Highway 1.0.3 lacks (Sigmoid, Gelu, Pow), and NaN- and
// signed-zero-exact Maximum/Minimum. Included once per SIMD target, hence the
// include guard that toggles with HWY_TARGET_TOGGLE.

#if defined(OPGEN_KERNELS_MATH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef OPGEN_KERNELS_MATH_INL_H_
#undef OPGEN_KERNELS_MATH_INL_H_
#else
#define OPGEN_KERNELS_MATH_INL_H_
#endif

#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "kernels/transform-inl.h"  // InRegister

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// max(a, b) with -0 < +0 on every target (x86 maxps returns its second
// operand for equal inputs, so the sign of a zero result would depend on the
// order of operands). NaN lanes are unspecified: callers track NaN themselves.
template <class V>
HWY_INLINE V MaxOrderedZeros(V a, V b) {
  return hn::IfThenElse(hn::Eq(a, b), hn::And(a, b), hn::Max(a, b));
}

// The largest lane of v, with -0 < +0; NaN lanes are the caller's business.
// Not MaxOfLanes: Highway 1.0.3 emulates it on EMU128 from LowestValue()
// (-FLT_MAX), which turns an all -inf vector into -FLT_MAX, and it leaves
// the sign of a zero maximum to the target.
template <class D, class V = hn::Vec<D>>
HWY_INLINE hn::TFromD<D> MaxOfLanesOrdered(D d, V v) {
  using T = hn::TFromD<D>;
  HWY_ALIGN T lanes[hn::MaxLanes(D())];
  hn::Store(v, d, lanes);
  T max = lanes[0];
  for (size_t i = 1; i < hn::Lanes(d); ++i) {
    const T lane = lanes[i];
    if constexpr (hwy::IsFloat<T>()) {
      if (lane > max || (lane == max && !std::signbit(lane))) max = lane;
    } else if (lane > max) {
      max = lane;
    }
  }
  return max;
}

// Whether hn::Min and hn::Max return their second operand when either input
// is NaN or both are equal (zeros of either sign), as x86's minps/maxps do:
// then Max(lo, x) keeps a NaN or -0 x, and clamping takes one operation per
// bound instead of a comparison and a select. Not on Arm (fmin/fmax return
// NaN and order -0 < +0) nor on Highway's scalar targets (the non-NaN
// operand).
#undef OPGEN_MINMAX_SECOND_OPERAND
#if HWY_ARCH_X86 && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
#define OPGEN_MINMAX_SECOND_OPERAND 1
#else
#define OPGEN_MINMAX_SECOND_OPERAND 0
#endif

// Lanes of float32 x whose bit patterns, read as unsigned integers, lie in
// [kLo, kHi): a range check in one integer addition and one signed
// comparison, u < k unsigned being u ^ 2^31 < k ^ 2^31 signed. For the
// checks of fast forms on positive normal ranges (kLo the smallest such
// float's bits, kHi the first excluded one's; negative numbers, NaN and
// infinities fall outside), in place of two float comparisons and a mask
// and: on Zen 5, 1K float32 rsqrt 66 -> 47 ns and sqrt 60 -> 47 (one core,
// the kernels alone, medians over buffer placements).
template <std::uint32_t kLo, std::uint32_t kHi, class D, class V = hn::Vec<D>>
HWY_INLINE auto BitsInRange(D d, V x) {
  static_assert(sizeof(hn::TFromD<D>) == 4 && kLo < kHi);
  const hn::RebindToSigned<D> di;
  const auto shifted =
      hn::Add(hn::BitCast(di, x), hn::Set(di, static_cast<std::int32_t>(0x80000000u - kLo)));
  const auto limit = hn::Set(di, static_cast<std::int32_t>((kHi - kLo) ^ 0x80000000u));
  return hn::RebindMask(d, hn::Lt(shifted, limit));
}

// r, an integral value Floor, Ceil or Trunc computed from x, with the sign
// of x. The native rounding instructions (x86 SSE4 and later, AArch64 NEON
// and SVE) keep the sign of a zero result; Highway 1.0.3's emulations (SSSE3,
// EMU128, the scalar target) do not, so CopySign restores it there.
#undef OPGEN_NATIVE_ROUNDING
#if HWY_TARGET == HWY_EMU128 || HWY_TARGET == HWY_SCALAR
#define OPGEN_NATIVE_ROUNDING 0
#elif HWY_ARCH_X86
#define OPGEN_NATIVE_ROUNDING (HWY_TARGET <= HWY_SSE4)
#else
#define OPGEN_NATIVE_ROUNDING HWY_ARCH_ARM_A64
#endif
template <class V>
HWY_INLINE V SignedIntegral(V r, V x) {
#if OPGEN_NATIVE_ROUNDING
  (void)x;
  return r;
#else
  return hn::CopySign(r, x);
#endif
}

// IEEE 754-2019 maximum/minimum: NaN if either input is NaN, -0 < +0. Exact
// (NaN payloads aside), hence identical on every target. Where Min returns
// its second operand for unordered or equal inputs (x86), minimum is
// min(a, b) | min(b, a): the two agree unless the inputs are unordered or
// equal, where one of them is the NaN (an or with a NaN's bits is a NaN) or
// the two zeros (the or keeps -0). For maximum the zeros need an and (+0
// & -0 = +0) but a NaN an or, so m1 & m2 | ((m1 ^ m2) & ~sign): where m1 and
// m2 are +0 and -0 the xor is the sign bit alone, and where one is a NaN
// the or of the two terms has the NaN's exponent (all ones) and the or of
// both fractions (not zero). minimum takes three operations, maximum
// three on AVX-512 (its bit operations as one vpternlog; 1K maximum went
// from 56-57 to 50-52 ns with GCC's two) and six on SSE4/AVX2, instead of
// eight with two blends.
template <class V>
HWY_INLINE V Minimum(V a, V b) {
#if OPGEN_MINMAX_SECOND_OPERAND
  return hn::Or(hn::Min(a, b), hn::Min(b, a));
#else
  const V m = hn::IfThenElse(hn::Eq(a, b), hn::Or(a, b), hn::Min(a, b));
  return hn::IfThenElse(hn::Or(hn::IsNaN(a), hn::IsNaN(b)), hn::Add(a, b), m);
#endif
}
template <class V>
HWY_INLINE V Maximum(V a, V b) {
#if OPGEN_MINMAX_SECOND_OPERAND
  const hn::DFromV<V> d;
  const V m1 = hn::Max(a, b);
  const V m2 = hn::Max(b, a);
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  if constexpr (sizeof(V) == 64 || sizeof(V) == 32) {
    // The bit operations as one vpternlog (GCC 12 emits two for the
    // expression below): f(m1, m2, sign) = 0xD4, bit i of the immediate being
    // f at m1 = i >> 2, m2 = (i >> 1) & 1, sign = i & 1. 256-bit vectors
    // too (LightBinaryTransform): 1K maximum 55.9 -> 49.4 ns there.
    const hn::RebindToUnsigned<decltype(d)> du;
    const auto u1 = hn::BitCast(du, m1).raw;
    const auto u2 = hn::BitCast(du, m2).raw;
    const auto sign = hn::BitCast(du, hn::SignBit(d)).raw;
    if constexpr (sizeof(V) == 64) {
      return hn::BitCast(d, hn::Vec<decltype(du)>{_mm512_ternarylogic_epi32(u1, u2, sign, 0xD4)});
    } else {
      return hn::BitCast(d, hn::Vec<decltype(du)>{_mm256_ternarylogic_epi32(u1, u2, sign, 0xD4)});
    }
  }
#endif
  return hn::Or(hn::And(m1, m2), hn::AndNot(hn::SignBit(d), hn::Xor(m1, m2)));
#else
  return hn::IfThenElse(hn::Or(hn::IsNaN(a), hn::IsNaN(b)), hn::Add(a, b), MaxOrderedZeros(a, b));
#endif
}

// e^x for every input through Highway's Exp (see ExpFull).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V ExpHighway(D d, V x) {
  using T = hn::TFromD<D>;
  const V clamp = hn::Set(d, static_cast<T>(sizeof(T) == 4 ? 128.0 : 1024.0));
  return hn::IfThenElse(hn::IsNaN(x), x, hn::Exp(d, hn::Min(x, clamp)));
}

// The reduction and polynomial of ExpF32Normal (and of the float32 expm1 of
// the activations): x = n ln2 + r with n = round(x / ln 2) and |r| <= ln2 / 2
// (Cody-Waite: n * kLn2Hi is exact), and e^r - 1 = r + r^2 P(r) with
// Cephes' degree-5 minimax P, which it returns. t holds n in its low
// mantissa bits: adding 1.5 * 2^23 rounds x / ln 2 to an integer (one FMA
// instead of a round and a conversion), so ShiftLeft<23> of its bits is
// n << 23, the exponent field of 2^n.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V ExpF32ReducedM1(D d, V x, V& t) {
  const V shift = hn::Set(d, 12582912.0f);
  t = hn::MulAdd(x, hn::Set(d, 1.44269504088896341f), shift);
  const V n = hn::Sub(t, shift);
  V r = hn::NegMulAdd(n, hn::Set(d, 0.693359375f), x);
  r = hn::NegMulAdd(n, hn::Set(d, -2.12194440e-4f), r);
  V p = hn::Set(d, 1.9875691500e-4f);
  p = hn::MulAdd(p, r, hn::Set(d, 1.3981999507e-3f));
  p = hn::MulAdd(p, r, hn::Set(d, 8.3334519073e-3f));
  p = hn::MulAdd(p, r, hn::Set(d, 4.1665795894e-2f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.6666665459e-1f));
  p = hn::MulAdd(p, r, hn::Set(d, 5.0000001201e-1f));
  return hn::MulAdd(hn::Mul(r, r), p, r);
}

// e^x for float32 lanes with |x| <= 86.5, where e^x and every intermediate
// are normal: e^r = 1 + (e^r - 1) from ExpF32ReducedM1, and 2^n added to the
// exponent field. Max error 1 ulp (measured by the kernel tests). No table,
// no division, no special cases.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V ExpF32Normal(D d, V x) {
  const hn::RebindToSigned<D> di;
  V t;
  const V e = hn::Add(ExpF32ReducedM1(d, x, t), hn::Set(d, 1.0f));
  const auto scale = hn::ShiftLeft<23>(hn::BitCast(di, t));  // n << 23
  return hn::BitCast(d, hn::Add(hn::BitCast(di, e), scale));
}

// table[i & 15] for 64-bit lanes and a 16-entry table (Lookup16 is the
// 32-bit form). On AVX-512 the table is two registers and the lookup one
// vpermt2pd/q, which reads the low 4 bits of each index; elsewhere a gather.
template <class D, class VI>
HWY_INLINE hn::Vec<D> Lookup16Wide(D d, const hn::TFromD<D>* HWY_RESTRICT table, VI index) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  if constexpr (hn::MaxLanes(D()) == 8) {
    const auto lo = hn::Load(d, table);
    const auto hi = hn::Load(d, table + 8);
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
      return hn::Vec<D>{_mm512_permutex2var_pd(lo.raw, index.raw, hi.raw)};
    } else {
      return hn::Vec<D>{_mm512_permutex2var_epi64(lo.raw, index.raw, hi.raw)};
    }
  }
#endif
  return hn::GatherIndex(d, table, hn::And(index, hn::Set(hn::DFromV<VI>(), 15)));
}

#undef OPGEN_TABLE16
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
// Whether 16-entry float tables held in one register apply (AVX-512: one
// vpermps or vpermd per lookup, no gather); only where a vector holds 16
// float lanes (MaxLanes(D()) == 16).
#define OPGEN_TABLE16 1

// The lanes table[idx & 15] of a 16-entry table of 32-bit values held in one
// register. vpermps uses the low 4 bits of each index (Highway's
// TableLookupLanes would first need them masked).
template <class D, class VI>
HWY_INLINE hn::Vec<D> Lookup16(D d, const hn::TFromD<D>* table, VI idx) {
  const hn::RebindToSigned<D> di;
  const auto t = hn::BitCast(di, hn::Load(d, table));
  const decltype(t) entry{_mm512_permutexvar_epi32(hn::BitCast(di, idx).raw, t.raw)};
  return hn::BitCast(d, entry);
}

// 2^(m / 16) (m = 16 k + j, 0 <= j < 16), for the int32 lanes `bits` whose
// low bits hold m, as the bits of 1.5 * 2^23 + m do (the higher bits shift
// out): 2^(j/16) rounded to float from the table, its exponent field plus k.
// Valid while the result is normal (-126 <= k <= 127).
template <class D, class VI>
HWY_INLINE hn::Vec<D> Pow2Sixteenths(D d, VI bits) {
  const hn::RebindToSigned<D> di;
  // The bits of 2^(j/16) rounded to float, minus j << 19, j = 0..15.
  HWY_ALIGN static constexpr int32_t kPow2Sixteenths[16] = {
      0x3f800000, 0x3f7daac3, 0x3f7b95c2, 0x3f79c3d3, 0x3f7837f0, 0x3f76f532,
      0x3f75fed7, 0x3f75583f, 0x3f7504f3, 0x3f7508a4, 0x3f75672a, 0x3f76248c,
      0x3f7744fd, 0x3f78ccdf, 0x3f7ac0c7, 0x3f7d257d};
  const auto entry = Lookup16(di, kPow2Sixteenths, bits);
  // m << 19 = (k << 23) + (j << 19): added to the entry, the bits of
  // 2^k 2^(j/16).
  return hn::BitCast(d, hn::Add(entry, hn::ShiftLeft<19>(hn::BitCast(di, bits))));
}

// (2^(j/16) - f) / f for f = 2^(j/16) rounded to float (the table of
// Pow2Sixteenths), for the same `bits`: f (1 + this) = 2^(j/16) to about
// 2^-48, for results that must not keep the table's rounding.
template <class D, class VI>
HWY_INLINE hn::Vec<D> Pow2SixteenthsError(D d, VI bits) {
  HWY_ALIGN static constexpr float kErrors[16] = {
      0x0p+0f,          0x1.8d96d4p-25f,  -0x1.9c0c22p-27f, 0x1.964904p-25f,
      0x1.125002p-25f,  0x1.370be4p-25f,  -0x1.0a3550p-25f, -0x1.00d8acp-27f,
      0x1.26055cp-26f,  -0x1.05cb44p-25f, 0x1.67a1cap-28f,  0x1.a3b5e4p-28f,
      -0x1.f9c304p-27f, -0x1.6961b4p-28f, -0x1.a5217cp-28f, 0x1.61428ep-28f};
  return Lookup16(d, kErrors, bits);
}

// The reduction of the 16-entry exp tables: x = m ln2 / 16 + r with m =
// round(16 x / ln 2) = 16 k + j, returned in the low mantissa bits of t, as
// Pow2Sixteenths and Lookup16 read them (adding 1.5 * 2^23 rounds, as in
// ExpF32Normal), and |r| <= ln2 / 32. kTwoPart: ln2 / 16 in two parts (m *
// kHi is exact for |m| < 2^15); otherwise one FMA with ln2 / 16 rounded to
// float (1.2e-10 off). kNegate: the reduction of -x, its negation folded into
// the constants, and r negated (x + m ln2 / 16).
template <bool kTwoPart, bool kNegate = false, class D, class V = hn::Vec<D>>
HWY_INLINE V ReduceLn2Sixteenths(D d, V x, V& r) {
  const V shift = hn::Set(d, 12582912.0f);
  const float sign = kNegate ? -1.0f : 1.0f;
  const V t = hn::MulAdd(x, hn::Set(d, sign * 23.083120654223414f), shift);
  const V m = hn::Sub(t, shift);
  const V hi = hn::Set(d, kTwoPart ? 0.0433349609375f : 0.043321698904037476f);
  r = kNegate ? hn::MulAdd(m, hi, x) : hn::NegMulAdd(m, hi, x);
  if constexpr (kTwoPart) {
    const V lo = hn::Set(d, -1.3262152501e-5f);
    r = kNegate ? hn::MulAdd(m, lo, r) : hn::NegMulAdd(m, lo, r);
  }
  return t;
}

// e^x - 1 for float32 lanes with |x| <= 86.5 where a vector holds 16 lanes,
// relative also near 0: x = (16 k + j) ln2 / 16 + r as in ExpF32Fast, s =
// Pow2Sixteenths, e^x - 1 = s (e^r - 1) + (s - 1) (s - 1 exact for s >=
// 1/2; below that the result is near -1). Unlike ExpF32Fast, r is lowered
// by eps_j, the relative rounding error of the table entry (those errors
// would cost up to 8 ulp near 0), e^r - 1 gets the r^4 / 24 term (4e-7 of r
// at |r| = ln2 / 32), and r takes one FMA (ln2 / 16 rounded to float is
// 1.2e-10 off, which costs nothing where the result is small). Max error
// 1.27 ulp over a dense scan of [-20, 1].
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Expm1F32Table(D d, V x) {
  const hn::RebindToSigned<D> di;
  // float(2^(j/16)) / 2^(j/16) - 1: e^(r - eps) = e^r (1 - eps) to far
  // below an ulp.
  HWY_ALIGN static constexpr float kEntryErrors[16] = {
      0.0f,           -4.628546790e-08f, 1.199215749e-08f,  -4.729782077e-08f,
      -3.193418152e-08f, -3.621057232e-08f, 3.099072288e-08f, 7.475213337e-09f,
      -1.711427089e-08f, 3.047683350e-08f, -5.233334210e-09f, -6.107591766e-09f,
      1.471960598e-08f,  5.258795177e-09f,  6.128259677e-09f,  -5.140609272e-09f};
  V r;
  const auto bits = hn::BitCast(di, ReduceLn2Sixteenths</*kTwoPart=*/false>(d, x, r));
  const V eps = Lookup16(d, kEntryErrors, bits);
  r = hn::Sub(r, eps);
  V p = hn::MulAdd(hn::Set(d, 1.0f / 24), r, hn::Set(d, 0.16666667f));
  p = hn::MulAdd(p, r, hn::Set(d, 0.5f));
  const V em1r = hn::MulAdd(p, hn::Mul(r, r), r);
  const V s = Pow2Sixteenths(d, bits);
  return hn::MulAdd(s, em1r, hn::Sub(s, hn::Set(d, 1.0f)));
}

// The scale of the float64 exp tables: for t = 1.5 * 2^52 + m (m = 16 k +
// j in t's low mantissa bits, k >= -1022), s = 2^k f_j with f_j = 2^(j/16)
// rounded to double, and c = c_j, its relative rounding error (2^(j/16) =
// f_j (1 + c_j)). Two 16-entry tables of two registers each, one
// vpermt2q/vpermt2pd per lookup (Lookup16Wide).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Pow2SixteenthsF64(D d, V t, V& c) {
  const hn::RebindToSigned<D> di;
  // The bits of f_j minus j << 48, j = 0..15.
  HWY_ALIGN static constexpr int64_t kPow2Bits[16] = {
      0x3ff0000000000000, 0x3fefb5586cf9890f, 0x3fef72b83c7d517b, 0x3fef387a6e756238,
      0x3fef06fe0a31b715, 0x3feedea64c123422, 0x3feebfdad5362a27, 0x3feeab07dd485429,
      0x3feea09e667f3bcd, 0x3feea11473eb0187, 0x3feeace5422aa0db, 0x3feec49182a3f090,
      0x3feee89f995ad3ad, 0x3fef199bdd85529c, 0x3fef5818dcfba487, 0x3fefa4afa2a490da};
  // c_j = (2^(j/16) - f_j) / f_j.
  HWY_ALIGN static constexpr double kErrors[16] = {0x0.0p+0,
                                                   0x1.79aa65d837b6dp-54,
                                                   -0x1.01b15eaa59348p-55,
                                                   0x1.68efde3a8a894p-54,
                                                   0x1.34d754db0abb6p-55,
                                                   0x1.59f48a72a4c6dp-55,
                                                   0x1.690cebb7aafb0p-56,
                                                   0x1.063e1e21c5409p-54,
                                                   -0x1.3b3efbf5e2228p-54,
                                                   -0x1.b32dcb94da51dp-56,
                                                   0x1.db72fc1f0eab4p-55,
                                                   0x1.1affc2b91ce27p-56,
                                                   0x1.c1a7792cb3387p-55,
                                                   0x1.36eae30af0cb3p-56,
                                                   0x1.4a385a63d07a7p-56,
                                                   -0x1.ff7128fd391f0p-55};
  // Lookup16Wide reads the low 4 bits of each lane: j.
  const auto bits = hn::BitCast(di, t);
  c = Lookup16Wide(d, kErrors, bits);
  // m << 48 = (k << 52) + (j << 48): added to the entry, the bits of s.
  return hn::BitCast(d, hn::Add(Lookup16Wide(di, kPow2Bits, bits), hn::ShiftLeft<48>(bits)));
}

// The reduction of the float64 exp tables: x = m ln2 / 16 + r with m =
// round(16 x / ln2) = 16 k + j in the low mantissa bits of the returned t
// (adding 1.5 * 2^52 rounds, as ReduceLn2Sixteenths does in float32) and
// |r| <= ln2 / 32 (ln2 / 16 in two parts, m * kHi exact for |m| < 2^15).
// With kLow, r_lo is the rounding error of r's last step (x - m ln2 / 16 =
// r + r_lo to about 2^-100 of r): r's own rounding is half an ulp of r,
// and r is of the size of the result of e^x - 1 just past |x| = ln2 / 32.
template <bool kLow = false, class D, class V = hn::Vec<D>>
HWY_INLINE V ReduceLn2SixteenthsF64(D d, V x, V& r, V* r_lo = nullptr) {
  const V shift = hn::Set(d, 0x1.8p52);
  const V t = hn::MulAdd(x, hn::Set(d, 0x1.71547652b82fep+4), shift);
  const V m = hn::Sub(t, shift);
  const V lo = hn::Set(d, 0x1.cf79abc9e3b3ap-44);
  const V r1 = hn::NegMulAdd(m, hn::Set(d, 0x1.62e42fefa0000p-5), x);
  r = hn::NegMulAdd(m, lo, r1);
  if constexpr (kLow) *r_lo = hn::NegMulAdd(m, lo, hn::Sub(r1, r));
  return t;
}

// (e^r - 1 - r) + c for float64 |r| <= ln2 / 32: the Taylor polynomial of
// degree 7 of e^r - 1 (truncation below 2^-59, an eighth of an ulp of e^r)
// without its first term, r^2 (1/2 + r/6 + ...), plus c; the caller adds r.
// Estrin's scheme (pairs joined by r^2): 4 dependent operations, not 7
// (pow's vectors wait on that chain). kDegree8 adds r^8 / 8! (truncation
// below 2^-67) for e^x - 1, whose result near x = ln2 / 32 is 2^-5 and an
// error of 2^-59 is half of its ulp (measured 0.86 ulp with degree 7).
template <bool kDegree8 = false, class D, class V = hn::Vec<D>>
HWY_INLINE V Expm1TailF64(D d, V r, V c) {
  const V r2 = hn::Mul(r, r);
  const V p01 = hn::MulAdd(hn::Set(d, 1.0 / 6), r, hn::Set(d, 0.5));
  const V p23 = hn::MulAdd(hn::Set(d, 1.0 / 120), r, hn::Set(d, 1.0 / 24));
  V p45 = hn::MulAdd(hn::Set(d, 1.0 / 5040), r, hn::Set(d, 1.0 / 720));
  if constexpr (kDegree8) p45 = hn::MulAdd(hn::Set(d, 1.0 / 40320), r2, p45);
  const V p = hn::MulAdd(hn::MulAdd(p45, r2, p23), r2, p01);
  return hn::MulAdd(p, r2, c);
}

// e^x for float64 lanes with |x| <= 708.4 where a vector holds 8 lanes
// (k >= -1022, so s below is normal, and results below 2^-1022, from x <
// -708.3964, are rounded once, as denormals): x = (16 k + j) ln2 / 16 + r
// (ReduceLn2SixteenthsF64), e^x = 2^k f_j (1 + c_j) e^r
// (Pow2SixteenthsF64) = s + s (r + (e^r - 1 - r + c_j)) with s = 2^k f_j
// (Expm1TailF64): one rounding of consequence, the last. 17 vector
// operations against about 30 in Highway's Exp (degree-11 polynomial, two
// scalings through int32).
//
// kCorrection: e^(x + lo) for |lo| <= ulp(x) / 2 (pow's low part): e^lo =
// 1 + lo, and (1 + c_j)(1 + lo) e^r = 1 + r + (e^r - 1 - r) + c_j + lo (1
// + r) up to terms below 2^-55: lo (1 + r) joins c_j, off the polynomial's
// chain (lo alone, without lo r, cost 11 ulp with |x| near 700).
template <bool kCorrection = false, class D, class V = hn::Vec<D>>
HWY_INLINE V ExpF64Table(D d, V x, V lo = V()) {
  V r, c;
  const V s = Pow2SixteenthsF64(d, ReduceLn2SixteenthsF64(d, x, r), c);
  if constexpr (kCorrection) {
    c = hn::Add(c, hn::MulAdd(lo, r, lo));
  } else {
    (void)lo;
  }
  return hn::MulAdd(s, hn::Add(r, Expm1TailF64(d, r, c)), s);
}

// e^x - 1 for float64 lanes with x <= 708.4 (not NaN) where a vector holds
// 8 lanes, as an unevaluated sum head + tail (|tail| < 2^-5 |head|, the
// sum's error about 2^-60 of it): x clamped at -40 (where the result rounds
// to -1), reduced as in ExpF64Table with r's rounding error r_lo, and e^x -
// 1 = (s - 1) + s r + s (e^r - 1 - r + c_j + r_lo). s - 1 + s r is summed
// without error: s r = p + p_err by one FMA, and (s - 1) + p by Fast2Sum,
// as |s - 1| >= 2^(1/16) - 1 > |p| unless s = 1 (k = j = 0, |x| < ln2 /
// 32, where head = r and the result is relative also for tiny x). s - 1 is
// exact for s in [1/2, 2^53]; below 1/2 its error is taken by 2Sum
// (|-1| >= s); past s = 2^53 (x > 36.7) s - 1 rounds, and 2Sum takes its
// error. Summed once and rounded, 0.515 ulp over 4M inputs in [-45,
// 708.4]; the form it replaced rounded r, s r + (s - 1) and the sum and
// left out (c_j + r_lo) r and the degree-8 term, 1.91 ulp, worst just past
// ln2 / 32 where all of them are of the result's size (each of the three
// corrections alone, left out again, measured 0.85 to 0.93 ulp). About 15
// more operations: about twice the time of the form it replaced, still 2.6
// to 2.8 times SLEEF's u10 expm1 (1 ulp) in the same benchmark runs.
//
// kSign: the sign of x when the caller knows it, for a cheaper error of s
// - 1 (Fast2Sum, two operations, not 2Sum's five): x >= 0 gives s >= 1 (s
// - 1 = sm1 + (s - sm1) - 1) and needs no clamp (x <= 708.4); x <= 0 gives
// s <= 1 (s - (sm1 + 1)).
template <int kSign = 0, class D, class V = hn::Vec<D>>
HWY_INLINE V Expm1F64Parts(D d, V x, V& tail) {
  V r, r_lo, c;
  const V xc = kSign > 0 ? x : hn::Max(x, hn::Set(d, -40.0));
  const V t = ReduceLn2SixteenthsF64<true>(d, xc, r, &r_lo);
  const V s = Pow2SixteenthsF64(d, t, c);
  const V one = hn::Set(d, 1.0);
  const V sm1 = hn::Sub(s, one);
  V sm1_error;
  if constexpr (kSign > 0) {
    sm1_error = hn::Sub(hn::Sub(s, sm1), one);
  } else if constexpr (kSign < 0) {
    sm1_error = hn::Sub(s, hn::Add(sm1, one));
  } else {
    const V sm1_shift = hn::Sub(sm1, s);  // 2Sum: s - 1 = sm1 + sm1_error
    sm1_error = hn::Add(hn::Sub(s, hn::Sub(sm1, sm1_shift)), hn::Sub(hn::Neg(one), sm1_shift));
  }
  const V p = hn::Mul(s, r);
  const V p_error = hn::MulSub(s, r, p);
  const V head = hn::Add(sm1, p);
  const V head_error = hn::Sub(p, hn::Sub(head, sm1));
  const V low = hn::Add(hn::Add(p_error, head_error), sm1_error);
  // (1 + c_j) e^(r + r_lo) - 1 - r = (e^r - 1 - r) + (c_j + r_lo)(1 + r)
  // up to terms below 2^-100: (c_j + r_lo) r is of 2^-59, half an ulp of a
  // result near 2^-5.
  const V c_lo = hn::Add(c, r_lo);
  tail = hn::MulAdd(s, Expm1TailF64<true>(d, r, hn::MulAdd(c_lo, r, c_lo)), low);
  return head;
}

// e^x - 1 for float64 lanes with x <= 708.4 (not NaN) where a vector holds
// 8 lanes: Expm1F64Parts' sum, rounded once; kSign as there.
//
// With kScaled, b (e^x - 1) for x <= 0 and a finite b >= 0 (elu's alpha,
// selu's scale alpha) as b head + b tail: b's product with head is exact
// inside the FMA, so no rounded e^x - 1 is rounded again after scaling
// (rounding e^x - 1 and then multiplying measured 3.18 ulp with selu's b =
// 1.758).
template <bool kScaled = false, int kSign = kScaled ? -1 : 0, class D, class V = hn::Vec<D>>
HWY_INLINE V Expm1F64Table(D d, V x, V b = V()) {
  static_assert(!kScaled || kSign < 0, "the scaled form takes x <= 0");
  V tail;
  const V head = Expm1F64Parts<kSign>(d, x, tail);
  V e;
  if constexpr (kScaled) {
    e = hn::MulAdd(b, head, hn::Mul(b, tail));
  } else {
    e = hn::Add(head, tail);
  }
  // expm1(-0) = -0 (e is +0 there); other negative x give negative e.
  return hn::OrAnd(e, x, hn::SignBit(d));
}

// 2^x for float64 lanes with |x| <= 1022 where a vector holds 8 lanes: x =
// k + j/16 + r with m = 16 k + j = round(16 x) and r = x - m/16 (both
// exact, |r| <= 1/32), 2^x = 2^k f_j (1 + c_j) 2^r (Pow2SixteenthsF64), 2^r
// - 1 = r (ln2 + r (ln2^2/2 + ...)) to degree 7 (truncation below 2^-59 at
// |r| = 1/32), and 2^x = s + s (2^r - 1 + c_j): one rounding of
// consequence, the last. Results are normal (k >= -1022).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Exp2F64Table(D d, V x) {
  const V shift = hn::Set(d, 0x1.8p52);
  const V t = hn::MulAdd(x, hn::Set(d, 16.0), shift);
  const V r = hn::MulAdd(hn::Sub(t, shift), hn::Set(d, -0.0625), x);
  V c;
  const V s = Pow2SixteenthsF64(d, t, c);
  // ln2^k / k!, k = 7 down to 1.
  V p = hn::MulAdd(hn::Set(d, 0x1.ffcbfc588b0c7p-17), r, hn::Set(d, 0x1.430912f86c787p-13));
  p = hn::MulAdd(p, r, hn::Set(d, 0x1.5d87fe78a6731p-10));
  p = hn::MulAdd(p, r, hn::Set(d, 0x1.3b2ab6fba4e77p-7));
  p = hn::MulAdd(p, r, hn::Set(d, 0x1.c6b08d704a0c0p-5));
  p = hn::MulAdd(p, r, hn::Set(d, 0x1.ebfbdff82c58fp-3));
  p = hn::MulAdd(p, r, hn::Set(d, 0x1.62e42fefa39efp-1));
  return hn::MulAdd(s, hn::MulAdd(p, r, c), s);
}

// tanh(x) for float64 lanes where a vector holds 8 lanes, every input:
// u / (u + 2) with u = e^(2|x|) - 1 from Expm1F64Parts on |x| clamped at
// 20 (where tanh rounds to 1), and x's sign. u = u_hi + u_lo and u + 2 =
// den + den_lo (Fast2Sum each, |head| > |tail| and u >= 0), q = u_hi / den
// rounded, and one correction step: the residual u_hi + u_lo - q (den +
// den_lo) (u_hi - q den exact by an FMA) times an approximate 1 / den,
// without a second division. 0.51 ulp over 4M inputs in [-20, 20]; q
// alone, from u rounded, measured 1.92 (worst near 0, where u's error
// carries fully into the result). tanh(-0) = -0; NaN is restored by a
// select (the clamp keeps it, Expm1F64Parts' does not).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V TanhF64Table(D d, V x) {
  const V ax = hn::Min(hn::Set(d, 20.0), hn::Abs(x));
  V tail;
  const V head = Expm1F64Parts<1>(d, hn::Add(ax, ax), tail);
  const V u_hi = hn::Add(head, tail);
  const V u_lo = hn::Sub(tail, hn::Sub(u_hi, head));
  const V two = hn::Set(d, 2.0);
  const V den = hn::Add(u_hi, two);
  const V big = hn::Max(u_hi, two);
  const V den_lo = hn::Add(hn::Sub(hn::Min(u_hi, two), hn::Sub(den, big)), u_lo);
  const V q = hn::Div(u_hi, den);
  const V residual = hn::NegMulAdd(q, den_lo, hn::Add(hn::NegMulAdd(q, den, u_hi), u_lo));
  // 1 / den to 11 bits (Highway's ApproximateReciprocal on den in 8
  // float32 lanes is vrcpps, 1.5 * 2^-12 relative; den < 2^58 here): the
  // correction is under an ulp of q. (1 - q) / 2 would do without the
  // conversions but is off by up to 2^-53 absolute, all of 1 / den past x =
  // 14 (1.0000000000000002 measured at x = 18.8).
  const hn::Rebind<float, D> df;
  const V inv = hn::PromoteTo(d, hn::ApproximateReciprocal(hn::DemoteTo(df, den)));
  const V y = hn::MulAdd(residual, inv, q);
  return hn::IfThenElse(hn::IsNaN(x), x, hn::CopySignToAbs(y, x));
}
#else
#define OPGEN_TABLE16 0
#endif

// Float32 lanes that are normal, finite and positive.
template <class D, class V = hn::Vec<D>>
HWY_INLINE auto PositiveNormalF32(D d, V x) {
  const hn::RebindToSigned<D> di;
  // bits(x) - bits(FLT_MIN) below 0x7f000000 as unsigned numbers: flipping
  // the sign bit too turns that into a signed comparison.
  const auto u = hn::Add(hn::BitCast(di, x), hn::Set(di, 0x7f800000));
  return hn::RebindMask(d, hn::Lt(u, hn::Set(di, -0x1000000)));
}

#if OPGEN_TABLE16
// Splits normal positive float32 lanes x = 2^k z, z in [0.7, 1.4), for the
// 16-entry tables of the logarithms: returns z and sets k and idx, whose low
// 4 bits number the sixteenth of [0.7, 1.4) that z falls in (Lookup16 reads
// only those). tmp = bits(x) - bits(0.69921875) has k in its exponent field
// (an arithmetic shift keeps its sign) and the sixteenth in bits 19 to 22.
template <class D, class V = hn::Vec<D>, class VI = hn::Vec<hn::RebindToSigned<D>>>
HWY_INLINE V SplitSixteenths(D d, V x, VI& k, VI& idx) {
  const hn::RebindToSigned<D> di;
  const VI ix = hn::BitCast(di, x);
  const VI tmp = hn::Sub(ix, hn::Set(di, 0x3f330000));
  k = hn::ShiftRight<23>(tmp);
  idx = hn::ShiftRight<19>(tmp);
  return hn::BitCast(d, hn::Sub(ix, hn::ShiftLeft<23>(k)));
}

// ln(u + c) for float32 lanes of 16 (AVX-512) with u normal, finite and
// positive and |c| <= ulp(u) / 2 (kCorrection; otherwise c is ignored, ln(u)),
// with 16-entry tables. u = 2^k z with z in [0.7, 1.4), and 1/w for the
// sixteenth of that interval z falls in from a table. p = z/w rounded and
// its error e (an FMA) give r = p - 1 exactly (Sterbenz, |r| < 0.0297) and
// u + c = 2^k w (1 + r + d), d = e + c 2^-k / w below 2^-23 in magnitude,
// so ln(u + c) = k ln2 + ln(w) + r + r^2 Q(r) + d (1 - r): Q of degree 3
// (least squares for the relative error of r + r^2 Q(r), 1.2e-9), 1 - r
// standing for 1 / (1 + r) within r^2 of d. The large terms add up
// exactly but for one rounding: k ln2_hi + ln(w)_hi is exact (multiples of
// 2^-17 below 2^7: ln2_hi has 17 bits, |k| <= 128, and the table's ln(w)
// is split into a multiple of 2^-17 and the rest), and r joins it by a fast
// two-sum whose error goes with the small terms. So the result rounds once
// also where the terms cancel (results near 0.02-0.05, where ln(w) and r
// have opposite signs, and near ln(1.4) and ln(0.7), where k changes):
// summed naively, as Log2F32Fast does, those roundings cost up to an ulp
// more. No division.
template <bool kCorrection, class D, class V = hn::Vec<D>>
HWY_INLINE V LnTableF32(D d, V u, V c) {
  static_assert(hn::MaxLanes(D()) == 16);
  const hn::RebindToSigned<D> di;
  // 1/w and ln(w) for the sixteenths: the floats 1/w near 1 / (the
  // sixteenth's middle) whose ln(w) is nearest a float with |r| < 0.0305
  // (w = 1 around 1); ln(w) as kLnWHi (a multiple of 2^-17) + kLnWLo.
  // kernels/tables/ln_sixteenths.py derives them (the kernels-ln-tables
  // test holds this file to it).
  HWY_ALIGN static constexpr float kInvW[16] = {
      1.39915812f,  1.33945465f,  1.28435838f,  1.23900664f, 1.18875086f,  1.14931715f,
      1.10776722f,  1.06935537f,  1.03506029f,  1.0f,        0.948085248f, 0.895292819f,
      0.846794784f, 0.804736853f, 0.766029775f, 0.731384218f};
  HWY_ALIGN static constexpr float kLnWHi[16] = {
      -0.335868835f, -0.292259216f,  -0.250259399f,  -0.214309692f, -0.172904968f, -0.139167786f,
      -0.102348328f, -0.0670547485f, -0.0344619751f, 0.0f,          0.053314209f,  0.110603333f,
      0.166297913f,  0.21723938f,    0.266532898f,   0.312812805f};
  HWY_ALIGN static constexpr float kLnWLo[16] = {
      -1.87754677e-06f, -3.33786056e-06f, 1.19208899e-07f,  -2.68221527e-07f, 1.90734852e-06f,
      -1.93715252e-07f, 1.84774399e-06f,  -1.25914812e-06f, 2.3022294e-06f,   0.0f,
      -3.35276104e-06f, 1.11013662e-06f,  -1.01327896e-06f, 5.66244466e-07f,  1.34110439e-06f,
      3.54647659e-06f};
  const V one = hn::Set(d, 1.0f);
  hn::Vec<decltype(di)> k, idx;  // -126 <= k <= 128
  const V z = SplitSixteenths(d, u, k, idx);
  const V inv_w = Lookup16(d, kInvW, idx);
  V p = hn::Mul(z, inv_w);
  InRegister(p);  // r must be p - 1: no fused z * inv_w - 1 (g++ contracts)
  const V r = hn::Sub(p, one);
  const V kf = hn::ConvertTo(d, k);
  V delta = hn::MulSub(z, inv_w, p);
  if constexpr (kCorrection) {
    // c 2^-k by vscalefps (c is 0 where 2^-k would not be normal).
    const V c_scaled{_mm512_scalef_ps(c.raw, hn::Neg(kf).raw)};
    delta = hn::MulAdd(c_scaled, inv_w, delta);
  } else {
    (void)c;
  }
  V q = hn::MulAdd(hn::Set(d, 0.200154126f), r, hn::Set(d, -0.250135452f));
  q = hn::MulAdd(q, r, hn::Set(d, 0.333333284f));
  q = hn::MulAdd(q, r, hn::Set(d, -0.49999997f));
  const V s1 = hn::MulAdd(kf, hn::Set(d, 6.9313812256e-01f), Lookup16(d, kLnWHi, idx));  // exact
  const V s2 = hn::Add(s1, r);  // |s1| >= 0.034 > |r| unless s1 = 0
  const V e2 = hn::Sub(r, hn::Sub(s2, s1));
  // The small terms: r^2 Q + d (1 - r) = r (r Q - d) + d.
  V tail = hn::MulAdd(kf, hn::Set(d, 9.0580006145e-06f), hn::Add(Lookup16(d, kLnWLo, idx), e2));
  tail = hn::MulAdd(r, hn::MulSub(r, q, delta), hn::Add(tail, delta));
  return hn::Add(s2, tail);
}

// Float64 lanes that are normal, finite and positive: bits(x) -
// bits(DBL_MIN) below 0x7FE0000000000000 as unsigned numbers, a signed
// comparison once the sign bit is flipped too (as PositiveNormalF32).
template <class D, class V = hn::Vec<D>>
HWY_INLINE auto PositiveNormalF64(D d, V x) {
  const hn::RebindToSigned<D> di;
  const auto u = hn::Add(hn::BitCast(di, x), hn::Set(di, 0x7FF0000000000000));
  return hn::RebindMask(d, hn::Lt(u, hn::Set(di, -0x0020000000000000)));
}

// ln(u) for float64 lanes of 8 (AVX-512) with u normal, finite and
// positive, as LnTableF32 with double tables: u = 2^k z with z in
// [0.69921875, 1.3984375) (bits 48 to 51 of bits(u) - bits(0.69921875)
// number its sixteenth), p = z/w rounded and its error e (an FMA) give r = p
// - 1 exactly (|r| < 0.0297), and ln(u) = k ln2 + ln(w) + r + r^2 Q(r) + e
// (1 - r), with r + r^2 Q(r) a relative minimax fit to ln(1 + r) of degree
// 10 (kLnQF64: 2^-62 of ln(1 + r), so of the result where w = 1, and less
// elsewhere, where |ln(u)| >= 0.0197 > |r|). k ln2_hi + ln(w)_hi is exact (multiples of
// 2^-42 below 2^10; ln2_hi has 42 bits, |k| <= 1075) and r joins it by a
// fast two-sum whose error goes with the small terms, so the result rounds
// once of consequence, the last. No division.
//
// kDoubleDouble: ln(u) = result + *lo, |*lo| <= ulp(result) / 2, with
// about 2^-64 relative error, for pow: -r^2/2 also exact (r^2 by an FMA and
// its error) and joined by a second fast two-sum (|s1 + r| >= r^2/2), r^3
// Q3(r) and every rounding error summed into *lo, then renormalized.
//
// kLog2: log2(u) instead, with the same reduction: log2(u) = k + log2(w) +
// (r + r^2 Q(r) + e (1 - r)) log2(e), k + log2(w)_hi exact (a multiple of
// 2^-42 below 2^11), r log2(e)_hi as a product and its FMA error joined by
// a fast two-sum (|k + log2(w)| >= 0.05 > |r log2(e)| unless it is 0), the
// rest with the small terms: one rounding of consequence; powers of 2
// exact.
//
// kCorrection: ln(u + c) for |c| <= ulp(u) / 2 (log1p's rounding error of
// 1 + x), as in LnTableF32: c 2^-k / w joins e, the error of z/w, so that
// u + c = 2^k w (1 + r + e + c 2^-k / w).
template <bool kDoubleDouble = false, bool kLog2 = false, bool kCorrection = false, class D,
          class V = hn::Vec<D>>
HWY_INLINE V LnTableF64(D d, V u, V* lo = nullptr, V correction = V()) {
  static_assert(hn::MaxLanes(D()) == 8);
  static_assert(!(kDoubleDouble && kLog2));
  static_assert(!kCorrection || !(kDoubleDouble || kLog2));
  const hn::RebindToSigned<D> di;
  // 1/w, and ln(w) as kLnWHiF64 (a multiple of 2^-42) + kLnWLoF64, for
  // the sixteenths: kernels/tables/ln_sixteenths_f64.py derives them (the
  // kernels-ln-tables-f64 test holds this file to it).
  HWY_ALIGN static constexpr double kInvWF64[16] = {
      0x1.661ec6a5122f9p+0, 0x1.571ed3c506b3ap+0, 0x1.49539e3b2d067p+0, 0x1.3c995a47babe7p+0,
      0x1.30d190130d190p+0, 0x1.25e22708092f1p+0, 0x1.1bb4a4046ed29p+0, 0x1.12358e75d3033p+0,
      0x1.0953f39010954p+0, 0x1.0000000000000p+0, 0x1.e573ac901e574p-1, 0x1.ca4b3055ee191p-1,
      0x1.b2036406c80d9p-1, 0x1.9c2d14ee4a102p-1, 0x1.886e5f0abb04ap-1, 0x1.767dce434a9b1p-1};
  HWY_ALIGN static constexpr double kLnWHiF64[16] = {-0x1.57bf753c8d000p-2, -0x1.2bef07cdc9000p-2,
                                                     -0x1.01eae5626c000p-2, -0x1.b31d8575bc000p-3,
                                                     -0x1.6574ebe8c2000p-3, -0x1.1aa2b7e240000p-3,
                                                     -0x1.a4e7640b1c000p-4, -0x1.1973bd1464000p-4,
                                                     -0x1.252f32f8d0000p-5, 0x0.0p+0,
                                                     0x1.b42dd71198000p-5,  0x1.c5e548f5bc000p-4,
                                                     0x1.526e5e3a1c000p-3,  0x1.bc286742d8000p-3,
                                                     0x1.1058bf9ae5000p-2,  0x1.404308686a000p-2};
  HWY_ALIGN static constexpr double kLnWLoF64[16] = {-0x1.fadadee5d40efp-46, -0x1.aa5ba4a5004f4p-45,
                                                     -0x1.a44ecfade85aep-44, -0x1.c75de562a63cbp-44,
                                                     0x1.98d1d34f0f462p-44,  0x1.1ad48dde3b366p-44,
                                                     0x1.e4336b94407c8p-47,  -0x1.560a154f930b3p-44,
                                                     -0x1.8401ae021b67bp-45, 0x0.0p+0,
                                                     -0x1.c8d7ae5d6704cp-46, 0x1.d0c97585fbe06p-46,
                                                     -0x1.790aa37fc5238p-44, 0x1.9a873f39d121cp-44,
                                                     -0x1.4affd817d52cdp-44, 0x1.f8f043049f7d3p-44};
  // log2(w) as kLog2WHiF64 (a multiple of 2^-42) + kLog2WLoF64.
  HWY_ALIGN static constexpr double kLog2WHiF64[16] = {-0x1.efec61b012000p-2, -0x1.b0b67f4f47000p-2,
                                                       -0x1.7418acebbf000p-2, -0x1.39de8e155a000p-2,
                                                       -0x1.01d9bbcfa6000p-2, -0x1.97c1cb13c8000p-3,
                                                       -0x1.2f9e32d5c0000p-3, -0x1.960caf9abc000p-4,
                                                       -0x1.a6f9c377e0000p-5, 0x0.0p+0,
                                                       0x1.3aa2fdd280000p-4,  0x1.476a9f9840000p-3,
                                                       0x1.e840be74e6000p-3,  0x1.406463b1b0000p-2,
                                                       0x1.88e9c72e0b000p-2,  0x1.ce0a4923a6000p-2};
  HWY_ALIGN static constexpr double kLog2WLoF64[16] = {
      0x1.eaa9ef284dd7ap-48,  0x1.fb9dbf0f15d38p-44,
      -0x1.8f186a6fadac0p-46, 0x1.237c7293baa42p-47,
      -0x1.d4014d477b552p-46, 0x1.403e8aac06e6ap-47,
      0x1.17b8b6c4f846cp-46,  0x1.07dfeac8150f4p-45,
      0x1.6719bc9348fccp-44,  0x0.0p+0,
      -0x1.c823f46e8a2bep-45, -0x1.1658678e6180cp-44,
      0x1.499a6a92f0f67p-44,  0x1.1203fa482900bp-44,
      0x1.120861019d27bp-45,  -0x1.e0cc3768fdf36p-44};
  // Q3 of the series below, a relative minimax fit of 8 coefficients on
  // |r| <= 0.0297 (2^-62 of ln(1 + r); the Taylor series needs 9 for
  // 2^-58): ln_sixteenths_f64.py derives it too.
  static constexpr double kLnQF64[8] = {
      0x1.5555555555510p-2, -0x1.fffffffffff1dp-3, 0x1.9999999b0d50ep-3, -0x1.5555555734f77p-3,
      0x1.249235b2fbf92p-3, -0x1.ffffd50a573f0p-4, 0x1.c7e9829cde160p-4, -0x1.9a650a78832a6p-4};
  const auto ix = hn::BitCast(di, u);
  const auto tmp = hn::Sub(ix, hn::Set(di, 0x3FE6600000000000));
  const auto k = hn::ShiftRight<52>(tmp);    // arithmetic: -1075 <= k <= 1024
  const auto idx = hn::ShiftRight<48>(tmp);  // Lookup16Wide reads the low 4 bits
  const V z = hn::BitCast(d, hn::Sub(ix, hn::ShiftLeft<52>(k)));
  const V inv_w = Lookup16Wide(d, kInvWF64, idx);
  V p = hn::Mul(z, inv_w);
  InRegister(p);  // r must be p - 1: no fused z * inv_w - 1 (g++ contracts)
  const V r = hn::Sub(p, hn::Set(d, 1.0));
  V e = hn::MulSub(z, inv_w, p);
  const V kf = hn::ConvertTo(d, k);
  if constexpr (kCorrection) {
    // c 2^-k by vscalefpd, exact. For log1p's x <= 2^53, c is 1 + x's
    // rounding error, |c| <= ulp(u) / 2 (0 where u < 1/2); past 2^53 it
    // can be off by ulp(u), which moves a result near 36.7 by 2^-52.
    const V c_scaled{_mm512_scalef_pd(correction.raw, hn::Neg(kf).raw)};
    e = hn::MulAdd(c_scaled, inv_w, e);
  } else {
    (void)correction;
  }
  // The series of ln(1 + r) from r^3 on: r^3 Q3(r). With kDoubleDouble
  // (pow) Q3(r) = 1/3 - r/4 + ... - r^10/13, the truncation below 2^-68 of
  // the result (to r^8/11 it reached 2^-59, 20 ulp of pow where |y ln x|
  // is near 700); otherwise kLnQF64's minimax fit (one term fewer than
  // the Taylor series to r^8/11, and more accurate: 2^-62 against 2^-58;
  // 7 terms, 2^-56.4, took log from 0.53 to 0.59 ulp). Estrin's scheme: pairs, then
  // r^2, r^4 (and r^8) join them, so the chain of dependent operations is
  // 3 or 4 long, not 7 or 11 (pow's vectors each wait on that chain:
  // Horner's took 8K float64 pow 10.3 us, this 9.2).
  const V r2 = hn::Mul(r, r);
  const V r4 = hn::Mul(r2, r2);
  V q;  // Q3(r)
  if constexpr (kDoubleDouble) {
    const auto c = [d](int n) { return hn::Set(d, (n % 2 ? 1.0 : -1.0) / n); };
    const V q03 = hn::MulAdd(hn::MulAdd(c(6), r, c(5)), r2, hn::MulAdd(c(4), r, c(3)));
    const V q47 = hn::MulAdd(hn::MulAdd(c(10), r, c(9)), r2, hn::MulAdd(c(8), r, c(7)));
    const V q8 = hn::MulAdd(c(13), r2, hn::MulAdd(c(12), r, c(11)));
    q = hn::MulAdd(q8, hn::Mul(r4, r4), hn::MulAdd(q47, r4, q03));
  } else {
    const auto c = [d](int n) { return hn::Set(d, kLnQF64[n]); };
    const V q03 = hn::MulAdd(hn::MulAdd(c(3), r, c(2)), r2, hn::MulAdd(c(1), r, c(0)));
    const V q47 = hn::MulAdd(hn::MulAdd(c(7), r, c(6)), r2, hn::MulAdd(c(5), r, c(4)));
    q = hn::MulAdd(q47, r4, q03);
  }
  if constexpr (kLog2) {
    (void)lo;
    const V l_hi = hn::Set(d, 0x1.71547652b82fep+0);              // log2(e) = l_hi + l_lo
    const V s1 = hn::Add(kf, Lookup16Wide(d, kLog2WHiF64, idx));  // exact
    const V a = hn::Mul(r, l_hi);
    const V a_err = hn::MulSub(r, l_hi, a);
    const V s2 = hn::Add(s1, a);
    const V e2 = hn::Sub(a, hn::Sub(s2, s1));
    // r^2 (r Q3 - 1/2) + e (1 - r) = r (r Q - e) + e, in log2(e).
    const V q2 = hn::MulAdd(q, r, hn::Set(d, -0.5));
    const V ln_small = hn::MulAdd(r, hn::MulSub(r, q2, e), e);
    const V small = hn::Add(hn::Add(Lookup16Wide(d, kLog2WLoF64, idx), e2),
                            hn::MulAdd(r, hn::Set(d, 0x1.777d0ffda0d24p-56), a_err));
    return hn::Add(s2, hn::MulAdd(ln_small, l_hi, small));
  }
  const V s1 =
      hn::MulAdd(kf, hn::Set(d, 0x1.62e42fefa3800p-1), Lookup16Wide(d, kLnWHiF64, idx));  // exact
  const V s2 = hn::Add(s1, r);  // |s1| >= 0.035 > |r| unless s1 = 0
  const V e2 = hn::Sub(r, hn::Sub(s2, s1));
  if constexpr (kDoubleDouble) {
    const V r2_err = hn::MulSub(r, r, r2);
    const V h = hn::Mul(r2, hn::Set(d, 0.5));  // exact
    const V s3 = hn::Sub(s2, h);
    const V e3 = hn::Sub(hn::Sub(s2, s3), h);
    // k ln2_lo + ln(w)_lo + e2 + e3 - r2_err / 2 + r^3 Q3 + e (1 - r +
    // r^2), e / (1 + r) to below 2^-68 of the result (without e r^2:
    // 2^-58.7).
    // Summed as a tree: fewer dependent steps.
    const V small_k = hn::MulAdd(kf, hn::Set(d, 0x1.ef35793c76730p-45),
                                 hn::Add(Lookup16Wide(d, kLnWLoF64, idx), e2));
    const V small_r = hn::MulAdd(hn::Mul(r2, r), q, hn::MulAdd(e, hn::Sub(r2, r), e));
    const V small = hn::Add(hn::Add(small_k, hn::MulAdd(r2_err, hn::Set(d, -0.5), e3)), small_r);
    const V hi = hn::Add(s3, small);
    *lo = hn::Sub(small, hn::Sub(hi, s3));
    return hi;
  }
  (void)lo;
  // The small terms: r^2 (r Q3 - 1/2) + e (1 - r) = r (r Q - e) + e.
  const V q2 = hn::MulAdd(q, r, hn::Set(d, -0.5));
  V tail = hn::MulAdd(kf, hn::Set(d, 0x1.ef35793c76730p-45),
                      hn::Add(Lookup16Wide(d, kLnWLoF64, idx), e2));
  tail = hn::MulAdd(r, hn::MulSub(r, q2, e), hn::Add(tail, e));
  return hn::Add(s2, tail);
}

// ln(1 + x) for float64 lanes where 1 + x is finite and positive:
// LnTableF64 of u = 1 + x rounded with c = x - (u - 1), its rounding error
// (exact), as the correction. ln(1) + c keeps tiny x; x = -0 gives +0 (the
// caller restores -0 where it matters). Log1pFull (elementary.cpp) and
// softplus's log1p of e^-|x| (activation.cpp).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Log1pTableF64(D d, V x) {
  const V one = hn::Set(d, 1.0);
  const V u = hn::Add(one, x);
  return LnTableF64<false, false, /*kCorrection=*/true>(d, u, static_cast<V*>(nullptr),
                                                        hn::Sub(x, hn::Sub(u, one)));
}
#endif  // OPGEN_TABLE16

// e^x for float32 lanes with |x| <= 86.5, like ExpF32Normal but with fewer
// multiplications where a vector holds 16 float lanes (AVX-512): x = (16 k +
// j) ln2 / 16 + r with |r| <= ln2 / 32, e^x = 2^k 2^(j/16) e^r, 2^(j/16) from
// a 16-entry table held in one register (Pow2Sixteenths), and e^r - 1 = r +
// r^2 (1/2 + r/6), whose truncation error (r^4 / 24 < 1e-8) is far below a
// float ulp. Max error 1.06 ulp (measured; the table entries are rounded);
// other targets use ExpF32Normal. kNegate: e^-x instead, the negation folded
// into the constants.
template <bool kNegate = false, class D, class V = hn::Vec<D>>
HWY_INLINE V ExpF32Fast(D d, V x) {
#if OPGEN_TABLE16
  if constexpr (hn::MaxLanes(D()) == 16) {
    const hn::RebindToSigned<D> di;
    // e^r - 1 = r + r^2 (1/2 + r/6); with kNegate from the negated r.
    V r;
    const V t = ReduceLn2Sixteenths</*kTwoPart=*/true, kNegate>(d, x, r);
    V em1;
    if constexpr (kNegate) {
      const V p = hn::MulAdd(hn::Set(d, -0.16666667f), r, hn::Set(d, 0.5f));
      em1 = hn::MulSub(p, hn::Mul(r, r), r);
    } else {
      const V p = hn::MulAdd(hn::Set(d, 0.16666667f), r, hn::Set(d, 0.5f));
      em1 = hn::MulAdd(p, hn::Mul(r, r), r);
    }
    const V scale = Pow2Sixteenths(d, hn::BitCast(di, t));
    return hn::MulAdd(scale, em1, scale);
  }
#endif
  return ExpF32Normal(d, kNegate ? hn::Neg(x) : x);
}

#if OPGEN_TABLE16
// Lanes of float64 x with |x| <= the double whose bits are `limit` (not
// NaN): an integer comparison of x's bits without the sign (NaN's are
// larger).
template <class D, class V = hn::Vec<D>>
HWY_INLINE hn::Mask<D> AbsAtMostF64(D d, V x, int64_t limit) {
  const hn::RebindToSigned<D> di;
  const auto bits = hn::And(hn::BitCast(di, x), hn::Set(di, 0x7FFFFFFFFFFFFFFF));
  // Lt, as Highway 1.0.3 has no integer Le.
  return hn::RebindMask(d, hn::Lt(bits, hn::Set(di, limit + 1)));
}

// table(d, x) when every lane is `in`; otherwise lane by lane, table(d, x)
// on the lanes `in` (the others given 0) and other(d, x) on the rest, so
// that no lane's result depends on the lanes beside it (softmax's
// TransposedRows puts rows side by side in a vector).
template <class D, class V, class Table, class Other>
HWY_INLINE V TableLaneByLane(D d, V x, hn::Mask<D> in, const Table& table, const Other& other) {
  if (HWY_LIKELY(hn::AllTrue(d, in))) return table(d, x);
  return hn::IfThenElse(in, table(d, hn::IfThenElseZero(in, x)), other(d, x));
}
#endif

// e^x for every input. float32 vectors whose lanes all lie in |x| <= 86.5
// (the common case) take ExpF32Fast: on AVX-512 its 16-entry table and
// degree-3 polynomial (1.06 ulp; 1K float32 exp 146 -> 110 ns and 64K 9.35
// -> 7.08 us on Zen 5 against ExpF32Normal's degree-5 polynomial, the
// kernel alone), elsewhere ExpF32Normal (0.94 ulp). On AVX-512 float64
// lanes with |x| <= 708.4 take ExpF64Table (0.54 ulp against Highway's
// 1.01; 64K float64 exp 38 -> 22 us on Zen 5). Other vectors, and float64
// elsewhere, take Highway's Exp, which converts x / ln 2 to int32 and so is
// valid only up to about +104 (float) / +706 (double) and maps NaN to 0:
// clamping at a bound where e^x has long overflowed keeps the conversion in
// range and still yields +inf.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V ExpFull(D d, V x) {
  if constexpr (sizeof(hn::TFromD<D>) == 4) {
    // |x| <= 86.5 (not NaN) as an integer comparison of x's bits without
    // the sign (86.5 is 0x42AD0000; NaN's are larger), not the float
    // comparison Le(Abs(x), 86.5): on Zen 5 with the core's other thread
    // busy, 1K float32 exp 236 -> 206 ns and 64K 15.3 -> 13.6 us; level
    // with it idle (the kernel alone, medians over buffer placements).
    const hn::RebindToSigned<D> di;
    const auto bits = hn::And(hn::BitCast(di, x), hn::Set(di, 0x7FFFFFFF));
    if (HWY_LIKELY(hn::AllTrue(d, hn::RebindMask(d, hn::Lt(bits, hn::Set(di, 0x42AD0001)))))) {
      return ExpF32Fast(d, x);
    }
  }
#if OPGEN_TABLE16
  if constexpr (sizeof(hn::TFromD<D>) == 8 && hn::MaxLanes(D()) == 8) {
    // |x| <= 708.4, the bits 0x4086233333333333.
    return TableLaneByLane(
        d, x, AbsAtMostF64(d, x, 0x4086233333333333),
        [](auto dd, auto v) HWY_ATTR { return ExpF64Table(dd, v); },
        [](auto dd, auto v) HWY_ATTR { return ExpHighway(dd, v); });
  }
#endif
  return ExpHighway(d, x);
}

// ln(x) for every input through Highway's Log, which covers (0, max] only.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V LogHighway(D d, V x) {
  const V zero = hn::Zero(d);
  const auto regular = hn::And(hn::Gt(x, zero), hn::IsFinite(x));
  // +inf and NaN map to themselves, 0 to -inf, negative numbers to NaN.
  const V special = hn::IfThenElse(hn::Eq(x, zero), hn::Neg(hn::Inf(d)),
                                   hn::IfThenElse(hn::Lt(x, zero), hn::NaN(d), x));
  return hn::IfThenElse(regular, hn::Log(d, x), special);
}

// ln(x) for every input: LogHighway, except for float64 lanes that are
// normal, finite and positive on AVX-512, which take LnTableF64 (lane by
// lane, so that no lane depends on its neighbours).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V LogFull(D d, V x) {
#if OPGEN_TABLE16
  if constexpr (sizeof(hn::TFromD<D>) == 8 && hn::MaxLanes(D()) == 8) {
    return TableLaneByLane(
        d, x, PositiveNormalF64(d, x), [](auto dd, auto v) HWY_ATTR { return LnTableF64(dd, v); },
        [](auto dd, auto v) HWY_ATTR { return LogHighway(dd, v); });
  }
#endif
  return LogHighway(d, x);
}

// 1 / x from the target's reciprocal estimate and one Newton step r0 + r0
// (1 - x r0): relative error about 2^-28 before the final rounding from
// AVX-512's 14-bit estimate, larger from coarser ones (AVX2's has 12 bits).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V ReciprocalNewton(D d, V x) {
  const V r0 = hn::ApproximateReciprocal(x);
  return hn::MulAdd(r0, hn::NegMulAdd(x, r0, hn::Set(d, hn::TFromD<D>{1})), r0);
}

// 1 / x. On AVX-512 ReciprocalNewton for float32: vdivps is several times
// slower than its three instructions on Intel's CPUs. Elsewhere, and with
// kDivide (UnaryTransformDivider's choice on CPUs with a fast divider), a true
// division.
template <bool kDivide = false, class D, class V = hn::Vec<D>>
HWY_INLINE V Reciprocal(D d, V x) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  if constexpr (!kDivide && sizeof(hn::TFromD<D>) == 4) return ReciprocalNewton(d, x);
#endif
  return hn::Div(hn::Set(d, hn::TFromD<D>{1}), x);
}

// Whether RsqrtAccurate applies: x86 targets with FMA
// (AVX2, AVX-512), whose reciprocal square root estimate has 12 or more
// correct bits.
#undef OPGEN_RSQRT_NEWTON
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
#define OPGEN_RSQRT_NEWTON 1
#else
#define OPGEN_RSQRT_NEWTON 0
#endif

#if OPGEN_RSQRT_NEWTON
// Lanes where RsqrtAccurate applies: normal positive x, FLT_MIN <= x <=
// FLT_MAX (not NaN), the bit patterns 0x00800000 to 0x7F7FFFFF. The
// estimate treats subnormals as zero on some targets.
template <class D, class V = hn::Vec<D>>
HWY_INLINE auto RsqrtAccurateInRange(D d, V x) {
  return BitsInRange<0x00800000u, 0x7F800000u>(d, x);
}

// 1 / sqrt(x) for float32 lanes in RsqrtAccurateInRange, from the hardware
// estimate r with relative error e = 1 - x r^2 and 1/sqrt(x) = r (1 + e/2 +
// 3e^2/8 + ...), no division. AVX-512 (rsqrt14, |e| < 2^-13): r + (r/2) e
// with e = 1 - (x r) r by one FMA; max error 1.04 ulp over every float
// (checked outside the tests), against 1.45 for 1 / Sqrt(x), in 5
// instructions. AVX2 (rsqrtps, |e| < 2^-11): the second-order term, and e
// almost exact (x r = t + t_err by an FMA, then two FMAs); max error 0.5005
// ulp over every 512th float.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V RsqrtAccurate(D d, V x) {
  const V r = hn::ApproximateReciprocalSqrt(x);
  const V t = hn::Mul(x, r);
#if HWY_TARGET == HWY_AVX2
  const V t_err = hn::MulSub(x, r, t);
  const V e = hn::NegMulAdd(t_err, r, hn::NegMulAdd(t, r, hn::Set(d, 1.0f)));
  const V p = hn::MulAdd(e, hn::Set(d, 0.375f), hn::Set(d, 0.5f));
  return hn::MulAdd(hn::Mul(r, e), p, r);
#else
  const V e = hn::NegMulAdd(t, r, hn::Set(d, 1.0f));
  return hn::MulAdd(hn::Mul(r, hn::Set(d, 0.5f)), e, r);
#endif
}
#endif  // OPGEN_RSQRT_NEWTON

// tanh(x) for float32 lanes, every input: x P(x^2) / Q(x^2) on |x| clamped
// at 9 (where tanh rounds to 1 within half an ulp), P and Q of degree 4 with
// P(0) = Q(0) = 1, fitted for opgen (iteratively reweighted least squares
// for the minimax relative error, then each coefficient rounded to float and
// the rest refitted): 3.6e-8 relative before rounding errors, at most 5.22
// ulp in float32 arithmetic with FMA, 6.92 without (measured over every float
// up to 11). No exp, one
// division (vdivps beats the reciprocal estimate and a Newton step here).
// Relative also for tiny |x| (the result is x (1 + ...)), tanh(-0) = -0, NaN
// stays NaN: on x86 both Mins take the NaN as their second operand, which
// they return (OPGEN_MINMAX_SECOND_OPERAND), so that it passes without a
// check; elsewhere a select restores it.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V TanhFloat32(D d, V x) {
  const V one = hn::Set(d, 1.0f);
  const V ax = hn::Min(hn::Set(d, 9.0f), hn::Abs(x));
  const V s = hn::Mul(ax, ax);
  V p = hn::Set(d, 1.335445443e-08f);
  p = hn::MulAdd(p, s, hn::Set(d, 2.060895531e-05f));
  p = hn::MulAdd(p, s, hn::Set(d, 3.495580517e-03f));
  p = hn::MulAdd(p, s, hn::Set(d, 1.338101923e-01f));
  const V num = hn::MulAdd(hn::Mul(ax, s), p, ax);
  V q = hn::Set(d, 7.776481539e-07f);
  q = hn::MulAdd(q, s, hn::Set(d, 3.285622515e-04f));
  q = hn::MulAdd(q, s, hn::Set(d, 2.587695234e-02f));
  q = hn::MulAdd(q, s, hn::Set(d, 4.671433568e-01f));
  q = hn::MulAdd(q, s, one);
  const V y = hn::Min(one, hn::Div(num, q));
#if OPGEN_MINMAX_SECOND_OPERAND
  return hn::CopySignToAbs(y, x);
#else
  return hn::IfThenElse(hn::IsNaN(x), x, hn::CopySignToAbs(y, x));
#endif
}

// Lanes where SigmoidInRangeF32 applies: x >= -86.5 (not NaN).
template <class D, class V = hn::Vec<D>>
HWY_INLINE auto SigmoidInRange(D d, V x) {
  return hn::Ge(x, hn::Set(d, static_cast<hn::TFromD<D>>(-86.5)));
}

// sigmoid(x) for float32 lanes with x >= -86.5: 1 / (1 + e^-x), e^-x normal
// (x is clamped at 86.5, where the result already rounds to 1). One exp and
// one Reciprocal, no select; for x < 0 the error of e^-x carries over to the
// result (at most 3.2 ulp in all, against 2.5 for e^x / (1 + e^x)). On
// AVX-512 the Reciprocal's estimate and Newton step (about 2^-28 before its
// rounding) left the max error over every float32 of [-87, 87] at 3.17 ulp
// (3.21 with a division) and took 1K sigmoid from 213-218 to 185-203 ns on
// a Sapphire Rapids class Xeon: the division unit was the bound. On Zen 4
// dividing is quicker (kDivide, see UnaryTransformDivider): 1K 212-231 ->
// 198-199 ns, 1M 221-223 -> 205-210 us; silu and gelu gain alike.
template <bool kDivide = false, class D, class V = hn::Vec<D>>
HWY_INLINE V SigmoidInRangeF32(D d, V x) {
  const V one = hn::Set(d, 1.0f);
  const V e = ExpF32Fast<true>(d, hn::Min(x, hn::Set(d, 86.5f)));  // e^-x
  return Reciprocal<kDivide>(d, hn::Add(one, e));
}

// 1 / (1 + e^-x). e^-|x| never overflows, and for x < 0 the form
// e^x / (1 + e^x) keeps full relative accuracy where the result is tiny.
template <bool kDivide = false, class D, class V = hn::Vec<D>>
HWY_INLINE V Sigmoid(D d, V x) {
  const V one = hn::Set(d, hn::TFromD<D>{1});
  if constexpr (sizeof(hn::TFromD<D>) == 4) {
    if (HWY_LIKELY(hn::AllTrue(d, SigmoidInRange(d, x)))) return SigmoidInRangeF32<kDivide>(d, x);
  }
  const V e = ExpFull(d, hn::Neg(hn::Abs(x)));
  // Not IfNegativeThenElse: on SSSE3, Highway 1.0.3 emulates it with a
  // bitwise select that needs all-ones masks, so it mixes bits of e and one.
  return hn::Mul(hn::IfThenElse(hn::Lt(x, hn::Zero(d)), e, one),
                 Reciprocal<kDivide>(d, hn::Add(one, e)));
}

// 2u = 2 sqrt(2/pi) (x + 0.044715 x^3), the argument of the sigmoid in Gelu.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V GeluTwoU(D d, V x) {
  using T = hn::TFromD<D>;
  constexpr double kTwoSqrt2OverPi = 2 * 0.79788456080286535587989211986876;
  const V k0 = hn::Set(d, static_cast<T>(kTwoSqrt2OverPi));
  const V k1 = hn::Set(d, static_cast<T>(kTwoSqrt2OverPi * 0.044715));
  return hn::Mul(x, hn::MulAdd(hn::Mul(x, x), k1, k0));
}

// 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), computed as the
// identical x * sigmoid(2u): one exp instead of expm1 and a division, and no
// cancellation in 1 + tanh(u) for x << 0. x^3 may overflow: 2u is then +-inf
// and the result x or 0, never NaN (except for x = -inf, fixed below).
template <bool kDivide = false, class D, class V = hn::Vec<D>>
HWY_INLINE V Gelu(D d, V x) {
  const V two_u = GeluTwoU(d, x);
  const V r = hn::Mul(x, Sigmoid<kDivide>(d, two_u));
  return hn::IfThenZeroElse(hn::Eq(x, hn::Neg(hn::Inf(d))), r);
}

// a * b = product + err exactly, for float32 or float64 lanes (double-
// double arithmetic; fmod's remainder without FMA). Without FMA (SSSE3,
// SSE4, scalar) Dekker's product on Veltkamp-split halves.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V TwoProduct(D d, V a, V b, V& err) {
  const V product = hn::Mul(a, b);
#if HWY_NATIVE_FMA
  (void)d;
  err = hn::MulSub(a, b, product);
#else
  using T = hn::TFromD<D>;
  // 2^12 + 1 or 2^27 + 1 (Veltkamp): halves of at most 12 bits (float32)
  // or 26 (float64), whose products are exact.
  const V split = hn::Set(d, static_cast<T>(sizeof(T) == 4 ? 4097.0 : 134217729.0));
  const V ca = hn::Mul(a, split);
  const V a_hi = hn::Sub(ca, hn::Sub(ca, a));
  const V a_lo = hn::Sub(a, a_hi);
  const V cb = hn::Mul(b, split);
  const V b_hi = hn::Sub(cb, hn::Sub(cb, b));
  const V b_lo = hn::Sub(b, b_hi);
  err = hn::Add(hn::Add(hn::Add(hn::Sub(hn::Mul(a_hi, b_hi), product), hn::Mul(a_hi, b_lo)),
                        hn::Mul(a_lo, b_hi)),
                hn::Mul(a_lo, b_lo));
#endif
  return product;
}

// ln(a) = result + lo (double-double, relative error about 2^-65) for finite
// a > 0 in float64 lanes. pow(x, y) = e^(y ln x) amplifies the absolute error
// of ln x by |y ln x| (up to 745 before under/overflow), so the plain double
// Log would cost up to ~10 bits. No table: a = 2^k m with m in [sqrt(1/2),
// sqrt(2)), ln m = 2 atanh(f) with f = (m - 1) / (m + 1), |f| <= 0.1716, and
// the leading terms 2f and 2f^3/3 carried in double-double.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V LogDoubleDouble(D d, V a, V& lo) {
  const hn::RebindToSigned<D> di;
  const auto subnormal = hn::Lt(a, hn::Set(d, 2.2250738585072014e-308));
  a = hn::IfThenElse(subnormal, hn::Mul(a, hn::Set(d, 18014398509481984.0)), a);  // 2^54
  // Subtracting the bits of sqrt(1/2) turns the exponent field into k.
  const auto bits = hn::BitCast(di, a);
  const auto k = hn::ShiftRight<52>(hn::Sub(bits, hn::Set(di, int64_t{0x3FE6A09E667F3BCD})));
  const V m = hn::BitCast(d, hn::Sub(bits, hn::ShiftLeft<52>(k)));
  const V kf = hn::Sub(hn::ConvertTo(d, k), hn::IfThenElseZero(subnormal, hn::Set(d, 54.0)));

  // f + f_lo = (m - 1) / (m + 1); m - 1 is exact, m + 1 = den + den_lo.
  const V one = hn::Set(d, 1.0);
  const V num = hn::Sub(m, one);
  const V den = hn::Add(m, one);
  const V den_lo = hn::Sub(m, hn::Sub(den, one));
  const V f = hn::Div(num, den);
  // The remainder num - f * den of a correctly rounded division is exact.
  // With FMA it is one NegMulAdd: spelled as num - TwoProduct(f, den), GCC
  // (whose C++ default is -ffp-contract=fast) may fuse the subtraction into
  // the product and then subtract the product's error twice.
#if HWY_NATIVE_FMA
  const V rem = hn::NegMulAdd(f, den, num);
#else
  V prod_err;
  const V prod = TwoProduct(d, f, den, prod_err);
  const V rem = hn::Sub(hn::Sub(num, prod), prod_err);
#endif
  const V f_lo = hn::Div(hn::Sub(rem, hn::Mul(f, den_lo)), den);

  // 2 atanh(f) = 2f + f^3 C(f^2), C = sum 2/(2j+1) f^(2j-2), j = 1..12: the
  // first omitted term is below 2^-70 of the result.
  const V f2 = hn::Mul(f, f);
  V tail = hn::Set(d, 2.0 / 25);
  for (int j = 11; j >= 2; --j) tail = hn::MulAdd(tail, f2, hn::Set(d, 2.0 / (2 * j + 1)));
  tail = hn::Mul(tail, f2);
  constexpr double kTwoThirdsHi = 2.0 / 3;
  constexpr double kTwoThirdsLo = 3.700743415417188e-17;  // 2/3 - kTwoThirdsHi
  const V c_hi = hn::Add(hn::Set(d, kTwoThirdsHi), tail);
  const V c_lo =
      hn::Add(hn::Add(hn::Sub(hn::Set(d, kTwoThirdsHi), c_hi), tail), hn::Set(d, kTwoThirdsLo));
  V e2, e3, et;
  const V p2 = TwoProduct(d, f, f, e2);  // f^2 = p2 + e2
  e2 = hn::MulAdd(hn::Add(f, f), f_lo, e2);
  const V p3 = TwoProduct(d, p2, f, e3);  // f^3 = p3 + e3
  e3 = hn::Add(e3, hn::MulAdd(e2, f, hn::Mul(p2, f_lo)));
  const V t = TwoProduct(d, p3, c_hi, et);  // f^3 C = t + et
  et = hn::Add(et, hn::MulAdd(p3, c_lo, hn::Mul(e3, c_hi)));

  // ln m = 2f + t (+ small terms): |t| << |2f|, so Fast2Sum is exact.
  const V two_f = hn::Add(f, f);
  const V s_hi = hn::Add(two_f, t);
  const V s_lo = hn::Add(hn::Add(hn::Sub(two_f, s_hi), t), hn::Add(hn::Add(f_lo, f_lo), et));
  // + k ln 2; kLn2Hi has 32 significant bits, so k * kLn2Hi is exact, and
  // |k ln 2| >= |ln m| unless k = 0 (Fast2Sum again).
  const V k_hi = hn::Mul(kf, hn::Set(d, 6.93147180369123816490e-01));
  const V k_lo = hn::Mul(kf, hn::Set(d, 1.90821492927058770002e-10));
  const V sum = hn::Add(k_hi, s_hi);
  const V sum_lo = hn::Add(hn::Add(hn::Sub(k_hi, sum), s_hi), hn::Add(s_lo, k_lo));
  // Renormalize (Fast2Sum): sum_lo may be as large as k * kLn2Lo, and the
  // caller needs |lo| <= ulp(hi) so that e^(y lo) ~ 1 + y lo.
  const V hi = hn::Add(sum, sum_lo);
  lo = hn::Sub(sum_lo, hn::Sub(hi, sum));
  return hi;
}

// Applies C's pow() special cases to r = |x|^y (computed as e^(y ln|x|) with
// ln 0 = -inf, ln inf = inf, which already covers zero and infinite bases and
// exponents) in float64 lanes.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V PowSpecialCases(D d, V x, V y, V r) {
  const V zero = hn::Zero(d);
  const V one = hn::Set(d, 1.0);
  const auto y_integer = hn::Eq(hn::Floor(y), y);  // also +-inf
  const V half_y = hn::Mul(y, hn::Set(d, 0.5));
  const auto y_odd = hn::AndNot(hn::Eq(hn::Floor(half_y), half_y), y_integer);
  // A negative finite base with a non-integer exponent has no real power.
  const auto negative_finite = hn::And(hn::Lt(x, zero), hn::IsFinite(x));
  r = hn::IfThenElse(hn::AndNot(y_integer, negative_finite), hn::NaN(d), r);
  // Odd integer powers keep the sign of the base (also of -0 and -inf).
  r = hn::Xor(r, hn::IfThenElseZero(y_odd, hn::And(x, hn::SignBit(d))));
  // pow(x, +-0) = 1 even for NaN x, pow(1, y) = 1 even for NaN y, and
  // pow(-1, +-inf) = 1.
  const auto unit = hn::Or(hn::Or(hn::Eq(y, zero), hn::Eq(x, one)),
                           hn::And(hn::Eq(hn::Abs(x), one), hn::IsInf(y)));
  return hn::IfThenElse(unit, one, r);
}

// pow for float64 lanes: e^(y ln|x|) with ln|x| and the product in
// double-double, then e^(hi + lo) = e^hi (1 + lo). Every input (PowDouble
// takes it for the lanes PowF64Table does not cover).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V PowDoubleGeneral(D d, V x, V y) {
  const V ax = hn::Abs(x);
  V log_lo;
  V log_hi = LogDoubleDouble(d, ax, log_lo);
  const auto regular = hn::And(hn::Gt(ax, hn::Zero(d)), hn::IsFinite(ax));
  log_hi = hn::IfThenElse(regular, log_hi, LogFull(d, ax));
  V p_err;
  const V p = TwoProduct(d, y, log_hi, p_err);
  // The error terms are NaN where y ln|x| is infinite or NaN; dropping them
  // there keeps p_hi = p.
  V p_err_total = hn::MulAdd(y, log_lo, p_err);
  p_err_total = hn::IfThenElseZero(hn::IsFinite(p_err_total), p_err_total);
  const V p_hi = hn::Add(p, p_err_total);  // renormalize, |p_lo| <= ulp(p_hi)
  const V p_lo = hn::Sub(p_err_total, hn::Sub(p_hi, p));
  const V e = ExpFull(d, p_hi);
  // Where e over- or underflowed, or p is infinite or NaN, p_lo is meaningless.
  const auto refine = hn::And(hn::IsFinite(e), hn::IsFinite(p_lo));
  return PowSpecialCases(d, x, y, hn::IfThenElse(refine, hn::MulAdd(e, p_lo, e), e));
}

#if OPGEN_TABLE16
// x^y for float64 lanes of 8 (AVX-512) where x is normal, finite and
// positive and |y ln x| <= 708.4 (`fast`; other lanes get garbage): ln x
// in double-double from the 16-entry tables (LnTableF64, about 2^-64
// relative), y ln x = p_hi + p_lo by an FMA's product error, and
// e^(p_hi + p_lo) by ExpF64Table (0.54 ulp), p_lo with its table's error. No division, no special
// cases: x = 1 and y = +-0 give exactly 1 (ln 1 = 0, e^0 = 1).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V PowF64Table(D d, V x, V y, hn::Mask<D>& fast) {
  V log_lo;
  const V log_hi = LnTableF64</*kDoubleDouble=*/true>(d, x, &log_lo);
  V p_err;
  const V p = TwoProduct(d, y, log_hi, p_err);
  const V err = hn::MulAdd(y, log_lo, p_err);
  const V p_hi = hn::Add(p, err);
  const V p_lo = hn::Sub(err, hn::Sub(p_hi, p));
  fast = hn::And(PositiveNormalF64(d, x), AbsAtMostF64(d, p_hi, 0x4086233333333333));
  return ExpF64Table</*kCorrection=*/true>(d, p_hi, p_lo);
}
#endif

// x^y for float64 lanes: PowF64Table where it applies (AVX-512), lane by
// lane, so that no lane depends on its neighbours; PowDoubleGeneral for the
// rest (negative bases, zeros, infinities, NaN, under- and overflow).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V PowDouble(D d, V x, V y) {
#if OPGEN_TABLE16
  if constexpr (hn::MaxLanes(D()) == 8) {
    hn::Mask<D> fast;
    const V r = PowF64Table(d, x, y, fast);
    if (HWY_LIKELY(hn::AllTrue(d, fast))) return r;
    return hn::IfThenElse(fast, r, PowDoubleGeneral(d, x, y));
  }
#endif
  return PowDoubleGeneral(d, x, y);
}

#undef OPGEN_POW_AVX512
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
#define OPGEN_POW_AVX512 1
#else
#define OPGEN_POW_AVX512 0
#endif

// x^y for float64 lanes holding float32 values, the fast path of PowFloatWide:
// 2^(y log2 x), t = y log2 x in double, one rounding to float at the end.
//
// log2 x: x = 2^e M (e = floor(log2 x)), m = M or M/2 in [0.75, 1.5) (as
// AVX-512's getmant with that interval), 16 intervals of m picked by the
// bits of m (width 1/16 above 1, 1/32 below), and log2 x = e + head[i] +
// log2(1 + r) with r = m invc[i] - 1 in [-1/32, 1/16] and log2(1 + r) =
// r Q(r), Q of degree 5 (relative error 2^-34.4; degree 6 made the kernel
// 7% slower for 0.54 instead of 0.57 ulp). invc[i] is 1/c rounded to
// double for c the harmonic mean of the interval's ends, except 1 exactly
// for the two intervals next to 1 (there log2 x = log2(1 + r): x near 1
// keeps its full relative accuracy however large y is); head[i] = -log2
// invc[i], plus 1 for m < 1, rounded to double.
//
// 2^t: n = round(16 t), s = t - n/16 (exact, |s| <= 1/32), 2^t =
// 2^floor(n/16) 2^((n mod 16)/16) (1 + s P(s)), the second factor from a
// 16-entry table, P of degree 2 (relative error 2^-28.7). Q and P are
// minimax fits made for opgen (Remez on the relative error, coefficients
// rounded to double). The result before its rounding to float is within
// about 2^-27 of x^y (relative), well below half a float ulp: at most 0.57
// ulp in all (measured on 2^25 random pairs with |t| up to 160 and bases
// near 1).
//
// Valid where x is a positive finite float and |t| <= 1000 (no double
// overflow, underflow or subnormal on the way); `valid` tells which lanes
// those are: x <= 0, inf or NaN give |log2 x| >= 1000 or NaN, and y inf or
// NaN a t that fails the test.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V PowFloatCore(D d, V x, V y, hn::Mask<D>& valid) {
  HWY_ALIGN static constexpr double kInvC[16] = {
      0x1.0000000000000p+0, 0x1.d47f29d47f29dp-1, 0x1.bb226ec89bb22p-1, 0x1.a46102b1da461p-1,
      0x1.8fd8fd8fd8fd9p-1, 0x1.7d3abc65f4eafp-1, 0x1.6c44ce6b41c55p-1, 0x1.5cc0ed7303b5dp-1,
      0x1.4e81b4e81b4e8p+0, 0x1.4160e2dafa7c7p+0, 0x1.353dfe8a9353ep+0, 0x1.29fd4a7f529fdp+0,
      0x1.1f86ef9b1d014p+0, 0x1.15c653915c654p+0, 0x1.0ca990ca990cbp+0, 0x1.0000000000000p+0};
  HWY_ALIGN static constexpr double kHead[16] = {
      0.0,                  0x1.065bd2a85e631p-3, 0x1.aacd2c5495201p-3, 0x1.2347bfd404857p-2,
      0x1.6d411074f25b5p-2, 0x1.b3b2272197e77p-2, 0x1.f6ed87914588dp-2, 0x1.1b9d7297fe569p-1,
      0x1.3a6c7986c74f5p-1, 0x1.57ff6b37c0724p-1, 0x1.746ea8db7f1ebp-1, 0x1.8fcfdbd0e7e5ap-1,
      0x1.aa36597252ebbp-1, 0x1.c3b3759999b1ap-1, 0x1.dc56c75487d9cp-1, 0x1.0000000000000p+0};
  HWY_ALIGN static constexpr double kExp2[16] = {
      0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
      0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0,
      0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
      0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0};
  const hn::RebindToSigned<D> di;
  const hn::RebindToUnsigned<D> du;
  V e, m;
#if OPGEN_POW_AVX512
  if constexpr (hn::MaxLanes(D()) == 8) {
    // Negative x gives a NaN m (the sign control), 0 an e of -inf, inf and
    // NaN an e of inf or NaN.
    e = V{_mm512_getexp_pd(x.raw)};
    m = V{_mm512_getmant_pd(x.raw, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_nan)};
  } else  // NOLINT(readability/braces)
#endif
  {
    // Float inputs are normal doubles; for x <= 0, inf and NaN, |e| >= 1023.
    const auto bits = hn::BitCast(du, x);
    e = hn::Sub(hn::BitCast(d, hn::Or(hn::ShiftRight<52>(bits), hn::Set(du, 0x4330000000000000))),
                hn::Set(d, 0x1p52 + 1023));
    constexpr uint64_t kThreeQuarters = 0x3FE8000000000000;  // the bits of 0.75
    const auto low = hn::And(hn::Sub(bits, hn::Set(du, kThreeQuarters)),
                             hn::Set(du, (uint64_t{1} << 52) - 1));
    m = hn::BitCast(d, hn::Add(low, hn::Set(du, kThreeQuarters)));
  }
  // Bits 48..51 of m: its first 4 significand bits, 0..7 for m >= 1 and
  // 8..15 (0.75 <= m < 1).
  const auto index = hn::BitCast(di, hn::ShiftRight<48>(hn::BitCast(du, m)));
  const V r = hn::MulSub(m, Lookup16Wide(d, kInvC, index), hn::Set(d, 1.0));
  const V head = hn::Add(e, Lookup16Wide(d, kHead, index));
  V q = hn::Set(d, -0x1.c7f14b6b7ce29p-3);
  q = hn::MulAdd(q, r, hn::Set(d, 0x1.276bc29b85dcdp-2));
  q = hn::MulAdd(q, r, hn::Set(d, -0x1.715afbe4a0b6ap-2));
  q = hn::MulAdd(q, r, hn::Set(d, 0x1.ec70ac6b59861p-2));
  q = hn::MulAdd(q, r, hn::Set(d, -0x1.71547610a503fp-1));
  q = hn::MulAdd(q, r, hn::Set(d, 0x1.715476529a092p+0));
  const V log2x = hn::MulAdd(r, q, head);
  const V t = hn::Mul(y, log2x);
  const V limit = hn::Set(d, 1000.0);

  // Adding 1.5 * 2^52 leaves n = round(16 t) in the low bits of u, j = n
  // mod 16 in its lowest 4.
  const V shift = hn::Set(d, 0x1.8p52);
  const V u = hn::MulAdd(t, hn::Set(d, 16.0), shift);
  const auto u_bits = hn::BitCast(di, u);
  const V n16 = hn::MulSub(u, hn::Set(d, 0.0625), hn::Set(d, 0x1.8p48));  // n / 16, exact
  const V s = hn::Sub(t, n16);                                            // exact
  V p = hn::Set(d, 0x1.c6b08d6fea183p-5);
  p = hn::MulAdd(p, s, hn::Set(d, 0x1.ebff9177c946cp-3));
  p = hn::MulAdd(p, s, hn::Set(d, 0x1.62e42ff3bc330p-1));
  const V table = Lookup16Wide(d, kExp2, u_bits);
  const V v = hn::MulAdd(table, hn::Mul(p, s), table);  // 2^(j/16) 2^s, in [0.95, 2)
#if OPGEN_POW_AVX512
  if constexpr (hn::MaxLanes(D()) == 8) {
    // max(|t|, |log2 x|), NaN if either is.
    valid = hn::Le(V{_mm512_range_pd(t.raw, log2x.raw, 0xB)}, limit);
    return V{_mm512_scalef_pd(v.raw, n16.raw)};  // v 2^floor(n / 16)
  }
#endif
  valid = hn::And(hn::Le(hn::Abs(t), limit), hn::Le(hn::Abs(log2x), limit));
  // n << 48 = ((n >> 4) << 52) + (j << 48) (the bits of 1.5 * 2^52 shift
  // out): its top 12 bits, added to the exponent of v, multiply it by
  // 2^floor(n / 16).
  const auto scale = hn::And(hn::ShiftLeft<48>(u_bits), hn::Set(di, -(int64_t{1} << 52)));
  return hn::BitCast(d, hn::Add(hn::BitCast(di, v), scale));
}

// float64 lanes rounded to nearest float32 lanes, overflowing to +-inf as
// the native conversions do (pow, hypot).
template <class DF, class DD>
HWY_INLINE hn::Vec<DF> DemoteToFloatOrInf(DF df, DD dd, hn::Vec<DD> r) {
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128
  // The emulated DemoteTo saturates to +-FLT_MAX instead. A static_cast of
  // a finite double beyond FLT_MAX is undefined behaviour in C++, so those
  // lanes get what rounding to nearest gives, chosen here: FLT_MAX below
  // the midpoint of FLT_MAX and 2^128, inf from it up.
  HWY_ALIGN double wide[hn::MaxLanes(DD())];
  HWY_ALIGN float narrow[hn::MaxLanes(DF())];
  hn::Store(r, dd, wide);
  constexpr float kMax = std::numeric_limits<float>::max();
  constexpr double kOverflow = 0x1.ffffffp127;
  constexpr float kInf = std::numeric_limits<float>::infinity();
  for (size_t i = 0; i < hn::Lanes(df); ++i) {
    const double v = wide[i];
    const double a = std::abs(v);  // NaN: every comparison false
    const float big = a >= kOverflow ? kInf : kMax;
    narrow[i] = a > kMax ? (v < 0 ? -big : big) : static_cast<float>(v);
  }
  return hn::Load(df, narrow);
#else
  (void)dd;
  return hn::DemoteTo(df, r);
#endif
}

#if OPGEN_TABLE16
// v unchanged, but opaque to the compiler: a product whose rounded value
// matters (an error-free transformation) is not fused into the addition
// that follows it, which GCC (-ffp-contract=fast, its C++ default) would do.
template <class V>
HWY_INLINE V Unfused(V v) {
#if HWY_COMPILER_GCC || HWY_COMPILER_CLANG
  asm("" : "+v"(v.raw));
#endif
  return v;
}

// x^y for float32 lanes where a vector holds 16 of them (AVX-512), without
// float64: the same 2^(y log2 x) scheme and 16-entry tables as
// PowFloatCore, but log2 x and t = y log2 x carried as float pairs hi + lo
// (about 2^-34 relative where it matters, against the 2^-27 a float t needs
// to stay well within an ulp of x^y at |t| up to 126).
//
// log2 x = e + head[i] + log2(1 + r): e and m (in [0.75, 1.5)) from
// getexp/getmant, i from the first 4 bits of m as in PowFloatCore, invc[i]
// = 1/c rounded to float (1 for the two intervals next to 1), head[i] =
// -log2 invc[i] (+ 1 for m < 1) as head_hi, a multiple of 2^-16 (so that e
// + head_hi is exact), plus head_lo. r = m invc - 1 = rh + pl exactly (pl
// the error of the product m invc, rh = m invc - 1 exact by Sterbenz), |r|
// <= 1/16. log2(1 + r) = (1/ln2) (r - r^2/2) + r^3 Q(r): r - r^2/2 in
// float pairs (rh^2 = sq + sq_lo exactly, Fast2Sum of rh - sq/2, pl times
// its derivative 1 - rh + rh^2), its product with 1/ln2 (a float pair)
// by an FMA-based exact product, and Q of degree 3 in float (a
// fit made for opgen, weighted by r^2: r^3 Q within 2^-38 absolute and
// 2^-33.5 of log2(1 + r)). The sum with e + head_hi is a Fast2Sum (|e +
// head_hi| >= |log2(1 + r)| unless it is 0).
//
// 2^t: n = round(16 (t_hi + t_lo)) (t_lo may reach 0.2 % of t_hi: the
// series terms of log2(1 + r) stay in lo), s = t_hi - n/16 (exact) + t_lo,
// |s| <= 1/32, 2^t = 2^floor(n/16) 2^(j/16) 2^s, j = n mod 16, 2^(j/16) =
// T (1 + eps) with T rounded to float and eps from tables, 2^s - 1 of
// degree 3 (relative error 2^-29; fitted for opgen), and S = 2^floor(n/16)
// T (Pow2Sixteenths, exact) rounded once as S + S ((1 + eps) 2^s - 1).
// Where `valid`, |n| <= 2004 (|t_hi + t_lo| <= 125.25), so floor(n/16)
// lies in [-126, 125] (-126 only with j >= 12): S and the result are
// normal, and the result is T + T (...) rounded, scaled exactly by
// 2^floor(n/16). Max error 0.73 ulp
// (measured over every float x in [0.5, 2], each with a random t up to
// past the overflow and underflow thresholds; 0.56 over every 64th
// positive float for a dozen fixed y).
//
// `valid` tells the lanes with |t_hi| <= 125; x <= 0, inf or NaN give an
// infinite or NaN log2 x (getmant maps negative x to NaN), y inf or NaN an
// infinite or NaN t.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V PowFloatTable(D d, V x, V y, hn::Mask<D>& valid) {
  HWY_ALIGN static constexpr float kInvC[16] = {
      0x1.000000p+0f, 0x1.d47f2ap-1f, 0x1.bb226ep-1f, 0x1.a46102p-1f,
      0x1.8fd8fep-1f, 0x1.7d3abcp-1f, 0x1.6c44cep-1f, 0x1.5cc0eep-1f,
      0x1.4e81b4p+0f, 0x1.4160e2p+0f, 0x1.353dfep+0f, 0x1.29fd4ap+0f,
      0x1.1f86f0p+0f, 0x1.15c654p+0f, 0x1.0ca990p+0f, 0x1.000000p+0f};
  HWY_ALIGN static constexpr float kHeadHi[16] = {
      0.0f,         0x1.0658p-3f, 0x1.aad0p-3f, 0x1.2348p-2f, 0x1.6d40p-2f, 0x1.b3b4p-2f,
      0x1.f6ecp-2f, 0x1.1b9ep-1f, 0x1.3a6cp-1f, 0x1.5800p-1f, 0x1.746ep-1f, 0x1.8fd0p-1f,
      0x1.aa36p-1f, 0x1.c3b4p-1f, 0x1.dc56p-1f, 0x1.0000p+0f};
  HWY_ALIGN static constexpr float kHeadLo[16] = {
      0x0p+0f,         0x1.e8cb02p-18f,  -0x1.6738ecp-18f, -0x1.edd7b4p-21f,
      0x1.0ed694p-18f, -0x1.d75350p-18f, 0x1.894442p-18f,  -0x1.1d253ap-18f,
      0x1.ee1d46p-19f, -0x1.25a1e4p-18f, 0x1.544d00p-18f,  -0x1.179be2p-20f,
      0x1.61bc94p-19f, -0x1.17193ap-18f, 0x1.93031cp-18f,  0.0f};
  const hn::RebindToSigned<D> di;
  const V one = hn::Set(d, 1.0f);
  const V e{_mm512_getexp_ps(x.raw)};
  const V m{_mm512_getmant_ps(x.raw, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_nan)};
  const auto index = hn::ShiftRight<19>(hn::BitCast(di, m));  // Lookup16 reads bits 0..3
  const V invc = Lookup16(d, kInvC, index);
  const V ph = Unfused(hn::Mul(m, invc));
  const V pl = hn::MulSub(m, invc, ph);
  const V rh = hn::Sub(ph, one);
  const V sq = hn::Mul(rh, rh);
  const V sq_lo = hn::MulSub(rh, rh, sq);
  const V half = hn::Set(d, -0.5f);
  const V vh = hn::MulAdd(sq, half, rh);  // rh - sq/2 = vh + vl (Fast2Sum)
  V vl = hn::MulSub(sq, half, hn::Sub(vh, rh));
  vl = hn::MulAdd(sq_lo, half, vl);
  vl = hn::MulAdd(pl, hn::MulAdd(rh, hn::Sub(ph, hn::Set(d, 2.0f)), one), vl);
  const V inv_ln2 = hn::Set(d, 0x1.715476p+0f);
  const V lh = Unfused(hn::Mul(vh, inv_ln2));
  V ll = hn::MulSub(vh, inv_ln2, lh);
  ll = hn::MulAdd(vh, hn::Set(d, 0x1.4ae0c0p-26f), ll);
  ll = hn::MulAdd(vl, inv_ln2, ll);
  V q = hn::MulAdd(hn::Set(d, -0x1.cae65ap-3f), rh, hn::Set(d, 0x1.276c9ep-2f));
  q = hn::MulAdd(q, rh, hn::Set(d, -0x1.7158b8p-2f));
  q = hn::MulAdd(q, rh, hn::Set(d, 0x1.ec70a6p-2f));
  ll = hn::MulAdd(hn::Mul(sq, rh), q, ll);
  // log2 x = S + lo: (e + head_hi) + lh by Fast2Sum, then the small terms.
  const V head = hn::Add(e, Lookup16(d, kHeadHi, index));
  const V log_hi = hn::Add(head, lh);
  const V log_lo =
      hn::Add(hn::Sub(lh, hn::Sub(log_hi, head)), hn::Add(Lookup16(d, kHeadLo, index), ll));
  // t = y log2 x = t_hi + t_lo.
  const V t_hi = Unfused(hn::Mul(y, log_hi));
  const V t_lo = hn::MulAdd(y, log_lo, hn::MulSub(y, log_hi, t_hi));
  valid = hn::Le(hn::Abs(t_hi), hn::Set(d, 125.0f));

  // As in ExpF32Fast: adding 1.5 * 2^23 leaves n = round(16 t_hi) in the
  // low bits of u.
  const V shift = hn::Set(d, 0x1.8p23f);
  const V u = hn::MulAdd(hn::Add(t_hi, t_lo), hn::Set(d, 16.0f), shift);
  const V n16 = hn::MulSub(u, hn::Set(d, 0.0625f), hn::Set(d, 0x1.8p19f));  // n / 16, exact
  const V s = hn::Add(hn::Sub(t_hi, n16), t_lo);
  const auto u_bits = hn::BitCast(di, u);
  V p = hn::MulAdd(hn::Set(d, 0x1.c6ad30p-5f), s, hn::Set(d, 0x1.ec0016p-3f));
  p = hn::MulAdd(p, s, hn::Set(d, 0x1.62e430p-1f));
  p = hn::MulAdd(p, s, Pow2SixteenthsError(d, u_bits));  // (1 + eps)(1 + p) - 1
  const V scale = Pow2Sixteenths(d, u_bits);  // 2^floor(n / 16) T, exact
  return hn::MulAdd(scale, p, scale);
}
#endif

// pow for float32 lanes, computed in float64 and rounded once to float
// (error <= 0.57 ulp, measured). Vectors whose lanes all have a positive
// finite base and |y log2 x| <= 1000 (the common case) take PowFloatCore;
// the others LogFull and ExpFull in float64 (whose errors, amplified by
// |y ln x| <= 104, stay far below a float ulp) and C's special cases.
template <class DF, class VF = hn::Vec<DF>>
HWY_INLINE VF PowFloatWide(DF df, VF x, VF y) {
  const hn::Rebind<double, DF> dd;
  const auto xd = hn::PromoteTo(dd, x);
  const auto yd = hn::PromoteTo(dd, y);
  hn::Mask<decltype(dd)> valid;
  auto r = PowFloatCore(dd, xd, yd, valid);
  if (HWY_UNLIKELY(!hn::AllTrue(dd, valid))) {
    r = PowSpecialCases(dd, xd, yd, ExpFull(dd, hn::Mul(yd, LogFull(dd, hn::Abs(xd)))));
  }
  return DemoteToFloatOrInf(df, dd, r);
}

// pow for float32 lanes. Where a vector holds 16 of them (AVX-512),
// PowFloatTable in float32 lanes, and PowFloatWide on both halves for
// vectors with a lane it does not cover; elsewhere PowFloatWide.
template <class DF, class VF = hn::Vec<DF>>
HWY_INLINE VF PowFloat(DF df, VF x, VF y) {
#if OPGEN_TABLE16
  if constexpr (hn::MaxLanes(DF()) == 16) {
    hn::Mask<DF> valid;
    const VF r = PowFloatTable(df, x, y, valid);
    if (HWY_LIKELY(hn::AllTrue(df, valid))) return r;
    const hn::Half<DF> dh;
    return hn::Combine(df, PowFloatWide(dh, hn::UpperHalf(dh, x), hn::UpperHalf(dh, y)),
                       PowFloatWide(dh, hn::LowerHalf(dh, x), hn::LowerHalf(dh, y)));
  } else  // NOLINT(readability/braces)
#endif
  {
    return PowFloatWide(df, x, y);
  }
}

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // OPGEN_KERNELS_MATH_INL_H_
