// Softmax along one axis, over (outer, n, inner) blocks: for each o < outer
// and i < inner, the n elements x[(o * n + k) * inner + i] are replaced by
// exp(x - max) / sum(exp(x - max)). The max is subtracted first so large
// inputs do not overflow. out may be x (in place), otherwise they must not
// overlap. A row containing NaN or +inf gives NaN; a row of -inf gives NaN;
// n == 0 does nothing. Accuracy: each output p differs from the exact value
// by at most (4 + n + |x - max|) eps p + min_normal, eps and min_normal of
// the element type: |x - max| eps is the rounding of x - max, turned into a
// relative error by exp; min_normal because results below the normal range
// are flushed to 0 (denormals are slow, and kernels never set FTZ/DAZ).
#pragma once

#include <cstddef>

namespace opgen::kernels {

void Softmax(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner);
void Softmax(const double* x, double* out, std::size_t outer, std::size_t n, std::size_t inner);

// LogSoftmax over the same (outer, n, inner) blocks: y = (x - max) - ln(sum
// of e^(x - max)), computed directly (not as the log of Softmax), with
// Softmax's exp and float lanes of the element type for the sum. out may
// be x. NaN rows as Softmax. Accuracy: within (4 + n) eps max(1, |y|) of
// the exact value (x - max is exact or rounded relative to itself and
// |x - max| <= |y|; where y is near 0 the error is the sum's, absolute,
// and a sum of n terms added in order may carry n roundings).
void LogSoftmax(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner);
void LogSoftmax(const double* x, double* out, std::size_t outer, std::size_t n,
                std::size_t inner);

}  // namespace opgen::kernels
