// opgen's public API against its peers (peers.hpp) on the same inputs, in one
// run: throughput per op and size, STREAM copy/add, per-call overhead, the
// FMA peak and matmul. bench/run.sh runs it and bench/table.py prints the
// table. Benchmark names are "<op>/<impl>/<n>"; accuracy (max relative error
// against a double reference, same inputs) is measured once per op, size and
// implementation before the timed runs and written to --accuracy_out.
// With --threads_rows it runs only opgen's 1- and 2-thread rows instead
// (benchmarks "threads/<op>/<n>/<threads>", wall-clock time).
#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#if __has_include(<opgen/linalg.hpp>)
#include <opgen/linalg.hpp>
#define BENCH_HAVE_OPGEN_MATMUL 1
#endif
#include <opgen/math.hpp>
#include <opgen/nn.hpp>
#include <opgen/tensor.hpp>
#include <opgen/threads.hpp>
#include <string>
#include <vector>

#include "common.hpp"
#include "peers.hpp"

namespace {

using bench::kSoftmaxRow;
using opgen::DType;
using opgen::Shape;
using opgen::Tensor;

const char* const kOps[] = {"add",     "mul",  "relu", "exp",    "tanh",
                            "sigmoid", "gelu", "sum",  "softmax"};

// The input tensors of one op and size (x, and y for binary ops), filled once.
struct Inputs {
  Tensor x, y;
};
Tensor make_input(std::size_t n, const std::string& op, std::uint32_t salt) {
  const auto len = static_cast<std::int64_t>(n);
  Tensor t = op == "softmax" ? Tensor::empty(Shape{len / static_cast<std::int64_t>(kSoftmaxRow),
                                                   static_cast<std::int64_t>(kSoftmaxRow)},
                                             DType::float32)
                             : Tensor::empty(Shape{len}, DType::float32);
  if (n * sizeof(float) >= (2u << 20)) madvise(t.raw_data(), n * sizeof(float), MADV_HUGEPAGE);
  const bench::Range r = bench::input_range(op.c_str());
  bench::fill_inputs(t.data<float>(), n, r.lo, r.hi, salt);
  return t;
}
const Inputs& inputs(const std::string& op, std::size_t n) {
  // One input set per range: add/mul/pointwise share theirs.
  const bench::Range r = bench::input_range(op.c_str());
  static std::map<std::pair<double, std::size_t>, Inputs> cache;
  auto& e = cache[{r.lo, n}];
  if (!e.x.defined()) {
    e.x = make_input(n, op, 0);
    e.y = make_input(n, op, 12345);
  }
  return e;
}
Tensor& output(const std::string& op, std::size_t n) {
  static std::map<std::pair<std::string, std::size_t>, Tensor> cache;
  const std::string kind = op == "sum" ? "sum" : op == "softmax" ? "softmax" : "flat";
  Tensor& t = cache[{kind, n}];
  if (!t.defined()) {
    const auto len = static_cast<std::int64_t>(n);
    if (op == "sum") {
      t = Tensor::zeros(Shape{}, DType::float32);
    } else if (op == "softmax") {
      t = Tensor::zeros(Shape{len / static_cast<std::int64_t>(kSoftmaxRow),
                              static_cast<std::int64_t>(kSoftmaxRow)},
                        DType::float32);
    } else {
      t = Tensor::empty(Shape{len}, DType::float32);
      if (n * sizeof(float) >= (2u << 20)) madvise(t.raw_data(), n * sizeof(float), MADV_HUGEPAGE);
      std::memset(t.raw_data(), 0, n * sizeof(float));
    }
  }
  return t;
}

using Impl = std::function<void(const Tensor&, const Tensor&, Tensor&)>;

// opgen through its public API (the out-parameter overloads, as the peers
// write into preallocated buffers too), chosen once per op so that the timed
// call is the API call alone.
Impl opgen_impl(const std::string& op) {
  namespace m = opgen::math;
  namespace nn = opgen::nn;
  if (op == "add") return [](const Tensor& x, const Tensor& y, Tensor& out) { m::add(x, y, out); };
  if (op == "mul") return [](const Tensor& x, const Tensor& y, Tensor& out) { m::mul(x, y, out); };
  if (op == "relu") return [](const Tensor& x, const Tensor&, Tensor& out) { nn::relu(x, out); };
  if (op == "exp") return [](const Tensor& x, const Tensor&, Tensor& out) { m::exp(x, out); };
  if (op == "tanh") return [](const Tensor& x, const Tensor&, Tensor& out) { m::tanh(x, out); };
  if (op == "sigmoid") {
    return [](const Tensor& x, const Tensor&, Tensor& out) { nn::sigmoid(x, out); };
  }
  if (op == "gelu") return [](const Tensor& x, const Tensor&, Tensor& out) { nn::gelu(x, out); };
  if (op == "sum") {
    return [](const Tensor& x, const Tensor&, Tensor& out) { m::sum(x, {0}, false, out); };
  }
  if (op == "softmax") {
    return [](const Tensor& x, const Tensor&, Tensor& out) { nn::softmax(x, -1, out); };
  }
  std::fprintf(stderr, "ops_bench: no opgen call for %s\n", op.c_str());
  std::exit(1);
}

std::map<std::string, std::vector<std::pair<std::string, Impl>>> impls() {
  std::map<std::string, std::vector<std::pair<std::string, Impl>>> m;
  for (const char* op : kOps) {
    m[op].push_back({"opgen", opgen_impl(op)});
  }
  for (const bench::Peer& p : bench::peers()) {
    auto fn = p.fn;
    m[p.op].push_back({p.name, [fn](const Tensor& x, const Tensor& y, Tensor& out) {
                         fn(x.data<float>(), y.data<float>(), out.data<float>(),
                            static_cast<std::size_t>(x.length()));
                       }});
  }
  return m;
}

// The double-precision reference of op on the inputs.
std::vector<double> reference(const std::string& op, const float* x, const float* y,
                              std::size_t n) {
  std::vector<double> r(op == "sum" ? 1 : n);
  const double k = std::sqrt(2.0 / M_PI);
  for (std::size_t i = 0; i < n; ++i) {
    const double a = x[i];
    if (op == "add")
      r[i] = a + y[i];
    else if (op == "mul")
      r[i] = a * y[i];
    else if (op == "relu")
      r[i] = a > 0 ? a : 0;
    else if (op == "exp")
      r[i] = std::exp(a);
    else if (op == "tanh")
      r[i] = std::tanh(a);
    else if (op == "sigmoid")
      r[i] = 1 / (1 + std::exp(-a));
    else if (op == "gelu")
      r[i] = a / (1 + std::exp(-2 * k * (a + 0.044715 * a * a * a)));
    else if (op == "sum")
      r[0] += a;
  }
  if (op == "softmax") {
    for (std::size_t s = 0; s < n; s += kSoftmaxRow) {
      double mx = -INFINITY, total = 0;
      for (std::size_t i = s; i < s + kSoftmaxRow; ++i) mx = std::fmax(mx, x[i]);
      for (std::size_t i = s; i < s + kSoftmaxRow; ++i) total += r[i] = std::exp(x[i] - mx);
      for (std::size_t i = s; i < s + kSoftmaxRow; ++i) r[i] /= total;
    }
  }
  return r;
}

std::vector<std::size_t> sizes() {
  std::vector<std::size_t> s;
  const char* env = std::getenv("OPGEN_BENCH_SIZES");
  std::string list = env ? env : "1024,65536,1048576,16777216";
  for (std::size_t pos = 0; pos < list.size();) {
    std::size_t end = list.find(',', pos);
    if (end == std::string::npos) end = list.size();
    s.push_back(std::stoull(list.substr(pos, end - pos)));
    pos = end + 1;
  }
  return s;
}

void write_accuracy(const char* path,
                    const std::map<std::string, std::vector<std::pair<std::string, Impl>>>& all) {
  FILE* f = std::fopen(path, "w");
  if (!f) {
    std::perror(path);
    std::exit(1);
  }
  std::fprintf(f, "{\n");
  bool first = true;
  for (std::size_t n : sizes()) {
    for (const char* op : kOps) {
      const Inputs& in = inputs(op, n);
      const auto ref = reference(op, in.x.data<float>(), in.y.data<float>(), n);
      for (const auto& [name, fn] : all.at(op)) {
        Tensor& out = output(op, n);
        fn(in.x, in.y, out);
        const double e = bench::max_rel_error(out.data<float>(), ref.data(), ref.size());
        std::fprintf(f, "%s  \"%s/%s/%zu\": %.3e", first ? "" : ",\n", op, name.c_str(), n, e);
        first = false;
      }
    }
  }
  std::fprintf(f, "\n}\n");
  std::fclose(f);
}

void register_all(const std::map<std::string, std::vector<std::pair<std::string, Impl>>>& all) {
  for (std::size_t n : sizes()) {
    for (const char* op : kOps) {
      for (const auto& [name, fn] : all.at(op)) {
        const std::string o = op;
        Impl f = fn;
        benchmark::RegisterBenchmark(
            (o + "/" + name + "/" + std::to_string(n)).c_str(), [o, f, n](benchmark::State& st) {
              const Inputs& in = inputs(o, n);
              Tensor& out = output(o, n);
              for (auto _ : st) {
                f(in.x, in.y, out);
                benchmark::ClobberMemory();
              }
              st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(n));
            });
      }
    }
    // STREAM-style loops on the same buffers as add.
    benchmark::RegisterBenchmark(
        ("stream_copy/loop/" + std::to_string(n)).c_str(), [n](benchmark::State& st) {
          const Inputs& in = inputs("add", n);
          Tensor& out = output("add", n);
          for (auto _ : st) {
            bench::stream_copy(in.x.data<float>(), out.data<float>(), n);
            benchmark::ClobberMemory();
          }
          st.SetBytesProcessed(st.iterations() * 8 * static_cast<std::int64_t>(n));
        });
    benchmark::RegisterBenchmark(
        ("stream_add/loop/" + std::to_string(n)).c_str(), [n](benchmark::State& st) {
          const Inputs& in = inputs("add", n);
          Tensor& out = output("add", n);
          for (auto _ : st) {
            bench::stream_add(in.x.data<float>(), in.y.data<float>(), out.data<float>(), n);
            benchmark::ClobberMemory();
          }
          st.SetBytesProcessed(st.iterations() * 12 * static_cast<std::int64_t>(n));
        });
  }

