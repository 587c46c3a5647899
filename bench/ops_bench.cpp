// opgen's public API against its peers (peers.hpp) on the same inputs, in one
// run: throughput per op and size, STREAM copy/add, per-call overhead, the
// FMA peak and matmul. bench/run.sh runs it and bench/table.py prints the
// table. Benchmark names are "<op>/<impl>/<n>"; accuracy (max relative error
// against a double reference, same inputs) is measured once per op, size and
// implementation before the timed runs and written to --accuracy_out.
// With --threads_rows it runs only opgen's 1- and 2-thread rows instead
// (benchmarks "threads/<op>/<n>/<threads>", wall-clock time); --list_ops
// prints the op table (names, kinds, input domains) as JSON and exits;
// --paired_out=FILE writes the paired rounds instead (write_paired: opgen
// and each C++ peer of a row timed alternately, --paired_rounds=N rounds,
// default 15, of batches of --paired_batch_ms=MS, default 5) and exits;
// --openblas_core prints the kernel set OpenBLAS chose (peers.hpp) and exits;
// --float64 runs every table above on float64 tensors instead, against the
// float64 peers (peers.hpp's Peer64), with errors against a long double
// reference, and leaves out the STREAM, overhead, FMA and matmul rows.
// OPGEN_BENCH_OPS=add,exp,... restricts the ops (and leaves out the STREAM,
// overhead, FMA and matmul rows).
#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#if __has_include(<opgen/linalg.hpp>)
#include <opgen/linalg.hpp>
#define BENCH_HAVE_OPGEN_MATMUL 1
#endif
#include <opgen/math.hpp>
#include <opgen/nn.hpp>
#include <opgen/tensor.hpp>
#include <opgen/threads.hpp>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "common.hpp"
#include "peers.hpp"

