// Elementary function kernels of the math namespace beyond exp, log, tanh
// and sqrt (those are in transcendental.hpp): float32 and float64, plus
// int32 and int64 for Sign. Accuracy per function is stated below as the
// maximum error the kernel tests allow against a long double reference on
// every SIMD target (the measured maximum over the tests' inputs in
// parentheses). An ulp is the spacing of the element type at the exact
// result (denorm_min in the subnormal range). Infinite and NaN results are
// exact; NaN inputs give NaN. Pointers may alias exactly (out == x, out ==
// y); n may be 0.
#pragma once

#include <cstddef>
#include <cstdint>

namespace opgen::kernels {

/// out[i] = 1 / sqrt(x[i]): a square root and a division, both correctly
/// rounded. Error <= 1.5 ulp (1.45); rsqrt(+-0) = +-inf, NaN for x < 0.
/// float32 on AVX2 and AVX-512: the hardware estimate and a Newton-type
/// correction by FMAs (1.04 ulp over every float on AVX-512, 0.5005 on
/// AVX2) where a vector holds only normal positive numbers; float64 on
/// AVX-512: the rsqrt14 estimate and two Newton steps for every lane (1.05
/// ulp, subnormals included).
void Rsqrt(const float* x, float* out, std::size_t n);
void Rsqrt(const double* x, double* out, std::size_t n);

/// out[i] = 1 / x[i], correctly rounded (IEEE division), hence exact and
/// identical on every target.
void Reciprocal(const float* x, float* out, std::size_t n);
void Reciprocal(const double* x, double* out, std::size_t n);

/// out[i] = 2^x[i]: 2^round(x) built in the exponent field times a
/// polynomial for 2^r, |r| <= 1/2. float32 with |x| <= 125: on AVX-512
/// 2^(j/16) from a 16-entry table and a cubic for 2^r - 1, |r| <= 1/32;
/// elsewhere a polynomial of degree 6. float64 with |x| <= 1022 on AVX-512:
/// 2^(j/16) and its rounding error from 16-entry tables and a polynomial
/// of degree 7 (math-inl.h Exp2F64Table). Error <= 1.5 ulp (float32: 1.08
/// AVX-512, 0.95 AVX2, 1.20 without FMA, over every 7th float; float64
/// 1.05, 0.54 in the AVX-512 table form); exact for integral x (results in
/// the subnormal range included);
/// overflow gives +inf, underflow denormals and then 0.
void Exp2(const float* x, float* out, std::size_t n);
void Exp2(const double* x, double* out, std::size_t n);

/// out[i] = e^x[i] - 1, accurate also for tiny |x| (Highway's Expm1 over
/// its valid range, infinities and NaN handled here). On AVX-512, float32
/// with x <= 88.5: (s - 1) + s (p + lo), s = 2^(m/16) from a 16-entry table,
/// lo its rounding error from another, p = e^r - 1 for |r| <= ln2 / 32
/// (1.66 ulp over every 7th float); float64 with x <= 708.4: (s - 1 + s r)
/// + s (e^r - 1 - r + lo), the first sum and the rounding errors of the
/// reduction kept exactly, from the float64 exp tables (0.515 ulp over 4M
/// inputs). Error <= 4.5 ulp (float64 4.02 through Highway's Expm1, over
/// 4M inputs); expm1(-inf) = -1, overflow gives +inf.
void Expm1(const float* x, float* out, std::size_t n);
void Expm1(const double* x, double* out, std::size_t n);

/// out[i] = ln(1 + x[i]), accurate also for tiny |x|, from u = 1 + x
/// rounded and c its rounding error. On AVX-512, float32 x > -1 in whole
/// 512-bit vectors and float64 x > -1 lane by lane: u + c = 2^k w (1 + r +
/// d), d the error of z/w plus c 2^-k / w, and ln(u + c) = k ln2 + ln(w) +
/// ln(1 + r) + d (1 - r), 1/w and ln(w) from 16-entry tables, the large
/// terms summed exactly so that the result rounds once (0.66 ulp over every
/// float; float64 0.66 on the kernel tests' inputs); elsewhere ln(u) + c/u
/// with Highway's Log (1.44 ulp over every float). Error <= 2 ulp;
/// log1p(-1) = -inf, NaN for x < -1, log1p(+inf) = +inf.
void Log1p(const float* x, float* out, std::size_t n);
void Log1p(const double* x, double* out, std::size_t n);

/// out[i] = log2(x[i]). On AVX-512, float32 normal x > 0: k + log2(c) +
/// log2(1 + r), 1/c and log2(c) from 16-entry tables, r = x 2^-k / c - 1,
/// a polynomial of degree 4 (1.51 ulp over every normal float); float64
/// lanes of normal x > 0 LnTableF64's log2 form (0.53 ulp); elsewhere
/// Highway's Log2 (float32 1.87 ulp over every normal float). Error <= 2
/// ulp; every normal power of 2 gives its exponent exactly; log2(+-0) =
/// -inf, NaN for x < 0, log2(+inf) = +inf.
void Log2(const float* x, float* out, std::size_t n);
void Log2(const double* x, double* out, std::size_t n);

/// out[i] = sin(x[i]) and cos(x[i]). Error <= 3 ulp for |x| <= 39000.
/// float32 on targets with FMA: a reduction by pi in three fused parts and
/// a polynomial of degree 9 (2.29 ulp over every float with |x| <= 39000,
/// sin and cos); elsewhere Highway's Sin and Cos (2.70). float64 on every
/// target: a double-double reduction by pi/2 and one minimax polynomial of
/// degree 13 for sin of the remainder or of its half (cos(r) = 1 - 2
/// sin^2(r/2)), 0.81 ulp with FMA over 12 million inputs, 0.98 without
/// over 20 million, never beyond +-1. Larger |x| go to the C library's sin and cos element by
/// element in a second pass, only when the vector pass met one (slow but
/// exact to its accuracy). sin(+-0) = +-0, cos(+-0) = 1, NaN for +-inf.
void Sin(const float* x, float* out, std::size_t n);
void Sin(const double* x, double* out, std::size_t n);
void Cos(const float* x, float* out, std::size_t n);
void Cos(const double* x, double* out, std::size_t n);

/// out[i] = erf(x[i]). float64: x + x P(x^2) for |x| < 1, a polynomial in
/// |x| - 1.5 for |x| < 2 (its constant term in two parts), and 1 - e^(-x^2)
/// Q(1/|x|) / |x| for |x| < 6 (1 beyond), polynomials fitted by Chebyshev
/// interpolation; error <= 1.25 ulp (with FMA 0.99 over 8 million inputs,
/// near |x| = 0.97; without 1.19). float32: x P(x^2) / Q(x^2) in float32, degree 5 each, for
/// |x| < 3.92 (+-1 beyond); error <= 8 ulp (over every float in [2, 3.92],
/// where the largest errors are: 6.05 with FMA, 3.6e-7 relative; 7.53
/// without, 4.5e-7).
void Erf(const float* x, float* out, std::size_t n);
void Erf(const double* x, double* out, std::size_t n);

/// out[i] = x[i] rounded to the nearest integer, halfway cases away from
/// zero (C's round, not numpy's half-to-even). Exact; keeps the sign of
/// zero.
void Round(const float* x, float* out, std::size_t n);
void Round(const double* x, double* out, std::size_t n);

/// out[i] = x[i] rounded toward zero. Exact.
void Trunc(const float* x, float* out, std::size_t n);
void Trunc(const double* x, double* out, std::size_t n);

/// out[i] = -1, 0 or 1 by the sign of x[i]; NaN stays NaN, +-0 gives +0.
/// Exact.
void Sign(const float* x, float* out, std::size_t n);
void Sign(const double* x, double* out, std::size_t n);
void Sign(const std::int32_t* x, std::int32_t* out, std::size_t n);
void Sign(const std::int64_t* x, std::int64_t* out, std::size_t n);

/// out[i] = fmod(x[i], y[i]), the remainder of x / y truncated toward zero,
/// with the sign of x: exact (C's fmod). Quotients below 2^(mantissa bits)
/// in vectors; larger ones, zero or infinite y and non-finite x through the
/// C library element by element (in a second pass unless out is x or y).
void Fmod(const float* x, const float* y, float* out, std::size_t n);
void Fmod(const double* x, const double* y, double* out, std::size_t n);

/// out[i] = atan2(y[i], x[i]) -- note the operands: the first pointer is y
/// (as in the op, math.atan2(y, x)). One division reduces each pair to
/// k pi/4 + atan(t) with |t| <= 1/2, and a minimax polynomial gives atan(t)
/// (kernels/tables/elementary_fits.py). float64 carries t to about 2^-100
/// (the remainder of its division, and of |x| + |y|, over a second
/// division). Error <= 2 ulp float32 (1.45), 1.25 float64 (0.83 with FMA,
/// 1.05 without; 1.32 with t rounded); C's special cases (signed zeros,
/// infinities).
void Atan2(const float* y, const float* x, float* out, std::size_t n);
void Atan2(const double* y, const double* x, double* out, std::size_t n);

/// out[i] = sqrt(x[i]^2 + y[i]^2) without overflow or underflow in between.
/// float32 is computed in float64 (error <= 1 ulp, 0.50); float64 from
/// scaled squares summed exactly and a corrected square root (error <= 1
/// ulp: 0.50 for normal results, 0.75 for subnormal ones, rounded twice).
/// hypot(+-inf, y) = +inf even for a NaN y.
void Hypot(const float* x, const float* y, float* out, std::size_t n);
void Hypot(const double* x, const double* y, double* out, std::size_t n);

}  // namespace opgen::kernels
