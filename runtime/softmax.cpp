// The Tensor-level adapter of nn.softmax, a `custom`-kind op: the wrapper
// has checked x and allocated y; this picks the axis and runs the Highway
// kernel over (outer, n, inner) blocks.
#include "builtin_kernels.hpp"
#include "opgen/detail/checks.hpp"
#include "opgen/detail/drivers.hpp"

namespace opgen::kernels {

void Softmax(const Tensor& x, std::int64_t dim, Tensor& y) {
  const std::int64_t axis = detail::normalize_dim("nn.softmax", "dim", dim, x.rank(), "x");
  // The explicit element type picks the pointer overload of Softmax.
  switch (x.dtype()) {
    case DType::float32:
      return detail::along_axis<float>(x, axis, y, &Softmax);
    case DType::float64:
      return detail::along_axis<double>(x, axis, y, &Softmax);
    default:
      detail::require_type("nn.softmax", "x", x, detail::TypeClass::float_);  // throws
  }
}

}  // namespace opgen::kernels
