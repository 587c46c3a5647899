// Matrix product speed: opgen's linalg::matmul (the public API, writing into
// an out tensor) against OpenBLAS's cblas_sgemm/cblas_dgemm on one thread,
// on the same inputs in the same run. Samples of the two alternate, and the
// table shows medians of the thread's CPU time, so that the shared
// machine's drift hits both alike.
// Next to the speed, each side's largest error against a double (long
// double) reference on sampled elements, as a fraction of Σ_p |a_ip·b_pj|.
//
//   build/bench/matmul_bench [--samples N] [--f64] [--trans] [SIZE...]   (default 256 512 1024)
//
// --trans adds the products with a transposed operand (matmul's trans_a and
// trans_b, cblas's CblasTrans): a*bT (a·bᵀ, what nn.linear computes), aT*b
// and aT*bT, each against OpenBLAS on the same layout.
//
// OpenBLAS reads OPENBLAS_NUM_THREADS when it loads, so the program sets it
// to 1 and re-executes itself when it is not set. It reads
// OPENBLAS_CORETYPE then too: on CPUs it does not know, Debian's 0.3.21
// falls back to its SSE3 kernels ("Prescott"), several times slower than
// its AVX-512 ones, so on that fallback the program picks the kernels by
// the CPU's flags as bench/run.sh does (unless OPENBLAS_CORETYPE is set)
// and re-executes itself with them. The first line says which are in use.
#include <cblas.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "opgen/opgen.hpp"

namespace {

// Which operands the product reads transposed.
struct Layout {
  bool trans_a, trans_b;
  const char* name;
};

template <class T>
void blas_gemm(const T* a, const T* b, T* c, int n, Layout l) {
  const CBLAS_TRANSPOSE ta = l.trans_a ? CblasTrans : CblasNoTrans;
  const CBLAS_TRANSPOSE tb = l.trans_b ? CblasTrans : CblasNoTrans;
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasRowMajor, ta, tb, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
  } else {
    cblas_dgemm(CblasRowMajor, ta, tb, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
  }
}

// This thread's CPU time in seconds. Both sides run on the calling thread
// (OpenBLAS with one thread does), so CPU time leaves out the time the
// thread waits for a core on a shared machine, which wall time would count.
double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// CPU seconds per call of f, over `calls` calls.
template <class F>
double time_call(F&& f, int calls) {
  const double start = thread_seconds();
  for (int i = 0; i < calls; ++i) f();
  return (thread_seconds() - start) / calls;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Largest |c - exact| / Σ|a b| over sampled elements of an n×n product.
template <class T>
double max_error(const T* a, const T* b, const T* c, int n, Layout l) {
  using Wide = std::conditional_t<std::is_same_v<T, float>, double, long double>;
  std::mt19937 engine(7);
  std::uniform_int_distribution<int> pick(0, n - 1);
  double worst = 0;
  for (int s = 0; s < 256; ++s) {
    const int i = pick(engine), j = pick(engine);
    Wide sum = 0, magnitude = 0;
    for (int p = 0; p < n; ++p) {
      const T x = l.trans_a ? a[p * n + i] : a[i * n + p];
      const T y = l.trans_b ? b[j * n + p] : b[p * n + j];
      const Wide t = static_cast<Wide>(x) * static_cast<Wide>(y);
      sum += t;
      magnitude += t < 0 ? -t : t;
    }
    const Wide err = static_cast<Wide>(c[i * n + j]) - sum;
    worst = std::max(worst, static_cast<double>((err < 0 ? -err : err) / magnitude));
  }
  return worst;
}

template <class T>
void run(int n, int samples, Layout l) {
  const opgen::DType dtype = opgen::dtype_of<T>;
  const opgen::Shape shape{n, n};
  opgen::Tensor a = opgen::Tensor::empty(shape, dtype);
  opgen::Tensor b = opgen::Tensor::empty(shape, dtype);
  opgen::Tensor c = opgen::Tensor::empty(shape, dtype);
  std::vector<T> c_blas(static_cast<std::size_t>(n) * n);
  std::mt19937 engine(1);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (std::int64_t i = 0; i < a.length(); ++i) {
    a.data<T>()[i] = static_cast<T>(uniform(engine));
    b.data<T>()[i] = static_cast<T>(uniform(engine));
  }
  const double flops = 2.0 * n * n * n;
  const int calls = std::max(1, static_cast<int>(4e9 / flops));
  auto ours = [&] { opgen::linalg::matmul(a, b, l.trans_a, l.trans_b, c); };
  auto theirs = [&] { blas_gemm(a.data<T>(), b.data<T>(), c_blas.data(), n, l); };
  ours();
  theirs();
  std::vector<double> t_ours, t_theirs;
  for (int s = 0; s < samples; ++s) {
    t_ours.push_back(time_call(ours, calls));
    t_theirs.push_back(time_call(theirs, calls));
  }
  const double g_ours = flops / median(t_ours) * 1e-9;
  const double g_theirs = flops / median(t_theirs) * 1e-9;
  std::printf("%-8s %-6s %6d %12.1f %12.1f %8.2f %12.2e %12.2e\n", opgen::dtype_name(dtype).data(),
              l.name, n, g_ours, g_theirs, g_ours / g_theirs,
              max_error(a.data<T>(), b.data<T>(), c.data<T>(), n, l),
              max_error(a.data<T>(), b.data<T>(), c_blas.data(), n, l));
}

// The flags of /proc/cpuinfo's first "flags" line, space-separated and
// with a space at each end; "" where there is none.
std::string cpu_flags() {
  std::FILE* f = std::fopen("/proc/cpuinfo", "r");
  if (f == nullptr) return "";
  std::string flags;
  char line[8192];
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::strncmp(line, "flags", 5) != 0) continue;
    const char* colon = std::strchr(line, ':');
    if (colon != nullptr) flags = std::string(colon + 1);
    break;
  }
  std::fclose(f);
  for (char& c : flags) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  return " " + flags + " ";
}

