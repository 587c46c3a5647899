// Matrix products (GEMM): c = a · b for an m×k matrix a and a k×n matrix b,
// each read through a row and a column stride (in elements), so transposed
// and sliced operands need no copy: element (i, p) of a is
// a[i * a_row + p * a_col]. c is m×n, row-major, rows `ldc` elements apart,
// and must not overlap a or b. k == 0 gives zeros.
//
// Float kernels pack blocks of b (kc×nc) unless b is row-major with rows
// of whole vectors under 4 KiB (read in place), and strips of a (mr×kc)
// unless a is row-major or transposed, into the workspace and run a
// register tile of mr rows × (2 or 3) vectors sized from the target's
// vector length (see
// matmul.cpp); they sum in a different order than a naive loop: each
// element differs from the exact dot product by at most about
// k·eps·Σ|a_ip·b_pj| (eps of the element type). Integer kernels wrap around
// on overflow, as integer ops elsewhere do. Also here: the transposing copy
// that packs a transposed b, for linalg.transpose and the other copies of
// the runtime that transpose, the reversing copy of shape.flip and the
// repeating fill of broadcasts.
#pragma once

#include <cstddef>
#include <cstdint>

namespace opgen::kernels {

/// Bytes of workspace (64-byte aligned) the float kernels need with
/// elements of `element_size` bytes (4 or 8) on the target that runs.
std::size_t GemmWorkspaceBytes(std::size_t element_size);

void Gemm(const float* a, std::ptrdiff_t a_row, std::ptrdiff_t a_col, const float* b,
          std::ptrdiff_t b_row, std::ptrdiff_t b_col, float* c, std::size_t ldc, std::size_t m,
          std::size_t n, std::size_t k, void* workspace);
void Gemm(const double* a, std::ptrdiff_t a_row, std::ptrdiff_t a_col, const double* b,
          std::ptrdiff_t b_row, std::ptrdiff_t b_col, double* c, std::size_t ldc, std::size_t m,
          std::size_t n, std::size_t k, void* workspace);
/// Integer products need no workspace (pass null).
void Gemm(const std::int32_t* a, std::ptrdiff_t a_row, std::ptrdiff_t a_col, const std::int32_t* b,
          std::ptrdiff_t b_row, std::ptrdiff_t b_col, std::int32_t* c, std::size_t ldc,
          std::size_t m, std::size_t n, std::size_t k, void* workspace);
void Gemm(const std::int64_t* a, std::ptrdiff_t a_row, std::ptrdiff_t a_col, const std::int64_t* b,
          std::ptrdiff_t b_row, std::ptrdiff_t b_col, std::int64_t* c, std::size_t ldc,
          std::size_t m, std::size_t n, std::size_t k, void* workspace);

/// The transposing copy dst[i * ld + j] = src[i + j * stride] for i < rows,
/// j < cols: the columns of src (rows apart by `stride` elements, which may
/// be negative) become the rows of dst, for 4- and 8-byte elements of any
/// type (bits are copied). Blocks of 4 × 4 (2 × 2) elements go through
/// 128-bit vectors, taken 16 source elements deep so that the lines read
/// and written stay in the L1 cache. src and dst must not overlap.
void Transpose(const std::uint32_t* src, std::ptrdiff_t stride, std::size_t rows, std::size_t cols,
               std::uint32_t* dst, std::size_t ld);
void Transpose(const std::uint64_t* src, std::ptrdiff_t stride, std::size_t rows, std::size_t cols,
               std::uint64_t* dst, std::size_t ld);

/// The reversing copy dst[i] = src[n - 1 - i] for i < n, for 4- and 8-byte
/// elements of any type (bits are copied), in whole vectors reversed in
/// their lanes. src and dst must not overlap.
void Reverse(const std::uint32_t* src, std::size_t n, std::uint32_t* dst);
void Reverse(const std::uint64_t* src, std::size_t n, std::uint64_t* dst);

/// The strided copy dst[i] = src[i * stride] for i < n, for 4- and 8-byte
/// elements of any type (bits are copied): the runs of shape.slice with a
/// step. Strides 2 to 4 go through whole vectors de-interleaved from
/// contiguous loads, which read nothing past src[(n - 1) * stride]; other
/// strides (negative included) copy element by element. src and dst must
/// not overlap.
void StridedCopy(const std::uint32_t* src, std::ptrdiff_t stride, std::size_t n,
                 std::uint32_t* dst);
void StridedCopy(const std::uint64_t* src, std::ptrdiff_t stride, std::size_t n,
                 std::uint64_t* dst);

/// dst[i] = value for i < n, for 4- and 8-byte elements of any type (bits
/// are copied): the broadcast copies of shape.broadcast_to and tile and the
/// repeated operands of broadcasting pointwise calls.
void Fill(std::uint32_t value, std::size_t n, std::uint32_t* dst);
void Fill(std::uint64_t value, std::size_t n, std::uint64_t* dst);

}  // namespace opgen::kernels
