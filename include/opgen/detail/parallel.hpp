// The drivers' entry to the optional thread pool (opgen/threads.hpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace opgen::detail {

/// The least output length a call runs in parallel at: the threshold when
/// more than one thread is set, else "never". One relaxed load on every
/// call, so that the single-threaded path costs nothing more.
extern std::atomic<std::int64_t> g_parallel_from;

/// True when a call over `n` elements should use the pool.
inline bool parallel_wanted(std::size_t n) noexcept {
  return static_cast<std::int64_t>(n) >= g_parallel_from.load(std::memory_order_relaxed);
}

/// Calls fn(ctx, begin, end) over [0, n) split into consecutive pieces, on
/// the pool's threads and the caller's, and returns when all are done.
/// Pieces are multiples of `grain` long (the last may be shorter), about
/// four per thread, taken in turn by whichever thread is free: a thread the
/// OS delays leaves its share to the others. The pieces run with the
/// caller's floating-point modes. fn must not throw.
using PieceFn = void (*)(const void* ctx, std::size_t begin, std::size_t end);
void parallel_for(std::size_t n, std::size_t grain, PieceFn fn, const void* ctx);

/// parallel_for over a callable `f(begin, end)`.
template <class F>
void parallel_for(std::size_t n, std::size_t grain, const F& f) {
  parallel_for(
      n, grain,
      [](const void* ctx, std::size_t begin, std::size_t end) {
        (*static_cast<const F*>(ctx))(begin, end);
      },
      &f);
}

}  // namespace opgen::detail
