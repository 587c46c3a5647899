// Conversion kernels (see convert.hpp), compiled once per SIMD target by
// foreach_target.h and dispatched at run time.
#include "kernels/convert.hpp"

#include <cstddef>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/convert.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/math-inl.h"
#include "kernels/transform-inl.h"

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// out[i] = convert(dto, x[i]) for vectors of the same lane count: dto for
// out's type, dfrom (Rebind of it) for x's. Four vectors per step, then
// one, then a partial one (its padding lanes hold 0, which converts
// without raising anything). An output of StreamBytes() or more streams
// its stores after a head that aligns them (16M float32 -> float64: 4.9 ms
// with ordinary stores, which read each output line first).
template <class DTo, class Convert, typename From, typename To = hn::TFromD<DTo>>
HWY_INLINE void ConvertArray(DTo dto, const From* HWY_RESTRICT x, To* HWY_RESTRICT out, size_t n,
                             const Convert& convert) {
  const hn::Rebind<From, DTo> dfrom;
  const size_t N = hn::Lanes(dto);
  size_t i = 0;
  // Whole groups of four vectors from i on, each stored by store(v, p).
  const auto fours = [&](const auto& store) HWY_ATTR {
    for (; i + 4 * N <= n; i += 4 * N) {
      const auto v0 = hn::LoadU(dfrom, x + i);
      const auto v1 = hn::LoadU(dfrom, x + i + N);
      const auto v2 = hn::LoadU(dfrom, x + i + 2 * N);
      const auto v3 = hn::LoadU(dfrom, x + i + 3 * N);
      store(convert(dto, v0), out + i);
      store(convert(dto, v1), out + i + N);
      store(convert(dto, v2), out + i + 2 * N);
      store(convert(dto, v3), out + i + 3 * N);
    }
  };
  if (kCanStream<DTo> && n * sizeof(To) >= StreamBytes()) {
    for (const size_t head = HeadToAlign(dto, out, n); i < head;) {
      const size_t count = head - i < N ? head - i : N;
      const auto v = LoadPartial(dfrom, x + i, count, hn::Zero(dfrom));
      StorePartial(dto, convert(dto, v), count, out + i);
      i += count;
    }
    fours([&](hn::Vec<DTo> v, To* p) HWY_ATTR { hn::Stream(v, dto, p); });
    hwy::FlushStream();
  }
  fours([&](hn::Vec<DTo> v, To* p) HWY_ATTR { hn::StoreU(v, dto, p); });
  for (; i + N <= n; i += N) hn::StoreU(convert(dto, hn::LoadU(dfrom, x + i)), dto, out + i);
  if (i < n) {
    const auto v = LoadPartial(dfrom, x + i, n - i, hn::Zero(dfrom));
    StorePartial(dto, convert(dto, v), n - i, out + i);
  }
}

const auto kPromote = [](auto d, auto v) HWY_ATTR { return hn::PromoteTo(d, v); };
// The emulated targets' DemoteTo (SCALAR, EMU128) clamps to the float
// range; DemoteToFloatOrInf rounds to infinity there, as every vector
// target's conversion does.
const auto kDemote = [](auto d, auto v) HWY_ATTR {
  return DemoteToFloatOrInf(d, hn::Rebind<double, decltype(d)>(), v);
};
const auto kConvert = [](auto d, auto v) HWY_ATTR { return hn::ConvertTo(d, v); };
// Highway's ConvertTo saturates (x86 fixes up cvttps2dq's 0x80000000 for
// positive inputs) but gives NaN a limit (and the emulated targets cast
// it, undefined in C++); the scalar conversion gives 0, so NaN lanes are
// zeroed first.
const auto kTruncate = [](auto d, auto v) HWY_ATTR {
  return hn::ConvertTo(d, hn::IfThenZeroElse(hn::IsNaN(v), v));
};

void F32ToF64(const float* x, double* out, size_t n) {
  ConvertArray(hn::ScalableTag<double>(), x, out, n, kPromote);
}
void F64ToF32(const double* x, float* out, size_t n) {
  // Half-width float vectors, one per float64 vector.
  ConvertArray(hn::Rebind<float, hn::ScalableTag<double>>(), x, out, n, kDemote);
}
void I32ToF32(const int32_t* x, float* out, size_t n) {
  ConvertArray(hn::ScalableTag<float>(), x, out, n, kConvert);
}
void I32ToF64(const int32_t* x, double* out, size_t n) {
  ConvertArray(hn::ScalableTag<double>(), x, out, n, kPromote);
}
void I32ToI64(const int32_t* x, int64_t* out, size_t n) {
  ConvertArray(hn::ScalableTag<int64_t>(), x, out, n, kPromote);
}
void F32ToI32(const float* x, int32_t* out, size_t n) {
  ConvertArray(hn::ScalableTag<int32_t>(), x, out, n, kTruncate);
}

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"
namespace opgen::kernels {

// clang-format off
#define OPGEN_EXPORT_CONVERT(Name, From, To)                                 \
  HWY_EXPORT(Name);                                                          \
  void Convert(const From* x, To* out, std::size_t n) {                      \
    OPGEN_DYNAMIC_DISPATCH(Name)(x, out, n);                                 \
  }
// clang-format on

OPGEN_EXPORT_CONVERT(F32ToF64, float, double)
OPGEN_EXPORT_CONVERT(F64ToF32, double, float)
OPGEN_EXPORT_CONVERT(I32ToF32, std::int32_t, float)
OPGEN_EXPORT_CONVERT(I32ToF64, std::int32_t, double)
OPGEN_EXPORT_CONVERT(I32ToI64, std::int32_t, std::int64_t)
OPGEN_EXPORT_CONVERT(F32ToI32, float, std::int32_t)

#undef OPGEN_EXPORT_CONVERT

}  // namespace opgen::kernels
#endif  // HWY_ONCE
