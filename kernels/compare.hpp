// Kernels with bool operands or results: comparisons, NaN/infinity tests,
// logical ops on bool tensors, and the select of `where`. All exact, hence
// identical on every target. A bool element is one byte holding 0 or 1
// (any nonzero byte reads as true). Pointers of one type may alias exactly
// (out == x); n may be 0.
#pragma once

#include <cstddef>
#include <cstdint>

namespace opgen::kernels {

// clang-format off
#define OPGEN_COMPARE_KERNEL(Name)                                                    \
  void Name(const float* x, const float* y, bool* out, std::size_t n);               \
  void Name(const double* x, const double* y, bool* out, std::size_t n);             \
  void Name(const std::int32_t* x, const std::int32_t* y, bool* out, std::size_t n); \
  void Name(const std::int64_t* x, const std::int64_t* y, bool* out, std::size_t n);
// clang-format on

/// out[i] = x[i] == y[i], x[i] != y[i], x[i] < y[i], ...: IEEE comparisons,
/// so every comparison with a NaN is false except !=, and -0 == +0.
OPGEN_COMPARE_KERNEL(Equal)
OPGEN_COMPARE_KERNEL(NotEqual)
OPGEN_COMPARE_KERNEL(Less)
OPGEN_COMPARE_KERNEL(LessEqual)
OPGEN_COMPARE_KERNEL(Greater)
OPGEN_COMPARE_KERNEL(GreaterEqual)

#undef OPGEN_COMPARE_KERNEL

/// out[i] = x[i] == y[i], x[i] != y[i] on bools as truth values: bytes 2
/// and 1 are equal (both true). Results are 0 or 1.
void Equal(const bool* x, const bool* y, bool* out, std::size_t n);
void NotEqual(const bool* x, const bool* y, bool* out, std::size_t n);

/// out[i] = x[i] is NaN.
void Isnan(const float* x, bool* out, std::size_t n);
void Isnan(const double* x, bool* out, std::size_t n);

/// out[i] = x[i] is +inf or -inf.
void Isinf(const float* x, bool* out, std::size_t n);
void Isinf(const double* x, bool* out, std::size_t n);

/// out[i] = x[i] && y[i], x[i] || y[i], !x[i].
void LogicalAnd(const bool* x, const bool* y, bool* out, std::size_t n);
void LogicalOr(const bool* x, const bool* y, bool* out, std::size_t n);
void LogicalNot(const bool* x, bool* out, std::size_t n);

/// out[i] = cond[i] ? x[i] : y[i] (bit copies: NaN payloads and signed
/// zeros pass unchanged). out may equal x or y.
void Where(const bool* cond, const float* x, const float* y, float* out, std::size_t n);
void Where(const bool* cond, const double* x, const double* y, double* out, std::size_t n);
void Where(const bool* cond, const std::int32_t* x, const std::int32_t* y, std::int32_t* out,
           std::size_t n);
void Where(const bool* cond, const std::int64_t* x, const std::int64_t* y, std::int64_t* out,
           std::size_t n);
/// The bool select writes 0 or 1 (a nonzero byte of x or y is true) rather
/// than copying the byte.
void Where(const bool* cond, const bool* x, const bool* y, bool* out, std::size_t n);

}  // namespace opgen::kernels
