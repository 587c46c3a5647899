// Optional multi-threading of large pointwise and axis-wise calls.
//
// Off by default: every op runs on the calling thread. After
// `opgen::set_num_threads(2)`, calls whose output has at least
// `opgen::parallel_threshold()` input elements split their work into
// pieces that a small pool of threads and the caller share. Each element
// (or reduced block) is computed by the same kernel code either way, so
// results are bit-identical to the single-threaded path for any thread
// count, except that a NaN result may come out as a NaN of another sign or
// payload (softmax over short rows; kernels/softmax.cpp, SequentialRow). A
// reduction to one block, such as the sum of every element, stays on the
// calling thread: splitting it would change its order of summation.
#pragma once

#include <cstdint>

namespace opgen {

/// Default of parallel_threshold(): 256K elements (1 MiB of float32). Below
/// it, waking the pool costs about as much as a memory-bound op saves.
inline constexpr std::int64_t kDefaultParallelThreshold = std::int64_t{1} << 18;

/// Sets how many threads (the caller included) large calls may use: 1 (the
/// default) turns the parallel path off, 0 means one per hardware thread.
/// Takes effect at the next call; the pool's threads start on first use and
/// stop when the count shrinks or the program exits. Safe to call from any
/// thread, but not while another thread is inside an op. Throws
/// `opgen::Error` for a negative count or one above 256.
void set_num_threads(int n);

/// The thread count set by set_num_threads (1 unless changed).
int num_threads() noexcept;

/// Sets the least number of elements (of the output, or of the input of a
/// reduction) for which a call runs in parallel (when num_threads() > 1).
/// Throws `opgen::Error` when negative.
void set_parallel_threshold(std::int64_t elements);

/// The threshold set by set_parallel_threshold (kDefaultParallelThreshold
/// unless changed).
std::int64_t parallel_threshold() noexcept;

}  // namespace opgen