  // Per-call overhead on 1-element tensors: a full call (checks, allocation,
  // dispatch) and an out call (checks, dispatch).
  benchmark::RegisterBenchmark("overhead/opgen/full", [](benchmark::State& st) {
    const Tensor a = Tensor::from<float>({1.5f}), b = Tensor::from<float>({2.5f});
    for (auto _ : st) {
      Tensor c = opgen::math::add(a, b);
      benchmark::DoNotOptimize(c.raw_data());
    }
  });
  benchmark::RegisterBenchmark("overhead/opgen/out", [](benchmark::State& st) {
    const Tensor a = Tensor::from<float>({1.5f}), b = Tensor::from<float>({2.5f});
    Tensor c = Tensor::zeros(Shape{1}, DType::float32);
    for (auto _ : st) {
      opgen::math::add(a, b, c);
      benchmark::ClobberMemory();
    }
  });

  benchmark::RegisterBenchmark("fma_peak/loop/0", [](benchmark::State& st) {
    double flops = 0;
    for (auto _ : st) flops += bench::fma_peak_kernel(20000);
    st.counters["flops"] = benchmark::Counter(flops, benchmark::Counter::kIsRate);
  });

  std::vector<bench::MatmulPeer> mm = bench::matmul_peers();
#ifdef BENCH_HAVE_OPGEN_MATMUL
  mm.push_back({"opgen", [](const float* a, const float* b, float* c, int n) {
                  // Tensors own their data: the inputs are copied into
                  // tensors kept per size on the first call only.
                  static std::map<int, std::array<Tensor, 3>> cache;
                  auto& t = cache[n];
                  const std::size_t nn = static_cast<std::size_t>(n) * n;
                  if (!t[0].defined()) {
                    for (auto& x : t) x = Tensor::zeros(Shape{n, n}, DType::float32);
                  }
                  if (t[0].data<float>()[0] != a[0] || t[1].data<float>()[nn - 1] != b[nn - 1]) {
                    std::memcpy(t[0].data<float>(), a, nn * sizeof(float));
                    std::memcpy(t[1].data<float>(), b, nn * sizeof(float));
                  }
                  opgen::linalg::matmul(t[0], t[1], false, false, t[2]);
                  (void)c;
                }});
#endif
  for (const bench::MatmulPeer& p : mm) {
    for (int n : {256, 512, 1024}) {
      auto fn = p.fn;
      benchmark::RegisterBenchmark(
          ("matmul/" + p.name + "/" + std::to_string(n)).c_str(), [fn, n](benchmark::State& st) {
            const std::size_t nn = static_cast<std::size_t>(n) * n;
            bench::Buffer a(nn), b(nn), c(nn);
            bench::fill_inputs(a.p, nn, -1, 1, 1);
            bench::fill_inputs(b.p, nn, -1, 1, 2);
            for (auto _ : st) {
              fn(a.p, b.p, c.p, n);
              benchmark::ClobberMemory();
            }
            st.counters["flops"] =
                benchmark::Counter(2.0 * n * n * n * static_cast<double>(st.iterations()),
                                   benchmark::Counter::kIsRate);
          });
    }
  }
}

