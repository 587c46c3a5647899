// Transcendental kernels (float32 and float64). Accuracy per function is
// stated below as the maximum error the kernel tests allow against a long
// double reference, on every SIMD target (the measured maximum over a dense
// sample in parentheses). An ulp is the spacing of the element type at the
// exact result (denorm_min for results in the subnormal range). Infinite and
// NaN results are exact; NaN inputs give NaN. Pointers may alias exactly
// (out == x); n may be 0.
#pragma once

#include <cstddef>

namespace opgen::kernels {

/// out[i] = sqrt(x[i]); correctly rounded (IEEE), hence exact and identical
/// on every target; sqrt(-0) = -0, NaN for x < 0.
void Sqrt(const float* x, float* out, std::size_t n);
void Sqrt(const double* x, double* out, std::size_t n);

/// out[i] = e^x[i]. Error <= 2 ulp (float32 0.94, 1.06 on AVX-512; float64
/// 1.01, 0.54 on AVX-512 for |x| <= 708.4); overflow gives +inf, underflow
/// denormals and then 0; e^-inf = 0. float32 vectors within |x| <= 86.5 use
/// opgen's own polynomial (math-inl.h ExpF32Fast), and so do float64 lanes
/// on AVX-512 within |x| <= 708.4 (ExpF64Table).
void Exp(const float* x, float* out, std::size_t n);
void Exp(const double* x, double* out, std::size_t n);

/// out[i] = ln(x[i]). Error <= 2 ulp, denormal inputs included: on AVX-512,
/// float32 vectors of normal positive x take math-inl.h's LnTableF32 (0.55
/// ulp over every such float) and float64 lanes of normal positive x
/// LnTableF64 (0.54 ulp), other vectors and targets Highway's Log (0.96);
/// ln(+-0) = -inf, ln(x < 0) = NaN, ln(+inf) = +inf.
void Log(const float* x, float* out, std::size_t n);
void Log(const double* x, double* out, std::size_t n);

/// out[i] = tanh(x[i]). Error <= 7 ulp (float32 over every float: 5.22 on
/// targets with FMA, 6.92 on SSSE3/SSE4; float64 0.51 on AVX-512 (math-inl.h
/// TanhF64Table), 2.89 elsewhere (Highway's Tanh)), relative also for tiny |x|; tanh(+-inf) =
/// +-1, tanh(-0) = -0. float32: opgen's own rational x P(x^2) / Q(x^2) of degree 9/8 on |x| clamped
/// at 9 (math-inl.h TanhFloat32), one division.
void Tanh(const float* x, float* out, std::size_t n);
void Tanh(const double* x, double* out, std::size_t n);

/// out[i] = 1 / (1 + e^-x[i]). Error <= 4 ulp (float32 3.17, float64 2.40),
/// relative also where the result is tiny (x << 0); never overflows;
/// sigmoid(+inf) = 1, sigmoid(-inf) = 0. float32 vectors with x >= -86.5:
/// 1 / (1 + e^-x), on AVX-512 with e^-x from a 16-entry table (math-inl.h
/// SigmoidInRangeF32, ExpF32Fast).
void Sigmoid(const float* x, float* out, std::size_t n);
void Sigmoid(const double* x, double* out, std::size_t n);

/// out[i] = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), the tanh form
/// of GELU, computed as the identical x * sigmoid(2 sqrt(2/pi) (x + 0.044715
/// x^3)). Absolute error <= 3 ulp of max(1, |x|) (1.95); large |x| give x or
/// 0 (never NaN), Gelu(+inf) = +inf, Gelu(-inf) = 0. Measured: float32
/// 1.67, float64 1.67. float32 vectors within |x| < 11.6 take Sigmoid's
/// fast path.
void Gelu(const float* x, float* out, std::size_t n);
void Gelu(const double* x, double* out, std::size_t n);

}  // namespace opgen::kernels
