// The buffer cache (opgen/memory.hpp): freed large buffers are reused,
// within the limit, and never shared by two live tensors.
#include "opgen/memory.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "opgen/opgen.hpp"

using opgen::DType;
using opgen::Shape;
using opgen::Tensor;

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// A bool tensor of `bytes` bytes of data (one byte per element).
Tensor large_bytes(std::size_t bytes) {
  return Tensor::empty(Shape{static_cast<std::int64_t>(bytes)}, DType::bool_);
}

// A float32 tensor of `mib` MiB of data.
Tensor large(std::size_t mib) {
  return Tensor::empty(Shape{static_cast<std::int64_t>(mib * kMiB / 4)}, DType::float32);
}

// runtime/memory.cpp's rule for the built-in limit.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_HWADDRESS__)
constexpr bool kTrackingSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(hwaddress_sanitizer) || \
    __has_feature(memory_sanitizer)
constexpr bool kTrackingSanitizer = true;
#else
constexpr bool kTrackingSanitizer = false;
#endif
#else
constexpr bool kTrackingSanitizer = false;
#endif

// Each test starts from an empty cache with `limit` and leaves the limit as
// it found it (0 in builds with AddressSanitizer).
struct CacheLimit {
  explicit CacheLimit(std::size_t limit) : saved(opgen::buffer_cache_limit()) {
    opgen::release_buffer_cache();
    opgen::set_buffer_cache_limit(limit);
  }
  ~CacheLimit() {
    opgen::release_buffer_cache();
    opgen::set_buffer_cache_limit(saved);
  }
  std::size_t saved;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(memory)

// Run twice by meson: as part of the suite (no OPGEN_BUFFER_CACHE_LIMIT:
// 256 MiB, or 0 under a sanitizer that tracks allocations) and alone as
// runtime-memory-environment, with OPGEN_BUFFER_CACHE_LIMIT=12345678.
BOOST_AUTO_TEST_CASE(initial_limit) {
  const char* env = std::getenv("OPGEN_BUFFER_CACHE_LIMIT");
  if (env != nullptr) {
    BOOST_TEST(opgen::buffer_cache_limit() == std::stoull(env));
  } else {
    BOOST_TEST(opgen::buffer_cache_limit() ==
               (kTrackingSanitizer ? std::size_t{0} : opgen::kDefaultBufferCacheLimit));
  }
}

BOOST_AUTO_TEST_CASE(a_freed_large_buffer_is_reused) {
  const CacheLimit scope(64 * kMiB);
  const void* first = nullptr;
  {
    Tensor a = large(4);
    first = a.raw_data();
    a.data<float>()[0] = 7.0f;
  }
  BOOST_TEST(opgen::buffer_cache_bytes() >= 4 * kMiB);
  BOOST_TEST(opgen::buffer_cache_bytes() < 5 * kMiB);
  const Tensor b = large(4);
  BOOST_TEST(b.raw_data() == first);
  BOOST_TEST(opgen::buffer_cache_bytes() == 0u);
}

BOOST_AUTO_TEST_CASE(zeros_clears_a_reused_buffer) {
  const CacheLimit scope(64 * kMiB);
  {
    Tensor a = large(4);
    for (std::int64_t i = 0; i < a.length(); ++i) a.data<float>()[i] = 1.0f;
  }
  const Tensor z = Tensor::zeros(Shape{static_cast<std::int64_t>(kMiB)}, DType::float32);
  BOOST_TEST(opgen::buffer_cache_bytes() == 0u);  // z took it
  bool all_zero = true;
  for (std::int64_t i = 0; i < z.length(); ++i) all_zero &= z.data<float>()[i] == 0.0f;
  BOOST_TEST(all_zero);
}

BOOST_AUTO_TEST_CASE(sizes_must_be_close) {
  const CacheLimit scope(64 * kMiB);
  const void* p = nullptr;
  {
    Tensor a = large(8);
    p = a.raw_data();
  }
  {
    // 4 MiB fits in the cached 8 MiB but would waste half of it.
    const Tensor b = large(4);
    BOOST_TEST(b.raw_data() != p);
    BOOST_TEST(opgen::buffer_cache_bytes() >= 8 * kMiB);
  }
  // 7 MiB takes it: 8 is within a quarter of 7 (the cached 4 MiB is not).
  const Tensor c = large(7);
  BOOST_TEST(c.raw_data() == p);
  BOOST_TEST(opgen::buffer_cache_bytes() >= 4 * kMiB);
  BOOST_TEST(opgen::buffer_cache_bytes() < 5 * kMiB);
}

BOOST_AUTO_TEST_CASE(the_smallest_block_that_fits) {
  const CacheLimit scope(64 * kMiB);
  const void* p8 = nullptr;
  const void* p75 = nullptr;
  {
    Tensor a = large(8), b = large_bytes(15 * kMiB / 2);
    p8 = a.raw_data();
    p75 = b.raw_data();
  }
  // 7 MiB: both fit within a quarter; the 7.5 MiB one is taken.
  const Tensor c = large(7);
  BOOST_TEST(c.raw_data() == p75);
  // The 8 MiB block holds 8 MiB + 64 bytes (the header): it is taken for
  // a block of at least 6710938 bytes, whose quarter more reaches it, so
  // for 6710874 bytes of data and not one byte less.
  const Tensor d = large_bytes(6710873);
  BOOST_TEST(d.raw_data() != p8);
  const Tensor e = large_bytes(6710874);
  BOOST_TEST(e.raw_data() == p8);
}

BOOST_AUTO_TEST_CASE(small_buffers_are_not_cached) {
  const CacheLimit scope(64 * kMiB);
  // With its 64-byte header, a tensor of 2 MiB - 64 bytes is the first
  // cached size.
  { const Tensor a = large(1); }
  { const Tensor a = large_bytes(2 * kMiB - 128); }
  BOOST_TEST(opgen::buffer_cache_bytes() == 0u);
  { const Tensor a = large_bytes(2 * kMiB - 64); }
  BOOST_TEST(opgen::buffer_cache_bytes() == 2 * kMiB);
}

BOOST_AUTO_TEST_CASE(the_limit_holds) {
  const CacheLimit scope(10 * kMiB);
  std::vector<const void*> kept;
  {
    std::vector<Tensor> ts;
    for (int i = 0; i < 4; ++i) ts.push_back(large(4));
    for (Tensor& t : ts) {
      kept.push_back(t.raw_data());
      t = Tensor();  // freed in order
    }
  }
  // Two of the four 4 MiB buffers fit in 10 MiB: the last two freed.
  BOOST_TEST(opgen::buffer_cache_bytes() > 8 * kMiB);
  BOOST_TEST(opgen::buffer_cache_bytes() <= 10 * kMiB);
  {
    const Tensor a = large(4), b = large(4);
    const bool newest = (a.raw_data() == kept[2] && b.raw_data() == kept[3]) ||
                        (a.raw_data() == kept[3] && b.raw_data() == kept[2]);
    BOOST_TEST(newest);
  }
  // A buffer larger than the limit is never kept.
  { const Tensor big = large(16); }
  BOOST_TEST(opgen::buffer_cache_bytes() <= 10 * kMiB);
  // Lowering the limit frees what is over it; 0 turns the cache off.
  opgen::set_buffer_cache_limit(5 * kMiB);
  BOOST_TEST(opgen::buffer_cache_bytes() > 4 * kMiB);
  BOOST_TEST(opgen::buffer_cache_bytes() <= 5 * kMiB);
  opgen::set_buffer_cache_limit(0);
  BOOST_TEST(opgen::buffer_cache_bytes() == 0u);
  { const Tensor a = large(4); }
  BOOST_TEST(opgen::buffer_cache_bytes() == 0u);
}

BOOST_AUTO_TEST_CASE(at_most_sixteen_buffers) {
  const CacheLimit scope(256 * kMiB);
  {
    std::vector<Tensor> ts;
    for (int i = 0; i < 20; ++i) ts.push_back(large(2));
  }
  BOOST_TEST(opgen::buffer_cache_bytes() > 16 * 2 * kMiB);
  BOOST_TEST(opgen::buffer_cache_bytes() < 17 * 2 * kMiB);
}

BOOST_AUTO_TEST_CASE(release_frees_everything) {
  const CacheLimit scope(64 * kMiB);
  { const Tensor a = large(4), b = large(8); }
  BOOST_TEST(opgen::buffer_cache_bytes() > 12 * kMiB);
  opgen::release_buffer_cache();
  BOOST_TEST(opgen::buffer_cache_bytes() == 0u);
  BOOST_TEST(opgen::buffer_cache_limit() == 64 * kMiB);
}

// The smallest tensors' blocks (runtime/tensor.cpp): a thread keeps those
// it frees for its next tensors of the same size class (here 1 to 3
// float32, in 192-byte blocks), even while it mallocs blocks of that size
// itself, which would otherwise take them back from malloc; not with the
// limit 0, nor in builds with a sanitizer that tracks allocations.
int reused_small_blocks() {
  opgen::release_buffer_cache();  // also this thread's small blocks
  std::vector<const void*> freed;
  {
    std::vector<Tensor> ts;
    for (int i = 0; i < 4; ++i) ts.push_back(Tensor::empty(Shape{3}, DType::float32));
    for (const Tensor& t : ts) freed.push_back(t.raw_data());
  }
  std::vector<void*> raw;
  for (int i = 0; i < 4; ++i) raw.push_back(std::malloc(192));
  int reused = 0;
  std::vector<Tensor> again;
  for (int i = 0; i < 4; ++i) {
    again.push_back(Tensor::full(Shape{1}, static_cast<float>(i)));
    for (const void* p : freed) reused += again.back().raw_data() == p;
  }
  for (int i = 0; i < 4; ++i) BOOST_TEST(again[static_cast<std::size_t>(i)].item<float>() == i);
  for (void* p : raw) std::free(p);
  return reused;
}

BOOST_AUTO_TEST_CASE(a_thread_keeps_its_small_blocks) {
  {
    const CacheLimit scope(64 * kMiB);
    BOOST_TEST(reused_small_blocks() == (kTrackingSanitizer ? 0 : 4));
  }
  {
    const CacheLimit scope(0);
    BOOST_TEST(reused_small_blocks() == 0);
  }
  // A thread's own cache, freed when it exits.
  int in_thread = -1;
  std::thread([&] {
    const CacheLimit scope(64 * kMiB);
    in_thread = reused_small_blocks();
  }).join();
  BOOST_TEST(in_thread == (kTrackingSanitizer ? 0 : 4));
}

// Results computed into reused buffers are the op's, and threads that
// allocate and free at once never get the same buffer while both hold it.
BOOST_AUTO_TEST_CASE(ops_and_threads) {
  const CacheLimit scope(32 * kMiB);
  const std::int64_t n = std::int64_t{1} << 20;  // 4 MiB of float32
  const Tensor x = Tensor::full(Shape{n}, 2.0f);
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        const Tensor y = opgen::math::mul(x, Tensor::full(Shape{1}, static_cast<float>(t + i)));
        const Tensor z = opgen::math::add(y, x);  // 2 (t + i) + 2
        const float want = 2.0f * static_cast<float>(t + i) + 2.0f;
        const float* zs = z.data<float>();
        for (std::int64_t k = 0; k < n; ++k) wrong[static_cast<std::size_t>(t)] += zs[k] != want;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int w : wrong) BOOST_TEST(w == 0);
  BOOST_TEST(opgen::buffer_cache_bytes() <= 32 * kMiB);
}

