// The buffer cache's side in the runtime (opgen/memory.hpp is the public
// one): tensor.cpp's large allocations take from it and give back to it.
#pragma once

#include <cstddef>

namespace opgen::detail {

/// A cached block of at least `bytes` and at most a quarter more, taken out
/// of the cache, or null. `capacity` receives its size.
void* take_cached_block(std::size_t bytes, std::size_t& capacity) noexcept;

/// Keeps `block` (of `capacity` bytes, from posix_memalign) in the cache,
/// or frees it when the cache is off or the block is over the limit.
void give_cached_block(void* block, std::size_t capacity) noexcept;

}  // namespace opgen::detail
