// Reductions that need more than reduce.hpp's one accumulator of the input
// type per result: the index of the extreme element (value and index per
// lane), all/any (bool results), variance (two passes), the dot product of
// two vectors, and the running sum (one output per input).
//
// The (outer, n, inner) layout is reduce.hpp's: for o < outer, i < inner,
// out[o * inner + i] comes from x[(o * n + k) * inner + i], k < n. x and out
// must not overlap, except for Cumsum (out may be x).
//
// Accuracy (eps: machine epsilon of the element type): Argmax, Argmin, All
// and Any are exact, and Cumsum adds in one fixed order, so these are
// identical on every SIMD target; Var is within (n + 3) eps var +
// 2 n eps^2 mean^2 of the exact variance, Std within ((n + 3) / 2 + 1) eps
// std + sqrt(2 n) eps |mean|; a float Dot within n eps sum|x y| of the exact
// value. Integer Dot and Cumsum wrap.
#pragma once

#include <cstddef>
#include <cstdint>

namespace opgen::kernels {

/// Index k < n of the largest (Argmax) or smallest (Argmin) element; the
/// first one on ties; the first NaN if there is one (NaN ranks above
/// everything for Argmax and below everything for Argmin); -0 equals +0;
/// -1 when n == 0.
void Argmax(const float* x, std::int64_t* out, std::size_t outer, std::size_t n, std::size_t inner);
void Argmax(const double* x, std::int64_t* out, std::size_t outer, std::size_t n,
            std::size_t inner);
void Argmax(const std::int32_t* x, std::int64_t* out, std::size_t outer, std::size_t n,
            std::size_t inner);
void Argmax(const std::int64_t* x, std::int64_t* out, std::size_t outer, std::size_t n,
            std::size_t inner);
void Argmin(const float* x, std::int64_t* out, std::size_t outer, std::size_t n, std::size_t inner);
void Argmin(const double* x, std::int64_t* out, std::size_t outer, std::size_t n,
            std::size_t inner);
void Argmin(const std::int32_t* x, std::int64_t* out, std::size_t outer, std::size_t n,
            std::size_t inner);
void Argmin(const std::int64_t* x, std::int64_t* out, std::size_t outer, std::size_t n,
            std::size_t inner);

/// True when every element (All) or some element (Any) is nonzero; NaN is
/// nonzero, -0 is zero. All of nothing is true, Any of nothing false.
void All(const float* x, bool* out, std::size_t outer, std::size_t n, std::size_t inner);
void All(const double* x, bool* out, std::size_t outer, std::size_t n, std::size_t inner);
void All(const std::int32_t* x, bool* out, std::size_t outer, std::size_t n, std::size_t inner);
void All(const std::int64_t* x, bool* out, std::size_t outer, std::size_t n, std::size_t inner);
void All(const bool* x, bool* out, std::size_t outer, std::size_t n, std::size_t inner);
void Any(const float* x, bool* out, std::size_t outer, std::size_t n, std::size_t inner);
void Any(const double* x, bool* out, std::size_t outer, std::size_t n, std::size_t inner);
void Any(const std::int32_t* x, bool* out, std::size_t outer, std::size_t n, std::size_t inner);
void Any(const std::int64_t* x, bool* out, std::size_t outer, std::size_t n, std::size_t inner);
void Any(const bool* x, bool* out, std::size_t outer, std::size_t n, std::size_t inner);

/// Variance sum((x - mean)^2) / (n - ddof), from two passes (the mean, then
/// the deviations, corrected by their rounded sum); contiguous float32 rows
/// past 8192 elements block by block, the blocks merged in float64; NaN when
/// n <= ddof. Std is its square root.
void Var(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner,
         std::int64_t ddof);
void Var(const double* x, double* out, std::size_t outer, std::size_t n, std::size_t inner,
         std::int64_t ddof);
void Std(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner,
         std::int64_t ddof);
void Std(const double* x, double* out, std::size_t outer, std::size_t n, std::size_t inner,
         std::int64_t ddof);

/// sum(x[k] * y[k]) over k < n; 0 when n == 0. Integers wrap around.
float Dot(const float* x, const float* y, std::size_t n);
double Dot(const double* x, const double* y, std::size_t n);
std::int32_t Dot(const std::int32_t* x, const std::int32_t* y, std::size_t n);
std::int64_t Dot(const std::int64_t* x, const std::int64_t* y, std::size_t n);

/// Running sum along n: out[o, k, i] = x[o, 0, i] + ... + x[o, k, i], in an
/// order that does not depend on the SIMD target, so every target gives the
/// same bits. Down a column (inner > 1): index order starting from
/// x[o, 0, i] itself (numpy's add.accumulate). Along a contiguous row
/// (inner == 1): groups of 16 bytes (4 float32/int32, 2 float64/int64),
/// each scanned within itself, s = [a, a+b, a+(b+c), (a+b)+(c+d)] (or
/// [a, a+b]), and out = C + s with C the previous group's last output, -0
/// before the first group. Both keep a leading -0. Within k eps sum|x| of
/// the exact running sum. out may be x. Integers wrap around.
void Cumsum(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner);
void Cumsum(const double* x, double* out, std::size_t outer, std::size_t n, std::size_t inner);
void Cumsum(const std::int32_t* x, std::int32_t* out, std::size_t outer, std::size_t n,
            std::size_t inner);
void Cumsum(const std::int64_t* x, std::int64_t* out, std::size_t outer, std::size_t n,
            std::size_t inner);

}  // namespace opgen::kernels