namespace {

using bench::kSoftmaxRow;
using opgen::DType;
using opgen::Shape;
using opgen::Tensor;

namespace m = opgen::math;
namespace nn = opgen::nn;

// pointwise: out[i] = op(x[i], y[i]); reduction: out is one value (a rank-0
// tensor); rows: op applied to each row of kSoftmaxRow of a 2-D tensor.
enum class Kind { pointwise, reduction, rows };
const char* kind_name(Kind k) {
  return k == Kind::pointwise ? "pointwise" : k == Kind::reduction ? "reduction" : "rows";
}

// The element type of this run's tensors (--float64: float64).
DType g_dtype = DType::float32;
bool f64() { return g_dtype == DType::float64; }

// One row of the op table: its inputs (x, and y for binary ops), its
// references on those inputs (double for float32 inputs, long double for
// float64 ones) and opgen's call. The error of a result r' against the
// reference r is |r' - r| / max(|r|, err_floor) (|r' - r| where that is 0).
using RefFn = void (*)(const float* x, const float* y, double* r, std::size_t n);
using Ref64Fn = void (*)(const double* x, const double* y, long double* r, std::size_t n);
using CallFn = void (*)(const Tensor& x, const Tensor& y, Tensor& out);
struct OpSpec {
  const char* name;
  Kind kind;
  bench::Range x, y;  // y.lo > y.hi: no y (unary)
  double err_floor;
  RefFn ref;
  Ref64Fn ref64;
  CallFn call;
  // Whether the accuracy check also runs the op on inputs holding NaN
  // (bench::plant_nans), for the ops whose definition says what a NaN input
  // gives: maximum, minimum, reduce_max, argmax and argmin.
  bool nan_set = false;
  bool binary() const { return y.lo <= y.hi; }
};
// op, with the NaN input set in its accuracy check.
OpSpec with_nan_set(OpSpec op) {
  op.nan_set = true;
  return op;
}

// The input domains (docs/benchmarks.md lists them per op).
constexpr bench::Range kNone{1, 0};
constexpr bench::Range kWide{-6, 6};          // most ops
constexpr bench::Range kUnit{0, 1};           // sums, means, variance, dot
constexpr bench::Range kTen{-10, 10};         // softmax, log_softmax, exp2, sin, cos
constexpr bench::Range kPositive{0.01, 100};  // sqrt, rsqrt, log, log2, pow's x
constexpr bench::Range kLog1p{-0.9, 10};
constexpr bench::Range kRecip{0.1, 10};         // reciprocal
constexpr bench::Range kDivisor{0.5, 6};        // div's and fmod's y
constexpr bench::Range kExponent{-4, 4};        // pow's y
constexpr bench::Range kNearOne{0.999, 1.001};  // prod stays finite at 16M

// The references of a pointwise op, float32's and float64's: expr of
// a = x[i] (and b = y[i]) in the reference's type R.
#define REF_FN(expr)                                                \
  [](const auto* x, const auto* y, auto* r, std::size_t n) {        \
    using R = std::remove_pointer_t<decltype(r)>;                   \
    for (std::size_t i = 0; i < n; ++i) {                           \
      const R a = x[i];                                             \
      [[maybe_unused]] const R b = y ? static_cast<R>(y[i]) : R(0); \
      r[i] = static_cast<R>(expr);                                  \
    }                                                               \
  }
#define REF(expr) REF_FN(expr), REF_FN(expr)
// A reference written as a template over the input and reference types.
#define REFS(f) f<float, double>, f<double, long double>
// opgen's call through the public API (the out-parameter overloads, as the
// peers write into preallocated buffers too).
#define CALL(...) \
  [](const Tensor& x, [[maybe_unused]] const Tensor& y, Tensor& out) { __VA_ARGS__; }
#define UNARY(name, range, expr, call) \
  OpSpec { name, Kind::pointwise, range, kNone, 0, REF(expr), CALL(call) }
#define BINARY(name, rx, ry, expr, call) \
  OpSpec { name, Kind::pointwise, rx, ry, 0, REF(expr), CALL(call) }

template <class T, class R>
R dsum(const T* x, std::size_t n) {
  R s = 0;
  for (std::size_t i = 0; i < n; ++i) s += x[i];
  return s;
}
template <class T, class R>
void ref_sum(const T* x, const T*, R* r, std::size_t n) {
  r[0] = dsum<T, R>(x, n);
}
template <class T, class R>
void ref_mean(const T* x, const T*, R* r, std::size_t n) {
  r[0] = dsum<T, R>(x, n) / static_cast<R>(n);
}
// The first NaN of x, or x + n.
template <class T>
const T* first_nan(const T* x, std::size_t n) {
  return std::find_if(x, x + n, [](T v) { return v != v; });
}
// NaN if x holds one (as numpy's max), else its maximum.
template <class T, class R>
void ref_max(const T* x, const T*, R* r, std::size_t n) {
  const T* nan = first_nan(x, n);
  r[0] = nan != x + n ? *nan : *std::max_element(x, x + n);
}
// The first NaN if x holds one (as numpy's argmax), else the first maximum.
template <class T, class R>
void ref_argmax(const T* x, const T*, R* r, std::size_t n) {
  const T* nan = first_nan(x, n);
  r[0] = static_cast<R>((nan != x + n ? nan : std::max_element(x, x + n)) - x);
}
template <class T, class R>
void ref_argmin(const T* x, const T*, R* r, std::size_t n) {
  const T* nan = first_nan(x, n);
  r[0] = static_cast<R>((nan != x + n ? nan : std::min_element(x, x + n)) - x);
}
template <class T, class R>
void ref_cumsum(const T* x, const T*, R* r, std::size_t n) {
  R s = 0;
  for (std::size_t i = 0; i < n; ++i) r[i] = s += x[i];
}
template <class T, class R>
void ref_prod(const T* x, const T*, R* r, std::size_t n) {
  R p = 1;
  for (std::size_t i = 0; i < n; ++i) p *= x[i];
  r[0] = p;
}
template <class T, class R>
void ref_norm2(const T* x, const T*, R* r, std::size_t n) {
  R s = 0;
  for (std::size_t i = 0; i < n; ++i) s += static_cast<R>(x[i]) * x[i];
  r[0] = std::sqrt(s);
}
template <class T, class R>
void ref_dot(const T* x, const T* y, R* r, std::size_t n) {
  R s = 0;
  for (std::size_t i = 0; i < n; ++i) s += static_cast<R>(x[i]) * y[i];
  r[0] = s;
}
template <class T, class R>
void ref_var(const T* x, const T*, R* r, std::size_t n) {
  const R mu = dsum<T, R>(x, n) / static_cast<R>(n);
  R s = 0;
  for (std::size_t i = 0; i < n; ++i) s += (x[i] - mu) * (x[i] - mu);
  r[0] = s / static_cast<R>(n);
}
template <class T, class R>
void ref_std(const T* x, const T* y, R* r, std::size_t n) {
  ref_var(x, y, r, n);
  r[0] = std::sqrt(r[0]);
}
// argmax and argmin give an int64 index; the table's results are floats, so
// opgen's is copied as a float (exact below 2^24; its error is 0 when right).
Tensor& index_tensor() {
  static Tensor t = Tensor::zeros(Shape{}, DType::int64);
  return t;
}
void index_to(Tensor& out) {
  const std::int64_t i = index_tensor().data<std::int64_t>()[0];
  if (out.dtype() == DType::float64) {
    out.data<double>()[0] = static_cast<double>(i);
  } else {
    out.data<float>()[0] = static_cast<float>(i);
  }
}
// Row ops: f(row, out_row, kSoftmaxRow) on each row.
template <class T, class R, void (*F)(const T*, R*, std::size_t)>
void per_row(const T* x, const T*, R* r, std::size_t n) {
  for (std::size_t s = 0; s < n; s += kSoftmaxRow) F(x + s, r + s, kSoftmaxRow);
}
#define PER_ROW(f) \
  per_row<float, double, f<float, double>>, per_row<double, long double, f<double, long double>>
template <class T, class R>
void row_softmax(const T* x, R* r, std::size_t n) {
  const R mx = *std::max_element(x, x + n);
  R total = 0;
  for (std::size_t i = 0; i < n; ++i) total += r[i] = std::exp(x[i] - mx);
  for (std::size_t i = 0; i < n; ++i) r[i] /= total;
}
template <class T, class R>
void row_log_softmax(const T* x, R* r, std::size_t n) {
  const R mx = *std::max_element(x, x + n);
  R total = 0;
  for (std::size_t i = 0; i < n; ++i) total += std::exp(x[i] - mx);
  for (std::size_t i = 0; i < n; ++i) r[i] = x[i] - mx - std::log(total);
}
template <class T, class R>
void row_layer_norm(const T* x, R* r, std::size_t n) {
  const R mu = dsum<T, R>(x, n) / static_cast<R>(n);
  R v = 0;
  for (std::size_t i = 0; i < n; ++i) v += (x[i] - mu) * (x[i] - mu);
  const R s = 1 / std::sqrt(v / static_cast<R>(n) + static_cast<R>(1e-5));
  for (std::size_t i = 0; i < n; ++i) r[i] = (x[i] - mu) * s;
}
template <class T, class R>
void row_rms_norm(const T* x, R* r, std::size_t n) {
  R v = 0;
  for (std::size_t i = 0; i < n; ++i) v += static_cast<R>(x[i]) * x[i];
  const R s = 1 / std::sqrt(v / static_cast<R>(n) + static_cast<R>(1e-6));
  for (std::size_t i = 0; i < n; ++i) r[i] = x[i] * s;
}
template <class R>
R sigmoid(R a) {
  return 1 / (1 + std::exp(-a));
}
template <class R>
R softplus(R a) {
  return std::fmax(a, R(0)) + std::log1p(std::exp(-std::fabs(a)));
}
template <class R>
R relu6(R a) {
  return a < 0 ? 0 : a > 6 ? 6 : a;
}
constexpr long double kGeluK = 0.797884560802865355879892119868763737L;  // sqrt(2 / pi)

// The ops, in the order of the table. To add an op: one line here, one line
// per peer (bench/peers_native.cpp, bench/peers_libs.cpp, bench/numpy_bench.py).
// Not clang-formatted: it would take "a * b" in a macro argument for a
// pointer declaration.
// clang-format off
const OpSpec kOps[] = {
    BINARY("add", kWide, kWide, a + b, m::add(x, y, out)),
    BINARY("sub", kWide, kWide, a - b, m::sub(x, y, out)),
    BINARY("mul", kWide, kWide, a * b, m::mul(x, y, out)),
    BINARY("div", kWide, kDivisor, a / b, m::div(x, y, out)),
    with_nan_set(BINARY("maximum", kWide, kWide, a != a || b != b ? a + b : std::fmax(a, b),
                        m::maximum(x, y, out))),
    with_nan_set(BINARY("minimum", kWide, kWide, a != a || b != b ? a + b : std::fmin(a, b),
                        m::minimum(x, y, out))),
    BINARY("pow", kPositive, kExponent, std::pow(a, b), m::pow(x, y, out)),
    BINARY("atan2", kWide, kWide, std::atan2(a, b), m::atan2(x, y, out)),
    BINARY("hypot", kWide, kWide, std::hypot(a, b), m::hypot(x, y, out)),
    BINARY("fmod", kWide, kDivisor, std::fmod(a, b), m::fmod(x, y, out)),
    UNARY("exp", kWide, std::exp(a), m::exp(x, out)),
    UNARY("tanh", kWide, std::tanh(a), m::tanh(x, out)),
    UNARY("sqrt", kPositive, std::sqrt(a), m::sqrt(x, out)),
    UNARY("rsqrt", kPositive, 1 / std::sqrt(a), m::rsqrt(x, out)),
    UNARY("reciprocal", kRecip, 1 / a, m::reciprocal(x, out)),
    UNARY("log", kPositive, std::log(a), m::log(x, out)),
    UNARY("log2", kPositive, std::log2(a), m::log2(x, out)),
    UNARY("log1p", kLog1p, std::log1p(a), m::log1p(x, out)),
    UNARY("exp2", kTen, std::exp2(a), m::exp2(x, out)),
    UNARY("expm1", kWide, std::expm1(a), m::expm1(x, out)),
    UNARY("sin", kTen, std::sin(a), m::sin(x, out)),
    UNARY("cos", kTen, std::cos(a), m::cos(x, out)),
    UNARY("erf", kWide, std::erf(a), m::erf(x, out)),
    UNARY("abs", kWide, std::fabs(a), m::abs(x, out)),
    UNARY("neg", kWide, -a, m::neg(x, out)),
    UNARY("square", kWide, a * a, m::square(x, out)),
    UNARY("floor", kWide, std::floor(a), m::floor(x, out)),
    UNARY("ceil", kWide, std::ceil(a), m::ceil(x, out)),
    UNARY("round", kWide, std::round(a), m::round(x, out)),
    UNARY("trunc", kWide, std::trunc(a), m::trunc(x, out)),
    UNARY("sign", kWide, (a > 0) - (a < 0), m::sign(x, out)),
    UNARY("clip", kWide, a < -1 ? -1 : a > 1 ? 1 : a, m::clip(x, -1.0, 1.0, out)),
    UNARY("relu", kWide, a > 0 ? a : 0, nn::relu(x, out)),
    UNARY("relu6", kTen, relu6(a), nn::relu6(x, out)),
    UNARY("leaky_relu", kWide, a > 0 ? a : 0.01 * a, nn::leaky_relu(x, 0.01, out)),
    UNARY("sigmoid", kWide, sigmoid(a), nn::sigmoid(x, out)),
    UNARY("silu", kWide, a * sigmoid(a), nn::silu(x, out)),
    UNARY("gelu", kWide, a * sigmoid(2 * kGeluK * (a + 0.044715 * a * a * a)), nn::gelu(x, out)),
    UNARY("elu", kWide, a > 0 ? a : std::expm1(a), nn::elu(x, 1.0, out)),
    UNARY("selu", kWide, 1.0507009873554805 * (a > 0 ? a : 1.6732632423543772 * std::expm1(a)),
          nn::selu(x, out)),
    UNARY("softplus", kWide, softplus(a), nn::softplus(x, out)),
    UNARY("softsign", kWide, a / (1 + std::fabs(a)), nn::softsign(x, out)),
    UNARY("mish", kWide, a * std::tanh(softplus(a)), nn::mish(x, out)),
    UNARY("hard_sigmoid", kWide, relu6(a + 3) / 6, nn::hard_sigmoid(x, out)),
    UNARY("hard_swish", kWide, a * relu6(a + 3) / 6, nn::hard_swish(x, out)),
    {"sum", Kind::reduction, kUnit, kNone, 0, REFS(ref_sum), CALL(m::sum(x, {0}, false, out))},
    {"mean", Kind::reduction, kUnit, kNone, 0, REFS(ref_mean), CALL(m::mean(x, {0}, false, out))},
    with_nan_set({"reduce_max", Kind::reduction, kWide, kNone, 0, REFS(ref_max),
                  CALL(m::reduce_max(x, {0}, false, out))}),
    {"prod", Kind::reduction, kNearOne, kNone, 0, REFS(ref_prod), CALL(m::prod(x, {0}, false, out))},
    {"norm2", Kind::reduction, kWide, kNone, 0, REFS(ref_norm2), CALL(m::norm2(x, {0}, false, out))},
    {"dot", Kind::reduction, kUnit, kUnit, 0, REFS(ref_dot), CALL(m::dot(x, y, out))},
    {"var", Kind::reduction, kUnit, kNone, 0, REFS(ref_var), CALL(m::var(x, {0}, false, 0, out))},
    {"std", Kind::reduction, kUnit, kNone, 0, REFS(ref_std), CALL(m::std(x, {0}, false, 0, out))},
    with_nan_set({"argmax", Kind::reduction, kWide, kNone, 0, REFS(ref_argmax),
                  CALL(m::argmax(x, {0}, false, index_tensor()); index_to(out))}),
    with_nan_set({"argmin", Kind::reduction, kWide, kNone, 0, REFS(ref_argmin),
                  CALL(m::argmin(x, {0}, false, index_tensor()); index_to(out))}),
    {"cumsum", Kind::pointwise, kUnit, kNone, 0, REFS(ref_cumsum), CALL(m::cumsum(x, 0, out))},
    {"softmax", Kind::rows, kTen, kNone, 0, PER_ROW(row_softmax), CALL(nn::softmax(x, -1, out))},
    // Results near 0 are judged against 1, as opgen's accuracy notes state.
    {"log_softmax", Kind::rows, kTen, kNone, 1, PER_ROW(row_log_softmax),
     CALL(nn::log_softmax(x, -1, out))},
    {"layer_norm", Kind::rows, kWide, kNone, 1, PER_ROW(row_layer_norm),
     CALL(nn::layer_norm(x, Tensor(), Tensor(), 1e-5, out))},
    {"rms_norm", Kind::rows, kWide, kNone, 1, PER_ROW(row_rms_norm),
     CALL(nn::rms_norm(x, Tensor(), 1e-6, out))},
};
// clang-format on

// The ops of this run: OPGEN_BENCH_OPS (comma-separated names) or all.
std::vector<const OpSpec*> selected_ops() {
  const char* env = std::getenv("OPGEN_BENCH_OPS");
  std::vector<const OpSpec*> r;
  for (const OpSpec& op : kOps) r.push_back(&op);
  if (!env || !*env) return r;
  std::vector<const OpSpec*> s;
  const std::string list = env;
  for (std::size_t pos = 0; pos <= list.size();) {
    std::size_t end = list.find(',', pos);
    if (end == std::string::npos) end = list.size();
    const std::string name = list.substr(pos, end - pos);
    auto it = std::find_if(r.begin(), r.end(), [&](const OpSpec* o) { return name == o->name; });
    if (it == r.end()) {
      std::fprintf(stderr,
                   "ops_bench: OPGEN_BENCH_OPS names an unknown op '%s'; ops:", name.c_str());
      for (const OpSpec* o : r) std::fprintf(stderr, " %s", o->name);
      std::fprintf(stderr, "\n");
      std::exit(2);
    }
    s.push_back(*it);
    pos = end + 1;
  }
  return s;
}

// An input tensor (flat, or rows of kSoftmaxRow), filled once per domain.
// An n-element tensor of this run's dtype (a rank-0 one for n == 0), huge
// pages asked for from 2 MiB up.
Tensor make(std::size_t n, bool rows) {
  const auto len = static_cast<std::int64_t>(n), row = static_cast<std::int64_t>(kSoftmaxRow);
  if (n == 0) return Tensor::zeros(Shape{}, g_dtype);
  Tensor t =
      rows ? Tensor::empty(Shape{len / row, row}, g_dtype) : Tensor::empty(Shape{len}, g_dtype);
  const std::size_t bytes = n * (f64() ? sizeof(double) : sizeof(float));
  if (bytes >= (2u << 20)) madvise(t.raw_data(), bytes, MADV_HUGEPAGE);
  return t;
}
// x filled with bench::fill_inputs over r, then with NaNs planted (period
// 0: none).
void fill(Tensor& x, bench::Range r, std::uint32_t salt, std::size_t period = 0,
          std::size_t first = 0) {
  const auto n = static_cast<std::size_t>(x.length());
  if (f64()) {
    bench::fill_inputs(x.data<double>(), n, r.lo, r.hi, salt);
    if (period) bench::plant_nans(x.data<double>(), n, period, first);
  } else {
    bench::fill_inputs(x.data<float>(), n, r.lo, r.hi, salt);
    if (period) bench::plant_nans(x.data<float>(), n, period, first);
  }
}
const Tensor& input(std::size_t n, bool rows, bench::Range r, std::uint32_t salt) {
  static std::map<std::tuple<bool, double, double, std::uint32_t, std::size_t>, Tensor> cache;
  Tensor& t = cache[{rows, r.lo, r.hi, salt, n}];
  if (!t.defined()) {
    t = make(n, rows);
    fill(t, r, salt);
  }
  return t;
}
struct Inputs {
  const Tensor& x;
  const Tensor& y;  // undefined for unary ops
};
Inputs inputs(const OpSpec& op, std::size_t n) {
  static const Tensor none;
  const bool rows = op.kind == Kind::rows;
  return {input(n, rows, op.x, 0), op.binary() ? input(n, rows, op.y, 12345) : none};
}
Tensor& output(Kind kind, std::size_t n) {
  static std::map<std::pair<Kind, std::size_t>, Tensor> cache;
  Tensor& t = cache[{kind, n}];
  if (!t.defined()) {
    t = make(kind == Kind::reduction ? 0 : n, kind == Kind::rows);
    std::memset(t.raw_data(), 0, t.nbytes());
  }
  return t;
}

using Impl = std::function<void(const Tensor&, const Tensor&, Tensor&)>;
using ImplList = std::vector<std::pair<std::string, Impl>>;

// A peer's op must be one of the table's (a typo would drop the peer).
void check_peer_op(const std::string& op, const std::string& name) {
  if (std::none_of(std::begin(kOps), std::end(kOps),
                   [&](const OpSpec& o) { return op == o.name; })) {
    std::fprintf(stderr, "ops_bench: peer %s of an op not in the table: %s\n", name.c_str(),
                 op.c_str());
    std::exit(1);
  }
}

// Appends each of peers to its op's list in m, if that op is selected.
template <class P>
void add_peers(const std::vector<P>& peers, std::map<std::string, ImplList>& m) {
  for (const P& p : peers) {
    check_peer_op(p.op, p.name);
    auto it = m.find(p.op);
    if (it == m.end()) continue;
    auto fn = p.fn;  // over float or double elements
    it->second.push_back({p.name, [fn](const Tensor& x, const Tensor& y, Tensor& out) {
                            fn(x.data<typename P::Elem>(),
                               y.defined() ? y.data<typename P::Elem>() : nullptr,
                               out.data<typename P::Elem>(), static_cast<std::size_t>(x.length()));
                          }});
  }
}

// opgen first, then every peer of each selected op (the float64 peers with
// --float64).
std::map<std::string, ImplList> impls(const std::vector<const OpSpec*>& ops) {
  std::map<std::string, ImplList> m;
  for (const OpSpec* op : ops) m[op->name].push_back({"opgen", op->call});
  if (f64()) {
    add_peers(bench::peers_f64(), m);
  } else {
    add_peers(bench::peers(), m);
  }
  return m;
}

// The op table as JSON (for bench/numpy_bench.py, which builds the same
// inputs, and bench/table.py).
void list_ops(const std::vector<const OpSpec*>& ops) {
  std::printf("[\n");
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const OpSpec& o = *ops[i];
    std::printf("  {\"op\": \"%s\", \"kind\": \"%s\", \"x\": [%.17g, %.17g], ", o.name,
                kind_name(o.kind), o.x.lo, o.x.hi);
    if (o.binary()) {
      std::printf("\"y\": [%.17g, %.17g], ", o.y.lo, o.y.hi);
    } else {
      std::printf("\"y\": null, ");
    }
    std::printf("\"err_floor\": %g, \"nan_set\": %s}%s\n", o.err_floor,
                o.nan_set ? "true" : "false", i + 1 < ops.size() ? "," : "");
  }
  std::printf("]\n");
}

