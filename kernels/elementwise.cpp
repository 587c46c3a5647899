// Elementwise arithmetic kernels (see elementwise.hpp), compiled once per SIMD
// target by foreach_target.h and dispatched at run time.
#include "kernels/elementwise.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/elementwise.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/math-inl.h"
#include "kernels/transform-inl.h"

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One functor per op, called by the loops in transform-inl.h on whole and
// partial vectors alike, so the remainder is computed exactly like the rest.
struct AddOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::Add(a, b);
  }
};
struct SubOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::Sub(a, b);
  }
};
struct MulOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::Mul(a, b);  // int64: emulated with 32x32-bit products below AVX-512
  }
};
struct DivOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    return hn::Div(a, b);
  }
};
struct MaximumOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
      // Both operands are used twice (see Maximum): GCC would otherwise
      // load each from memory a second time.
      InRegister(a);
      InRegister(b);
      return Maximum(a, b);
    } else {
      return hn::Max(a, b);
    }
  }
};
struct MinimumOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
      // As for maximum.
      InRegister(a);
      InRegister(b);
      return Minimum(a, b);
    } else {
      return hn::Min(a, b);
    }
  }
};
struct PowOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    if constexpr (sizeof(hn::TFromD<D>) == 4) {
      return PowFloat(d, a, b);
    } else {
      return PowDouble(d, a, b);
    }
  }
};
struct NegOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V v) const {
    return hn::Neg(v);
  }
};
struct AbsOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V v) const {
    return hn::Abs(v);
  }
};
struct SquareOp {
  static constexpr bool kStoreEachVector = true;  // see StoresEachVector
  template <class D, class V>
  HWY_INLINE V operator()(D, V v) const {
    return hn::Mul(v, v);
  }
};
// floor(x) and ceil(x) always have the sign of x (floor(-0) = -0,
// ceil(-0.5) = -0). Highway 1.0.3 emulates them through an integer
// conversion on SSSE3 and in scalar code on the scalar and EMU128 targets,
// which lose the sign of zero results; SignedIntegral restores it there.
struct FloorOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V v) const {
    return SignedIntegral(hn::Floor(v), v);
  }
};
struct CeilOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V v) const {
    return SignedIntegral(hn::Ceil(v), v);
  }
};
// NaN and -0 pass through unchanged. On x86 that is one maxps with v as
// the second operand, which it returns when either is NaN and for equal
// zeros (OPGEN_MINMAX_SECOND_OPERAND); elsewhere a comparison, as NaN < 0
// is false.
struct ReluOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
#if OPGEN_MINMAX_SECOND_OPERAND
    return hn::Max(hn::Zero(d), v);
#else
    return hn::IfThenZeroElse(hn::Lt(v, hn::Zero(d)), v);
#endif
  }
};
template <typename T>
struct LeakyReluOp {
  T alpha;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    return hn::IfThenElse(hn::Gt(v, hn::Zero(d)), v, hn::Mul(v, hn::Set(d, alpha)));
  }
};
// min(max(x, lo), hi) with the Maximum/Minimum of maximum and minimum: NaN
// stays NaN and -0 < +0 (clip(-0, 0, 1) is +0, as max(-0, 0) is), so that
// clip means what its formula says. Plain comparisons would keep NaN too but
// return x for x == lo, -0 included. The extra lane operations did not make
// float32 Clip slower (measured at 1K to 16M elements against the
// comparisons).
template <typename T>
struct ClipOp {
  T lo;
  T hi;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    if constexpr (hwy::IsFloat<T>()) {
      return Minimum(Maximum(v, hn::Set(d, lo)), hn::Set(d, hi));
    } else {
      return hn::Min(hn::Max(v, hn::Set(d, lo)), hn::Set(d, hi));
    }
  }
};
#if OPGEN_MINMAX_SECOND_OPERAND
// ClipOp for float bounds that are neither NaN nor hi = -0 (checked by Clip):
// min(hi, max(lo, v)) with Min/Max returning their second operand
// (OPGEN_MINMAX_SECOND_OPERAND) gives v's NaN, and v itself where v equals
// a bound, which is the bound (sign included) except for v = -0 at lo = +0,
// where v + 0 gives the +0 maximum(-0, +0) is (kZeroLo). 2 or 3 operations
// instead of ClipOp's 9.
template <typename T, bool kZeroLo>
struct ClipSecondOperandOp {
  T lo;
  T hi;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    V above = hn::Max(hn::Set(d, lo), v);
    if constexpr (kZeroLo) above = hn::Add(above, hn::Zero(d));
    return hn::Min(hn::Set(d, hi), above);
  }
};
#endif

