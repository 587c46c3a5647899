// The Tensor-level adapters of the linalg namespace (`custom`-kind ops): the
// wrappers have checked dtypes and ranks and allocated the outputs; these
// work out strides and batches, and run the kernels or copy elements.
#include <hwy/aligned_allocator.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "builtin_kernels.hpp"
#include "opgen/detail/checks.hpp"
#include "strided_copy.hpp"

namespace opgen::kernels {

namespace {

// One operand of a product as the GEMM kernel reads it: element (i, p) at
// data + i * row + p * col, and `batch[d]` elements between consecutive
// indices of output batch dimension d (0 where the operand is broadcast).
struct Operand {
  std::ptrdiff_t row = 0, col = 0;
  std::int64_t batch[kMaxRank] = {};
};

// The packing workspace of the float kernels, one per thread, allocated on
// the first float product and kept: a fresh half-megabyte per call would
// cost more than a small product.
void* workspace(std::size_t element_size) {
  thread_local hwy::AlignedFreeUniquePtr<std::uint8_t[]> buffer;
  thread_local std::size_t bytes = 0;
  const std::size_t need = GemmWorkspaceBytes(element_size);
  if (bytes < need) {
    buffer = hwy::AllocateAligned<std::uint8_t>(need);
    bytes = need;
  }
  return buffer.get();
}

// Batch strides of `t` (whose last `matrix_rank` dimensions form one matrix
// of `matrix` elements) against the output's `nb` batch dimensions.
void batch_strides(const Shape& s, int matrix_rank, std::int64_t matrix, int nb,
                   std::int64_t* out) {
  const int tb = s.rank() - matrix_rank;
  std::int64_t stride = matrix;
  for (int d = nb - 1; d >= 0; --d) {
    const int j = d - (nb - tb);
    if (j < 0 || s[j] == 1) {
      out[d] = 0;
    } else {
      out[d] = stride;
    }
    if (j >= 0) stride *= s[j];
  }
}

template <class T>
void matmul_typed(const Tensor& a, const Tensor& b, bool trans_a, bool trans_b, Tensor& c) {
  const Shape& sa = a.shape();
  const Shape& sb = b.shape();
  const int ra = sa.rank();
  const int rb = sb.rank();
  Operand A, B;
  std::int64_t m = 1, k = 0, n = 1;
  if (ra >= 2) {
    const std::int64_t rows = sa[ra - 2], cols = sa[ra - 1];
    m = trans_a ? cols : rows;
    k = trans_a ? rows : cols;
    A.row = trans_a ? 1 : cols;
    A.col = trans_a ? cols : 1;
  } else {
    k = sa[0];
    A.col = 1;
  }
  if (rb >= 2) {
    const std::int64_t rows = sb[rb - 2], cols = sb[rb - 1];
    n = trans_b ? rows : cols;
    B.row = trans_b ? 1 : cols;
    B.col = trans_b ? cols : 1;
  } else {
    B.row = 1;
  }
  const int nb = c.rank() - (ra >= 2 ? 1 : 0) - (rb >= 2 ? 1 : 0);
  batch_strides(sa, std::min(ra, 2), m * k, nb, A.batch);
  batch_strides(sb, std::min(rb, 2), k * n, nb, B.batch);
  std::int64_t batches = 1;
  for (int d = 0; d < nb; ++d) batches *= c.shape()[d];

  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  T* pc = c.data<T>();
  void* work = std::is_floating_point_v<T> ? workspace(sizeof(T)) : nullptr;
  // A batch of row-major matrices times one shared matrix is one tall
  // product: the kernel packs b once instead of once per batch.
  bool a_whole = !trans_a && ra >= 2;
  bool b_shared = true;
  for (int d = 0; d < nb; ++d) {
    a_whole = a_whole && (A.batch[d] != 0 || c.shape()[d] == 1);
    b_shared = b_shared && B.batch[d] == 0;
  }
  if (a_whole && b_shared && batches > 1) {
    m *= batches;
    batches = 1;
  }
  if (m == 0 || n == 0) return;
  std::int64_t index[kMaxRank] = {};
  std::ptrdiff_t offset_a = 0, offset_b = 0;
  for (std::int64_t t = 0; t < batches; ++t) {
    Gemm(pa + offset_a, A.row, A.col, pb + offset_b, B.row, B.col, pc + t * m * n,
         static_cast<std::size_t>(n), static_cast<std::size_t>(m), static_cast<std::size_t>(n),
         static_cast<std::size_t>(k), work);
    for (int d = nb - 1; d >= 0; --d) {
      offset_a += A.batch[d];
      offset_b += B.batch[d];
      if (++index[d] < c.shape()[d]) break;
      offset_a -= A.batch[d] * index[d];
      offset_b -= B.batch[d] * index[d];
      index[d] = 0;
    }
  }
}

template <class F>
void with_numeric_type(DType t, F&& f) {
  switch (t) {
    case DType::float32:
      return f(float{});
    case DType::float64:
      return f(double{});
    case DType::int32:
      return f(std::int32_t{});
    case DType::int64:
      return f(std::int64_t{});
    case DType::bool_:
      break;  // rejected by the wrappers
  }
}

// Integer arithmetic that wraps around instead of overflowing.
template <class T>
T wrapping_mul(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(x) * static_cast<U>(y));
  } else {
    return x * y;
  }
}