// A comma-separated list of sizes from the environment variable env.
std::vector<std::size_t> size_list(const char* env, const char* fallback) {
  std::vector<std::size_t> s;
  const char* v = std::getenv(env);
  const std::string list = v ? v : fallback;
  for (std::size_t pos = 0; pos < list.size();) {
    std::size_t end = list.find(',', pos);
    if (end == std::string::npos) end = list.size();
    s.push_back(std::stoull(list.substr(pos, end - pos)));
    pos = end + 1;
  }
  return s;
}
std::vector<std::size_t> sizes() {
  return size_list("OPGEN_BENCH_SIZES", "1024,65536,1048576,16777216");
}

// A reduction's error is one number per input set, a single draw of its
// rounding errors (the n - 1 roundings of a product sum up alike in any
// order): reductions take the largest over kReductionSamples input sets,
// set s drawn with salts offset by s * kSampleSalt (bench/numpy_bench.py
// does the same). Pointwise and row ops have n results per set already.
constexpr int kReductionSamples = 8;
constexpr std::uint32_t kSampleSalt = 1u << 28;

// op's reference on x (and y): double for float32 inputs, long double for
// float64 ones.
struct Reference {
  std::vector<double> d;
  std::vector<long double> ld;
};
Reference reference(const OpSpec& op, const Tensor& x, const Tensor& y) {
  const auto n = static_cast<std::size_t>(x.length());
  const std::size_t m = op.kind == Kind::reduction ? 1 : n;
  Reference r;
  if (f64()) {
    r.ld.resize(m);
    op.ref64(x.data<double>(), y.defined() ? y.data<double>() : nullptr, r.ld.data(), n);
  } else {
    r.d.resize(m);
    op.ref(x.data<float>(), y.defined() ? y.data<float>() : nullptr, r.d.data(), n);
  }
  return r;
}
// The max relative error of out, a result of op, against its reference.
double error(const OpSpec& op, const Reference& r, const Tensor& out) {
  return f64() ? bench::max_rel_error(out.data<double>(), r.ld.data(), r.ld.size(), op.err_floor)
               : bench::max_rel_error(out.data<float>(), r.d.data(), r.d.size(), op.err_floor);
}

