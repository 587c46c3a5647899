// The calling thread's floating-point control register: MXCSR on x86, FPCR
// on AArch64 (0 and a no-op elsewhere). The guard of opgen/denormals.hpp
// sets it; the thread pool copies the caller's into its threads for the
// length of a parallel call, so that they round and flush as the caller does.
#pragma once

#include <cstdint>

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#include <xmmintrin.h>
#define OPGEN_FP_CONTROL_X86 1
#elif defined(__aarch64__)
#define OPGEN_FP_CONTROL_ARM64 1
#endif

namespace opgen::detail {

#if defined(OPGEN_FP_CONTROL_X86)
// MXCSR bits 0-5 are sticky exception flags, not modes.
inline constexpr std::uint64_t kFpStatusBits = 0x3F;
// FTZ (bit 15) and DAZ (bit 6).
inline constexpr std::uint64_t kFlushBits = (1u << 15) | (1u << 6);
inline constexpr std::uint64_t kFlushResultBit = 1u << 15;
inline std::uint64_t fp_control() noexcept { return _mm_getcsr(); }
inline void set_fp_control(std::uint64_t v) noexcept {
  _mm_setcsr(static_cast<unsigned int>(v));
}
#elif defined(OPGEN_FP_CONTROL_ARM64)
inline constexpr std::uint64_t kFpStatusBits = 0;  // FPSR holds them
// FZ (bit 24): flushes denormal inputs and results of single and double
// precision (FZ16, for half precision, is left alone).
inline constexpr std::uint64_t kFlushBits = std::uint64_t{1} << 24;
inline constexpr std::uint64_t kFlushResultBit = kFlushBits;
inline std::uint64_t fp_control() noexcept {
  std::uint64_t v;
  __asm__ __volatile__("mrs %0, fpcr" : "=r"(v));
  return v;
}
inline void set_fp_control(std::uint64_t v) noexcept {
  __asm__ __volatile__("msr fpcr, %0" : : "r"(v));
}
#else
inline constexpr std::uint64_t kFpStatusBits = 0;
inline constexpr std::uint64_t kFlushBits = 0;
inline constexpr std::uint64_t kFlushResultBit = 0;
inline std::uint64_t fp_control() noexcept { return 0; }
inline void set_fp_control(std::uint64_t) noexcept {}
#endif

/// The modes of a control word without its status flags, to compare and copy.
inline std::uint64_t fp_modes(std::uint64_t control) noexcept { return control & ~kFpStatusBits; }

}  // namespace opgen::detail