// The parallel path (opgen/threads.hpp): the same opgen calls at 1 and 2
// threads, in wall-clock time (CPU time would count the caller's thread
// only). bench/run.sh runs these alone (--threads_rows), on two cores.
void register_threads(const std::map<std::string, std::vector<std::pair<std::string, Impl>>>& all) {
  const char* env = std::getenv("OPGEN_BENCH_THREAD_SIZES");
  std::vector<std::size_t> sizes_list;
  std::string list = env ? env : "262144,1048576,16777216";
  for (std::size_t pos = 0; pos < list.size();) {
    std::size_t end = list.find(',', pos);
    if (end == std::string::npos) end = list.size();
    sizes_list.push_back(std::stoull(list.substr(pos, end - pos)));
    pos = end + 1;
  }
  for (std::size_t n : sizes_list) {
    for (const char* op : {"add", "exp", "tanh", "sigmoid", "softmax"}) {
      const Impl f = all.at(op).front().second;  // opgen's
      for (int threads : {1, 2}) {
        const std::string o = op;
        benchmark::RegisterBenchmark(
            ("threads/" + o + "/" + std::to_string(n) + "/" + std::to_string(threads)).c_str(),
            [o, f, n, threads](benchmark::State& st) {
              const Inputs& in = inputs(o, n);
              Tensor& out = output(o, n);
              opgen::set_num_threads(threads);
              for (auto _ : st) {
                f(in.x, in.y, out);
                benchmark::ClobberMemory();
              }
              opgen::set_num_threads(1);
              st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(n));
            })
            ->UseRealTime();
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const char* accuracy_out = nullptr;
  bool threads_rows = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--accuracy_out=", 15) == 0) {
      accuracy_out = argv[i] + 15;
    } else if (std::strcmp(argv[i], "--threads_rows") == 0) {
      threads_rows = true;
    } else {
      args.push_back(argv[i]);
    }
  }
  int nargs = static_cast<int>(args.size());
  benchmark::Initialize(&nargs, args.data());
  const auto all = impls();
  if (threads_rows) {
    register_threads(all);
  } else {
    if (accuracy_out) write_accuracy(accuracy_out, all);
    register_all(all);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