void write_accuracy(const char* path, const std::vector<const OpSpec*>& ops,
                    const std::map<std::string, ImplList>& all) {
  FILE* f = std::fopen(path, "w");
  if (!f) {
    std::perror(path);
    std::exit(1);
  }
  std::fprintf(f, "{\n");
  bool first = true;
  for (std::size_t n : sizes()) {
    for (const OpSpec* op : ops) {
      const int samples = op->kind == Kind::reduction ? kReductionSamples : 1;
      std::map<std::string, double> err;
      // Sets 0 to samples - 1, then for a nan_set op set 0 with NaNs planted.
      for (int s = 0; s < samples + op->nan_set; ++s) {
        // Set 0 is the timed runs' cached inputs; the others live for one set.
        const Inputs cached = inputs(*op, n);
        Tensor xs = cached.x, ys = cached.y;  // shared storage
        if (s > 0) {
          const auto salt = static_cast<std::uint32_t>(s < samples ? s * kSampleSalt : 0);
          const bool nans = s == samples;
          xs = make(n, op->kind == Kind::rows);
          fill(xs, op->x, salt, nans ? bench::kNanPeriodX : 0, bench::kNanFirstX);
          if (op->binary()) {
            ys = make(n, op->kind == Kind::rows);
            fill(ys, op->y, 12345 + salt, nans ? bench::kNanPeriodY : 0, bench::kNanFirstY);
          }
        }
        const Reference ref = reference(*op, xs, ys);
        for (const auto& [name, fn] : all.at(op->name)) {
          Tensor& out = output(op->kind, n);
          fn(xs, ys, out);
          err[name] = std::max(err[name], error(*op, ref, out));
        }
      }
      for (const auto& [name, fn] : all.at(op->name)) {
        // An infinite error (a NaN dropped or made) as Python's json reads it.
        std::fprintf(f, "%s  \"%s/%s/%zu\": ", first ? "" : ",\n", op->name, name.c_str(), n);
        if (std::isinf(err[name])) {
          std::fprintf(f, "Infinity");
        } else {
          std::fprintf(f, "%.3e", err[name]);
        }
        first = false;
      }
    }
  }
  std::fprintf(f, "\n}\n");
  std::fclose(f);
}

