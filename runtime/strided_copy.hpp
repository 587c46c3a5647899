// Data movement of the shape and linalg ops: copies a strided view of one
// tensor's elements into contiguous storage, whatever the dtype.
#pragma once

#include <cstddef>
#include <cstdint>

namespace opgen::detail {

/// The most dimensions a copy may walk (tile views a tensor of rank r as 2r).
inline constexpr int kMaxCopyRank = 16;

/// Writes dst[i] for every index (i_0, ..., i_{rank-1}) of `sizes`, in
/// row-major order, from the element at
/// src + Σ_d i_d · strides[d] (strides in elements, possibly 0 or negative).
/// Elements are `element_size` bytes (1, 4 or 8). rank <= kMaxCopyRank;
/// rank 0 copies one element. dst must not overlap what is read.
void copy_strided(const void* src, const std::int64_t* sizes, const std::int64_t* strides, int rank,
                  void* dst, std::size_t element_size);

/// dst[i] = *value for i < n, elements of `element_size` bytes (1, 4 or 8),
/// in SIMD vectors.
void fill_copies(const void* value, std::size_t n, void* dst, std::size_t element_size);

/// The row-major strides (in elements) of a tensor with these sizes.
void contiguous_strides(const std::int64_t* sizes, int rank, std::int64_t* strides);

}  // namespace opgen::detail
