// Row normalisations and the bias addition of nn (layer_norm, rms_norm,
// bias_add), over contiguous arrays. out may be x (in place); otherwise x,
// out, weight and bias must not overlap.
//
// LayerNorm: each of the `rows` rows of n elements becomes
// (x - mean) / sqrt(var + eps), times weight[k] and plus bias[k] when they
// are not null; var is the population variance. RmsNorm: x / sqrt(mean(x^2)
// + eps), times weight[k]. float32 rows: one pass for the statistics, the
// sums of d = x - x[0] (layer_norm; 0 for rms_norm) and of d^2, blocks of
// 16 vectors summed in float and the block sums in float64 lanes; rows
// whose float d^2 would overflow or fall below FLT_MIN take the float64
// path instead. float64 rows: the mean, then the sums of d = x - mean and
// d^2, the first correcting the mean (the corrected two-pass algorithm).
// The output pass runs in the element type with the mean split into two T
// parts, so a row far from 0 keeps its accuracy. layer_norm of a row
// containing NaN or an infinity gives NaN; rms_norm gives NaN for NaN rows
// and x / inf (0, or NaN at the infinities) for rows with an infinity;
// eps == 0 and a constant row give NaN (0 / 0), as the scalar formula does.
//
// Accuracy (eps_T: machine epsilon of T; z = (x - mean) / sqrt(var + eps)
// the exact normalised value, w = 1 and b = 0 when absent): each output is
// within 4 eps_T ((1 + |z|) |w| + |b|) + min_normal of the exact result
// (measured at most 1.7 for float32, 2.8 for float64, on every SIMD target:
// tests/kernels/normalize_test.cpp).
//
// BiasAdd over (outer, n, inner) blocks: out[(o n + c) inner + i] =
// x[(o n + c) inner + i] + b[c]. Exact (one rounded addition).
#pragma once

#include <cstddef>

namespace opgen::kernels {

void LayerNorm(const float* x, float* out, std::size_t rows, std::size_t n, const float* weight,
               const float* bias, double eps);
void LayerNorm(const double* x, double* out, std::size_t rows, std::size_t n,
               const double* weight, const double* bias, double eps);
void RmsNorm(const float* x, float* out, std::size_t rows, std::size_t n, const float* weight,
             double eps);
void RmsNorm(const double* x, double* out, std::size_t rows, std::size_t n, const double* weight,
             double eps);
void BiasAdd(const float* x, const float* b, float* out, std::size_t outer, std::size_t n,
             std::size_t inner);
void BiasAdd(const double* x, const double* b, double* out, std::size_t outer, std::size_t n,
             std::size_t inner);

}  // namespace opgen::kernels