// matmul's sizes, and its implementations: the peers and opgen's public API.
constexpr int kMatmulSizes[] = {256, 512, 1024};
std::vector<bench::MatmulPeer> matmul_impls() {
  std::vector<bench::MatmulPeer> mm = bench::matmul_peers();
#ifdef BENCH_HAVE_OPGEN_MATMUL
  mm.push_back({"opgen", [](const float* a, const float* b, float*, int n) {
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
                }});
#endif
  return mm;
}
// matmul's n x n inputs in [-1, 1] and its output.
struct MatmulInputs {
  bench::Buffer a, b, c;
  explicit MatmulInputs(int n)
      : a(static_cast<std::size_t>(n) * n),
        b(static_cast<std::size_t>(n) * n),
        c(static_cast<std::size_t>(n) * n) {
    bench::fill_inputs(a.p, a.n, -1, 1, 1);
    bench::fill_inputs(b.p, b.n, -1, 1, 2);
  }
};

// This thread's CPU time in seconds (as Google Benchmark's CPU time: the
// time the thread waited for a core on a shared machine is left out).
double thread_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Paired rounds (--paired_out): the implementations of one row (opgen and
// each C++ peer of one op and size) timed alternately, `rounds` rounds of
// one batch each in a shuffled order, a batch being as many calls as take
// batch_s of CPU time. A busy neighbour moves the machine's speed over
// seconds to minutes, and the Google Benchmark rows of one op and size run
// minutes apart in a round: here the samples of one round are a few
// milliseconds apart, so bench/table.py's median of the per-round ratios
// compares the two sides at the same moments. run(i, calls) times `calls`
// calls of implementation i and returns the CPU seconds; the result is
// each implementation's rate per round, in `per_call` units per second.
std::vector<std::vector<double>> paired_samples(
    std::size_t impls, int rounds, double batch_s, double per_call, std::mt19937& rng,
    const std::function<double(std::size_t, long)>& run) {
  std::vector<long> calls(impls, 1);
  for (std::size_t i = 0; i < impls; ++i) {
    run(i, 1);  // warm: caches, the buffer cache, lazy initialisation
    for (long c = 1;; c *= 4) {
      const double t = run(i, c);
      if (t >= batch_s / 4 || c >= (1L << 30)) {
        calls[i] = std::max(1L, static_cast<long>(std::ceil(c * batch_s / std::max(t, 1e-9))));
        break;
      }
    }
  }
  std::vector<std::vector<double>> rate(impls);
  std::vector<std::size_t> order(impls);
  for (std::size_t i = 0; i < impls; ++i) order[i] = i;
  for (int r = 0; r < rounds; ++r) {
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t i : order) {
      const double t = run(i, calls[i]);
      rate[i].push_back(per_call * static_cast<double>(calls[i]) / t);
    }
  }
  return rate;
}

