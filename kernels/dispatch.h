// OPGEN_DYNAMIC_DISPATCH(FUNC): Highway's HWY_DYNAMIC_DISPATCH without its
// call into libhwy on every kernel call. HWY_DYNAMIC_DISPATCH calls
// hwy::GetChosenTarget(), an exported function of the shared libhwy (a call
// through the PLT), to reach the chosen-target object; this keeps a
// reference to that object, taken once, and reads its mask inline. The
// object is the same, so dispatch still follows every change of the chosen
// target (hwy::SetSupportedTargetsForTest in the per-target tests, and the
// table's first entry, which chooses the target on the first call).
// Include in the HWY_ONCE part of a kernel file, after hwy/highway.h.
#pragma once

#include <hwy/highway.h>
#include <hwy/targets.h>

namespace opgen::kernels {

/// Highway's chosen-target object, looked up once.
inline hwy::ChosenTarget& ChosenTarget() noexcept {
  static hwy::ChosenTarget& chosen = hwy::GetChosenTarget();
  return chosen;
}

}  // namespace opgen::kernels

#if HWY_IDE || HWY_DISPATCH_WORKAROUND || ((HWY_TARGETS & (HWY_TARGETS - 1)) == 0)
// One target compiled (a static dispatch) or Highway's MSVC 2017 form: as is.
#define OPGEN_DYNAMIC_DISPATCH(FUNC_NAME) HWY_DYNAMIC_DISPATCH(FUNC_NAME)
#else
#define OPGEN_DYNAMIC_DISPATCH(FUNC_NAME) \
  (*(HWY_DISPATCH_TABLE(FUNC_NAME)[::opgen::kernels::ChosenTarget().GetIndex()]))
#endif
