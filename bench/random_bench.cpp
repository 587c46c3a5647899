// Random number throughput: opgen's random namespace (the public API,
// writing into an out tensor) against the C++ standard library's mt19937
// with uniform_real_distribution / normal_distribution (what numpy's legacy
// generator does, at about the same speed), on one thread, in the same run.
// Samples alternate between the two and the table shows medians in Gelem/s,
// so that the shared machine's drift hits both alike; times are the
// thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so that other processes on a
// busy machine do not count against either side.
//
// It is deliberately not a Google Benchmark program (its pairs of samples
// and the ratio column need their own loop), so it takes only its own
// options and rejects any other, --benchmark_* flags included:
//
//   build-bench/bench/random_bench [--samples N] [SIZE...]
//
//   --samples N  samples per generator and size (default 5; the table shows
//                their medians); each sample times about 20 ms of calls
//   SIZE...      element counts (default 1024 65536 1048576 16777216)
//   --help       this usage
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <ctime>
#include <functional>
#include <random>
#include <string_view>
#include <system_error>
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

constexpr const char* kUsage =
    "usage: random_bench [--samples N] [SIZE...]\n"
    "  --samples N  samples per generator and size, N >= 1 (default 5; medians shown)\n"
    "  SIZE...      element counts, each >= 1 (default 1024 65536 1048576 16777216)\n"
    "Not a Google Benchmark program: --benchmark_* flags are not taken\n"
    "(docs/benchmarks.md).\n";

// A whole positive decimal number, or 0 when `s` is not one.
std::int64_t PositiveInt(std::string_view s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && v > 0 ? v : 0;
}

int UsageError(const char* what, std::string_view arg) {
  std::fprintf(stderr, "random_bench: %s '%.*s'\n%s", what, static_cast<int>(arg.size()),
               arg.data(), kUsage);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::int64_t samples = 5;
  std::vector<std::int64_t> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg == "--samples" || arg.starts_with("--samples=")) {
      std::string_view value;
      if (arg != "--samples") {
        value = arg.substr(arg.find('=') + 1);
      } else if (i + 1 < argc) {
        value = argv[++i];
      } else {
        return UsageError("missing value after", arg);
      }
      samples = PositiveInt(value);
      if (samples == 0) return UsageError("--samples needs a whole number >= 1, not", value);
    } else if (arg.starts_with("-")) {
      return UsageError("unknown option", arg);
    } else {
      sizes.push_back(PositiveInt(arg));
      if (sizes.back() == 0) return UsageError("a SIZE is a whole number >= 1, not", arg);
    }
  }
  if (sizes.empty()) sizes = {1024, 65536, 1048576, 16777216};
  std::printf("%-20s %10s %10s %10s %8s   (Gelem/s, medians of %lld)\n", "op", "size", "opgen",
              "mt19937", "ratio", static_cast<long long>(samples));
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
      for (std::int64_t s = 0; s < samples; ++s) {
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
