// Peers that dispatch at run time themselves: oneDNN, XNNPACK, OpenBLAS.
// Their primitives/operators are created once per op and size, outside the
// timed calls, and re-pointed at the buffers of each call.
#include <cmath>
#include <cstddef>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "peers.hpp"

#ifdef BENCH_HAVE_ONEDNN
#include <dnnl.hpp>
#endif
#ifdef BENCH_HAVE_XNNPACK
#include <xnnpack.h>
#endif
#ifdef BENCH_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace bench {
namespace {

// The one instance of a library's state (engine, operator cache), made on
// first use.
template <class S>
S& the() {
  static S s;
  return s;
}
// One peer per row of a library's op table: S::run(i, ...) runs row i.
template <class S, std::size_t I>
void run_row(const float* x, const float* y, float* o, std::size_t n) {
  the<S>().run(I, x, y, o, n);
}
template <class S, class Table, std::size_t... I>
std::vector<Peer> table_peers(const Table& t, const char* lib, std::index_sequence<I...>) {
  return {Peer{t[I].op, lib, run_row<S, I>}...};
}

#ifdef BENCH_HAVE_ONEDNN
// oneDNN's primitive for each op: one line per op.
enum class DnnlKind { eltwise, binary, reduction, softmax, logsoftmax, layer_norm };
struct DnnlOp {
  const char* op;
  DnnlKind kind;
  dnnl::algorithm alg;
  float alpha = 0, beta = 0;  // eltwise parameters; reduction p and eps
};
using A = dnnl::algorithm;
constexpr DnnlOp kDnnlOps[] = {
    {"add", DnnlKind::binary, A::binary_add},
    {"sub", DnnlKind::binary, A::binary_sub},
    {"mul", DnnlKind::binary, A::binary_mul},
    {"div", DnnlKind::binary, A::binary_div},
    {"maximum", DnnlKind::binary, A::binary_max},
    {"minimum", DnnlKind::binary, A::binary_min},
    {"relu", DnnlKind::eltwise, A::eltwise_relu},
    {"leaky_relu", DnnlKind::eltwise, A::eltwise_relu, 0.01f},
    {"relu6", DnnlKind::eltwise, A::eltwise_clip, 0.0f, 6.0f},
    {"clip", DnnlKind::eltwise, A::eltwise_clip, -1.0f, 1.0f},
    {"exp", DnnlKind::eltwise, A::eltwise_exp},
    {"tanh", DnnlKind::eltwise, A::eltwise_tanh},
    {"sigmoid", DnnlKind::eltwise, A::eltwise_logistic},
    {"gelu", DnnlKind::eltwise, A::eltwise_gelu_tanh},
    {"silu", DnnlKind::eltwise, A::eltwise_swish, 1.0f},
    {"elu", DnnlKind::eltwise, A::eltwise_elu, 1.0f},
    {"softplus", DnnlKind::eltwise, A::eltwise_soft_relu},
    {"mish", DnnlKind::eltwise, A::eltwise_mish},
    // x min(max(alpha x + beta, 0), 1); oneDNN 2.6 ignores the parameters.
    {"hard_swish", DnnlKind::eltwise, A::eltwise_hardswish, 1.0f / 6, 0.5f},
    {"sqrt", DnnlKind::eltwise, A::eltwise_sqrt},
    {"rsqrt", DnnlKind::eltwise, A::eltwise_pow, 1.0f, -0.5f},  // alpha x^beta
    {"reciprocal", DnnlKind::eltwise, A::eltwise_pow, 1.0f, -1.0f},
    {"log", DnnlKind::eltwise, A::eltwise_log},
    {"abs", DnnlKind::eltwise, A::eltwise_abs},
    {"neg", DnnlKind::eltwise, A::eltwise_linear, -1.0f, 0.0f},  // alpha x + beta
    {"square", DnnlKind::eltwise, A::eltwise_square},
    {"round", DnnlKind::eltwise, A::eltwise_round},  // halfway cases to even
    {"sum", DnnlKind::reduction, A::reduction_sum},
    {"mean", DnnlKind::reduction, A::reduction_mean},
    {"reduce_max", DnnlKind::reduction, A::reduction_max},
    {"prod", DnnlKind::reduction, A::reduction_mul},
    {"norm2", DnnlKind::reduction, A::reduction_norm_lp_sum, 2.0f, 0.0f},
    {"softmax", DnnlKind::softmax, A::undef},
    {"log_softmax", DnnlKind::logsoftmax, A::undef},
    {"layer_norm", DnnlKind::layer_norm, A::undef, 1e-5f},
};

struct Dnnl {
  dnnl::engine eng{dnnl::engine::kind::cpu, 0};
  dnnl::stream strm{eng};
  struct Prim {
    dnnl::primitive p;
    dnnl::memory src, src1, dst;
    std::unordered_map<int, dnnl::memory> extra;  // statistics of layer_norm
  };
  std::map<std::pair<std::size_t, std::size_t>, Prim> cache;