// OpenBLAS's kernels for this CPU by its flags (bench/run.sh's rule), or
// null when none beats its SSE3 fallback.
const char* openblas_pick() {
  const std::string flags = cpu_flags();
  const auto has = [&](const char* flag) {
    return flags.find(std::string(" ") + flag + " ") != std::string::npos;
  };
  if (has("avx512f") && has("avx512bw") && has("avx512dq") && has("avx512vl")) {
    return has("avx512_bf16") ? "Cooperlake" : "SkylakeX";
  }
  if (has("avx2") && has("fma")) return "Haswell";
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  bool again = false;
  if (std::getenv("OPENBLAS_NUM_THREADS") == nullptr) {
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    again = true;
  }
  if (std::getenv("OPENBLAS_CORETYPE") == nullptr &&
      std::strcmp(openblas_get_corename(), "Prescott") == 0) {
    if (const char* pick = openblas_pick()) {
      setenv("OPENBLAS_CORETYPE", pick, 1);
      setenv("MATMUL_BENCH_OPENBLAS_FALLBACK", "Prescott", 1);
      again = true;
    }
  }
  if (again) {
    execv("/proc/self/exe", argv);
    std::perror("execv /proc/self/exe");  // fall through: measure anyway
  }
  int samples = 7;
  bool f64 = false;
  std::vector<Layout> layouts = {{false, false, "a*b"}};
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--samples") == 0 && i + 1 < argc) {
      samples = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--f64") == 0) {
      f64 = true;
    } else if (std::strcmp(argv[i], "--trans") == 0) {
      layouts = {{false, false, "a*b"},
                 {false, true, "a*bT"},
                 {true, false, "aT*b"},
                 {true, true, "aT*bT"}};
    } else if (std::atoi(argv[i]) > 0) {
      sizes.push_back(std::atoi(argv[i]));
    } else {
      std::fprintf(stderr, "usage: %s [--samples N] [--f64] [--trans] [SIZE...]\n", argv[0]);
      return 2;
    }
  }
  if (sizes.empty()) sizes = {256, 512, 1024};
  std::printf(
      "matmul, n x n times n x n, one thread (OPENBLAS_NUM_THREADS=%s), medians of %d "
      "alternating samples of thread CPU time\n",
      std::getenv("OPENBLAS_NUM_THREADS"), samples);
  const char* coretype = std::getenv("OPENBLAS_CORETYPE");
  if (std::getenv("MATMUL_BENCH_OPENBLAS_FALLBACK") != nullptr) {
    std::printf(
        "OpenBLAS kernels: %s (OPENBLAS_CORETYPE; it detected Prescott, its fallback for "
        "CPUs it does not know)\n",
        openblas_get_corename());
  } else if (coretype != nullptr) {
    std::printf("OpenBLAS kernels: %s (OPENBLAS_CORETYPE=%s, set by the caller)\n",
                openblas_get_corename(), coretype);
  } else {
    std::printf("OpenBLAS kernels: %s (its own choice)\n", openblas_get_corename());
  }
  std::printf("%-8s %-6s %6s %12s %12s %8s %12s %12s\n", "dtype", "layout", "n", "opgen GF/s",
              "OpenBLAS", "ratio", "opgen err", "OpenBLAS err");
  for (const Layout& l : layouts) {
    for (int n : sizes) run<float>(n, samples, l);
  }
  if (f64) {
    for (const Layout& l : layouts) {
      for (int n : sizes) run<double>(n, samples, l);
    }
  }
  return 0;
}