// Writes the paired rounds of every op and size (Gelem/s) and, with extras,
// of matmul (GFLOP/s) as JSON: {"rounds": R, "batch_ms": B, "rows":
// {"<op>/<impl>/<n>": [per round]}, "matmul": {"matmul/<impl>/<n>": [...]}}.
void write_paired(const char* path, const std::vector<const OpSpec*>& ops,
                  const std::map<std::string, ImplList>& all, bool extras, int rounds,
                  double batch_s) {
  FILE* f = std::fopen(path, "w");
  if (!f) {
    std::perror(path);
    std::exit(1);
  }
  std::mt19937 rng(20261130);
  std::fprintf(f, "{\n \"rounds\": %d,\n \"batch_ms\": %g,\n \"rows\": {", rounds, batch_s * 1e3);
  const char* sep = "\n";
  const auto write = [&](const std::string& name, const std::vector<double>& v) {
    std::fprintf(f, "%s  \"%s\": [", sep, name.c_str());
    for (std::size_t r = 0; r < v.size(); ++r) std::fprintf(f, "%s%.5g", r ? ", " : "", v[r]);
    std::fprintf(f, "]");
    sep = ",\n";
  };
  for (std::size_t n : sizes()) {
    for (const OpSpec* op : ops) {
      const Inputs in = inputs(*op, n);
      Tensor& out = output(op->kind, n);
      const ImplList& list = all.at(op->name);
      const auto rate = paired_samples(list.size(), rounds, batch_s, static_cast<double>(n) / 1e9,
                                       rng, [&](std::size_t i, long calls) {
                                         const Impl& fn = list[i].second;
                                         const double t0 = thread_seconds();
                                         for (long c = 0; c < calls; ++c) {
                                           fn(in.x, in.y, out);
                                           benchmark::ClobberMemory();
                                         }
                                         return thread_seconds() - t0;
                                       });
      for (std::size_t i = 0; i < list.size(); ++i) {
        write(std::string(op->name) + "/" + list[i].first + "/" + std::to_string(n), rate[i]);
      }
    }
  }
  std::fprintf(f, "\n },\n \"matmul\": {");
  sep = "\n";
  if (extras) {
    const std::vector<bench::MatmulPeer> mm = matmul_impls();
    for (int n : kMatmulSizes) {
      const MatmulInputs in(n);
      const auto rate =
          paired_samples(mm.size(), rounds, batch_s, 2.0 * n * n * static_cast<double>(n) / 1e9,
                         rng, [&](std::size_t i, long calls) {
                           const double t0 = thread_seconds();
                           for (long c = 0; c < calls; ++c) {
                             mm[i].fn(in.a.p, in.b.p, in.c.p, n);
                             benchmark::ClobberMemory();
                           }
                           return thread_seconds() - t0;
                         });
      for (std::size_t i = 0; i < mm.size(); ++i) {
        write("matmul/" + mm[i].name + "/" + std::to_string(n), rate[i]);
      }
    }
  }
  std::fprintf(f, "\n }\n}\n");
  std::fclose(f);
}