  static Prim make(const DnnlOp& d, std::size_t n, const dnnl::engine& eng) {
    using tag = dnnl::memory::format_tag;
    using dt = dnnl::memory::data_type;
    const auto len = static_cast<dnnl::memory::dim>(n);
    const auto row = static_cast<dnnl::memory::dim>(kSoftmaxRow);
    const auto inf = dnnl::prop_kind::forward_inference;
    const dnnl::memory::desc flat({len}, dt::f32, tag::a), rows({len / row, row}, dt::f32, tag::ab);
    Prim pr;
    dnnl::memory::desc md = flat, od = flat;
    switch (d.kind) {
      case DnnlKind::eltwise:
        pr.p = dnnl::eltwise_forward(
            {dnnl::eltwise_forward::desc(inf, d.alg, flat, d.alpha, d.beta), eng});
        break;
      case DnnlKind::binary:
        pr.p = dnnl::binary({dnnl::binary::desc(d.alg, flat, flat, flat), eng});
        pr.src1 = dnnl::memory(flat, eng, DNNL_MEMORY_NONE);
        break;
      case DnnlKind::reduction:
        od = dnnl::memory::desc({1}, dt::f32, tag::a);
        pr.p = dnnl::reduction({dnnl::reduction::desc(d.alg, flat, od, d.alpha, d.beta), eng});
        break;
      case DnnlKind::softmax:
        md = od = rows;
        pr.p = dnnl::softmax_forward({dnnl::softmax_forward::desc(inf, rows, 1), eng});
        break;
      case DnnlKind::logsoftmax:
        md = od = rows;
        pr.p = dnnl::logsoftmax_forward({dnnl::logsoftmax_forward::desc(inf, rows, 1), eng});
        break;
      case DnnlKind::layer_norm: {
        md = od = rows;
        const dnnl::layer_normalization_forward::primitive_desc pd(
            {inf, rows, d.alpha, dnnl::normalization_flags::none}, eng);
        pr.p = dnnl::layer_normalization_forward(pd);
        pr.extra[DNNL_ARG_MEAN] = dnnl::memory(pd.mean_desc(), eng);
        pr.extra[DNNL_ARG_VARIANCE] = dnnl::memory(pd.variance_desc(), eng);
        break;
      }
    }
    pr.src = dnnl::memory(md, eng, DNNL_MEMORY_NONE);
    pr.dst = dnnl::memory(od, eng, DNNL_MEMORY_NONE);
    return pr;
  }

