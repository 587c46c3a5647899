// OPGEN_DYNAMIC_DISPATCH(FUNC): Highway's HWY_DYNAMIC_DISPATCH without its
// call into libhwy on every kernel call. HWY_DYNAMIC_DISPATCH calls
// hwy::GetChosenTarget(), an exported function of the shared libhwy (a call
// through the PLT), to reach the chosen-target object; this reads a pointer
// to that object, set once when the library is loaded, and the object's
// mask inline: a leaf that ends in a jump to the target's function. The
// object is the same, so dispatch follows every change of the chosen
// target (hwy::SetSupportedTargetsForTest in the per-target tests, and the
// table's first entry, which chooses the target on the first call).
// Include once per kernel file, in its HWY_ONCE part.
#pragma once

#include <hwy/highway.h>
#include <hwy/targets.h>

#include <atomic>

namespace opgen::kernels {
namespace {

// Until the pointer below is set, a chosen target that is never updated:
// its mask gives index 0, Highway's first table entry, which updates the
// real object and calls the chosen function (so a kernel called before
// this file's static initialisation still dispatches correctly).
constinit hwy::ChosenTarget unchosen_target;
std::atomic<hwy::ChosenTarget*> chosen_target{&unchosen_target};

struct SetChosenTarget {
  SetChosenTarget() noexcept {
    chosen_target.store(&hwy::GetChosenTarget(), std::memory_order_relaxed);
  }
};
const SetChosenTarget set_chosen_target;

// The index of the chosen target in a HWY_EXPORT table.
inline std::size_t ChosenIndex() noexcept {
  return chosen_target.load(std::memory_order_relaxed)->GetIndex();
}

}  // namespace
}  // namespace opgen::kernels

#if HWY_IDE || HWY_DISPATCH_WORKAROUND || ((HWY_TARGETS & (HWY_TARGETS - 1)) == 0)
// One target compiled (a static dispatch) or Highway's MSVC 2017 form: as is.
#define OPGEN_DYNAMIC_DISPATCH(FUNC_NAME) HWY_DYNAMIC_DISPATCH(FUNC_NAME)
#else
#define OPGEN_DYNAMIC_DISPATCH(FUNC_NAME) \
  (*(HWY_DISPATCH_TABLE(FUNC_NAME)[::opgen::kernels::ChosenIndex()]))
#endif