// A child forked while another thread allocates and frees large buffers
// can use the cache: it never inherits the lock held (a child that did
// would wait forever on its first large buffer). Each child gets 20 s; the
// first that has not finished by then is killed and ends the test. Without
// the fork handler, most of the 200 children hang.
BOOST_AUTO_TEST_CASE(fork_while_another_thread_uses_the_cache) {
  const CacheLimit scope(32 * kMiB);
  std::atomic<bool> stop{false};
  std::thread churn([&] {
    while (!stop.load(std::memory_order_relaxed)) {
      const Tensor t = large_bytes(3 * kMiB);
    }
  });
  int hung = 0, failed = 0, not_forked = 0;
  for (int i = 0; i < 200; ++i) {
    const pid_t child = fork();
    if (child < 0) {
      ++not_forked;
      break;
    }
    if (child == 0) {
      // Nothing may return into the test framework from here.
      try {
        { const Tensor t = large_bytes(3 * kMiB); }
        { const Tensor t = large_bytes(3 * kMiB); }
      } catch (...) {
        _exit(1);
      }
      _exit(0);
    }
    int status = 0;
    pid_t done = 0;
    for (int wait = 0; wait < 20000 && done == 0; ++wait) {
      done = waitpid(child, &status, WNOHANG);
      if (done == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (done == 0) {
      ++hung;
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      break;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
  }
  stop = true;
  churn.join();
  BOOST_TEST(not_forked == 0);
  BOOST_TEST(hung == 0);
  BOOST_TEST(failed == 0);
}

BOOST_AUTO_TEST_SUITE_END()
