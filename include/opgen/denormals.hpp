// Explicit control of denormal (subnormal) floating-point numbers.
//
// opgen's kernels never change the floating-point environment: denormal
// inputs and results are computed exactly as IEEE 754 says, at the speed
// the CPU gives them (on x86, a denormal operand can make an instruction
// 50-100 times slower). A program that prefers speed to gradual underflow
// opts in for a scope:
//
//   {
//     opgen::FlushDenormals ftz;      // this thread: denormals become zero
//     opgen::nn::softmax(x, -1, y);
//   }                                 // the previous mode is back
#pragma once

#include <cstdint>

namespace opgen {

/// While alive, flushes denormal results to zero and treats denormal inputs
/// as zero on the calling thread: FTZ and DAZ in MXCSR on x86, FZ in FPCR on
/// Arm (AArch64). The destructor puts those bits back as the constructor
/// found them (other modes stay as they are), so guards nest. Affects every floating-point operation of the thread
/// (opgen's and the caller's), and the pool threads of a parallel call
/// (opgen/threads.hpp) for that call. On other CPUs it does nothing
/// (supported() is false).
class FlushDenormals {
 public:
  FlushDenormals() noexcept;
  ~FlushDenormals();
  FlushDenormals(const FlushDenormals&) = delete;
  FlushDenormals& operator=(const FlushDenormals&) = delete;

  /// True when this CPU has a flush-to-zero mode the guard sets.
  static bool supported() noexcept;

 private:
  std::uint64_t saved_;
};

/// True when the calling thread currently flushes denormal results to zero
/// (FTZ on x86, FZ on Arm), whoever set the mode.
bool denormals_flushed() noexcept;

}  // namespace opgen
