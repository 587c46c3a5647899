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

// The target HWY_DYNAMIC_DISPATCH picks right now (dispatch_probe.cpp).
std::int64_t DispatchedTarget();

// Restores normal target selection even when a REQUIRE assertion throws.
struct TargetMockReset {
  TargetMockReset() = default;
  TargetMockReset(const TargetMockReset&) = delete;
  TargetMockReset& operator=(const TargetMockReset&) = delete;
  ~TargetMockReset() {
    hwy::SetSupportedTargetsForTest(0);
    SetDigestTarget("");
  }
};

// Calls body(target) for every target. SetSupportedTargetsForTest also
// resets Highway's cached choice, so the next dispatched call re-selects;
// the probe checks that it selected `target`. Failures inside body carry the
// target name, and so do the digests of the results (digest.hpp).
template <class Body>
void ForEachTarget(Body&& body) {
  hwy::SetSupportedTargetsForTest(0);
  const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
  BOOST_TEST_REQUIRE(!targets.empty());
  const TargetMockReset reset;
  for (const std::int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    SetDigestTarget(hwy::TargetName(target));
    BOOST_TEST_CONTEXT("target " << hwy::TargetName(target)) {
      BOOST_TEST_REQUIRE(DispatchedTarget() == target);
      body(target);
    }
  }
}

// Calls body() with kernels::FastDivider() false, then true, then restores
// what this CPU is: kernels that choose by it between a division and a
// refined estimate (FastFormOp's kFullFirstOfFour) run both forms on any CPU.
template <class Body>
void ForEachDividerForm(Body&& body) {
  struct Reset {
    ~Reset() { kernels::SetFastDividerForTest(-1); }
  } const reset;
  for (const int fast : {0, 1}) {
    kernels::SetFastDividerForTest(fast);
    BOOST_TEST_CONTEXT("FastDivider " << fast) { body(); }
  }
}

// Calls body() with kernels::NarrowStores() false, then true, then restores
// what this CPU is: the binary kernels that choose their vector width by it
// (transform-inl.h's WithStoreTag) run both forms on any AVX-512 CPU.
template <class Body>
void ForEachStoreForm(Body&& body) {
  struct Reset {
    ~Reset() { kernels::SetNarrowStoresForTest(-1); }
  } const reset;
  for (const int narrow : {0, 1}) {
    kernels::SetNarrowStoresForTest(narrow);
    BOOST_TEST_CONTEXT("NarrowStores " << narrow) { body(); }
  }
}

// Whether `target` is one of Highway's AVX-512 targets, whose float32
// vectors hold 16 lanes.
inline bool IsAvx512(std::int64_t target) { return target == HWY_AVX3 || target == HWY_AVX3_DL; }

// "AVX3 AVX2 SSE4 SSSE3 SCALAR": the targets ForEachTarget visits.
inline std::string TargetNames() {
  hwy::SetSupportedTargetsForTest(0);
  std::string names;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    if (!names.empty()) names += ' ';
    names += hwy::TargetName(target);
  }
  return names;
}

}  // namespace opgen::kernel_tests