// The short ops (all but Div and Pow) choose their vectors by WithStoreTag,
// maximum and minimum (three operations per vector) with kNarrowInL1 false.
// clang-format off
#define OPGEN_BINARY(Name, Suffix, T, D)                                     \
  void Name##Suffix(const T* x, const T* y, T* out, size_t n) {              \
    BinaryTransform(D(), x, y, out, n, Name##Op());                          \
  }
#define OPGEN_BINARY_SHORT(Name, Suffix, T, InL1)                            \
  void Name##Suffix(const T* x, const T* y, T* out, size_t n) {              \
    LightBinaryTransform<InL1>(x, y, out, n, Name##Op());                    \
  }
#define OPGEN_UNARY(Name, Suffix, T)                                         \
  void Name##Suffix(const T* x, T* out, size_t n) {                          \
    LightUnaryTransform(x, out, n, Name##Op());                              \
  }
#define OPGEN_BINARY_ALL(Name, InL1)                                         \
  OPGEN_BINARY_SHORT(Name, F32, float, InL1)                                 \
  OPGEN_BINARY_SHORT(Name, F64, double, InL1)                                \
  OPGEN_BINARY_SHORT(Name, I32, int32_t, InL1)                               \
  OPGEN_BINARY_SHORT(Name, I64, int64_t, InL1)
#define OPGEN_UNARY_FLOAT(Name)                                              \
  OPGEN_UNARY(Name, F32, float) OPGEN_UNARY(Name, F64, double)
#define OPGEN_UNARY_ALL(Name)                                                \
  OPGEN_UNARY_FLOAT(Name) OPGEN_UNARY(Name, I32, int32_t) OPGEN_UNARY(Name, I64, int64_t)
// clang-format on

OPGEN_BINARY_ALL(Add, true)
OPGEN_BINARY_ALL(Sub, true)
OPGEN_BINARY_ALL(Mul, true)
// Division is bound by the divider, which 512-bit vectors use better.
OPGEN_BINARY(Div, F32, float, hn::ScalableTag<float>)
OPGEN_BINARY(Div, F64, double, hn::ScalableTag<double>)
OPGEN_BINARY_ALL(Maximum, false)
OPGEN_BINARY_ALL(Minimum, false)
// float32 pow is computed in float64 (half-width float vectors, one per
// float64 vector), except where PowFloatTable applies (16 float lanes).
#if OPGEN_TABLE16
using PowFloatTag = hn::ScalableTag<float>;
#else
using PowFloatTag = hn::Rebind<float, hn::ScalableTag<double>>;
#endif
OPGEN_BINARY(Pow, F32, float, PowFloatTag)
OPGEN_BINARY(Pow, F64, double, hn::ScalableTag<double>)
OPGEN_UNARY_ALL(Neg)
OPGEN_UNARY_ALL(Abs)
OPGEN_UNARY_ALL(Square)
OPGEN_UNARY_FLOAT(Floor)
OPGEN_UNARY_FLOAT(Ceil)
OPGEN_UNARY_FLOAT(Relu)

template <typename T>
HWY_INLINE void LeakyRelu(const T* x, T* out, size_t n, T alpha) {
  LightUnaryTransform<false>(x, out, n, LeakyReluOp<T>{alpha});
}
void LeakyReluF32(const float* x, float* out, size_t n, float alpha) {
  LeakyRelu(x, out, n, alpha);
}
void LeakyReluF64(const double* x, double* out, size_t n, double alpha) {
  LeakyRelu(x, out, n, alpha);
}