// extras: the STREAM loops, the per-call overhead, the FMA peak and matmul
// (left out when OPGEN_BENCH_OPS restricts the op list).
void register_all(const std::vector<const OpSpec*>& ops, const std::map<std::string, ImplList>& all,
                  bool extras) {
  for (std::size_t n : sizes()) {
    for (const OpSpec* op : ops) {
      for (const auto& [name, fn] : all.at(op->name)) {
        Impl f = fn;
        benchmark::RegisterBenchmark(
            (std::string(op->name) + "/" + name + "/" + std::to_string(n)).c_str(),
            [op, f, n](benchmark::State& st) {
              const Inputs in = inputs(*op, n);
              Tensor& out = output(op->kind, n);
              for (auto _ : st) {
                f(in.x, in.y, out);
                benchmark::ClobberMemory();
              }
              st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(n));
            });
      }
    }
    if (!extras) continue;
    // STREAM-style loops on the same buffers as add.
    benchmark::RegisterBenchmark(
        ("stream_copy/loop/" + std::to_string(n)).c_str(), [n](benchmark::State& st) {
          const Tensor& x = input(n, false, kWide, 0);
          Tensor& out = output(Kind::pointwise, n);
          for (auto _ : st) {
            bench::stream_copy(x.data<float>(), out.data<float>(), n);
            benchmark::ClobberMemory();
          }
          st.SetBytesProcessed(st.iterations() * 8 * static_cast<std::int64_t>(n));
        });
    benchmark::RegisterBenchmark(
        ("stream_add/loop/" + std::to_string(n)).c_str(), [n](benchmark::State& st) {
          const Tensor& x = input(n, false, kWide, 0);
          const Tensor& y = input(n, false, kWide, 12345);
          Tensor& out = output(Kind::pointwise, n);
          for (auto _ : st) {
            bench::stream_add(x.data<float>(), y.data<float>(), out.data<float>(), n);
            benchmark::ClobberMemory();
          }
          st.SetBytesProcessed(st.iterations() * 12 * static_cast<std::int64_t>(n));
        });
  }
  if (!extras) return;

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

  // A call that allocates its large result against the same call into an
  // out tensor (float32 add, 1M elements and up): what a fresh output costs
  // beyond the op, which the buffer cache (opgen/memory.hpp) removes.
  for (std::size_t n : sizes()) {
    if (n < (std::size_t{1} << 20)) continue;
    benchmark::RegisterBenchmark(("alloc/opgen/full/" + std::to_string(n)).c_str(),
                                 [n](benchmark::State& st) {
                                   const Tensor& x = input(n, false, kWide, 0);
                                   const Tensor& y = input(n, false, kWide, 12345);
                                   // The steady state of a loop of calls, as
                                   // numpy's median: with a short min_time,
                                   // one cold first call would be the row.
                                   { const Tensor warm = opgen::math::add(x, y); }
                                   for (auto _ : st) {
                                     Tensor c = opgen::math::add(x, y);
                                     benchmark::DoNotOptimize(c.raw_data());
                                   }
                                 });
    benchmark::RegisterBenchmark(("alloc/opgen/out/" + std::to_string(n)).c_str(),
                                 [n](benchmark::State& st) {
                                   const Tensor& x = input(n, false, kWide, 0);
                                   const Tensor& y = input(n, false, kWide, 12345);
                                   Tensor& out = output(Kind::pointwise, n);
                                   for (auto _ : st) {
                                     opgen::math::add(x, y, out);
                                     benchmark::ClobberMemory();
                                   }
                                 });
  }

  benchmark::RegisterBenchmark("fma_peak/loop/0", [](benchmark::State& st) {
    double flops = 0;
    for (auto _ : st) flops += bench::fma_peak_kernel(20000);
    st.counters["flops"] = benchmark::Counter(flops, benchmark::Counter::kIsRate);
  });

  for (const bench::MatmulPeer& p : matmul_impls()) {
    for (int n : kMatmulSizes) {
      auto fn = p.fn;
      benchmark::RegisterBenchmark(
          ("matmul/" + p.name + "/" + std::to_string(n)).c_str(), [fn, n](benchmark::State& st) {
            const MatmulInputs in(n);
            for (auto _ : st) {
              fn(in.a.p, in.b.p, in.c.p, n);
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
void register_threads(const std::vector<const OpSpec*>& ops,
                      const std::map<std::string, ImplList>& all) {
  for (std::size_t n : size_list("OPGEN_BENCH_THREAD_SIZES", "262144,1048576,16777216")) {
    for (const OpSpec* op : ops) {
      const std::string o = op->name;
      if (o != "add" && o != "exp" && o != "tanh" && o != "sigmoid" && o != "softmax") continue;
      const Impl f = all.at(o).front().second;  // opgen's
      for (int threads : {1, 2}) {
        benchmark::RegisterBenchmark(
            ("threads/" + o + "/" + std::to_string(n) + "/" + std::to_string(threads)).c_str(),
            [op, f, n, threads](benchmark::State& st) {
              const Inputs in = inputs(*op, n);
              Tensor& out = output(op->kind, n);
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
  const char* paired_out = nullptr;
  int paired_rounds = 15;
  double paired_batch_ms = 5;
  bool threads_rows = false, list = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--accuracy_out=", 15) == 0) {
      accuracy_out = argv[i] + 15;
    } else if (std::strncmp(argv[i], "--paired_out=", 13) == 0) {
      paired_out = argv[i] + 13;
    } else if (std::strncmp(argv[i], "--paired_rounds=", 16) == 0) {
      paired_rounds = std::atoi(argv[i] + 16);
    } else if (std::strncmp(argv[i], "--paired_batch_ms=", 18) == 0) {
      paired_batch_ms = std::atof(argv[i] + 18);
    } else if (std::strcmp(argv[i], "--threads_rows") == 0) {
      threads_rows = true;
    } else if (std::strcmp(argv[i], "--float64") == 0) {
      g_dtype = DType::float64;
    } else if (std::strcmp(argv[i], "--list_ops") == 0) {
      list = true;
    } else if (std::strcmp(argv[i], "--openblas_core") == 0) {
      std::printf("%s\n", bench::openblas_core().c_str());
      return 0;
    } else {
      args.push_back(argv[i]);
    }
  }
  const std::vector<const OpSpec*> ops = selected_ops();
  for (const OpSpec* op : ops) {
    for (std::size_t n : sizes()) {
      if (op->kind == Kind::rows && n % kSoftmaxRow != 0) {
        std::fprintf(stderr, "ops_bench: %s works on rows of %zu: size %zu is not a multiple\n",
                     op->name, kSoftmaxRow, n);
        return 2;
      }
    }
  }
  if (list) {
    list_ops(ops);
    return 0;
  }
  const auto all = impls(ops);
  // The STREAM, overhead, FMA and matmul rows: float32, and every op.
  const bool extras = !f64() && ops.size() == std::size(kOps);
  if (paired_out) {
    if (paired_rounds < 1 || !(paired_batch_ms > 0)) {
      std::fprintf(stderr, "ops_bench: --paired_rounds must be >= 1, --paired_batch_ms > 0\n");
      return 2;
    }
    write_paired(paired_out, ops, all, extras, paired_rounds, paired_batch_ms / 1e3);
    return 0;
  }
  int nargs = static_cast<int>(args.size());
  benchmark::Initialize(&nargs, args.data());
  benchmark::AddCustomContext("dtype", f64() ? "float64" : "float32");
  if (threads_rows) {
    register_threads(ops, all);
  } else {
    if (accuracy_out) write_accuracy(accuracy_out, ops, all);
    register_all(ops, all, extras);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