template <class T>
T wrapping_add(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(x) + static_cast<U>(y));
  } else {
    return x + y;
  }
}

// Length of diagonal `offset` of a rows × cols matrix, and the index of its
// first element.
std::int64_t diagonal(std::int64_t rows, std::int64_t cols, std::int64_t offset,
                      std::int64_t& first) {
  // An offset past the matrix gives no elements; -offset and -offset * cols
  // are computed only inside it, where they cannot overflow.
  first = 0;
  if (offset >= 0) {
    if (offset >= cols) return 0;
    first = offset;
    return std::min(rows, cols - offset);
  }
  if (offset <= -rows) return 0;
  first = -offset * cols;
  return std::min(rows + offset, cols);
}

}  // namespace

void Matmul(const Tensor& a, const Tensor& b, bool trans_a, bool trans_b, Tensor& c) {
  if (c.shares_storage(a) || c.shares_storage(b)) {
    // An out tensor that is also an operand would be overwritten while read.
    Tensor result = Tensor::empty(c.shape(), c.dtype());
    Matmul(a, b, trans_a, trans_b, result);
    std::memcpy(c.raw_data(), result.raw_data(), result.nbytes());
    return;
  }
  with_numeric_type(a.dtype(),
                    [&](auto v) { matmul_typed<decltype(v)>(a, b, trans_a, trans_b, c); });
}

Shape TransposeShape(const Tensor& x, Span<std::int64_t> dims) {
  const int rank = x.rank();
  Shape out;
  if (dims.empty()) {
    for (int d = rank - 1; d >= 0; --d) out.push_back(x.shape()[d]);
    return out;
  }
  if (dims.size() != static_cast<std::size_t>(rank)) {
    throw Error("linalg.transpose", "dims",
                "dims must list each of x's " + std::to_string(rank) + " dimensions once, got " +
                    detail::show(dims));
  }
  bool seen[kMaxRank] = {};
  for (std::int64_t d : dims) {
    const std::int64_t j = detail::normalize_dim("linalg.transpose", "dims", d, rank, "x");
    if (rank == 0 || seen[j]) {
      throw Error("linalg.transpose", "dims",
                  "dims must be a permutation of x's dimensions, got " + detail::show(dims));
    }
    seen[j] = true;
    out.push_back(x.shape()[static_cast<int>(j)]);
  }
  return out;
}

void Transpose(const Tensor& x, Span<std::int64_t> dims, Tensor& y) {
  const int rank = x.rank();
  std::int64_t strides[kMaxRank], sizes[kMaxRank], permuted[kMaxRank];
  detail::contiguous_strides(x.shape().data(), rank, strides);
  for (int i = 0; i < rank; ++i) {
    const int j =
        dims.empty()
            ? rank - 1 - i
            : static_cast<int>(detail::normalize_dim("linalg.transpose", "dims",
                                                     dims[static_cast<std::size_t>(i)], rank, "x"));
    sizes[i] = x.shape()[j];
    permuted[i] = strides[j];
  }
  if (x.shares_storage(y)) {
    const Tensor copy = x.clone();
    detail::copy_strided(copy.raw_data(), sizes, permuted, rank, y.raw_data(),
                         dtype_size(x.dtype()));
    return;
  }
  detail::copy_strided(x.raw_data(), sizes, permuted, rank, y.raw_data(), dtype_size(x.dtype()));
}

