// Element type conversion (`cast`), for the 25 pairs of dtypes.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/convert.hpp"
#include "opgen/detail/checks.hpp"

namespace opgen::detail {

namespace {

// One element. C++'s own conversions are undefined for floats out of an
// integer's range and wrap for narrowing integers; tensors get numpy-like
// well-defined results instead: NaN -> 0, out of range -> saturate.
template <class To, class From>
To convert(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From{0};
  } else if constexpr (std::is_same_v<From, bool> || std::is_floating_point_v<To>) {
    // bool -> 0/1; anything -> float rounds to nearest (IEEE, overflow -> inf).
    return static_cast<To>(v);
  } else if constexpr (std::is_floating_point_v<From>) {
    // -2^(bits-1) and 2^(bits-1) are exact in float and double.
    constexpr From lo = static_cast<From>(std::numeric_limits<To>::min());
    constexpr From hi = -lo;
    if (std::isnan(v)) return 0;
    if (v < lo) return std::numeric_limits<To>::min();
    if (v >= hi) return std::numeric_limits<To>::max();
    return static_cast<To>(v);  // truncates toward zero
  } else {
    // Integer to integer: only int64 -> int32 can be out of range.
    if constexpr (sizeof(To) < sizeof(From)) {
      if (v < std::numeric_limits<To>::min()) return std::numeric_limits<To>::min();
      if (v > std::numeric_limits<To>::max()) return std::numeric_limits<To>::max();
    }
    return static_cast<To>(v);
  }
}

// The pairs kernels/convert.hpp has a vector kernel for go there (the same
// results, bit for bit); the others take the scalar loop.
template <class To, class From>
void convert_all(const From* x, To* out, std::int64_t n) {
  if constexpr (requires { kernels::Convert(x, out, std::size_t{}); }) {
    kernels::Convert(x, out, static_cast<std::size_t>(n));
  } else {
    for (std::int64_t i = 0; i < n; ++i) out[i] = convert<To>(x[i]);
  }
}

// Calls f with a value of the C++ element type of `t` (the value itself is unused).
template <class F>
void with_element_type(DType t, F&& f) {
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
      return f(bool{});
  }
}

}  // namespace

Tensor cast(const Tensor& x, DType to) {
  if (!x.defined() || x.dtype() == to) return x;
  Tensor out = Tensor::empty(x.shape(), to);
  cast_into(x, out);
  return out;
}

void cast_into(const Tensor& x, Tensor& out) {
  with_element_type(x.dtype(), [&](auto from_value) {
    using From = decltype(from_value);
    with_element_type(out.dtype(), [&](auto to_value) {
      using To = decltype(to_value);
      convert_all(static_cast<const From*>(x.raw_data()), static_cast<To*>(out.raw_data()),
                  x.length());
    });
  });
}

}  // namespace opgen::detail
