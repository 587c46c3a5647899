// Runs a test body once per SIMD target that is both compiled in and
// supported by this CPU, with Highway's dynamic dispatch forced to it.
#pragma once

#include <hwy/targets.h>

#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/cpu.hpp"
#include "tests/kernels/digest.hpp"

namespace opgen::kernel_tests {

// The target the kernels' dispatch picks right now, if HWY_DYNAMIC_DISPATCH
// in this program picks the same one, else -1 (dispatch_probe.cpp).
std::int64_t DispatchedTarget();

// Forces Highway's choice to `target` (0: what the CPU supports) and makes
// every kernel choose again on its next call (ResetDispatchForTest).
inline void SetTargetForTest(std::int64_t target) {
  hwy::SetSupportedTargetsForTest(target);
  kernels::ResetDispatchForTest();
}

// Restores normal target selection even when a REQUIRE assertion throws.
struct TargetMockReset {
  TargetMockReset() = default;
  TargetMockReset(const TargetMockReset&) = delete;
  TargetMockReset& operator=(const TargetMockReset&) = delete;
  ~TargetMockReset() {
    SetTargetForTest(0);
    SetDigestTarget("");
  }
};

// Calls body(target) for every target. SetTargetForTest resets Highway's
// cached choice and the kernels' resolved functions, so the next dispatched
// call re-selects; the probe checks that it selected `target`. Failures
// inside body carry the target name, and so do the digests of the results
// (digest.hpp).
template <class Body>
void ForEachTarget(Body&& body) {
  SetTargetForTest(0);
  const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
  BOOST_TEST_REQUIRE(!targets.empty());
  const TargetMockReset reset;
  for (const std::int64_t target : targets) {
    SetTargetForTest(target);
    SetDigestTarget(hwy::TargetName(target));
    BOOST_TEST_CONTEXT("target " << hwy::TargetName(target)) {
      BOOST_TEST_REQUIRE(DispatchedTarget() == target);
      body(target);
    }
  }
}

// Calls body() with a CPU fact forced false, then true (`set` is its test
// override: 0, 1, or -1 for what this CPU is), then restores what this CPU
// is; failures inside body carry `name` and the value.
template <class Body>
void ForEachForm(void (*set)(int) noexcept, const char* name, Body&& body) {
  struct Reset {
    void (*set)(int) noexcept;
    ~Reset() { set(-1); }
  } const reset{set};
  for (const int value : {0, 1}) {
    set(value);
    BOOST_TEST_CONTEXT(name << " " << value) { body(); }
  }
}

// kernels::FastDivider() false, then true: kernels that choose by it between
// a division and a refined estimate (FastFormOp's DividerShare) run both
// forms on any CPU.
template <class Body>
void ForEachDividerForm(Body&& body) {
  ForEachForm(kernels::SetFastDividerForTest, "FastDivider", body);
}

// kernels::NarrowStores() false, then true: the kernels that choose their
// vector width by it (transform-inl.h's WithStoreTag: LightUnaryTransform,
// LightBinaryTransform; WithRowTag: the reductions of long rows;
// normalize.cpp's NormRows) run both forms on any AVX-512 CPU.
template <class Body>
void ForEachStoreForm(Body&& body) {
  ForEachForm(kernels::SetNarrowStoresForTest, "NarrowStores", body);
}

// Whether `target` is one of Highway's AVX-512 targets, whose float32
// vectors hold 16 lanes.
inline bool IsAvx512(std::int64_t target) { return target == HWY_AVX3 || target == HWY_AVX3_DL; }

// Whether `target` has fused multiply-add (HWY_NATIVE_FMA): x86's AVX2 and
// AVX-512 targets, and every vector target on 64-bit Arm.
inline bool HasFma(std::int64_t target) {
#if HWY_ARCH_X86
  return target == HWY_AVX2 || IsAvx512(target);
#elif HWY_ARCH_ARM_A64
  return target != HWY_SCALAR && target != HWY_EMU128;
#else
  static_cast<void>(target);
  return false;
#endif
}

// body() on every target: in both NarrowStores forms on the AVX-512 targets,
// the only ones whose kernels read it (the HWY_AVX3 branches of
// transform-inl.h and normalize.cpp), once on the others, where both forms
// run the same code (twice the time for nothing under qemu, docs/arm.md).
// The digests of the narrow form go under "<target>/narrow", so that each
// form's results are compared with the other targets' (digest.hpp).
template <class Body>
void ForEachTargetAndStoreForm(Body&& body) {
  ForEachTarget([&](std::int64_t target) {
    if (!IsAvx512(target)) return body();
    const std::string name = hwy::TargetName(target);
    struct Reset {
      const std::string& name;
      ~Reset() { SetDigestTarget(name); }
    } const reset{name};
    ForEachStoreForm([&] {
      SetDigestTarget(kernels::NarrowStores() ? name + "/narrow" : name);
      body();
    });
  });
}

// "AVX3 AVX2 SSE4 SSSE3 SCALAR": the targets ForEachTarget visits.
inline std::string TargetNames() {
  SetTargetForTest(0);
  std::string names;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    if (!names.empty()) names += ' ';
    names += hwy::TargetName(target);
  }
  return names;
}

}  // namespace opgen::kernel_tests
