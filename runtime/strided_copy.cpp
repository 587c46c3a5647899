// copy_strided: an odometer over the outer dimensions and a tight loop over
// the innermost one, which is a memcpy when it is contiguous and a vector
// kernel when it runs backwards (shape.flip) or forwards with a step
// (shape.slice); a copy that transposes goes plane by plane through a
// blocked transpose instead.
#include "strided_copy.hpp"

#include <algorithm>
#include <cstring>

#include "kernels/matmul.hpp"

namespace opgen::detail {

namespace {

template <class T>
void copy_run(const char* src, std::int64_t n, std::int64_t stride, char* dst) {
  const T* s = reinterpret_cast<const T*>(src);
  T* d = reinterpret_cast<T*>(dst);
  if (stride == 0) {
    fill_copies(s, static_cast<std::size_t>(n), d, sizeof(T));
  } else {
    for (std::int64_t i = 0; i < n; ++i) d[i] = s[i * stride];
  }
}

// One plane of a transposing copy: dst[i * ld + j] = src[i + j * stride]
// for i < rows, j < cols. 4- and 8-byte elements go to the vector kernel;
// bytes (bool) in blocks of 64 × 64, whose lines read and written both stay
// in the L1 cache.
void transpose_plane(const char* src, std::int64_t stride, std::int64_t rows, std::int64_t cols,
                     char* dst, std::int64_t ld, std::size_t element_size) {
  const auto r = static_cast<std::size_t>(rows);
  const auto c = static_cast<std::size_t>(cols);
  const auto l = static_cast<std::size_t>(ld);
  if (element_size == 4) {
    kernels::Transpose(reinterpret_cast<const std::uint32_t*>(src), stride, r, c,
                       reinterpret_cast<std::uint32_t*>(dst), l);
  } else if (element_size == 8) {
    kernels::Transpose(reinterpret_cast<const std::uint64_t*>(src), stride, r, c,
                       reinterpret_cast<std::uint64_t*>(dst), l);
  } else {
    constexpr std::int64_t kBlock = 64;
    for (std::int64_t i0 = 0; i0 < rows; i0 += kBlock) {
      const std::int64_t i1 = std::min(rows, i0 + kBlock);
      for (std::int64_t j0 = 0; j0 < cols; j0 += kBlock) {
        const std::int64_t j1 = std::min(cols, j0 + kBlock);
        for (std::int64_t i = i0; i < i1; ++i) {
          for (std::int64_t j = j0; j < j1; ++j) dst[i * ld + j] = src[i + j * stride];
        }
      }
    }
  }
}

// A copy whose run (the last dimension) is strided while an outer dimension
// `c` is contiguous in src: a transpose. Read run by run, every element
// would come from another cache line (and, 4 KiB apart or more, from lines
// that share an L1 set, or another page): 1.9-2.6 ns per float in
// linalg.transpose of [64, 1024] and [512, 1024]. So each plane of c × the
// run, for every index of the other dimensions, is one transpose_plane.
void transposing_copy(const char* src, const std::int64_t* sizes, const std::int64_t* strides,
                      int rank, int c, char* dst, std::size_t element_size) {
  const auto es = static_cast<std::int64_t>(element_size);
  std::int64_t dst_strides[kMaxCopyRank];
  contiguous_strides(sizes, rank, dst_strides);
  // The other dimensions, counted by an odometer.
  int other[kMaxCopyRank];
  int count = 0;
  for (int d = 0; d < rank - 1; ++d) {
    if (d != c) other[count++] = d;
  }
  std::int64_t index[kMaxCopyRank] = {};
  std::int64_t in = 0;
  std::int64_t out = 0;
  for (;;) {
    transpose_plane(src + in * es, strides[rank - 1], sizes[c], sizes[rank - 1], dst + out * es,
                    dst_strides[c], element_size);
    int k = count - 1;
    for (; k >= 0; --k) {
      const int d = other[k];
      in += strides[d];
      out += dst_strides[d];
      if (++index[k] < sizes[d]) break;
      in -= strides[d] * sizes[d];
      out -= dst_strides[d] * sizes[d];
      index[k] = 0;
    }
    if (k < 0) return;
  }
}

}  // namespace

void fill_copies(const void* value, std::size_t n, void* dst, std::size_t element_size) {
  if (element_size == 4) {
    std::uint32_t v;
    std::memcpy(&v, value, 4);
    kernels::Fill(v, n, static_cast<std::uint32_t*>(dst));
  } else if (element_size == 8) {
    std::uint64_t v;
    std::memcpy(&v, value, 8);
    kernels::Fill(v, n, static_cast<std::uint64_t*>(dst));
  } else {
    std::memset(dst, *static_cast<const unsigned char*>(value), n);
  }
}

void contiguous_strides(const std::int64_t* sizes, int rank, std::int64_t* strides) {
  std::int64_t s = 1;
  for (int d = rank - 1; d >= 0; --d) {
    strides[d] = s;
    s *= sizes[d];
  }
}

void copy_strided(const void* src, const std::int64_t* sizes, const std::int64_t* strides, int rank,
                  void* dst, std::size_t element_size) {
  const auto es = static_cast<std::int64_t>(element_size);
  for (int d = 0; d < rank; ++d) {
    if (sizes[d] == 0) return;
  }
  const char* in = static_cast<const char*>(src);
  char* out = static_cast<char*>(dst);
  if (rank == 0) {
    std::memcpy(out, in, element_size);
    return;
  }
  // Dimensions 0 .. rank-2 are counted by the odometer; the last one is a run.
  const std::int64_t n = sizes[rank - 1];
  const std::int64_t inner = strides[rank - 1];
  if (inner != 1 && inner != 0 && n > 1) {
    for (int c = rank - 2; c >= 0; --c) {
      if (strides[c] == 1 && sizes[c] > 1) {
        transposing_copy(in, sizes, strides, rank, c, out, element_size);
        return;
      }
    }
  }
  // Runs of strides 2 to 4 go to the vector kernel when they are long
  // enough to fill a few vectors; other strides, and short runs (an
  // indirect call per run of one or two elements would cost more than
  // the copy), element by element.
  const bool vector_strides = inner >= 2 && inner <= 4 && n >= 16;
  std::int64_t index[kMaxCopyRank] = {};
  const int outer = rank - 1;
  for (;;) {
    if (inner == 1) {
      std::memcpy(out, in, static_cast<std::size_t>(n * es));
    } else if (inner == -1 && element_size == 8) {
      kernels::Reverse(reinterpret_cast<const std::uint64_t*>(in) - (n - 1),
                       static_cast<std::size_t>(n), reinterpret_cast<std::uint64_t*>(out));
    } else if (inner == -1 && element_size == 4) {
      kernels::Reverse(reinterpret_cast<const std::uint32_t*>(in) - (n - 1),
                       static_cast<std::size_t>(n), reinterpret_cast<std::uint32_t*>(out));
    } else if (vector_strides && element_size == 8) {
      kernels::StridedCopy(reinterpret_cast<const std::uint64_t*>(in), inner,
                           static_cast<std::size_t>(n), reinterpret_cast<std::uint64_t*>(out));
    } else if (vector_strides && element_size == 4) {
      kernels::StridedCopy(reinterpret_cast<const std::uint32_t*>(in), inner,
                           static_cast<std::size_t>(n), reinterpret_cast<std::uint32_t*>(out));
    } else if (element_size == 8) {
      copy_run<std::uint64_t>(in, n, inner, out);
    } else if (element_size == 4) {
      copy_run<std::uint32_t>(in, n, inner, out);
    } else {
      copy_run<std::uint8_t>(in, n, inner, out);
    }
    out += n * es;
    int d = outer - 1;
    for (; d >= 0; --d) {
      in += strides[d] * es;
      if (++index[d] < sizes[d]) break;
      in -= strides[d] * sizes[d] * es;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace opgen::detail
