// Facts about the CPU that Highway's targets do not tell apart: kernels
// whose best form differs between microarchitectures of one target read
// them at run time, once per call. Also the output size from which stores
// stream, a run-time value so that tests can exercise the streamed loops on
// small arrays.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace opgen::kernels {

// Hidden: only the kernels read these, and code in the same shared library
// then reads them directly. Exported, each read would first load the
// variable's address from the GOT, a second load that depends on the first:
// such chains of loads at a kernel's entry wait on the previous call's
// stores whose addresses match theirs in the low 12 bits, which took up to
// 4 ns per call on Zen 5 (see OPGEN_DYNAMIC_DISPATCH in dispatch.h).
#if defined(__GNUC__)
#define OPGEN_KERNELS_HIDDEN __attribute__((visibility("hidden")))
#else
#define OPGEN_KERNELS_HIDDEN
#endif

namespace cpu_detail {
// Set when the library is loaded (cpu.cpp); false until then, which only
// costs speed: either form is within the kernel's stated bound
// (reciprocal's are bit-identical).
extern OPGEN_KERNELS_HIDDEN std::atomic<bool> fast_divider;
extern OPGEN_KERNELS_HIDDEN std::atomic<bool> narrow_stores;
extern OPGEN_KERNELS_HIDDEN std::atomic<std::size_t> stream_bytes;
}  // namespace cpu_detail

/// Whether a 512-bit division is quick next to the FMA units, so that
/// kernels divide more than they refine a reciprocal estimate by FMAs: on
/// AMD's AVX-512 CPUs (Zen 4 and later) a zmm vdivps issues about every 5
/// cycles, and reciprocal at 1K took 80 ns with three vectors in four
/// divided and the fourth refined, against 106 all divided and 124-143
/// with three in four refined (Zen 5: 42 ns against 87 with three in four
/// refined); on Intel's (Sapphire Rapids class) it issues every 10 cycles
/// or more and refining wins.
inline bool FastDivider() noexcept {
  return cpu_detail::fast_divider.load(std::memory_order_relaxed);
}

/// Overrides FastDivider for tests, so that both forms run on any CPU: 0 or
/// 1, or -1 for what this CPU is.
void SetFastDividerForTest(int value) noexcept;

/// Whether ops that do little besides their loads and stores (add, maximum,
/// abs, round) run faster in 256-bit vectors than in 512-bit ones: on Zen 4
/// (AMD family 19h), whose zmm stores take two cycles of the store path,
/// add, sub, mul, maximum and minimum at 1M floats took 5-10 % less time in
/// ymm vectors (ops_bench, interleaved runs), and in the L1 cache ymm loops
/// wait far less often on older stores whose addresses match in the low 12
/// bits. Not on Zen 5 (full-width 512-bit units; 1K add 29 ns in zmm
/// vectors against 50 in ymm, 4K 107 against 196, rms_norm 1K 84-87
/// against 97, medians over 64 buffer placements) nor on Intel's (two
/// 512-bit stores per cycle). transform-inl.h's WithStoreTag, its
/// WithRowTag (rows past 16 MiB, which Zen 4 also reads faster in 256-bit
/// vectors) and rms_norm's output pass (normalize.cpp) read it.
inline bool NarrowStores() noexcept {
  return cpu_detail::narrow_stores.load(std::memory_order_relaxed);
}

/// Overrides NarrowStores for tests, as SetFastDividerForTest.
void SetNarrowStoresForTest(int value) noexcept;

/// The default of StreamBytes: 16 MiB, far past the last-level caches of
/// the CPUs measured (transform-inl.h says why stores stream).
inline constexpr std::size_t kDefaultStreamBytes = std::size_t{16} << 20;

/// Outputs of at least this many bytes are written with streaming stores
/// (transform-inl.h): kDefaultStreamBytes unless a test set it.
inline std::size_t StreamBytes() noexcept {
  return cpu_detail::stream_bytes.load(std::memory_order_relaxed);
}

/// Overrides StreamBytes for tests, so that the streamed loops and their
/// rows run on arrays of a few hundred KiB, not 16 MiB (which took most of
/// some suites' time under qemu); 0 restores kDefaultStreamBytes. Only the
/// stores change with it, never a result.
void SetStreamBytesForTest(std::size_t bytes) noexcept;

namespace dispatch_detail {
// A resolved dispatch pointer (dispatch.h), linked into one list on its
// first resolution so that ResetDispatchForTest can clear it.
struct Link {
  void (*clear)() noexcept;
  Link* next;
};
OPGEN_KERNELS_HIDDEN void Register(Link* link) noexcept;
}  // namespace dispatch_detail

/// Makes every kernel choose its SIMD target again on its next call, from
/// Highway's chosen target: call it after hwy::SetSupportedTargetsForTest
/// (or hwy::DisableTargets), since each kernel otherwise keeps the function
/// it resolved on its first call (dispatch.h). Not while kernels run on
/// other threads. Reaches the kernels of this copy of the library only.
void ResetDispatchForTest() noexcept;

/// The SIMD target (a HWY_* target bit) the kernels' dispatch calls now: a
/// function compiled for every target and dispatched as the kernels are.
std::int64_t DispatchedTargetForTest();

}  // namespace opgen::kernels
