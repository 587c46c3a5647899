// The optional parallel path (opgen/threads.hpp): every driver that splits
// work across the pool must give results bit-identical to one thread, for
// several sizes (pieces of unequal length, sizes not a multiple of the
// grain) and thread counts. The threshold is lowered to 1 so that small
// sizes take the parallel path too; each comparison is byte for byte.
#include <atomic>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <opgen/detail/parallel.hpp>
#include <opgen/opgen.hpp>
#include <thread>
#include <vector>

#include "../runtime/error_text.hpp"


using opgen::DType;
using opgen::testing::error_text;
using opgen::Shape;
using opgen::Tensor;

namespace {

// Restores the default (one thread, default threshold) however a test ends.
struct ThreadSettings {
  ~ThreadSettings() {
    opgen::set_num_threads(1);
    opgen::set_parallel_threshold(opgen::kDefaultParallelThreshold);
  }
};

Tensor ramp(std::int64_t n, float scale, float shift) {
  Tensor t = Tensor::empty(Shape{n}, DType::float32);
  float* p = t.data<float>();
  for (std::int64_t i = 0; i < n; ++i) {
    p[i] = std::sin(static_cast<float>(i) * scale) * 6.0f + shift;
  }
  return t;
}

// An output tensor whose every byte is a sentinel, so that a piece the
// parallel path skipped shows.
Tensor sentinel(const Shape& shape) {
  Tensor t = Tensor::empty(shape, DType::float32);
  std::memset(t.raw_data(), 0x7f, t.nbytes());
  return t;
}

bool same_bytes(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() &&
         std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

// The results of every parallel driver on inputs of n elements.
std::vector<Tensor> run_ops(std::int64_t n) {
  const Tensor x = ramp(n, 0.37f, 0.0f);
  const Tensor y = ramp(n, 0.11f, 1.0f);
  std::vector<Tensor> out;
  Tensor r = sentinel(Shape{n});
  opgen::math::add(x, y, r);  // binary
  out.push_back(r);
  r = sentinel(Shape{n});
  opgen::math::exp(x, r);  // unary, transcendental
  out.push_back(r);
  r = sentinel(Shape{n});
  opgen::nn::sigmoid(x, r);
  out.push_back(r);
  out.push_back(opgen::math::where(opgen::math::less(x, y), x, y));  // ternary
  // Axis-wise: rows of 7 (blocks split between threads), and along the
  // outer dimension (inner > 1).
  if (n % 7 == 0) {
    Tensor rows = Tensor::empty(Shape{n / 7, 7}, DType::float32);
    std::memcpy(rows.raw_data(), x.raw_data(), x.nbytes());
    out.push_back(opgen::nn::softmax(rows, -1));
    out.push_back(opgen::nn::softmax(rows, 0));
    out.push_back(opgen::math::cumsum(rows, -1));
    // Reductions of rows (blocks split between threads), and of a middle
    // dimension (blocks with inner > 1).
    out.push_back(opgen::math::sum(rows, {1}));
    out.push_back(opgen::math::var(rows, {1}));
    out.push_back(opgen::math::argmax(rows, {1}));
    if (n % 49 == 0) {
      Tensor cube = Tensor::empty(Shape{n / 49, 7, 7}, DType::float32);
      std::memcpy(cube.raw_data(), x.raw_data(), x.nbytes());
      out.push_back(opgen::math::mean(cube, {1}));
      out.push_back(opgen::math::sum(cube, {0, 2}));  // scattered: the transposed copy
    }
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(threads)

// The rule: any thread count gives the single-threaded bytes.
BOOST_AUTO_TEST_CASE(results_are_identical_for_any_thread_count) {
  ThreadSettings restore;
  for (std::int64_t n : {1, 7, 49, 63, 64, 65, 1001, 4095 * 7, 70000, 49 * 1500}) {
    opgen::set_num_threads(1);
    const std::vector<Tensor> one = run_ops(n);
    opgen::set_parallel_threshold(1);
    for (int threads : {2, 3, 4}) {
      opgen::set_num_threads(threads);
      const std::vector<Tensor> many = run_ops(n);
      BOOST_REQUIRE_EQUAL(many.size(), one.size());
      for (std::size_t k = 0; k < one.size(); ++k) {
        BOOST_TEST(same_bytes(one[k], many[k]),
                   "n = " << n << ", " << threads << " threads, result " << k);
      }
    }
    opgen::set_parallel_threshold(opgen::kDefaultParallelThreshold);
  }
}

// At the default threshold a large array takes the parallel path.
BOOST_AUTO_TEST_CASE(large_arrays_are_identical) {
  ThreadSettings restore;
  const std::int64_t n = opgen::kDefaultParallelThreshold * 3 + 5;
  opgen::set_num_threads(1);
  const std::vector<Tensor> one = run_ops(n);
  opgen::set_num_threads(2);
  const std::vector<Tensor> two = run_ops(n);
  for (std::size_t k = 0; k < one.size(); ++k) BOOST_TEST(same_bytes(one[k], two[k]), k);
}

// Several program threads calling at once: one gets the pool, the others
// run alone; all results are right.
BOOST_AUTO_TEST_CASE(concurrent_callers) {
  ThreadSettings restore;
  opgen::set_num_threads(1);
  const std::vector<Tensor> expected = run_ops(7 * 5000);
  opgen::set_num_threads(2);
  opgen::set_parallel_threshold(1);
  std::vector<int> ok(4, 0);
  std::vector<std::thread> callers;
  for (std::size_t t = 0; t < ok.size(); ++t) {
    callers.emplace_back([&, t] {
      bool all = true;
      for (int rep = 0; rep < 20; ++rep) {
        const std::vector<Tensor> got = run_ops(7 * 5000);
        for (std::size_t k = 0; k < got.size(); ++k) all = all && same_bytes(got[k], expected[k]);
      }
      ok[t] = all ? 1 : 0;
    });
  }
  for (std::thread& c : callers) c.join();
  for (std::size_t t = 0; t < ok.size(); ++t) BOOST_TEST(ok[t] == 1, "caller " << t);
}

// The pool's threads compute with the caller's flush-to-zero mode: every
// product of a large array underflows to a denormal, which must be 0 in
// every piece under the guard.
BOOST_AUTO_TEST_CASE(pool_threads_use_the_callers_denormal_mode) {
  if (!opgen::FlushDenormals::supported()) return;
  ThreadSettings restore;
  opgen::set_num_threads(4);
  opgen::set_parallel_threshold(1);
  const std::int64_t n = 100000;
  const Tensor tiny = Tensor::full(Shape{n}, 1e-38f);
  const Tensor half = Tensor::full(Shape{n}, 0.5f);
  for (int rep = 0; rep < 10; ++rep) {
    Tensor r;
    {
      opgen::FlushDenormals ftz;
      r = opgen::math::mul(tiny, half);
    }
    const float* p = r.data<float>();
    std::int64_t nonzero = 0;
    for (std::int64_t i = 0; i < n; ++i) nonzero += p[i] != 0.0f;
    BOOST_TEST(nonzero == 0, "repetition " << rep);
  }
  // Without the guard the same call keeps the denormals.
  const Tensor r = opgen::math::mul(tiny, half);
  BOOST_TEST(r.data<float>()[n - 1] == 1e-38f * 0.5f);
  BOOST_TEST(r.data<float>()[n - 1] != 0.0f);
}

// The pieces really run on two threads at once: each waits (up to 10 s)
// for the other to start, which one thread running both in turn never sees.
BOOST_AUTO_TEST_CASE(pieces_run_concurrently) {
  ThreadSettings restore;
  opgen::set_num_threads(2);
  std::atomic<int> started{0};
  std::atomic<int> met{0};
  std::atomic<int> pieces{0};
  std::atomic<std::size_t> covered{0};
  // Boost.Test is not thread-safe: the pieces only count, the test checks.
  opgen::detail::parallel_for(128, 64, [&](std::size_t begin, std::size_t end) {
    pieces.fetch_add(1);
    covered.fetch_add(end - begin);
    started.fetch_add(1);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (started.load() < 2 && std::chrono::steady_clock::now() < until) {
      std::this_thread::yield();
    }
    if (started.load() == 2) met.fetch_add(1);
  });
  BOOST_TEST(pieces.load() == 2);  // pieces are whole grains
  BOOST_TEST(covered.load() == 128u);
  BOOST_TEST(met.load() == 2);
}

BOOST_AUTO_TEST_CASE(settings) {
  ThreadSettings restore;
  BOOST_TEST(opgen::num_threads() == 1);
  BOOST_TEST(opgen::parallel_threshold() == opgen::kDefaultParallelThreshold);
  opgen::set_num_threads(3);
  BOOST_TEST(opgen::num_threads() == 3);
  opgen::set_num_threads(0);
  BOOST_TEST(opgen::num_threads() >= 1);
  opgen::set_parallel_threshold(1000);
  BOOST_TEST(opgen::parallel_threshold() == 1000);
  BOOST_TEST(error_text([] { opgen::set_num_threads(-1); }) ==
             "set_num_threads(-1): the count must be between 0 and 256");
  BOOST_TEST(error_text([] { opgen::set_parallel_threshold(-5); }) ==
             "set_parallel_threshold(-5): the threshold must not be negative");
  BOOST_TEST(opgen::parallel_threshold() == 1000);
}

BOOST_AUTO_TEST_SUITE_END()
