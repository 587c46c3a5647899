// OPGEN_DYNAMIC_DISPATCH(FUNC): Highway's HWY_DYNAMIC_DISPATCH with one load
// per call. Each exported function keeps the pointer to the target's
// function it dispatches to in a variable of its own, resolved on the first
// call (from hwy::GetChosenTarget(), as HWY_DYNAMIC_DISPATCH would choose);
// a call loads that pointer and jumps.
//
// Why: HWY_DYNAMIC_DISPATCH loads the chosen-target object's address (a call
// into libhwy), its mask, then the table entry, each load's address waiting
// on the one before. At a kernel's entry such a chain waits on the previous
// call's stores still in the store queue whose addresses match its loads' in
// the low 12 bits (4K aliasing): with the chain, 1K float32 neg called back
// to back took 15.7-19.9 ns depending on where its output lay within the
// page, with one load 15.5-16.4, a plain AVX-512 loop compiled into the
// calling program 15.5-16.0 (Zen 5, 64 output placements; in a synthetic
// loop one load before an indirect call measured flat, chains of two or
// three loads did not; docs/benchmarks.md).
//
// The resolved pointers stay until ResetDispatchForTest() (cpu.hpp) clears
// them: tests call it after hwy::SetSupportedTargetsForTest, so that the next
// call resolves again for the target they force. A program that changes
// Highway's targets after the kernels' first calls (hwy::DisableTargets) no
// longer moves them without that call.
// Include once per kernel file, in its HWY_ONCE part.
#pragma once

#include <hwy/highway.h>
#include <hwy/targets.h>

#include <atomic>
#include <cstddef>
#include <type_traits>

#include "kernels/cpu.hpp"

namespace opgen::kernels {
namespace {

// The function pointer type of a HWY_EXPORT table.
template <auto& kTable>
using DispatchFn = std::remove_const_t<std::remove_reference_t<decltype(kTable[0])>>;

// The pointer a table's calls go through; null until resolved.
template <auto& kTable>
constinit std::atomic<DispatchFn<kTable>> dispatched{nullptr};

template <auto& kTable>
void ClearDispatched() noexcept {
  dispatched<kTable>.store(nullptr, std::memory_order_relaxed);
}

// The first call (and the first after ResetDispatchForTest): choose the
// target as Highway's first table entry would, remember its function, and
// link the variable into the list ResetDispatchForTest clears (once).
template <auto& kTable>
HWY_NOINLINE DispatchFn<kTable> ResolveDispatch() {
  static dispatch_detail::Link link{&ClearDispatched<kTable>, nullptr};
  static const bool linked = (dispatch_detail::Register(&link), true);
  (void)linked;
  hwy::ChosenTarget& chosen = hwy::GetChosenTarget();
  if (!chosen.IsInitialized()) chosen.Update(hwy::SupportedTargets());
  const std::size_t index = chosen.GetIndex();
  const DispatchFn<kTable> fn = kTable[index];
  // Index 0 is Highway's chooser: another thread reset the chosen target
  // between the two lines above. Call it, and resolve again next time.
  if (index != 0) dispatched<kTable>.store(fn, std::memory_order_relaxed);
  return fn;
}

template <auto& kTable>
HWY_INLINE DispatchFn<kTable> Dispatched() {
  const DispatchFn<kTable> fn = dispatched<kTable>.load(std::memory_order_relaxed);
  return HWY_LIKELY(fn != nullptr) ? fn : ResolveDispatch<kTable>();
}

}  // namespace
}  // namespace opgen::kernels

#if HWY_IDE || HWY_DISPATCH_WORKAROUND || ((HWY_TARGETS & (HWY_TARGETS - 1)) == 0)
// One target compiled (a static dispatch) or Highway's MSVC 2017 form: as is.
#define OPGEN_DYNAMIC_DISPATCH(FUNC_NAME) HWY_DYNAMIC_DISPATCH(FUNC_NAME)
#else
#define OPGEN_DYNAMIC_DISPATCH(FUNC_NAME) \
  (*::opgen::kernels::Dispatched<HWY_DISPATCH_TABLE(FUNC_NAME)>())
#endif