template <typename T>
HWY_INLINE void Clip(const T* x, T* out, size_t n, T lo, T hi) {
#if OPGEN_MINMAX_SECOND_OPERAND
  if constexpr (hwy::IsFloat<T>()) {
    if (!std::isnan(lo) && !std::isnan(hi) && !(hi == 0 && std::signbit(hi))) {
      if (lo == 0 && !std::signbit(lo)) {
        LightUnaryTransform(x, out, n, ClipSecondOperandOp<T, true>{lo, hi});
      } else {
        LightUnaryTransform(x, out, n, ClipSecondOperandOp<T, false>{lo, hi});
      }
      return;
    }
  }
#endif
  LightUnaryTransform(x, out, n, ClipOp<T>{lo, hi});
}
void ClipF32(const float* x, float* out, size_t n, float lo, float hi) { Clip(x, out, n, lo, hi); }
void ClipF64(const double* x, double* out, size_t n, double lo, double hi) {
  Clip(x, out, n, lo, hi);
}
void ClipI32(const int32_t* x, int32_t* out, size_t n, int32_t lo, int32_t hi) {
  Clip(x, out, n, lo, hi);
}
void ClipI64(const int64_t* x, int64_t* out, size_t n, int64_t lo, int64_t hi) {
  Clip(x, out, n, lo, hi);
}

#undef OPGEN_BINARY
#undef OPGEN_UNARY
#undef OPGEN_BINARY_SHORT
#undef OPGEN_BINARY_ALL
#undef OPGEN_UNARY_FLOAT
#undef OPGEN_UNARY_ALL

