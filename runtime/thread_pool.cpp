// The small thread pool behind opgen::set_num_threads (opgen/threads.hpp)
// and the drivers' parallel_for (opgen/detail/parallel.hpp).
//
// One parallel call at a time: the caller publishes a job, wakes the
// workers, takes pieces itself, then waits for the pieces the workers took.
// A second thread that calls while the pool is busy runs its call alone
// (same results; the pool is a speed-up, never a queue). Workers spin for
// a short while after a job before they sleep, so that back-to-back calls
// do not pay a futex wake-up each.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "fp_control.hpp"
#include "opgen/detail/parallel.hpp"
#include "opgen/error.hpp"
#include "opgen/threads.hpp"

namespace opgen {
namespace detail {

std::atomic<std::int64_t> g_parallel_from{std::numeric_limits<std::int64_t>::max()};

namespace {

// How long a worker keeps polling for the next job before it sleeps.
constexpr auto kSpin = std::chrono::microseconds(50);
constexpr int kMaxThreads = 256;
constexpr std::size_t kPiecesPerThread = 4;

void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

// One parallel call: pieces [k * piece, min(n, (k + 1) * piece)).
struct Job {
  PieceFn fn = nullptr;
  const void* ctx = nullptr;
  std::size_t n = 0;
  std::size_t piece = 0;
  std::size_t pieces = 0;
  std::uint64_t fp = 0;  // the caller's floating-point control word
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
};

// Runs pieces of `job` until none is left.
void work(Job& job) noexcept {
  for (;;) {
    const std::size_t k = job.next.fetch_add(1, std::memory_order_relaxed);
    if (k >= job.pieces) return;
    const std::size_t begin = k * job.piece;
    job.fn(job.ctx, begin, std::min(job.n, begin + job.piece));
    job.done.fetch_add(1, std::memory_order_release);
  }
}

class Pool {
 public:
  int threads() const noexcept { return threads_.load(std::memory_order_relaxed); }

  void set_threads(int n) {
    std::lock_guard<std::mutex> call(call_);  // waits for a running call
    threads_.store(n, std::memory_order_relaxed);
    if (workers_.size() + 1 > static_cast<std::size_t>(n)) stop_workers();
  }

