// Transcendental kernels (see transcendental.hpp), compiled once per SIMD
// target by foreach_target.h and dispatched at run time.
#include "kernels/transcendental.hpp"

#include <cstddef>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/transcendental.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/math-inl.h"
#include "kernels/transform-inl.h"

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

struct SqrtOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V v) const {
    return hn::Sqrt(v);
  }
};
struct ExpOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return ExpFull(d, v);
  }
};
struct LogOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return LogFull(d, v);
  }
};
struct TanhOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    if constexpr (sizeof(hn::TFromD<D>) == 4) {
      return TanhFloat32(d, v);
    } else {
      return hn::Tanh(d, v);
    }
  }
};
// Fast: float32 vectors whose lanes all lie in SigmoidInRange (Sigmoid
// checks one vector at a time itself).
using SigmoidOp =
    FastFormOp<decltype([](auto d, auto v) OPGEN_FORM_ATTR { return Sigmoid(d, v); }),
               decltype([](auto d, auto v) OPGEN_FORM_ATTR { return SigmoidInRangeF32(d, v); }),
               decltype([](auto d, auto v) OPGEN_FORM_ATTR { return SigmoidInRange(d, v); }),
               /*kFastAlone=*/false>;
// Fast: float32 vectors whose sigmoid arguments 2u all lie in SigmoidInRange
// (|x| below about 11.6), so x is finite.
using GeluOp = FastFormOp<decltype([](auto d, auto v) OPGEN_FORM_ATTR { return Gelu(d, v); }),
                          decltype([](auto d, auto v) OPGEN_FORM_ATTR {
                            return hn::Mul(v, SigmoidInRangeF32(d, GeluTwoU(d, v)));
                          }),
                          decltype([](auto d, auto v) OPGEN_FORM_ATTR {
                            return SigmoidInRange(d, GeluTwoU(d, v));
                          }),
                          /*kFastAlone=*/false>;

// clang-format off
#define OPGEN_UNARY(Name, Suffix, T)                                         \
  void Name##Suffix(const T* x, T* out, size_t n) {                          \
    UnaryTransform(hn::ScalableTag<T>(), x, out, n, Name##Op());             \
  }
#define OPGEN_UNARY_FLOAT(Name)                                              \
  OPGEN_UNARY(Name, F32, float) OPGEN_UNARY(Name, F64, double)
// clang-format on

OPGEN_UNARY_FLOAT(Sqrt)
OPGEN_UNARY_FLOAT(Exp)
OPGEN_UNARY_FLOAT(Log)
OPGEN_UNARY_FLOAT(Tanh)
OPGEN_UNARY_FLOAT(Sigmoid)
OPGEN_UNARY_FLOAT(Gelu)

#undef OPGEN_UNARY
#undef OPGEN_UNARY_FLOAT

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"
namespace opgen::kernels {

// clang-format off
#define OPGEN_EXPORT_UNARY(Name, Suffix, T)                                  \
  HWY_EXPORT(Name##Suffix);                                                  \
  void Name(const T* x, T* out, std::size_t n) {                             \
    OPGEN_DYNAMIC_DISPATCH(Name##Suffix)(x, out, n);                           \
  }
#define OPGEN_EXPORT_UNARY_FLOAT(Name)                                       \
  OPGEN_EXPORT_UNARY(Name, F32, float) OPGEN_EXPORT_UNARY(Name, F64, double)
// clang-format on

OPGEN_EXPORT_UNARY_FLOAT(Sqrt)
OPGEN_EXPORT_UNARY_FLOAT(Exp)
OPGEN_EXPORT_UNARY_FLOAT(Log)
OPGEN_EXPORT_UNARY_FLOAT(Tanh)
OPGEN_EXPORT_UNARY_FLOAT(Sigmoid)
OPGEN_EXPORT_UNARY_FLOAT(Gelu)

#undef OPGEN_EXPORT_UNARY
#undef OPGEN_EXPORT_UNARY_FLOAT

}  // namespace opgen::kernels
#endif  // HWY_ONCE
