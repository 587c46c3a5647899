// Peers that dispatch at run time themselves: oneDNN, XNNPACK, OpenBLAS.
// Their primitives/operators are created once per op and size, outside the
// timed calls, and re-pointed at the buffers of each call.
#include <cstddef>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
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

#ifdef BENCH_HAVE_ONEDNN
struct Dnnl {
  dnnl::engine eng{dnnl::engine::kind::cpu, 0};
  dnnl::stream strm{eng};
  struct Prim {
    dnnl::primitive p;
    dnnl::memory src, src1, dst;
  };
  std::map<std::pair<std::string, std::size_t>, Prim> cache;

  Prim& get(const std::string& op, std::size_t n) {
    auto key = std::make_pair(op, n);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    using tag = dnnl::memory::format_tag;
    using dt = dnnl::memory::data_type;
    const auto len = static_cast<dnnl::memory::dim>(n);
    Prim pr;
    if (op == "softmax") {
      dnnl::memory::desc md({len / static_cast<long>(kSoftmaxRow), static_cast<long>(kSoftmaxRow)},
                            dt::f32, tag::ab);
      dnnl::softmax_forward::desc d(dnnl::prop_kind::forward_inference, md, 1);
      pr.p = dnnl::softmax_forward(dnnl::softmax_forward::primitive_desc(d, eng));
      pr.src = dnnl::memory(md, eng, DNNL_MEMORY_NONE);
      pr.dst = dnnl::memory(md, eng, DNNL_MEMORY_NONE);
    } else if (op == "add" || op == "mul") {
      dnnl::memory::desc md({len}, dt::f32, tag::a);
      dnnl::binary::desc d(op == "add" ? dnnl::algorithm::binary_add : dnnl::algorithm::binary_mul,
                           md, md, md);
      pr.p = dnnl::binary(dnnl::binary::primitive_desc(d, eng));
      pr.src = dnnl::memory(md, eng, DNNL_MEMORY_NONE);
      pr.src1 = dnnl::memory(md, eng, DNNL_MEMORY_NONE);
      pr.dst = dnnl::memory(md, eng, DNNL_MEMORY_NONE);
    } else if (op == "sum") {
      dnnl::memory::desc md({len}, dt::f32, tag::a);
      dnnl::memory::desc od({1}, dt::f32, tag::a);
      dnnl::reduction::desc d(dnnl::algorithm::reduction_sum, md, od, 0.f, 0.f);
      pr.p = dnnl::reduction(dnnl::reduction::primitive_desc(d, eng));
      pr.src = dnnl::memory(md, eng, DNNL_MEMORY_NONE);
      pr.dst = dnnl::memory(od, eng, DNNL_MEMORY_NONE);
    } else {
      dnnl::algorithm a = op == "relu"      ? dnnl::algorithm::eltwise_relu
                          : op == "exp"     ? dnnl::algorithm::eltwise_exp
                          : op == "tanh"    ? dnnl::algorithm::eltwise_tanh
                          : op == "sigmoid" ? dnnl::algorithm::eltwise_logistic
                                            : dnnl::algorithm::eltwise_gelu_tanh;
      dnnl::memory::desc md({len}, dt::f32, tag::a);
      dnnl::eltwise_forward::desc d(dnnl::prop_kind::forward_inference, a, md, 0.f, 0.f);
      pr.p = dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(d, eng));
      pr.src = dnnl::memory(md, eng, DNNL_MEMORY_NONE);
      pr.dst = dnnl::memory(md, eng, DNNL_MEMORY_NONE);
    }
    return cache.emplace(key, std::move(pr)).first->second;
  }

  void run(const std::string& op, const float* x, const float* y, float* o, std::size_t n) {
    Prim& pr = get(op, n);
    pr.src.set_data_handle(const_cast<float*>(x));
    pr.dst.set_data_handle(o);
    if (op == "add" || op == "mul") {
      pr.src1.set_data_handle(const_cast<float*>(y));
      pr.p.execute(strm,
                   {{DNNL_ARG_SRC_0, pr.src}, {DNNL_ARG_SRC_1, pr.src1}, {DNNL_ARG_DST, pr.dst}});
    } else {
      pr.p.execute(strm, {{DNNL_ARG_SRC, pr.src}, {DNNL_ARG_DST, pr.dst}});
    }
    strm.wait();
  }
};
Dnnl& dnnl_state() {
  static Dnnl d;
  return d;
}
#define DNNL_PEER(op)                                            \
  {                                                              \
#op, "onednn",                                               \
        [](const float* x, const float* y, float* o,             \
           std::size_t n) { dnnl_state().run(#op, x, y, o, n); } \
  }

void dnnl_matmul(const float* a, const float* b, float* c, int n) {
  struct M {
    int n = 0;
    dnnl::primitive p;
    dnnl::memory A, B, C;
  };
  static M m;
  Dnnl& s = dnnl_state();
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
struct Xnn {
  struct Op {
    xnn_operator_t op = nullptr;
    const void *x = nullptr, *y = nullptr;
    void* o = nullptr;
  };
  std::map<std::pair<std::string, std::size_t>, Op> cache;
  Xnn() {
    if (xnn_initialize(nullptr) != xnn_status_success) throw std::runtime_error("xnn_initialize");
  }
  void run(const std::string& op, const float* x, const float* y, float* o, std::size_t n) {
    Op& e = cache[{op, n}];
    const float inf = std::numeric_limits<float>::infinity();
    xnn_status st = xnn_status_success;
    if (e.op == nullptr) {
      if (op == "add") st = xnn_create_add_nd_f32(-inf, inf, 0, &e.op);
      if (op == "mul") st = xnn_create_multiply_nd_f32(-inf, inf, 0, &e.op);
      if (op == "relu") st = xnn_create_clamp_nc_f32(1, 1, 1, 0.f, inf, 0, &e.op);
      if (op == "sigmoid") st = xnn_create_sigmoid_nc_f32(1, 1, 1, 0, &e.op);
      if (op == "softmax")
        st = xnn_create_softmax_nc_f32(kSoftmaxRow, kSoftmaxRow, kSoftmaxRow, 0, &e.op);
      if (st != xnn_status_success) throw std::runtime_error("xnn create " + op);
    }
    if (e.x != x || e.y != y || e.o != o) {
      const std::size_t shape[1] = {n};
      if (op == "add") st = xnn_setup_add_nd_f32(e.op, 1, shape, 1, shape, x, y, o, nullptr);
      if (op == "mul") st = xnn_setup_multiply_nd_f32(e.op, 1, shape, 1, shape, x, y, o, nullptr);
      if (op == "relu") st = xnn_setup_clamp_nc_f32(e.op, n, x, o, nullptr);
      if (op == "sigmoid") st = xnn_setup_sigmoid_nc_f32(e.op, n, x, o, nullptr);
      if (op == "softmax") st = xnn_setup_softmax_nc_f32(e.op, n / kSoftmaxRow, x, o, nullptr);
      if (st != xnn_status_success) throw std::runtime_error("xnn setup " + op);
      e.x = x, e.y = y, e.o = o;
    }
    xnn_run_operator(e.op, nullptr);
  }
};
Xnn& xnn_state() {
  static Xnn x;
  return x;
}
#define XNN_PEER(op)                                            \
  {                                                             \
#op, "xnnpack",                                             \
        [](const float* x, const float* y, float* o,            \
           std::size_t n) { xnn_state().run(#op, x, y, o, n); } \
  }
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
  std::vector<Peer> d = {DNNL_PEER(add),  DNNL_PEER(mul),  DNNL_PEER(relu),
                         DNNL_PEER(exp),  DNNL_PEER(tanh), DNNL_PEER(sigmoid),
                         DNNL_PEER(gelu), DNNL_PEER(sum),  DNNL_PEER(softmax)};
  p.insert(p.end(), d.begin(), d.end());
#endif
#ifdef BENCH_HAVE_XNNPACK
  std::vector<Peer> x = {XNN_PEER(add), XNN_PEER(mul), XNN_PEER(relu), XNN_PEER(sigmoid),
                         XNN_PEER(softmax)};
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

}  // namespace bench
