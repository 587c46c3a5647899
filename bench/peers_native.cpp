// Peers compiled for this machine (-march=native): Eigen, plain C++ loops,
// SLEEF, the STREAM loops and the FMA peak. See peers.hpp.
#include <immintrin.h>
#ifdef BENCH_HAVE_SLEEF
#include <sleef.h>
#endif

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "peers.hpp"

namespace bench {
namespace {

using Vec = Eigen::Map<Eigen::ArrayXf, Eigen::Aligned64>;
using CVec = Eigen::Map<const Eigen::ArrayXf, Eigen::Aligned64>;
inline CVec in(const float* p, std::size_t n) { return CVec(p, static_cast<Eigen::Index>(n)); }
inline Vec out(float* p, std::size_t n) { return Vec(p, static_cast<Eigen::Index>(n)); }

void eigen_add(const float* x, const float* y, float* o, std::size_t n) {
  out(o, n) = in(x, n) + in(y, n);
}
void eigen_mul(const float* x, const float* y, float* o, std::size_t n) {
  out(o, n) = in(x, n) * in(y, n);
}
void eigen_relu(const float* x, const float*, float* o, std::size_t n) {
  out(o, n) = in(x, n).max(0.0f);
}
void eigen_exp(const float* x, const float*, float* o, std::size_t n) {
  out(o, n) = in(x, n).exp();
}
void eigen_tanh(const float* x, const float*, float* o, std::size_t n) {
  out(o, n) = in(x, n).tanh();
}
void eigen_sigmoid(const float* x, const float*, float* o, std::size_t n) {
  out(o, n) = in(x, n).logistic();
}
void eigen_gelu(const float* x, const float*, float* o, std::size_t n) {
  const float k = 0.7978845608028654f;
  const auto a = in(x, n);
  out(o, n) = 0.5f * a * (1.0f + (k * (a + 0.044715f * a.cube())).tanh());
}
void eigen_sum(const float* x, const float*, float* o, std::size_t n) { o[0] = in(x, n).sum(); }
void eigen_softmax(const float* x, const float*, float* o, std::size_t n) {
  for (std::size_t r = 0; r < n; r += kSoftmaxRow) {
    const auto row = in(x + r, kSoftmaxRow);
    auto e = out(o + r, kSoftmaxRow);
    e = (row - row.maxCoeff()).exp();
    e *= 1.0f / e.sum();
  }
}

void loop_add(const float* x, const float* y, float* o, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) o[i] = x[i] + y[i];
}
void loop_mul(const float* x, const float* y, float* o, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) o[i] = x[i] * y[i];
}
void loop_relu(const float* x, const float*, float* o, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) o[i] = x[i] > 0 ? x[i] : 0.0f;
}
void loop_sum(const float* x, const float*, float* o, std::size_t n) {
  // Sixteen partial sums so the compiler can vectorise without -ffast-math.
  float s[16] = {};
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (int j = 0; j < 16; ++j) s[j] += x[i + j];
  float t = 0;
  for (; i < n; ++i) t += x[i];
  for (float v : s) t += v;
  o[0] = t;
}

#if !defined(BENCH_HAVE_SLEEF)
#elif defined(__AVX512F__)
void sleef_exp(const float* x, const float*, float* o, std::size_t n) {
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(o + i, Sleef_expf16_u10(_mm512_loadu_ps(x + i)));
  for (; i < n; ++i) o[i] = std::exp(x[i]);
}
void sleef_tanh(const float* x, const float*, float* o, std::size_t n) {
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(o + i, Sleef_tanhf16_u10(_mm512_loadu_ps(x + i)));
  for (; i < n; ++i) o[i] = std::tanh(x[i]);
}
#elif defined(__AVX2__)
void sleef_exp(const float* x, const float*, float* o, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(o + i, Sleef_expf8_u10(_mm256_loadu_ps(x + i)));
  for (; i < n; ++i) o[i] = std::exp(x[i]);
}
void sleef_tanh(const float* x, const float*, float* o, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(o + i, Sleef_tanhf8_u10(_mm256_loadu_ps(x + i)));
  for (; i < n; ++i) o[i] = std::tanh(x[i]);
}
#endif

void eigen_matmul(const float* a, const float* b, float* c, int n) {
  using M = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const M> A(a, n, n), B(b, n, n);
  Eigen::Map<M> C(c, n, n);
  C.noalias() = A * B;
}

}  // namespace

std::vector<Peer> native_peers() {
  std::vector<Peer> p = {
      {"add", "eigen", eigen_add},         {"mul", "eigen", eigen_mul},
      {"relu", "eigen", eigen_relu},       {"exp", "eigen", eigen_exp},
      {"tanh", "eigen", eigen_tanh},       {"sigmoid", "eigen", eigen_sigmoid},
      {"gelu", "eigen", eigen_gelu},       {"sum", "eigen", eigen_sum},
      {"softmax", "eigen", eigen_softmax}, {"add", "loop", loop_add},
      {"mul", "loop", loop_mul},           {"relu", "loop", loop_relu},
      {"sum", "loop", loop_sum},
  };
#if defined(BENCH_HAVE_SLEEF) && (defined(__AVX512F__) || defined(__AVX2__))
  p.push_back({"exp", "sleef", sleef_exp});
  p.push_back({"tanh", "sleef", sleef_tanh});
#endif
  return p;
}

std::vector<MatmulPeer> native_matmul_peers() { return {{"eigen", eigen_matmul}}; }

void stream_copy(const float* a, float* c, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) c[i] = a[i];
}
void stream_add(const float* a, const float* b, float* c, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

double fma_peak_kernel(long iters) {
#if defined(__AVX512F__)
  using V = __m512;
  constexpr int kLanes = 16;
#define FMA(a, b, c) _mm512_fmadd_ps(a, b, c)
  V m = _mm512_set1_ps(0.999999f), k = _mm512_set1_ps(1e-7f);
#elif defined(__FMA__)
  using V = __m256;
  constexpr int kLanes = 8;
#define FMA(a, b, c) _mm256_fmadd_ps(a, b, c)
  V m = _mm256_set1_ps(0.999999f), k = _mm256_set1_ps(1e-7f);
#endif
#if defined(__AVX512F__) || defined(__FMA__)
  V acc[16];
  for (int j = 0; j < 16; ++j) acc[j] = k;
  for (long it = 0; it < iters; ++it) {
    for (int r = 0; r < 8; ++r) {
      for (int j = 0; j < 16; ++j) acc[j] = FMA(acc[j], m, k);
    }
    asm volatile("" : "+x"(m));
  }
  for (int j = 1; j < 16; ++j) acc[0] = acc[0] + acc[j];
  float sink[kLanes];
  std::memcpy(sink, &acc[0], sizeof sink);
  asm volatile("" ::"r"(sink[0]) : "memory");
#undef FMA
  return 2.0 * kLanes * 16 * 8 * static_cast<double>(iters);
#else
  (void)iters;
  return 0;
#endif
}

}  // namespace bench
