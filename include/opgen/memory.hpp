// The buffer cache: large tensor buffers are kept for reuse when freed.
//
// A tensor's buffer of 2 MiB or more is allocated on huge pages, and the
// first write to each of them faults it in: the kernel zeroes 2 MiB per
// fault. A call that allocates its result (`y = opgen::math::exp(x)`) did
// that on every call, and on 1M float32 elements it took several times
// as long as the same call into an `out` tensor. So when the last handle
// of such a buffer goes, the buffer is kept (up to
// buffer_cache_limit() bytes in all, the least recently kept given back
// first), and the next allocation of about its size (the buffer may be up
// to a quarter larger) takes it, already faulted in. A reused buffer holds
// whatever it last held, as a fresh Tensor::empty may; Tensor::zeros
// still clears it. Smaller buffers come from malloc directly, which reuses
// them well by itself, except the smallest (up to 64 floats): each thread
// keeps a few of its freed ones, at most 8 KiB, for its next small tensors,
// and frees them when it exits (malloc and free took a fifth of a call on
// a one-element tensor).
//
// The environment variable OPGEN_BUFFER_CACHE_LIMIT (a number of bytes)
// sets the limit the cache starts with; 0 turns it off, and the threads'
// small blocks with it, for tools that track allocations such as Valgrind.
// Builds with AddressSanitizer, HWAddressSanitizer or MemorySanitizer start
// with it off and never keep small blocks, so a use after free of any
// tensor is still reported.
#pragma once

#include <cstddef>

namespace opgen {

/// Default of buffer_cache_limit(): 256 MiB.
inline constexpr std::size_t kDefaultBufferCacheLimit = std::size_t{256} << 20;

/// Sets how many bytes of freed buffers the cache may hold. 0 turns it off;
/// what it holds over the new limit is freed now. Safe to call from any
/// thread at any time.
void set_buffer_cache_limit(std::size_t bytes);

/// The limit set by set_buffer_cache_limit (unless changed:
/// OPGEN_BUFFER_CACHE_LIMIT when set, else kDefaultBufferCacheLimit, or 0 in
/// builds with a sanitizer that tracks allocations).
std::size_t buffer_cache_limit() noexcept;

/// How many bytes of freed buffers the cache holds now.
std::size_t buffer_cache_bytes() noexcept;

/// Frees every buffer the cache holds, and the small blocks the calling
/// thread keeps (the limit stays as it is).
void release_buffer_cache() noexcept;

}  // namespace opgen
