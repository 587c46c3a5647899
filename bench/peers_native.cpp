// Peers compiled for this machine (-march=native): Eigen, plain C++ loops,
// SLEEF, the STREAM loops and the FMA peak. See peers.hpp.
//
// Each peer is one line of eigen_and_loops() or sleef_peers(): an op name and
// a captureless lambda that the adapters below (eigen_pw, loop_pw, ...) turn
// into a PeerOf<T>::Fn. Binary lambdas get (a, b); unary ones get b == a and
// ignore it. Both lists are templates over the element type T: float for
// peers(), double for peers_f64().
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
#include <limits>
#include <unsupported/Eigen/SpecialFunctions>

#include "peers.hpp"

namespace bench {
namespace {

template <class T>
using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
template <class T>
Eigen::Map<const Array<T>, Eigen::Aligned64> in(const T* p, std::size_t n) {
  return {p, static_cast<Eigen::Index>(n)};
}
template <class T>
Eigen::Map<Array<T>, Eigen::Aligned64> out(T* p, std::size_t n) {
  return {p, static_cast<Eigen::Index>(n)};
}

// Eigen: out = F(a, b) as one array expression.
template <class T, class F>
PeerOf<T> eigen_pw(const char* op, F, const char* name = "eigen") {
  return {op, name, [](const T* x, const T* y, T* o, std::size_t n) {
            out(o, n) = F{}(in(x, n), in(y ? y : x, n));
          }};
}
// Eigen: out[0] = F(a, b), a reduction to one value.
template <class T, class F>
PeerOf<T> eigen_reduce(const char* op, F, const char* name = "eigen") {
  return {op, name, [](const T* x, const T* y, T* o, std::size_t n) {
            o[0] = F{}(in(x, n), in(y ? y : x, n));
          }};
}
// Eigen's maximum and minimum default to PropagateFast: a NaN in one operand
// (of max(a, b), of maxCoeff) may be dropped. The eigen_nan peers ask for
// PropagateNaN, the definition opgen and numpy keep.
template <class T>
using MaxNaN = Eigen::internal::scalar_max_op<T, T, Eigen::PropagateNaN>;
template <class T>
using MinNaN = Eigen::internal::scalar_min_op<T, T, Eigen::PropagateNaN>;
// Eigen: F(row, out_row) for each row of kSoftmaxRow.
template <class T, class F>
PeerOf<T> eigen_rows(const char* op, F) {
  return {op, "eigen", [](const T* x, const T*, T* o, std::size_t n) {
            for (std::size_t r = 0; r < n; r += kSoftmaxRow) {
              F{}(in(x + r, kSoftmaxRow), out(o + r, kSoftmaxRow));
            }
          }};
}

// A plain loop: o[i] = F(x[i], y[i]).
template <class T, class F>
PeerOf<T> loop_pw(const char* op, F) {
  return {op, "loop", [](const T* x, const T* y, T* o, std::size_t n) {
            if (!y) y = x;
            for (std::size_t i = 0; i < n; ++i) o[i] = F{}(x[i], y[i]);
          }};
}
// Folds F(x[i], y[i]) with G into sixteen partial results starting at init,
// so that the compiler can vectorise without -ffast-math.
template <class T, class F, class G>
T fold16(const T* x, const T* y, std::size_t n, T init, F f, G g) {
  if (!y) y = x;
  T s[16];
  std::fill(s, s + 16, init);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (int j = 0; j < 16; ++j) s[j] = g(s[j], f(x[i + j], y[i + j]));
  T t = init;
  for (; i < n; ++i) t = g(t, f(x[i], y[i]));
  for (T v : s) t = g(t, v);
  return t;
}
// A plain loop reduction: o[0] = F(x, y, n).
template <class T, class F>
PeerOf<T> loop_reduce(const char* op, F) {
  return {op, "loop", [](const T* x, const T* y, T* o, std::size_t n) { o[0] = F{}(x, y, n); }};
}
constexpr auto first = [](auto a, auto) { return a; };
constexpr auto square = [](auto a, auto) { return a * a; };
constexpr auto times = [](auto a, auto b) { return a * b; };
constexpr auto larger = [](auto a, auto b) { return a > b ? a : b; };
template <class T>
T loop_var(const T* x, const T*, std::size_t n) {
  const T m = fold16(x, x, n, T(0), first, std::plus<T>()) / static_cast<T>(n);
  return fold16(
             x, x, n, T(0), [m](T a, T) { return (a - m) * (a - m); }, std::plus<T>()) /
         static_cast<T>(n);
}
// The index of the first element that no later one beats by Better.
template <class T, class Better>
T loop_arg(const T* x, std::size_t n) {
  std::size_t k = 0;
  for (std::size_t i = 1; i < n; ++i)
    if (Better{}(x[i], x[k])) k = i;
  return static_cast<T>(k);  // exact below 2^24
}

#if defined(BENCH_HAVE_SLEEF) && (defined(__AVX512F__) || defined(__AVX2__))
#define BENCH_SLEEF 1
// SLEEF's vectors of T: V, kW lanes, load and store.
template <class T>
struct SleefVec;
#if defined(__AVX512F__)
template <>
struct SleefVec<float> {
  using V = __m512;
  static constexpr std::size_t kW = 16;
  static V load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
};
template <>
struct SleefVec<double> {
  using V = __m512d;
  static constexpr std::size_t kW = 8;
  static V load(const double* p) { return _mm512_loadu_pd(p); }
  static void store(double* p, V v) { _mm512_storeu_pd(p, v); }
};
#define SLEEF(f) Sleef_##f##f16_u10
#define SLEEF_U05(f) Sleef_##f##f16_u05
#define SLEEF_EXACT(f) Sleef_##f##f16
#define SLEEF_D(f) Sleef_##f##d8_u10
#define SLEEF_D_U05(f) Sleef_##f##d8_u05
#define SLEEF_D_EXACT(f) Sleef_##f##d8
#else
template <>
struct SleefVec<float> {
  using V = __m256;
  static constexpr std::size_t kW = 8;
  static V load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
};
template <>
struct SleefVec<double> {
  using V = __m256d;
  static constexpr std::size_t kW = 4;
  static V load(const double* p) { return _mm256_loadu_pd(p); }
  static void store(double* p, V v) { _mm256_storeu_pd(p, v); }
};
#define SLEEF(f) Sleef_##f##f8_u10
#define SLEEF_U05(f) Sleef_##f##f8_u05
#define SLEEF_EXACT(f) Sleef_##f##f8
#define SLEEF_D(f) Sleef_##f##d4_u10
#define SLEEF_D_U05(f) Sleef_##f##d4_u05
#define SLEEF_D_EXACT(f) Sleef_##f##d4
#endif
// SLEEF: o = F(x, y) a vector at a time; the tail goes through a padded copy.
template <class T, class F>
PeerOf<T> sleef_pw(const char* op, F) {
  return {op, "sleef", [](const T* x, const T* y, T* o, std::size_t n) {
            using S = SleefVec<T>;
            constexpr std::size_t kW = S::kW;
            if (!y) y = x;
            std::size_t i = 0;
            for (; i + kW <= n; i += kW) S::store(o + i, F{}(S::load(x + i), S::load(y + i)));
            if (i < n) {
              T a[kW], b[kW], c[kW];
              std::fill(a, a + kW, T(1));
              std::fill(b, b + kW, T(1));
              std::copy(x + i, x + n, a);
              std::copy(y + i, y + n, b);
              S::store(c, F{}(S::load(a), S::load(b)));
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
// (Inside the templates eigen_and_loops<T> and sleef_peers<T>.)
#define EIGEN(op, expr) \
  eigen_pw<T>(op, [](const auto& a, [[maybe_unused]] const auto& b) { return expr; })
#define EIGEN_REDUCE(op, expr) \
  eigen_reduce<T>(op, [](const auto& a, [[maybe_unused]] const auto& b) -> T { return expr; })
#define EIGEN_NAN(op, expr) \
  eigen_pw<T>(              \
      op, [](const auto& a, [[maybe_unused]] const auto& b) { return expr; }, "eigen_nan")
#define EIGEN_NAN_REDUCE(op, expr) \
  eigen_reduce<T>(                 \
      op, [](const auto& a, [[maybe_unused]] const auto& b) -> T { return expr; }, "eigen_nan")
#define LOOP(op, expr) loop_pw<T>(op, [](T a, [[maybe_unused]] T b) -> T { return expr; })
#define LOOP_REDUCE(op, expr) \
  loop_reduce<T>(op,          \
                 [](const T* x, [[maybe_unused]] const T* y, std::size_t n) -> T { return expr; })
#define SLEEF_PEER(op, expr) sleef_pw<T>(op, [](auto a, [[maybe_unused]] auto b) { return expr; })

namespace {

// The Eigen and plain-loop peers over T elements.
template <class T>
std::vector<PeerOf<T>> eigen_and_loops() {
  return {
      EIGEN("add", a + b),
      EIGEN("sub", a - b),
      EIGEN("mul", a * b),
      EIGEN("div", a / b),
      EIGEN("maximum", a.max(b)),
      EIGEN("minimum", a.min(b)),
      EIGEN_NAN("maximum", a.binaryExpr(b, MaxNaN<T>())),
      EIGEN_NAN("minimum", a.binaryExpr(b, MinNaN<T>())),
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
      EIGEN("clip", a.max(-T(1)).min(T(1))),
      EIGEN("relu", a.max(T(0))),
      EIGEN("relu6", a.max(T(0)).min(T(6.0))),
      EIGEN("leaky_relu", (a > T(0)).select(a, T(0.01) * a)),
      EIGEN("sigmoid", a.logistic()),
      EIGEN("silu", a * a.logistic()),
      EIGEN("gelu",
            T(0.5) * a * (T(1) + (T(0.7978845608028654) * (a + T(0.044715) * a.cube())).tanh())),
      EIGEN("elu", (a > T(0)).select(a, a.expm1())),
      EIGEN("selu",
            (a > T(0)).select(T(1.0507009873554805) * a, T(1.7580993408473769) * a.expm1())),
      EIGEN("softplus", a.max(T(0)) + (-a.abs()).exp().log1p()),
      EIGEN("softsign", a / (T(1) + a.abs())),
      EIGEN("mish", a * (a.max(T(0)) + (-a.abs()).exp().log1p()).tanh()),
      EIGEN("hard_sigmoid", (a + T(3.0)).max(T(0)).min(T(6.0)) / T(6.0)),
      EIGEN("hard_swish", a * (a + T(3.0)).max(T(0)).min(T(6.0)) / T(6.0)),
      EIGEN_REDUCE("sum", a.sum()),
      EIGEN_REDUCE("mean", a.mean()),
      EIGEN_REDUCE("reduce_max", a.maxCoeff()),
      EIGEN_NAN_REDUCE("reduce_max", a.template maxCoeff<Eigen::PropagateNaN>()),
      EIGEN_REDUCE("prod", a.prod()),
      EIGEN_REDUCE("norm2", a.matrix().norm()),
      EIGEN_REDUCE("dot", a.matrix().dot(b.matrix())),
      EIGEN_REDUCE("var", (a - a.mean()).square().mean()),
      EIGEN_REDUCE("std", std::sqrt((a - a.mean()).square().mean())),
      eigen_reduce<T>("argmax",
                      [](const auto& a, const auto&) {
                        Eigen::Index i = 0;
                        a.maxCoeff(&i);
                        return static_cast<T>(i);  // exact below 2^24
                      }),
      eigen_reduce<T>("argmin",
                      [](const auto& a, const auto&) {
                        Eigen::Index i = 0;
                        a.minCoeff(&i);
                        return static_cast<T>(i);
                      }),
      eigen_rows<T>("softmax",
                    [](const auto& row, auto e) {
                      e = (row - row.maxCoeff()).exp();
                      e *= T(1) / e.sum();
                    }),
      eigen_rows<T>("log_softmax",
                    [](const auto& row, auto e) {
                      const T m = row.maxCoeff();
                      e = row - (m + std::log((row - m).exp().sum()));
                    }),
      eigen_rows<T>("layer_norm",
                    [](const auto& row, auto e) {
                      const T mu = row.mean();
                      const T var = (row - mu).square().mean();
                      e = (row - mu) * (T(1) / std::sqrt(var + T(1e-5)));
                    }),
      eigen_rows<T>("rms_norm",
                    [](const auto& row, auto e) {
                      e = row * (T(1) / std::sqrt(row.square().mean() + T(1e-6)));
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
      LOOP("rsqrt", T(1) / std::sqrt(a)),
      LOOP("reciprocal", T(1) / a),
      LOOP("abs", std::fabs(a)),
      LOOP("neg", -a),
      LOOP("square", a * a),
      LOOP("floor", std::floor(a)),
      LOOP("ceil", std::ceil(a)),
      LOOP("round", std::round(a)),
      LOOP("trunc", std::trunc(a)),
      LOOP("sign", static_cast<T>((a > T(0)) - (a < T(0)))),
      LOOP("clip", a < -T(1) ? -T(1) : (a > T(1) ? T(1) : a)),
      LOOP("relu", a > T(0) ? a : T(0)),
      LOOP("relu6", a < T(0) ? T(0) : (a > T(6.0) ? T(6.0) : a)),
      LOOP("leaky_relu", a > T(0) ? a : T(0.01) * a),
      LOOP("softsign", a / (T(1) + std::fabs(a))),
      LOOP("hard_sigmoid", a <= -T(3.0) ? T(0) : (a >= T(3.0) ? T(1) : (a + T(3.0)) / T(6.0))),
      LOOP("hard_swish", a <= -T(3.0) ? T(0) : (a >= T(3.0) ? a : a * (a + T(3.0)) / T(6.0))),
      LOOP_REDUCE("sum", fold16(x, y, n, T(0), first, std::plus<T>())),
      LOOP_REDUCE("mean", fold16(x, y, n, T(0), first, std::plus<T>()) / static_cast<T>(n)),
      LOOP_REDUCE("reduce_max",
                  fold16(x, y, n, -std::numeric_limits<T>::infinity(), first, larger)),
      LOOP_REDUCE("prod", fold16(x, y, n, T(1), first, times)),
      LOOP_REDUCE("norm2", std::sqrt(fold16(x, y, n, T(0), square, std::plus<T>()))),
      LOOP_REDUCE("dot", fold16(x, y, n, T(0), times, std::plus<T>())),
      LOOP_REDUCE("var", loop_var<T>(x, y, n)),
      LOOP_REDUCE("std", std::sqrt(loop_var<T>(x, y, n))),
      LOOP_REDUCE("argmax", (loop_arg<T, std::greater<T>>(x, n))),
      LOOP_REDUCE("argmin", (loop_arg<T, std::less<T>>(x, n))),
      PeerOf<T>{"cumsum", "loop",
                [](const T* x, const T*, T* o, std::size_t n) {
                  T s = 0;
                  for (std::size_t i = 0; i < n; ++i) o[i] = s += x[i];
                }},
  };
}

#ifdef BENCH_SLEEF
// The SLEEF peers over T elements: the 1-ulp forms (u10), the 0.5-ulp ones
// (u05) for sqrt and hypot, fmod exact.
template <class T>
std::vector<PeerOf<T>> sleef_peers();
template <>
std::vector<Peer> sleef_peers<float>() {
  using T = float;
  return {
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
}
template <>
std::vector<Peer64> sleef_peers<double>() {
  using T = double;
  return {
      SLEEF_PEER("exp", SLEEF_D(exp)(a)),
      SLEEF_PEER("tanh", SLEEF_D(tanh)(a)),
      SLEEF_PEER("sqrt", SLEEF_D_U05(sqrt)(a)),
      SLEEF_PEER("log", SLEEF_D(log)(a)),
      SLEEF_PEER("log2", SLEEF_D(log2)(a)),
      SLEEF_PEER("log1p", SLEEF_D(log1p)(a)),
      SLEEF_PEER("exp2", SLEEF_D(exp2)(a)),
      SLEEF_PEER("expm1", SLEEF_D(expm1)(a)),
      SLEEF_PEER("sin", SLEEF_D(sin)(a)),
      SLEEF_PEER("cos", SLEEF_D(cos)(a)),
      SLEEF_PEER("erf", SLEEF_D(erf)(a)),
      SLEEF_PEER("pow", SLEEF_D(pow)(a, b)),
      SLEEF_PEER("atan2", SLEEF_D(atan2)(a, b)),
      SLEEF_PEER("hypot", SLEEF_D_U05(hypot)(a, b)),
      SLEEF_PEER("fmod", SLEEF_D_EXACT(fmod)(a, b)),
  };
}
#endif

// Every native peer over T elements.
template <class T>
std::vector<PeerOf<T>> all_native() {
  std::vector<PeerOf<T>> p = eigen_and_loops<T>();
#ifdef BENCH_SLEEF
  const std::vector<PeerOf<T>> s = sleef_peers<T>();
  p.insert(p.end(), s.begin(), s.end());
#else
  // Without SLEEF, a plain loop stands in for exp2 (no other peer here has it).
  p.push_back(LOOP("exp2", std::exp2(a)));
#endif
  return p;
}

}  // namespace

std::vector<Peer> native_peers() { return all_native<float>(); }
std::vector<Peer64> peers_f64() { return all_native<double>(); }

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
