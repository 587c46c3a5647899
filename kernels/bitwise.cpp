// Bitwise kernels (see bitwise.hpp), compiled once per SIMD target by
// foreach_target.h and dispatched at run time.
#include "kernels/bitwise.hpp"

#include <cstddef>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/bitwise.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/transform-inl.h"

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

struct AndOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::And(a, b);
  }
};
struct OrOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::Or(a, b);
  }
};
struct XorOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::Xor(a, b);
  }
};
struct NotOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V v) const {
    return hn::Not(v);
  }
};

// True where a shift count is negative or >= the lane width: exactly the
// counts with a bit set above the low log2(bits) bits (the sign bit included).
template <class D, class V>
HWY_INLINE auto CountOutside(D d, V count) {
  using T = hn::TFromD<D>;
  constexpr T kBits = sizeof(T) * 8;
  return hn::Ne(hn::And(count, hn::Set(d, static_cast<T>(~(kBits - 1)))), hn::Zero(d));
}

// Per-lane shifts with the count masked into range first: x86 variable
// shifts give 0 for large counts but ignore the sign, SSSE3/SSE4 emulate them,
// and C++ leaves out-of-range counts undefined, so the result for those lanes
// is selected explicitly.
struct LeftShiftOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x, V count) const {
    using T = hn::TFromD<D>;
    const V in_range = hn::And(count, hn::Set(d, static_cast<T>(sizeof(T) * 8 - 1)));
    return hn::IfThenZeroElse(CountOutside(d, count), hn::Shl(x, in_range));
  }
};
struct RightShiftOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x, V count) const {
    using T = hn::TFromD<D>;
    const V last = hn::Set(d, static_cast<T>(sizeof(T) * 8 - 1));
    // Shifting by bits - 1 gives the sign fill that larger counts ask for.
    return hn::Shr(x, hn::IfThenElse(CountOutside(d, count), last, count));
  }
};

// clang-format off
#define OPGEN_BINARY(Name, Suffix, T)                                        \
  void Name##Suffix(const T* x, const T* y, T* out, size_t n) {              \
    BinaryTransform(hn::ScalableTag<T>(), x, y, out, n, Name##Op());         \
  }
#define OPGEN_BINARY_INT(Name)                                               \
  OPGEN_BINARY(Name, I32, int32_t) OPGEN_BINARY(Name, I64, int64_t)
// clang-format on

OPGEN_BINARY_INT(And)
OPGEN_BINARY_INT(Or)
OPGEN_BINARY_INT(Xor)
OPGEN_BINARY_INT(LeftShift)
OPGEN_BINARY_INT(RightShift)

void NotI32(const int32_t* x, int32_t* out, size_t n) {
  UnaryTransform(hn::ScalableTag<int32_t>(), x, out, n, NotOp());
}
void NotI64(const int64_t* x, int64_t* out, size_t n) {
  UnaryTransform(hn::ScalableTag<int64_t>(), x, out, n, NotOp());
}

#undef OPGEN_BINARY
#undef OPGEN_BINARY_INT

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"
namespace opgen::kernels {

// clang-format off
#define OPGEN_EXPORT_BINARY(Name, Suffix, T)                                 \
  HWY_EXPORT(Name##Suffix);                                                  \
  void Name(const T* x, const T* y, T* out, std::size_t n) {                 \
    OPGEN_DYNAMIC_DISPATCH(Name##Suffix)(x, y, out, n);                        \
  }
#define OPGEN_EXPORT_BINARY_INT(Name)                                        \
  OPGEN_EXPORT_BINARY(Name, I32, std::int32_t)                               \
  OPGEN_EXPORT_BINARY(Name, I64, std::int64_t)
// clang-format on

OPGEN_EXPORT_BINARY_INT(And)
OPGEN_EXPORT_BINARY_INT(Or)
OPGEN_EXPORT_BINARY_INT(Xor)
OPGEN_EXPORT_BINARY_INT(LeftShift)
OPGEN_EXPORT_BINARY_INT(RightShift)

#undef OPGEN_EXPORT_BINARY
#undef OPGEN_EXPORT_BINARY_INT

HWY_EXPORT(NotI32);
HWY_EXPORT(NotI64);
void Not(const std::int32_t* x, std::int32_t* out, std::size_t n) {
  OPGEN_DYNAMIC_DISPATCH(NotI32)(x, out, n);
}
void Not(const std::int64_t* x, std::int64_t* out, std::size_t n) {
  OPGEN_DYNAMIC_DISPATCH(NotI64)(x, out, n);
}

}  // namespace opgen::kernels
#endif  // HWY_ONCE
