// Elementwise arithmetic kernels: exact (or correctly rounded) per element,
// hence identical on every SIMD target, except Pow (accuracy stated below).
// Memory-bound. Each function runs the best SIMD target of the CPU (Highway
// dynamic dispatch). Pointers may alias exactly (out == x or out == y) but
// must not overlap otherwise; n may be 0. NaN inputs give NaN unless stated.
#pragma once

#include <cstddef>
#include <cstdint>

namespace opgen::kernels {

// clang-format off
#define OPGEN_BINARY_KERNEL(Name, T) \
  void Name(const T* x, const T* y, T* out, std::size_t n);
#define OPGEN_UNARY_KERNEL(Name, T) \
  void Name(const T* x, T* out, std::size_t n);
// clang-format on

/// out[i] = x[i] + y[i] (integers wrap around).
OPGEN_BINARY_KERNEL(Add, float)
OPGEN_BINARY_KERNEL(Add, double)
OPGEN_BINARY_KERNEL(Add, std::int32_t)
OPGEN_BINARY_KERNEL(Add, std::int64_t)

/// out[i] = x[i] - y[i] (integers wrap around).
OPGEN_BINARY_KERNEL(Sub, float)
OPGEN_BINARY_KERNEL(Sub, double)
OPGEN_BINARY_KERNEL(Sub, std::int32_t)
OPGEN_BINARY_KERNEL(Sub, std::int64_t)

/// out[i] = x[i] * y[i] (integers wrap around).
OPGEN_BINARY_KERNEL(Mul, float)
OPGEN_BINARY_KERNEL(Mul, double)
OPGEN_BINARY_KERNEL(Mul, std::int32_t)
OPGEN_BINARY_KERNEL(Mul, std::int64_t)

/// out[i] = x[i] / y[i]. Integers truncate toward zero; x / 0 is 0 and
/// INT_MIN / -1 is INT_MIN (no trap, no undefined behaviour). Integer Div is
/// a scalar loop: x86 has no SIMD integer division.
OPGEN_BINARY_KERNEL(Div, float)
OPGEN_BINARY_KERNEL(Div, double)
OPGEN_BINARY_KERNEL(Div, std::int32_t)
OPGEN_BINARY_KERNEL(Div, std::int64_t)

/// out[i] = max(x[i], y[i]); NaN if either is NaN; -0 < +0 (IEEE 754-2019
/// maximum).
OPGEN_BINARY_KERNEL(Maximum, float)
OPGEN_BINARY_KERNEL(Maximum, double)
OPGEN_BINARY_KERNEL(Maximum, std::int32_t)
OPGEN_BINARY_KERNEL(Maximum, std::int64_t)

/// out[i] = min(x[i], y[i]); NaN if either is NaN; -0 < +0 (IEEE 754-2019
/// minimum).
OPGEN_BINARY_KERNEL(Minimum, float)
OPGEN_BINARY_KERNEL(Minimum, double)
OPGEN_BINARY_KERNEL(Minimum, std::int32_t)
OPGEN_BINARY_KERNEL(Minimum, std::int64_t)

/// out[i] = x[i] raised to y[i], with C's pow() special cases (pow(x, +-0) =
/// 1 and pow(1, y) = 1 even for NaN, negative bases with integer exponents,
/// 0^negative = inf, ...). float32: error <= 1 ulp (on AVX-512 in float32
/// lanes with float pairs, measured 0.73; elsewhere computed in float64 and
/// rounded once to float, measured 0.57).
/// float64: error <= 2 ulp (ln x in double-double; on AVX-512, for normal
/// x > 0 and |y ln x| <= 708.4, from 16-entry tables, measured 1.22;
/// elsewhere measured 1.6).
OPGEN_BINARY_KERNEL(Pow, float)
OPGEN_BINARY_KERNEL(Pow, double)

/// out[i] = -x[i] (integers wrap around: -INT_MIN is INT_MIN).
OPGEN_UNARY_KERNEL(Neg, float)
OPGEN_UNARY_KERNEL(Neg, double)
OPGEN_UNARY_KERNEL(Neg, std::int32_t)
OPGEN_UNARY_KERNEL(Neg, std::int64_t)

/// out[i] = |x[i]| (integers wrap around: |INT_MIN| is INT_MIN).
OPGEN_UNARY_KERNEL(Abs, float)
OPGEN_UNARY_KERNEL(Abs, double)
OPGEN_UNARY_KERNEL(Abs, std::int32_t)
OPGEN_UNARY_KERNEL(Abs, std::int64_t)

/// out[i] = x[i] * x[i] (integers wrap around).
OPGEN_UNARY_KERNEL(Square, float)
OPGEN_UNARY_KERNEL(Square, double)
OPGEN_UNARY_KERNEL(Square, std::int32_t)
OPGEN_UNARY_KERNEL(Square, std::int64_t)

/// out[i] = floor(x[i]), ceil(x[i]); the sign of a zero result is that of
/// x (floor(-0) = -0, ceil(-0.5) = -0).
OPGEN_UNARY_KERNEL(Floor, float)
OPGEN_UNARY_KERNEL(Floor, double)
OPGEN_UNARY_KERNEL(Ceil, float)
OPGEN_UNARY_KERNEL(Ceil, double)

/// out[i] = max(x[i], 0); NaN stays NaN, -0 stays -0.
OPGEN_UNARY_KERNEL(Relu, float)
OPGEN_UNARY_KERNEL(Relu, double)

/// out[i] = x[i] > 0 ? x[i] : alpha * x[i]; NaN stays NaN. alpha is first
/// rounded to the element type.
void LeakyRelu(const float* x, float* out, std::size_t n, double alpha);
void LeakyRelu(const double* x, double* out, std::size_t n, double alpha);

/// out[i] = min(max(x[i], lo), hi), for lo <= hi, with min and max as in
/// Minimum and Maximum: NaN stays NaN, -0 < +0. For float elements the bounds
/// are first rounded to nearest (beyond the range: +-inf), for integer
/// elements rounded inward (lo up, hi down) and saturated to the element
/// type; if that makes lo > hi, the result is hi.
void Clip(const float* x, float* out, std::size_t n, double lo, double hi);
void Clip(const double* x, double* out, std::size_t n, double lo, double hi);
void Clip(const std::int32_t* x, std::int32_t* out, std::size_t n, double lo, double hi);
void Clip(const std::int64_t* x, std::int64_t* out, std::size_t n, double lo, double hi);

#undef OPGEN_BINARY_KERNEL
#undef OPGEN_UNARY_KERNEL

}  // namespace opgen::kernels
