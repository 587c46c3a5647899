// Reduction kernels over (outer, n, inner) blocks: for o < outer, i < inner,
// out[o * inner + i] reduces x[(o * n + k) * inner + i] over k < n.
// inner == 1 is the contiguous case (one row per output); inner > 1 reduces
// across rows. x and out must not overlap. Vectorised sums associate
// differently from a sequential loop (and differently per SIMD target): a
// float Sum differs from the exact sum by at most n eps sum|x| (eps: machine
// epsilon of the element type), a Mean by (n + 1) eps sum|x| / n, a float
// Prod by n eps |prod|, a Norm2 by (n / 2 + 1) eps norm. ReduceMax and
// integer sums and products are exact, hence identical on every target.
#pragma once

#include <cstddef>
#include <cstdint>

namespace opgen::kernels {

/// Sum; 0 when n == 0. Integers wrap around.
void Sum(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner);
void Sum(const double* x, double* out, std::size_t outer, std::size_t n, std::size_t inner);
void Sum(const std::int32_t* x, std::int32_t* out, std::size_t outer, std::size_t n,
         std::size_t inner);
void Sum(const std::int64_t* x, std::int64_t* out, std::size_t outer, std::size_t n,
         std::size_t inner);

/// Arithmetic mean; NaN when n == 0.
void Mean(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner);
void Mean(const double* x, double* out, std::size_t outer, std::size_t n, std::size_t inner);

/// Maximum; NaN if any element is NaN; -inf (floats) or the lowest value
/// (integers) when n == 0; -0 < +0.
void ReduceMax(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner);
void ReduceMax(const double* x, double* out, std::size_t outer, std::size_t n, std::size_t inner);
void ReduceMax(const std::int32_t* x, std::int32_t* out, std::size_t outer, std::size_t n,
               std::size_t inner);
void ReduceMax(const std::int64_t* x, std::int64_t* out, std::size_t outer, std::size_t n,
               std::size_t inner);

/// Product; 1 when n == 0. Integers wrap around.
void Prod(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner);
void Prod(const double* x, double* out, std::size_t outer, std::size_t n, std::size_t inner);
void Prod(const std::int32_t* x, std::int32_t* out, std::size_t outer, std::size_t n,
          std::size_t inner);
void Prod(const std::int64_t* x, std::int64_t* out, std::size_t outer, std::size_t n,
          std::size_t inner);

/// Euclidean norm sqrt(sum x^2); 0 when n == 0; NaN if any element is NaN,
/// else +inf if any is infinite. Results whose squares would overflow or
/// underflow are recomputed with scaling (a scalar loop, the same on every
/// target), so the bound below holds for every finite input.
void Norm2(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner);
void Norm2(const double* x, double* out, std::size_t outer, std::size_t n, std::size_t inner);

}  // namespace opgen::kernels
