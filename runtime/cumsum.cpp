// The Tensor-level adapter of math.cumsum, a `custom`-kind op: the wrapper
// has checked x and allocated y; this picks the axis and runs the Highway
// kernel over (outer, n, inner) blocks.
#include <cstdint>

#include "builtin_kernels.hpp"
#include "opgen/detail/checks.hpp"
#include "opgen/detail/drivers.hpp"

namespace opgen::kernels {

void Cumsum(const Tensor& x, std::int64_t dim, Tensor& y) {
  constexpr const char* kOp = "math.cumsum";
  const std::int64_t axis = detail::normalize_dim(kOp, "dim", dim, x.rank(), "x");
  // The explicit element type picks the pointer overload of Cumsum.
  switch (x.dtype()) {
    case DType::float32:
      return detail::along_axis<float>(x, axis, y, &Cumsum);
    case DType::float64:
      return detail::along_axis<double>(x, axis, y, &Cumsum);
    case DType::int32:
      return detail::along_axis<std::int32_t>(x, axis, y, &Cumsum);
    case DType::int64:
      return detail::along_axis<std::int64_t>(x, axis, y, &Cumsum);
    default:
      detail::require_type(kOp, "x", x, detail::TypeClass::numeric);  // throws
  }
}

}  // namespace opgen::kernels
