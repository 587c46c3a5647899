// Softmax and log_softmax over many short rows (class scores, attention
// over short sequences, gating over experts): opgen's nn::softmax and
// nn::log_softmax (the public API, writing into an out tensor) against
// oneDNN's softmax_forward and logsoftmax_forward (when found) and Eigen row
// expressions (ops_bench's), on the same inputs in the same run. Samples of
// the sides alternate, and the table shows medians of the thread's CPU
// time per row, so that the shared machine's drift hits all sides alike.
// Next to the speed, each side's largest error against a double
// reference: relative for softmax, in units of max(1, |y|) for log_softmax.
//
//   build/bench/softmax_rows_bench [--samples N] [ROWSxLENGTH...]
//   (default 65536x8 65536x10 65536x16 16384x32 16384x64 1024x1024)
//
// oneDNN is an OpenMP build: the program sets OMP_NUM_THREADS to 1 and
// re-executes itself when it is not set, so every side runs on one thread.
#include <unistd.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "opgen/opgen.hpp"

#ifdef BENCH_HAVE_ONEDNN
#include <dnnl.hpp>
#endif

namespace {

// This thread's CPU time in seconds (see matmul_bench.cpp).
double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Shape {
  long rows, length;
};

// One side: run() computes all rows of x into its output, out() is that
// output.
struct Side {
  std::string name;
  std::function<void()> run;
  std::function<const float*()> out;
};

using Row = Eigen::Map<const Eigen::ArrayXf>;
using RowOut = Eigen::Map<Eigen::ArrayXf>;

// The double reference of row r and the largest error of `got` in it.
double row_error(const float* x, const float* got, long n, bool log) {
  double max = -INFINITY;
  for (long k = 0; k < n; ++k) max = std::max(max, static_cast<double>(x[k]));
  double sum = 0;
  for (long k = 0; k < n; ++k) sum += std::exp(static_cast<double>(x[k]) - max);
  double worst = 0;
  for (long k = 0; k < n; ++k) {
    const double t = static_cast<double>(x[k]) - max;
    const double want = log ? t - std::log(sum) : std::exp(t) / sum;
    const double scale = log ? std::max(1.0, std::fabs(want)) : want;
    worst = std::max(worst, std::fabs(static_cast<double>(got[k]) - want) / scale);
  }
  return worst;
}

void run_shape(Shape s, bool log, int samples) {
  const long count = s.rows * s.length;
  std::vector<float> x(static_cast<std::size_t>(count));
  std::mt19937 engine(11);
  std::uniform_real_distribution<float> uniform(-10.0f, 10.0f);
  for (float& v : x) v = uniform(engine);
  const opgen::Tensor xt =
      opgen::Tensor::from<float>(std::span<const float>(x), {s.rows, s.length});
  opgen::Tensor yt = opgen::Tensor::empty({s.rows, s.length}, opgen::DType::float32);
  std::vector<float> eigen_out(x.size());
  std::vector<Side> sides;
  sides.push_back({"opgen",
                   [&] {
                     if (log) {
                       opgen::nn::log_softmax(xt, -1, yt);
                     } else {
                       opgen::nn::softmax(xt, -1, yt);
                     }
                   },
                   [&] { return yt.data<float>(); }});
  sides.push_back({"eigen",
                   [&] {
                     const long n = s.length;
                     for (long r = 0; r < s.rows; ++r) {
                       const Row row(x.data() + r * n, n);
                       RowOut e(eigen_out.data() + r * n, n);
                       if (log) {
                         const float m = row.maxCoeff();
                         e = row - (m + std::log((row - m).exp().sum()));
                       } else {
                         e = (row - row.maxCoeff()).exp();
                         e *= 1.0f / e.sum();
                       }
                     }
                   },
                   [&] { return eigen_out.data(); }});
#ifdef BENCH_HAVE_ONEDNN
  static const dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  static dnnl::stream stream(eng);
  std::vector<float> dnnl_out(x.size());
  const dnnl::memory::desc md({s.rows, s.length}, dnnl::memory::data_type::f32,
                              dnnl::memory::format_tag::ab);
  dnnl::memory src(md, eng, x.data()), dst(md, eng, dnnl_out.data());
  const auto inf = dnnl::prop_kind::forward_inference;
  dnnl::primitive prim =
      log ? dnnl::primitive(
                dnnl::logsoftmax_forward({dnnl::logsoftmax_forward::desc(inf, md, 1), eng}))
          : dnnl::primitive(dnnl::softmax_forward({dnnl::softmax_forward::desc(inf, md, 1), eng}));
  sides.push_back({"onednn",
                   [&] {
                     prim.execute(stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
                     stream.wait();
                   },
                   [&] { return dnnl_out.data(); }});
#endif
  // Calls per sample: about 2M elements, at least one call.
  const int calls = static_cast<int>(std::max(1L, 2'000'000 / count));
  std::vector<std::vector<double>> times(sides.size());
  for (Side& side : sides) side.run();  // warm up, and the outputs for the errors
  for (int i = 0; i < samples; ++i) {
    for (std::size_t j = 0; j < sides.size(); ++j) {
      const double start = thread_seconds();
      for (int c = 0; c < calls; ++c) sides[j].run();
      times[j].push_back((thread_seconds() - start) / calls / static_cast<double>(s.rows) * 1e9);
    }
  }
  std::printf("%-11s %6ld x %4ld |", log ? "log_softmax" : "softmax", s.rows, s.length);
  double best_peer = INFINITY;
  for (std::size_t j = 0; j < sides.size(); ++j) {
    double worst = 0;
    for (long r = 0; r < s.rows; ++r) {
      worst = std::max(
          worst, row_error(x.data() + r * s.length, sides[j].out() + r * s.length, s.length, log));
    }
    const double ns = median(times[j]);
    if (j > 0) best_peer = std::min(best_peer, ns);
    std::printf(" %s %7.2f ns/row (err %.1e) |", sides[j].name.c_str(), ns, worst);
  }
  std::printf(" opgen / best peer speed %.2f\n", best_peer / median(times[0]));
}

}  // namespace

int main(int argc, char** argv) {
  if (std::getenv("OMP_NUM_THREADS") == nullptr) {
    setenv("OMP_NUM_THREADS", "1", 1);
    execv("/proc/self/exe", argv);
    std::perror("softmax_rows_bench: re-executing with OMP_NUM_THREADS=1");
    return 1;
  }
  const auto usage = [&](std::FILE* to) {
    std::fprintf(to, "usage: %s [--samples N] [ROWSxLENGTH...]\n", argv[0]);
  };
  int samples = 15;
  std::vector<Shape> shapes;
  for (int i = 1; i < argc; ++i) {
    Shape s{};
    if (std::strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return 0;
    }
    if (std::strcmp(argv[i], "--samples") == 0 && i + 1 < argc) {
      samples = std::max(1, std::atoi(argv[++i]));
    } else if (std::sscanf(argv[i], "%ldx%ld", &s.rows, &s.length) == 2 && s.rows > 0 &&
               s.length > 0) {
      shapes.push_back(s);
    } else {
      usage(stderr);
      return 2;
    }
  }
  if (shapes.empty()) {
    shapes = {{65536, 8}, {65536, 10}, {65536, 16}, {16384, 32}, {16384, 64}, {1024, 1024}};
  }
  std::printf("float32, one thread, medians of %d samples; speed ratio > 1: opgen faster\n",
              samples);
  for (const bool log : {false, true}) {
    for (const Shape s : shapes) run_shape(s, log, samples);
  }
}
