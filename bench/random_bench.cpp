// Random number throughput: opgen's random namespace (the public API,
// writing into an out tensor) against the C++ standard library's mt19937
// with uniform_real_distribution / normal_distribution (what numpy's legacy
// generator does, at about the same speed), on one thread, in the same run.
// Samples alternate between the two and the table shows medians in Gelem/s,
// so that the shared machine's drift hits both alike; times are the
// thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so that other processes on a
// busy machine do not count against either side.
//
//   build/bench/random_bench [--samples N] [SIZE...]   (default 1024 65536 1048576 16777216)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "opgen/opgen.hpp"

namespace {

double CpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Seconds per call, timing enough repetitions for about 20 ms.
double Time(const std::function<void()>& f) {
  f();
  std::size_t reps = 1;
  for (;;) {
    const double t0 = CpuSeconds();
    for (std::size_t i = 0; i < reps; ++i) f();
    const double s = CpuSeconds() - t0;
    if (s > 0.02) return s / static_cast<double>(reps);
    reps *= 2;
  }
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int samples = 5;
  std::vector<std::int64_t> sizes;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--samples") == 0 && i + 1 < argc) {
      samples = std::atoi(argv[++i]);
    } else {
      sizes.push_back(std::atoll(argv[i]));
    }
  }
  if (sizes.empty()) sizes = {1024, 65536, 1048576, 16777216};
  std::printf("%-20s %10s %10s %10s %8s   (Gelem/s, medians of %d)\n", "op", "size", "opgen",
              "mt19937", "ratio", samples);
  struct Op {
    const char* name;
    opgen::DType dtype;
    bool normal;
  };
  const Op ops[] = {{"uniform float32", opgen::DType::float32, false},
                    {"normal float32", opgen::DType::float32, true},
                    {"uniform float64", opgen::DType::float64, false},
                    {"normal float64", opgen::DType::float64, true}};
  for (const Op& op : ops) {
    for (const std::int64_t n : sizes) {
      const std::vector<std::int64_t> shape{n};
      opgen::Tensor out = opgen::Tensor::empty({n}, op.dtype);
      std::vector<float> f32(static_cast<std::size_t>(n));
      std::vector<double> f64(static_cast<std::size_t>(n));
      std::mt19937 engine(42);
      std::int64_t seed = 0;
      const auto ours = [&] {
        if (op.normal) {
          opgen::random::normal(shape, ++seed, 0, 1, op.dtype, 0, out);
        } else {
          opgen::random::uniform(shape, ++seed, 0, 1, op.dtype, 0, out);
        }
      };
      const auto peer = [&] {
        if (op.dtype == opgen::DType::float32) {
          std::uniform_real_distribution<float> u;
          std::normal_distribution<float> z;
          for (float& v : f32) v = op.normal ? z(engine) : u(engine);
        } else {
          std::uniform_real_distribution<double> u;
          std::normal_distribution<double> z;
          for (double& v : f64) v = op.normal ? z(engine) : u(engine);
        }
      };
      std::vector<double> a, b;
      for (int s = 0; s < samples; ++s) {
        a.push_back(static_cast<double>(n) / Time(ours) * 1e-9);
        b.push_back(static_cast<double>(n) / Time(peer) * 1e-9);
      }
      std::printf("%-20s %10lld %10.3f %10.3f %8.2f\n", op.name, static_cast<long long>(n),
                  Median(a), Median(b), Median(a) / Median(b));
      std::fflush(stdout);
    }
  }
  return 0;
}
