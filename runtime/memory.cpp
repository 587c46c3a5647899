// The buffer cache (opgen/memory.hpp): freed large blocks, kept for reuse.
#include "opgen/memory.hpp"

#include <pthread.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>

#include "buffer_cache.hpp"

namespace opgen {

namespace detail {

namespace {

#ifdef OPGEN_TRACKING_SANITIZER
constexpr std::size_t kBuiltInLimit = 0;
#else
constexpr std::size_t kBuiltInLimit = kDefaultBufferCacheLimit;
#endif

// The limit the cache starts with: OPGEN_BUFFER_CACHE_LIMIT (a number of
// bytes, e.g. 0 under Valgrind) when set to one, else the built-in one.
std::size_t initial_limit() noexcept {
  const char* env = std::getenv("OPGEN_BUFFER_CACHE_LIMIT");
  if (env == nullptr || *env < '0' || *env > '9') return kBuiltInLimit;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(env, &end, 10);
  if (errno != 0 || *end != '\0') return kBuiltInLimit;
  return static_cast<std::size_t>(v);
}

// At most this many blocks, so a lookup is a short scan under the lock.
constexpr std::size_t kMaxBlocks = 16;

struct Block {
  void* block;
  std::size_t capacity;
  std::uint64_t kept;  // when it was kept: the smallest is given back first
};

// Blocks given back to the system, freed after the lock is released
// (freeing a large block unmaps it, which takes microseconds).
struct Evicted {
  void* blocks[kMaxBlocks + 1] = {};
  std::size_t count = 0;
  void free_all() noexcept {
    for (std::size_t i = 0; i < count; ++i) std::free(blocks[i]);
  }
};

// Its functions are noexcept: std::mutex::lock throws only for errors
// glibc does not report for a default mutex (deadlock detection is off).
class BufferCache {
 public:
  void* take(std::size_t bytes, std::size_t& capacity) noexcept {
    if (limit_.load(std::memory_order_relaxed) == 0) return nullptr;
    const std::size_t most = bytes + bytes / 4;
    std::lock_guard<std::mutex> lock(mutex_);
    std::size_t best = count_;
    for (std::size_t i = 0; i < count_; ++i) {
      const std::size_t c = blocks_[i].capacity;
      if (c >= bytes && c <= most && (best == count_ || c < blocks_[best].capacity)) best = i;
    }
    if (best == count_) return nullptr;
    void* block = blocks_[best].block;
    capacity = blocks_[best].capacity;
    held_.store(held_.load(std::memory_order_relaxed) - capacity, std::memory_order_relaxed);
    blocks_[best] = blocks_[--count_];
    return block;
  }

  void give(void* block, std::size_t capacity) noexcept {
    locked([&](Evicted& evicted) {
      const std::size_t limit = limit_.load(std::memory_order_relaxed);
      if (capacity > limit) {
        evicted.blocks[evicted.count++] = block;
      } else {
        shrink_to(limit - capacity, kMaxBlocks - 1, evicted);
        blocks_[count_++] = Block{block, capacity, ++clock_};
        held_.store(held_.load(std::memory_order_relaxed) + capacity, std::memory_order_relaxed);
      }
    });
  }

  void set_limit(std::size_t limit) noexcept {
    locked([&](Evicted& evicted) {
      limit_.store(limit, std::memory_order_relaxed);
      shrink_to(limit, kMaxBlocks, evicted);
    });
  }

  void release() noexcept {
    locked([&](Evicted& evicted) { shrink_to(0, 0, evicted); });
  }

  // fork() copies only the thread that calls it: another thread may have
  // held the lock, or been halfway through the list, at that moment. The
  // child (pthread_atfork, registered by cache() below) starts from a new
  // unlocked mutex and an empty list; the blocks the parent held stay
  // mapped in the child, unused (the parent's pages, shared until
  // written). Nothing is locked across fork, so a fork from a signal
  // handler, or from another fork handler that allocates, cannot deadlock.
  void reset_after_fork() noexcept {
    new (&mutex_) std::mutex;  // the old one, maybe locked, is abandoned
    count_ = 0;
    held_.store(0, std::memory_order_relaxed);
  }

  std::size_t limit() const noexcept { return limit_.load(std::memory_order_relaxed); }
  std::size_t held() const noexcept { return held_.load(std::memory_order_relaxed); }

 private:
  // Runs change(evicted) with the lock held, then frees the blocks it
  // evicted once the lock is released.
  template <class Change>
  void locked(const Change& change) noexcept {
    Evicted evicted;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      change(evicted);
    }
    evicted.free_all();
  }

  // Gives back the least recently kept blocks until at most `bytes` in at
  // most `blocks` blocks remain. Called with the lock held.
  void shrink_to(std::size_t bytes, std::size_t blocks, Evicted& evicted) noexcept {
    std::size_t held = held_.load(std::memory_order_relaxed);
    while (count_ > 0 && (held > bytes || count_ > blocks)) {
      std::size_t oldest = 0;
      for (std::size_t i = 1; i < count_; ++i) {
        if (blocks_[i].kept < blocks_[oldest].kept) oldest = i;
      }
      evicted.blocks[evicted.count++] = blocks_[oldest].block;
      held -= blocks_[oldest].capacity;
      blocks_[oldest] = blocks_[--count_];
    }
    held_.store(held, std::memory_order_relaxed);
  }

  std::mutex mutex_;
  Block blocks_[kMaxBlocks];
  std::size_t count_ = 0;
  std::uint64_t clock_ = 0;
  // Written under the lock; read without it by the accessors (and by take,
  // which only skips the lock when the cache is off).
  std::atomic<std::size_t> limit_{initial_limit()};
  std::atomic<std::size_t> held_{0};
};

// Built in static storage on first use and never destroyed: a tensor held
// by a static object may be freed after this file's statics would have
// been. Its blocks stay reachable from here, not leaked, for leak checkers.
BufferCache& cache() noexcept {
  alignas(BufferCache) static unsigned char storage[sizeof(BufferCache)];
  static BufferCache* const instance = [] {
    BufferCache* made = new (storage) BufferCache;
    // The handler reaches the object through storage, not instance, which
    // is set only when this returns.
    (void)pthread_atfork(nullptr, nullptr, [] {
      std::launder(reinterpret_cast<BufferCache*>(storage))->reset_after_fork();
    });
    return made;
  }();
  return *instance;
}

}  // namespace

void* take_cached_block(std::size_t bytes, std::size_t& capacity) noexcept {
  return cache().take(bytes, capacity);
}

void give_cached_block(void* block, std::size_t capacity) noexcept {
  cache().give(block, capacity);
}

}  // namespace detail

void set_buffer_cache_limit(std::size_t bytes) { detail::cache().set_limit(bytes); }

std::size_t buffer_cache_limit() noexcept { return detail::cache().limit(); }

std::size_t buffer_cache_bytes() noexcept { return detail::cache().held(); }

void release_buffer_cache() noexcept {
  detail::cache().release();
  detail::release_small_blocks();
}

}  // namespace opgen
