// The Tensor-level adapter of math.dot, a `custom`-kind op: the wrapper has
// checked that x and y are vectors of one length and dtype and allocated the
// scalar z.
#include <cstddef>
#include <cstdint>

#include "builtin_kernels.hpp"
#include "opgen/detail/checks.hpp"

namespace opgen::kernels {

namespace {

template <typename T>
void dot_of(const Tensor& x, const Tensor& y, Tensor& z) {
  const auto n = static_cast<std::size_t>(x.length());
  z.data<T>()[0] = Dot(x.data<T>(), y.data<T>(), n);
}

}  // namespace

void Dot(const Tensor& x, const Tensor& y, Tensor& z) {
  switch (x.dtype()) {
    case DType::float32:
      return dot_of<float>(x, y, z);
    case DType::float64:
      return dot_of<double>(x, y, z);
    case DType::int32:
      return dot_of<std::int32_t>(x, y, z);
    case DType::int64:
      return dot_of<std::int64_t>(x, y, z);
    default:
      detail::require_type("math.dot", "x", x, detail::TypeClass::numeric);  // throws
  }
}

}  // namespace opgen::kernels
