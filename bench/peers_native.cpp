// Peers compiled for this machine (-march=native): Eigen, plain C++ loops,
// SLEEF, the STREAM loops and the FMA peak. See peers.hpp.
//
// Each peer is one line of native_peers(): an op name and a captureless
// lambda that the adapters below (eigen_pw, loop_pw, ...) turn into a
// PeerFn. Binary lambdas get (a, b); unary ones get b == a and ignore it.
#include <immintrin.h>
#ifdef BENCH_HAVE_SLEEF
#include <sleef.h>
#endif

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <functional>
#include <unsupported/Eigen/SpecialFunctions>

#include "peers.hpp"

namespace bench {
namespace {

using Vec = Eigen::Map<Eigen::ArrayXf, Eigen::Aligned64>;
using CVec = Eigen::Map<const Eigen::ArrayXf, Eigen::Aligned64>;
inline CVec in(const float* p, std::size_t n) { return CVec(p, static_cast<Eigen::Index>(n)); }
inline Vec out(float* p, std::size_t n) { return Vec(p, static_cast<Eigen::Index>(n)); }

// Eigen: out = F(a, b) as one array expression.
template <class F>
Peer eigen_pw(const char* op, F, const char* name = "eigen") {
  return {op, name, [](const float* x, const float* y, float* o, std::size_t n) {
            out(o, n) = F{}(in(x, n), in(y ? y : x, n));
          }};
}
// Eigen: out[0] = F(a, b), a reduction to one value.
template <class F>
Peer eigen_reduce(const char* op, F, const char* name = "eigen") {
  return {op, name, [](const float* x, const float* y, float* o, std::size_t n) {
            o[0] = F{}(in(x, n), in(y ? y : x, n));
          }};
}
// Eigen's maximum and minimum default to PropagateFast: a NaN in one operand
// (of max(a, b), of maxCoeff) may be dropped. The eigen_nan peers ask for
// PropagateNaN, the definition opgen and numpy keep.
using MaxNaN = Eigen::internal::scalar_max_op<float, float, Eigen::PropagateNaN>;
using MinNaN = Eigen::internal::scalar_min_op<float, float, Eigen::PropagateNaN>;
// Eigen: F(row, out_row) for each row of kSoftmaxRow.
template <class F>
Peer eigen_rows(const char* op, F) {
  return {op, "eigen", [](const float* x, const float*, float* o, std::size_t n) {
            for (std::size_t r = 0; r < n; r += kSoftmaxRow) {
              F{}(in(x + r, kSoftmaxRow), out(o + r, kSoftmaxRow));
            }
          }};
}

// A plain loop: o[i] = F(x[i], y[i]).
template <class F>
Peer loop_pw(const char* op, F) {
  return {op, "loop", [](const float* x, const float* y, float* o, std::size_t n) {
            if (!y) y = x;
            for (std::size_t i = 0; i < n; ++i) o[i] = F{}(x[i], y[i]);
          }};
}
// Folds F(x[i], y[i]) with G into sixteen partial results starting at init,
// so that the compiler can vectorise without -ffast-math.
template <class F, class G>
float fold16(const float* x, const float* y, std::size_t n, float init, F f, G g) {
  if (!y) y = x;
  float s[16];
  std::fill(s, s + 16, init);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (int j = 0; j < 16; ++j) s[j] = g(s[j], f(x[i + j], y[i + j]));
  float t = init;
  for (; i < n; ++i) t = g(t, f(x[i], y[i]));
  for (float v : s) t = g(t, v);
  return t;
}
// A plain loop reduction: o[0] = F(x, y, n).
template <class F>
Peer loop_reduce(const char* op, F) {
  return {op, "loop",
          [](const float* x, const float* y, float* o, std::size_t n) { o[0] = F{}(x, y, n); }};
}
constexpr auto first = [](float a, float) { return a; };
constexpr auto square = [](float a, float) { return a * a; };
constexpr auto times = [](float a, float b) { return a * b; };
constexpr auto larger = [](float a, float b) { return a > b ? a : b; };
float loop_var(const float* x, const float*, std::size_t n) {
  const float m = fold16(x, x, n, 0.0f, first, std::plus<float>()) / static_cast<float>(n);
  return fold16(
             x, x, n, 0.0f, [m](float a, float) { return (a - m) * (a - m); }, std::plus<float>()) /
         static_cast<float>(n);
}
// The index of the first element that no later one beats by Better.
template <class Better>
float loop_arg(const float* x, std::size_t n) {
  std::size_t k = 0;
  for (std::size_t i = 1; i < n; ++i)
    if (Better{}(x[i], x[k])) k = i;
  return static_cast<float>(k);  // exact below 2^24
}

#if defined(BENCH_HAVE_SLEEF) && (defined(__AVX512F__) || defined(__AVX2__))
#define BENCH_SLEEF 1
#if defined(__AVX512F__)
using SV = __m512;
constexpr std::size_t kW = 16;
inline SV sload(const float* p) { return _mm512_loadu_ps(p); }
inline void sstore(float* p, SV v) { _mm512_storeu_ps(p, v); }
#define SLEEF(f) Sleef_##f##f16_u10
#define SLEEF_U05(f) Sleef_##f##f16_u05
#define SLEEF_EXACT(f) Sleef_##f##f16
#else
using SV = __m256;
constexpr std::size_t kW = 8;
inline SV sload(const float* p) { return _mm256_loadu_ps(p); }
inline void sstore(float* p, SV v) { _mm256_storeu_ps(p, v); }
#define SLEEF(f) Sleef_##f##f8_u10
#define SLEEF_U05(f) Sleef_##f##f8_u05
#define SLEEF_EXACT(f) Sleef_##f##f8
#endif
// SLEEF: o = F(x, y) a vector at a time; the tail goes through a padded copy.
template <class F>
Peer sleef_pw(const char* op, F) {
  return {op, "sleef", [](const float* x, const float* y, float* o, std::size_t n) {
            if (!y) y = x;
            std::size_t i = 0;
            for (; i + kW <= n; i += kW) sstore(o + i, F{}(sload(x + i), sload(y + i)));
            if (i < n) {
              float a[kW], b[kW], c[kW];
              std::fill(a, a + kW, 1.0f);
              std::fill(b, b + kW, 1.0f);
              std::copy(x + i, x + n, a);
              std::copy(y + i, y + n, b);
              sstore(c, F{}(sload(a), sload(b)));
              std::copy(c, c + (n - i), o + i);
            }
          }};
}
#endif

void eigen_matmul(const float* a, const float* b, float* c, int n) {
  using M = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const M> A(a, n, n), B(b, n, n);
  Eigen::Map<M> C(c, n, n);
  C.noalias() = A * B;
}

}  // namespace

// One line per peer. The Eigen and loop lambdas are what a user of each
// would write; nn ops use opgen's formulas (opdefs/nn.toml).
#define EIGEN(op, expr) \
  eigen_pw(op, [](const auto& a, [[maybe_unused]] const auto& b) { return expr; })
#define EIGEN_REDUCE(op, expr) \
  eigen_reduce(op, [](const auto& a, [[maybe_unused]] const auto& b) -> float { return expr; })
#define EIGEN_NAN(op, expr) \
  eigen_pw(                 \
      op, [](const auto& a, [[maybe_unused]] const auto& b) { return expr; }, "eigen_nan")
#define EIGEN_NAN_REDUCE(op, expr)                                                     \
  eigen_reduce(                                                                        \
      op, [](const auto& a, [[maybe_unused]] const auto& b) -> float { return expr; }, \
      "eigen_nan")
#define LOOP(op, expr) loop_pw(op, [](float a, [[maybe_unused]] float b) -> float { return expr; })
#define LOOP_REDUCE(op, expr)                                                                   \
  loop_reduce(op, [](const float* x, [[maybe_unused]] const float* y, std::size_t n) -> float { \
    return expr;                                                                                \
  })
#define SLEEF_PEER(op, expr) sleef_pw(op, [](SV a, [[maybe_unused]] SV b) { return expr; })

std::vector<Peer> native_peers() {
  std::vector<Peer> p = {
      EIGEN("add", a + b),
      EIGEN("sub", a - b),
      EIGEN("mul", a * b),
      EIGEN("div", a / b),
      EIGEN("maximum", a.max(b)),
      EIGEN("minimum", a.min(b)),
      EIGEN_NAN("maximum", a.binaryExpr(b, MaxNaN())),
      EIGEN_NAN("minimum", a.binaryExpr(b, MinNaN())),
      EIGEN("pow", a.pow(b)),
      EIGEN("sqrt", a.sqrt()),
      EIGEN("rsqrt", a.rsqrt()),
      EIGEN("reciprocal", a.inverse()),
      EIGEN("exp", a.exp()),
      EIGEN("log", a.log()),
      EIGEN("log2", a.log2()),
      EIGEN("log1p", a.log1p()),
      EIGEN("expm1", a.expm1()),
      EIGEN("sin", a.sin()),
      EIGEN("cos", a.cos()),
      EIGEN("tanh", a.tanh()),
      EIGEN("erf", a.erf()),
      EIGEN("abs", a.abs()),
      EIGEN("neg", -a),
      EIGEN("square", a.square()),
      EIGEN("floor", a.floor()),
      EIGEN("ceil", a.ceil()),
      EIGEN("round", a.round()),
      EIGEN("sign", a.sign()),
      EIGEN("clip", a.max(-1.0f).min(1.0f)),
      EIGEN("relu", a.max(0.0f)),
      EIGEN("relu6", a.max(0.0f).min(6.0f)),
      EIGEN("leaky_relu", (a > 0.0f).select(a, 0.01f * a)),
      EIGEN("sigmoid", a.logistic()),
      EIGEN("silu", a * a.logistic()),
      EIGEN("gelu", 0.5f * a * (1.0f + (0.7978845608028654f * (a + 0.044715f * a.cube())).tanh())),
      EIGEN("elu", (a > 0.0f).select(a, a.expm1())),
      EIGEN("selu", (a > 0.0f).select(1.0507009873554805f * a, 1.7580993408473769f * a.expm1())),
      EIGEN("softplus", a.max(0.0f) + (-a.abs()).exp().log1p()),
      EIGEN("softsign", a / (1.0f + a.abs())),
      EIGEN("mish", a * (a.max(0.0f) + (-a.abs()).exp().log1p()).tanh()),
      EIGEN("hard_sigmoid", (a + 3.0f).max(0.0f).min(6.0f) / 6.0f),
      EIGEN("hard_swish", a * (a + 3.0f).max(0.0f).min(6.0f) / 6.0f),
      EIGEN_REDUCE("sum", a.sum()),
      EIGEN_REDUCE("mean", a.mean()),
      EIGEN_REDUCE("reduce_max", a.maxCoeff()),
      EIGEN_NAN_REDUCE("reduce_max", a.template maxCoeff<Eigen::PropagateNaN>()),
      EIGEN_REDUCE("prod", a.prod()),
      EIGEN_REDUCE("norm2", a.matrix().norm()),
      EIGEN_REDUCE("dot", a.matrix().dot(b.matrix())),
      EIGEN_REDUCE("var", (a - a.mean()).square().mean()),
      EIGEN_REDUCE("std", std::sqrt((a - a.mean()).square().mean())),
      eigen_reduce("argmax",
                   [](const auto& a, const auto&) {
                     Eigen::Index i = 0;
                     a.maxCoeff(&i);
                     return static_cast<float>(i);  // exact below 2^24
                   }),
      eigen_reduce("argmin",
                   [](const auto& a, const auto&) {
                     Eigen::Index i = 0;
                     a.minCoeff(&i);
                     return static_cast<float>(i);
                   }),
      eigen_rows("softmax",
                 [](const auto& row, auto e) {
                   e = (row - row.maxCoeff()).exp();
                   e *= 1.0f / e.sum();
                 }),
      eigen_rows("log_softmax",
                 [](const auto& row, auto e) {
                   const float m = row.maxCoeff();
                   e = row - (m + std::log((row - m).exp().sum()));
                 }),
      eigen_rows("layer_norm",
                 [](const auto& row, auto e) {
                   const float mu = row.mean();
                   const float var = (row - mu).square().mean();
                   e = (row - mu) * (1.0f / std::sqrt(var + 1e-5f));
                 }),
      eigen_rows("rms_norm",
                 [](const auto& row, auto e) {
                   e = row * (1.0f / std::sqrt(row.square().mean() + 1e-6f));
                 }),

      LOOP("add", a + b),
      LOOP("sub", a - b),
      LOOP("mul", a * b),
      LOOP("div", a / b),
      LOOP("maximum", a > b ? a : b),
      LOOP("minimum", a < b ? a : b),
      LOOP("atan2", std::atan2(a, b)),
      LOOP("hypot", std::hypot(a, b)),
      LOOP("fmod", std::fmod(a, b)),
      LOOP("sqrt", std::sqrt(a)),
      LOOP("rsqrt", 1.0f / std::sqrt(a)),
      LOOP("reciprocal", 1.0f / a),
      LOOP("abs", std::fabs(a)),
      LOOP("neg", -a),
      LOOP("square", a * a),
      LOOP("floor", std::floor(a)),
      LOOP("ceil", std::ceil(a)),
      LOOP("round", std::round(a)),
      LOOP("trunc", std::trunc(a)),
      LOOP("sign", static_cast<float>((a > 0.0f) - (a < 0.0f))),
      LOOP("clip", a < -1.0f ? -1.0f : (a > 1.0f ? 1.0f : a)),
      LOOP("relu", a > 0.0f ? a : 0.0f),
      LOOP("relu6", a < 0.0f ? 0.0f : (a > 6.0f ? 6.0f : a)),
      LOOP("leaky_relu", a > 0.0f ? a : 0.01f * a),
      LOOP("softsign", a / (1.0f + std::fabs(a))),
      LOOP("hard_sigmoid", a <= -3.0f ? 0.0f : (a >= 3.0f ? 1.0f : (a + 3.0f) / 6.0f)),
      LOOP("hard_swish", a <= -3.0f ? 0.0f : (a >= 3.0f ? a : a * (a + 3.0f) / 6.0f)),
      LOOP_REDUCE("sum", fold16(x, y, n, 0.0f, first, std::plus<float>())),
      LOOP_REDUCE("mean", fold16(x, y, n, 0.0f, first, std::plus<float>()) / static_cast<float>(n)),
      LOOP_REDUCE("reduce_max", fold16(x, y, n, -INFINITY, first, larger)),
      LOOP_REDUCE("prod", fold16(x, y, n, 1.0f, first, times)),
      LOOP_REDUCE("norm2", std::sqrt(fold16(x, y, n, 0.0f, square, std::plus<float>()))),
      LOOP_REDUCE("dot", fold16(x, y, n, 0.0f, times, std::plus<float>())),
      LOOP_REDUCE("var", loop_var(x, y, n)),
      LOOP_REDUCE("std", std::sqrt(loop_var(x, y, n))),
      LOOP_REDUCE("argmax", loop_arg<std::greater<float>>(x, n)),
      LOOP_REDUCE("argmin", loop_arg<std::less<float>>(x, n)),
      Peer{"cumsum", "loop",
           [](const float* x, const float*, float* o, std::size_t n) {
             float s = 0;
             for (std::size_t i = 0; i < n; ++i) o[i] = s += x[i];
           }},
  };
#ifdef BENCH_SLEEF
  const std::vector<Peer> s = {
      SLEEF_PEER("exp", SLEEF(exp)(a)),
      SLEEF_PEER("tanh", SLEEF(tanh)(a)),
      SLEEF_PEER("sqrt", SLEEF_U05(sqrt)(a)),
      SLEEF_PEER("log", SLEEF(log)(a)),
      SLEEF_PEER("log2", SLEEF(log2)(a)),
      SLEEF_PEER("log1p", SLEEF(log1p)(a)),
      SLEEF_PEER("exp2", SLEEF(exp2)(a)),
      SLEEF_PEER("expm1", SLEEF(expm1)(a)),
      SLEEF_PEER("sin", SLEEF(sin)(a)),
      SLEEF_PEER("cos", SLEEF(cos)(a)),
      SLEEF_PEER("erf", SLEEF(erf)(a)),
      SLEEF_PEER("pow", SLEEF(pow)(a, b)),
      SLEEF_PEER("atan2", SLEEF(atan2)(a, b)),
      SLEEF_PEER("hypot", SLEEF_U05(hypot)(a, b)),
      SLEEF_PEER("fmod", SLEEF_EXACT(fmod)(a, b)),
  };
  p.insert(p.end(), s.begin(), s.end());
#else
  // Without SLEEF, a plain loop stands in for exp2 (no other peer here has it).
  p.push_back(LOOP("exp2", std::exp2(a)));
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
