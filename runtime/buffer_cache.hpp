// The buffer cache's side in the runtime (opgen/memory.hpp is the public
// one): tensor.cpp's large allocations take from it and give back to it.
#pragma once

#include <cstddef>

// Sanitizers that track allocations (use after free, uninitialised reads)
// would see a reused buffer as live and written: the caches start off
// (memory.cpp) or stay off (tensor.cpp's small blocks).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_HWADDRESS__)
#define OPGEN_TRACKING_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(hwaddress_sanitizer) || \
    __has_feature(memory_sanitizer)
#define OPGEN_TRACKING_SANITIZER 1
#endif
#endif

namespace opgen::detail {

/// A cached block of at least `bytes` and at most a quarter more, taken out
/// of the cache, or null. `capacity` receives its size.
void* take_cached_block(std::size_t bytes, std::size_t& capacity) noexcept;

/// Keeps `block` (of `capacity` bytes, from posix_memalign) in the cache,
/// or frees it when the cache is off or the block is over the limit.
void give_cached_block(void* block, std::size_t capacity) noexcept;

/// Frees the small blocks the calling thread keeps (tensor.cpp).
void release_small_blocks() noexcept;

}  // namespace opgen::detail