Shape OuterShape(const Tensor& x, const Tensor& y) { return Shape{x.length(), y.length()}; }

void Outer(const Tensor& x, const Tensor& y, Tensor& z) {
  with_numeric_type(x.dtype(), [&](auto v) {
    using T = decltype(v);
    // Copies first: z may be an out tensor sharing storage with x or y.
    const std::vector<T> xs = x.to_vector<T>();
    const std::vector<T> ys = y.to_vector<T>();
    T* out = z.data<T>();
    for (const T xi : xs) {
      for (const T yj : ys) *out++ = wrapping_mul(xi, yj);
    }
  });
}

Shape TraceShape(const Tensor& x, std::int64_t) {
  return Shape(x.shape().dims().first(static_cast<std::size_t>(x.rank() - 2)));
}

void Trace(const Tensor& x, std::int64_t offset, Tensor& y) {
  const std::int64_t rows = x.shape()[x.rank() - 2];
  const std::int64_t cols = x.shape()[x.rank() - 1];
  std::int64_t first = 0;
  const std::int64_t count = diagonal(rows, cols, offset, first);
  with_numeric_type(x.dtype(), [&](auto v) {
    using T = decltype(v);
    const T* in = x.data<T>();
    T* out = y.data<T>();
    for (std::int64_t t = 0; t < y.length(); ++t) {
      const T* m = in + t * rows * cols + first;
      T sum = 0;
      for (std::int64_t i = 0; i < count; ++i) sum = wrapping_add(sum, m[i * (cols + 1)]);
      out[t] = sum;
    }
  });
}

Shape DiagShape(const Tensor& x, std::int64_t offset) {
  if (x.rank() == 1) {
    // n + |offset| must not overflow (nor |offset| itself); a side whose
    // square overflows is rejected when the output is allocated.
    std::int64_t side = 0;
    if (offset == std::numeric_limits<std::int64_t>::min() ||
        __builtin_add_overflow(x.shape()[0], offset < 0 ? -offset : offset, &side)) {
      throw Error("linalg.diag", "offset",
                  "offset " + std::to_string(offset) + " gives a matrix too large to represent");
    }
    return Shape{side, side};
  }
  std::int64_t first = 0;
  return Shape{diagonal(x.shape()[0], x.shape()[1], offset, first)};
}

void Diag(const Tensor& x, std::int64_t offset, Tensor& y) {
  const std::size_t es = dtype_size(x.dtype());
  if (x.rank() == 2) {
    std::int64_t first = 0;
    const std::int64_t count = diagonal(x.shape()[0], x.shape()[1], offset, first);
    const std::int64_t stride = x.shape()[1] + 1;
    const Tensor source = x.shares_storage(y) ? x.clone() : x;
    detail::copy_strided(
        static_cast<const char*>(source.raw_data()) + first * static_cast<std::int64_t>(es), &count,
        &stride, 1, y.raw_data(), es);
    return;
  }
  const Tensor source = x.shares_storage(y) ? x.clone() : x;
  const std::int64_t side = y.shape()[0];
  std::memset(y.raw_data(), 0, y.nbytes());
  const std::int64_t row0 = offset < 0 ? -offset : 0;
  const std::int64_t col0 = offset > 0 ? offset : 0;
  const char* in = static_cast<const char*>(source.raw_data());
  char* out = static_cast<char*>(y.raw_data());
  for (std::int64_t i = 0; i < x.shape()[0]; ++i) {
    std::memcpy(out + ((row0 + i) * side + col0 + i) * static_cast<std::int64_t>(es),
                in + i * static_cast<std::int64_t>(es), es);
  }
}

}  // namespace opgen::kernels