  void run(std::size_t i, const float* x, const float* y, float* o, std::size_t n) {
    auto it = cache.find({i, n});
    if (it == cache.end())
      it = cache.emplace(std::make_pair(i, n), make(kDnnlOps[i], n, eng)).first;
    Prim& pr = it->second;
    pr.src.set_data_handle(const_cast<float*>(x));
    pr.dst.set_data_handle(o);
    std::unordered_map<int, dnnl::memory> args = pr.extra;
    args[DNNL_ARG_DST] = pr.dst;
    if (kDnnlOps[i].kind == DnnlKind::binary) {
      pr.src1.set_data_handle(const_cast<float*>(y));
      args[DNNL_ARG_SRC_0] = pr.src;
      args[DNNL_ARG_SRC_1] = pr.src1;
    } else {
      args[DNNL_ARG_SRC] = pr.src;
    }
    pr.p.execute(strm, args);
    strm.wait();
  }
};

void dnnl_matmul(const float* a, const float* b, float* c, int n) {
  struct M {
    int n = 0;
    dnnl::primitive p;
    dnnl::memory A, B, C;
  };
  static M m;
  Dnnl& s = the<Dnnl>();
  if (m.n != n) {
    using tag = dnnl::memory::format_tag;
    dnnl::memory::desc md({n, n}, dnnl::memory::data_type::f32, tag::ab);
    dnnl::matmul::desc d(md, md, md);
    m.p = dnnl::matmul(dnnl::matmul::primitive_desc(d, s.eng));
    m.A = dnnl::memory(md, s.eng, DNNL_MEMORY_NONE);
    m.B = dnnl::memory(md, s.eng, DNNL_MEMORY_NONE);
    m.C = dnnl::memory(md, s.eng, DNNL_MEMORY_NONE);
    m.n = n;
  }
  m.A.set_data_handle(const_cast<float*>(a));
  m.B.set_data_handle(const_cast<float*>(b));
  m.C.set_data_handle(c);
  m.p.execute(s.strm, {{DNNL_ARG_SRC, m.A}, {DNNL_ARG_WEIGHTS, m.B}, {DNNL_ARG_DST, m.C}});
  s.strm.wait();
}
#endif

#ifdef BENCH_HAVE_XNNPACK
// XNNPACK's operator for each op: one line per op, the create call (one
// channel per element, so the batch is n) and the setup call.
struct XnnOp {
  const char* op;
  xnn_status (*create)(xnn_operator_t* op);
  xnn_status (*setup)(xnn_operator_t op, const float* x, const float* y, float* o, std::size_t n);
};
#define XNN_UNARY(op, name, ...)                                                       \
  XnnOp {                                                                              \
    op,                                                                                \
        [](xnn_operator_t* p) {                                                        \
          return xnn_create_##name##_nc_f32(1, 1, 1, __VA_ARGS__ __VA_OPT__(, ) 0, p); \
        },                                                                             \
        [](xnn_operator_t p, const float* x, const float*, float* o, std::size_t n) {  \
          return xnn_setup_##name##_nc_f32(p, n, x, o, nullptr);                       \
        }                                                                              \
  }
#define XNN_BINARY(op, name, ...)                                                       \
  XnnOp {                                                                               \
    op,                                                                                 \
        [](xnn_operator_t* p) {                                                         \
          return xnn_create_##name##_nd_f32(__VA_ARGS__ __VA_OPT__(, ) 0, p);           \
        },                                                                              \
        [](xnn_operator_t p, const float* x, const float* y, float* o, std::size_t n) { \
          const std::size_t shape[1] = {n};                                             \
          return xnn_setup_##name##_nd_f32(p, 1, shape, 1, shape, x, y, o, nullptr);    \
        }                                                                               \
  }
const XnnOp kXnnOps[] = {
    XNN_BINARY("add", add, -INFINITY, INFINITY),
    XNN_BINARY("sub", subtract, -INFINITY, INFINITY),
    XNN_BINARY("mul", multiply, -INFINITY, INFINITY),
    XNN_BINARY("div", divide, -INFINITY, INFINITY),
    XNN_BINARY("maximum", maximum),
    XNN_BINARY("minimum", minimum),
    XNN_UNARY("relu", clamp, 0.0f, INFINITY),
    XNN_UNARY("relu6", clamp, 0.0f, 6.0f),
    XNN_UNARY("clip", clamp, -1.0f, 1.0f),
    XNN_UNARY("leaky_relu", leaky_relu, 0.01f),
    XNN_UNARY("elu", elu, 1.0f),
    XNN_UNARY("sigmoid", sigmoid),
    XNN_UNARY("hard_swish", hardswish),
    XNN_UNARY("sqrt", square_root),
    XNN_UNARY("abs", abs),
    XNN_UNARY("neg", negate),
    XNN_UNARY("square", square),
    XNN_UNARY("floor", floor),
    XNN_UNARY("ceil", ceiling),
    XNN_UNARY("trunc", truncation),
    XNN_UNARY("round", bankers_rounding),  // halfway cases to even
    {"softmax",
     [](xnn_operator_t* p) {
       return xnn_create_softmax_nc_f32(kSoftmaxRow, kSoftmaxRow, kSoftmaxRow, 0, p);
     },
     [](xnn_operator_t p, const float* x, const float*, float* o, std::size_t n) {
       return xnn_setup_softmax_nc_f32(p, n / kSoftmaxRow, x, o, nullptr);
     }},
};

struct Xnn {
  struct Op {
    xnn_operator_t op = nullptr;
    const void *x = nullptr, *y = nullptr;
    void* o = nullptr;
  };
  std::map<std::pair<std::size_t, std::size_t>, Op> cache;
  Xnn() {
    if (xnn_initialize(nullptr) != xnn_status_success) throw std::runtime_error("xnn_initialize");
  }
  void run(std::size_t i, const float* x, const float* y, float* o, std::size_t n) {
    const XnnOp& d = kXnnOps[i];
    Op& e = cache[{i, n}];
    if (e.op == nullptr && d.create(&e.op) != xnn_status_success) {
      throw std::runtime_error(std::string("xnn create ") + d.op);
    }
    if (e.x != x || e.y != y || e.o != o) {
      if (d.setup(e.op, x, y, o, n) != xnn_status_success) {
        throw std::runtime_error(std::string("xnn setup ") + d.op);
      }
      e.x = x, e.y = y, e.o = o;
    }
    xnn_run_operator(e.op, nullptr);
  }
};
#endif

#ifdef BENCH_HAVE_OPENBLAS
void openblas_matmul(const float* a, const float* b, float* c, int n) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
}
#endif

}  // namespace

std::vector<Peer> peers() {
  std::vector<Peer> p = native_peers();
#ifdef BENCH_HAVE_ONEDNN
  const auto d =
      table_peers<Dnnl>(kDnnlOps, "onednn", std::make_index_sequence<std::size(kDnnlOps)>());
  p.insert(p.end(), d.begin(), d.end());
#endif
#ifdef BENCH_HAVE_XNNPACK
  const auto x =
      table_peers<Xnn>(kXnnOps, "xnnpack", std::make_index_sequence<std::size(kXnnOps)>());
  p.insert(p.end(), x.begin(), x.end());
#endif
  return p;
}

std::vector<MatmulPeer> matmul_peers() {
  std::vector<MatmulPeer> p = native_matmul_peers();
#ifdef BENCH_HAVE_ONEDNN
  p.push_back({"onednn", dnnl_matmul});
#endif
#ifdef BENCH_HAVE_OPENBLAS
  p.push_back({"openblas", openblas_matmul});
#endif
  return p;
}

std::string openblas_core() {
#ifdef BENCH_HAVE_OPENBLAS
  const char* name = openblas_get_corename();
  return name != nullptr ? name : "";
#else
  return "";
#endif
}

}  // namespace bench
