// A function compiled for every SIMD target that reports which one it is, to
// check that HWY_DYNAMIC_DISPATCH follows hwy::SetSupportedTargetsForTest,
// and that the kernels' own dispatch (kernels/dispatch.h), reset by
// SetTargetForTest, picks the same target.
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/kernels/dispatch_probe.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "tests/kernels/targets.hpp"

HWY_BEFORE_NAMESPACE();
namespace opgen::kernel_tests::HWY_NAMESPACE {

std::int64_t CompiledTarget() { return HWY_TARGET; }

}  // namespace opgen::kernel_tests::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace opgen::kernel_tests {

HWY_EXPORT(CompiledTarget);

std::int64_t DispatchedTarget() {
  const std::int64_t target = HWY_DYNAMIC_DISPATCH(CompiledTarget)();
  return kernels::DispatchedTargetForTest() == target ? target : -1;
}

}  // namespace opgen::kernel_tests
#endif  // HWY_ONCE
