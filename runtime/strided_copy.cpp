// copy_strided: an odometer over the outer dimensions and a tight loop over
// the innermost one, which is a memcpy when it is contiguous.
#include "strided_copy.hpp"

#include <cstring>

namespace opgen::detail {

namespace {

template <class T>
void copy_run(const char* src, std::int64_t n, std::int64_t stride, char* dst) {
  const T* s = reinterpret_cast<const T*>(src);
  T* d = reinterpret_cast<T*>(dst);
  if (stride == 0) {
    const T v = *s;
    for (std::int64_t i = 0; i < n; ++i) d[i] = v;
  } else {
    for (std::int64_t i = 0; i < n; ++i) d[i] = s[i * stride];
  }
}

}  // namespace

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
  std::int64_t index[kMaxCopyRank] = {};
  const int outer = rank - 1;
  for (;;) {
    if (inner == 1) {
      std::memcpy(out, in, static_cast<std::size_t>(n * es));
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