  void run(Job& job) {
    std::unique_lock<std::mutex> call(call_, std::try_to_lock);
    const auto wanted = static_cast<std::size_t>(threads() - 1);
    if (!call.owns_lock() || wanted == 0) {
      work(job);  // busy with another thread's call: this one runs alone
      return;
    }
    if (workers_.size() != wanted) {
      stop_workers();
      start_workers(wanted);
    }
    {
      std::lock_guard<std::mutex> lock(m_);
      job_ = &job;
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    work(job);
    // The pieces the workers took: they are running, so spin; yield in
    // case one of them is preempted on a busy machine.
    for (unsigned spins = 0; job.done.load(std::memory_order_acquire) < job.pieces; ++spins) {
      if (spins < 4096) {
        cpu_relax();
      } else {
        std::this_thread::yield();
      }
    }
    // Workers that joined may still be between their last piece and
    // leaving: the job lives on this stack, so wait for them.
    std::unique_lock<std::mutex> lock(m_);
    idle_.wait(lock, [this] { return users_ == 0; });
    job_ = nullptr;
  }

 private:
  void start_workers(std::size_t count) {
    // The generation before the next job is published, so that a worker
    // that starts late still sees that job as new.
    const std::uint64_t seen = generation_.load(std::memory_order_relaxed);
    for (std::size_t i = 0; i < count; ++i) {
      workers_.emplace_back([this, seen] { worker_loop(seen); });
    }
  }

  void stop_workers() {
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
    std::lock_guard<std::mutex> lock(m_);
    stop_ = false;
  }

  void worker_loop(std::uint64_t seen) {
    for (;;) {
      const auto until = std::chrono::steady_clock::now() + kSpin;
      for (unsigned i = 1; generation_.load(std::memory_order_acquire) == seen; ++i) {
        cpu_relax();
        if (i % 256 == 0 && std::chrono::steady_clock::now() > until) break;
      }
      Job* job = nullptr;
      {
        std::unique_lock<std::mutex> lock(m_);
        wake_.wait(lock, [&] {
          return stop_ || generation_.load(std::memory_order_relaxed) != seen;
        });
        if (stop_) return;
        seen = generation_.load(std::memory_order_relaxed);
        job = job_;
        if (job == nullptr) continue;  // finished before this worker woke
        ++users_;
      }
      // The caller's rounding and flush-to-zero modes, for this job only.
      const std::uint64_t own = fp_control();
      const bool switch_modes = fp_modes(own) != fp_modes(job->fp);
      if (switch_modes) set_fp_control(fp_modes(job->fp) | (own & kFpStatusBits));
      work(*job);
      if (switch_modes) set_fp_control(own);
      std::lock_guard<std::mutex> lock(m_);
      if (--users_ == 0) idle_.notify_all();
    }
  }

  std::atomic<int> threads_{1};
  std::mutex call_;  // held for the length of a parallel call
  std::mutex m_;     // guards job_, users_, stop_ and the waits below
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::vector<std::thread> workers_;
  std::atomic<std::uint64_t> generation_{0};
  Job* job_ = nullptr;
  int users_ = 0;
  bool stop_ = false;
};

// Never destroyed: an op called from a static destructor must still find
// it, and sleeping workers do not keep the process from exiting.
Pool& pool() {
  static Pool* const p = new Pool;
  return *p;
}

std::atomic<std::int64_t> g_threshold{kDefaultParallelThreshold};

void update_parallel_from() noexcept {
  g_parallel_from.store(pool().threads() > 1 ? g_threshold.load(std::memory_order_relaxed)
                                             : std::numeric_limits<std::int64_t>::max(),
                        std::memory_order_relaxed);
}

}  // namespace

void parallel_for(std::size_t n, std::size_t grain, PieceFn fn, const void* ctx) {
  const auto threads = static_cast<std::size_t>(pool().threads());
  grain = std::max<std::size_t>(grain, 1);
  if (threads <= 1 || n <= grain) {
    fn(ctx, 0, n);
    return;
  }
  // About four pieces per thread, taken in turn: on a busy machine a
  // thread that is not scheduled in time leaves its share to the others
  // instead of holding up the call (the caller waits only for pieces
  // already taken). Large contiguous pieces keep the kernels' streaming.
  std::size_t piece = (n + kPiecesPerThread * threads - 1) / (kPiecesPerThread * threads);
  piece = (piece + grain - 1) / grain * grain;
  Job job;
  job.fn = fn;
  job.ctx = ctx;
  job.n = n;
  job.piece = piece;
  job.pieces = (n + piece - 1) / piece;
  job.fp = fp_control();
  pool().run(job);
}

}  // namespace detail

void set_num_threads(int n) {
  if (n < 0 || n > detail::kMaxThreads) {
    throw Error("set_num_threads(" + std::to_string(n) + "): the count must be between 0 and " +
                std::to_string(detail::kMaxThreads));
  }
  if (n == 0) n = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1,
                             detail::kMaxThreads);
  detail::pool().set_threads(n);
  detail::update_parallel_from();
}

int num_threads() noexcept { return detail::pool().threads(); }

void set_parallel_threshold(std::int64_t elements) {
  if (elements < 0) {
    throw Error("set_parallel_threshold(" + std::to_string(elements) +
                "): the threshold must not be negative");
  }
  detail::g_threshold.store(elements, std::memory_order_relaxed);
  detail::update_parallel_from();
}

std::int64_t parallel_threshold() noexcept {
  return detail::g_threshold.load(std::memory_order_relaxed);
}

}  // namespace opgen