// The target this copy was compiled for (DispatchedTargetForTest).
std::int64_t TargetProbe() { return HWY_TARGET; }

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"
namespace opgen::kernels {
namespace {

// x86 has no SIMD integer division, so integer Div is a scalar loop. The
// divisors 0 and -1 are special-cased: x / 0 traps and INT_MIN / -1
// overflows (and traps too); -1 negates in unsigned arithmetic to wrap.
template <typename T>
void DivideIntegers(const T* x, const T* y, T* out, std::size_t n) {
  using U = std::make_unsigned_t<T>;
  for (std::size_t i = 0; i < n; ++i) {
    const T a = x[i];
    const T b = y[i];
    out[i] = b == 0    ? T{0}
             : b == -1 ? static_cast<T>(U{0} - static_cast<U>(a))
                       : static_cast<T>(a / b);
  }
}

// Rounds a double parameter to float as IEEE round-to-nearest does, with
// out-of-range values handled explicitly (the plain conversion of a value
// outside float's range is undefined behaviour in C++).
float ToFloat(double v) {
  constexpr double kOverflow = 0x1.ffffffp127;  // halfway between FLT_MAX and 2^128
  constexpr float kMax = std::numeric_limits<float>::max();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  if (v >= kOverflow) return kInf;
  if (v <= -kOverflow) return -kInf;
  if (v > kMax) return kMax;
  if (v < -kMax) return -kMax;
  return static_cast<float>(v);
}

// Rounds a Clip bound inward (lo up, hi down) and saturates it to T; a NaN
// bound does not constrain.
template <typename T>
T IntegerBound(double bound, bool lower) {
  constexpr T kMin = std::numeric_limits<T>::min();
  constexpr T kMax = std::numeric_limits<T>::max();
  if (std::isnan(bound)) return lower ? kMin : kMax;
  const double r = lower ? std::ceil(bound) : std::floor(bound);
  // kMin is a power of two, exact as a double; double(kMax) rounds up to
  // -kMin for int64, so >= catches every value that does not fit.
  if (r <= static_cast<double>(kMin)) return kMin;
  if (r >= static_cast<double>(kMax)) return kMax;
  return static_cast<T>(r);
}

}  // namespace

// clang-format off
#define OPGEN_EXPORT_BINARY(Name, Suffix, T)                                 \
  HWY_EXPORT(Name##Suffix);                                                  \
  void Name(const T* x, const T* y, T* out, std::size_t n) {                 \
    OPGEN_DYNAMIC_DISPATCH(Name##Suffix)(x, y, out, n);                        \
  }
#define OPGEN_EXPORT_UNARY(Name, Suffix, T)                                  \
  HWY_EXPORT(Name##Suffix);                                                  \
  void Name(const T* x, T* out, std::size_t n) {                             \
    OPGEN_DYNAMIC_DISPATCH(Name##Suffix)(x, out, n);                           \
  }
#define OPGEN_EXPORT_BINARY_FLOAT(Name)                                      \
  OPGEN_EXPORT_BINARY(Name, F32, float) OPGEN_EXPORT_BINARY(Name, F64, double)
#define OPGEN_EXPORT_BINARY_ALL(Name)                                        \
  OPGEN_EXPORT_BINARY_FLOAT(Name)                                            \
  OPGEN_EXPORT_BINARY(Name, I32, std::int32_t)                               \
  OPGEN_EXPORT_BINARY(Name, I64, std::int64_t)
#define OPGEN_EXPORT_UNARY_FLOAT(Name)                                       \
  OPGEN_EXPORT_UNARY(Name, F32, float) OPGEN_EXPORT_UNARY(Name, F64, double)
#define OPGEN_EXPORT_UNARY_ALL(Name)                                         \
  OPGEN_EXPORT_UNARY_FLOAT(Name)                                             \
  OPGEN_EXPORT_UNARY(Name, I32, std::int32_t)                                \
  OPGEN_EXPORT_UNARY(Name, I64, std::int64_t)
// clang-format on

OPGEN_EXPORT_BINARY_ALL(Add)
OPGEN_EXPORT_BINARY_ALL(Sub)
OPGEN_EXPORT_BINARY_ALL(Mul)
OPGEN_EXPORT_BINARY_FLOAT(Div)
OPGEN_EXPORT_BINARY_ALL(Maximum)
OPGEN_EXPORT_BINARY_ALL(Minimum)
OPGEN_EXPORT_BINARY_FLOAT(Pow)
OPGEN_EXPORT_UNARY_ALL(Neg)
OPGEN_EXPORT_UNARY_ALL(Abs)
OPGEN_EXPORT_UNARY_ALL(Square)
OPGEN_EXPORT_UNARY_FLOAT(Floor)
OPGEN_EXPORT_UNARY_FLOAT(Ceil)
OPGEN_EXPORT_UNARY_FLOAT(Relu)

#undef OPGEN_EXPORT_BINARY
#undef OPGEN_EXPORT_UNARY
#undef OPGEN_EXPORT_BINARY_FLOAT
#undef OPGEN_EXPORT_BINARY_ALL
#undef OPGEN_EXPORT_UNARY_FLOAT
#undef OPGEN_EXPORT_UNARY_ALL

void Div(const std::int32_t* x, const std::int32_t* y, std::int32_t* out, std::size_t n) {
  DivideIntegers(x, y, out, n);
}
void Div(const std::int64_t* x, const std::int64_t* y, std::int64_t* out, std::size_t n) {
  DivideIntegers(x, y, out, n);
}

HWY_EXPORT(LeakyReluF32);
HWY_EXPORT(LeakyReluF64);
void LeakyRelu(const float* x, float* out, std::size_t n, double alpha) {
  OPGEN_DYNAMIC_DISPATCH(LeakyReluF32)(x, out, n, ToFloat(alpha));
}
void LeakyRelu(const double* x, double* out, std::size_t n, double alpha) {
  OPGEN_DYNAMIC_DISPATCH(LeakyReluF64)(x, out, n, alpha);
}

HWY_EXPORT(ClipF32);
HWY_EXPORT(ClipF64);
HWY_EXPORT(ClipI32);
HWY_EXPORT(ClipI64);
void Clip(const float* x, float* out, std::size_t n, double lo, double hi) {
  OPGEN_DYNAMIC_DISPATCH(ClipF32)(x, out, n, ToFloat(lo), ToFloat(hi));
}
void Clip(const double* x, double* out, std::size_t n, double lo, double hi) {
  OPGEN_DYNAMIC_DISPATCH(ClipF64)(x, out, n, lo, hi);
}
void Clip(const std::int32_t* x, std::int32_t* out, std::size_t n, double lo, double hi) {
  OPGEN_DYNAMIC_DISPATCH(ClipI32)
  (x, out, n, IntegerBound<std::int32_t>(lo, true), IntegerBound<std::int32_t>(hi, false));
}
void Clip(const std::int64_t* x, std::int64_t* out, std::size_t n, double lo, double hi) {
  OPGEN_DYNAMIC_DISPATCH(ClipI64)
  (x, out, n, IntegerBound<std::int64_t>(lo, true), IntegerBound<std::int64_t>(hi, false));
}

HWY_EXPORT(TargetProbe);
std::int64_t DispatchedTargetForTest() { return OPGEN_DYNAMIC_DISPATCH(TargetProbe)(); }

}  // namespace opgen::kernels
#endif  // HWY_ONCE
