// The peers' kernels, behind plain pointer+count functions. Eigen, the plain
// loops, SLEEF and the FMA peak are compiled for this machine's CPU
// (-march=native, as a user of those libraries would); oneDNN, XNNPACK and
// OpenBLAS dispatch at run time themselves.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace bench {

/// One implementation of one op: out = op(x[, y]) over n elements of type T
/// (float, or double for `ops_bench --float64`; y is null for unary ops).
/// Reductions (sum, mean, ..., argmax) write their one value to out[0]
/// (argmax the index as a T, exact below 2^24); row ops (softmax,
/// log_softmax, layer_norm, rms_norm) get n a multiple of the row length
/// (kSoftmaxRow = 1024).
template <class T>
struct PeerOf {
  using Elem = T;
  using Fn = void (*)(const T* x, const T* y, T* out, std::size_t n);
  std::string op;    // a name of ops_bench.cpp's op table (kOps)
  std::string name;  // eigen, eigen_nan (maximum and friends with
                     // PropagateNaN), loop, sleef, xnnpack, onednn, openblas
  Fn fn;
};
using Peer = PeerOf<float>;
using Peer64 = PeerOf<double>;

/// Every peer kernel this build has, prepared for rows of kSoftmaxRow.
std::vector<Peer> peers();
/// The float64 peers: Eigen, plain loops and SLEEF (oneDNN and XNNPACK have
/// no float64 kernels for these ops).
std::vector<Peer64> peers_f64();
inline constexpr std::size_t kSoftmaxRow = 1024;

/// STREAM-style copy (c = a) and add (c = a + b), plain loops.
void stream_copy(const float* a, float* c, std::size_t n);
void stream_add(const float* a, const float* b, float* c, std::size_t n);

/// Runs `iters` x 8 x 16 independent FMAs per vector lane; returns the
/// number of flops done (2 per FMA per lane).
double fma_peak_kernel(long iters);

/// C = A B for n x n row-major float matrices, single-threaded peers.
struct MatmulPeer {
  std::string name;
  void (*fn)(const float* a, const float* b, float* c, int n);
};
std::vector<MatmulPeer> matmul_peers();

/// The kernel set OpenBLAS chose at load time (openblas_get_corename(), e.g.
/// "SkylakeX"; OPENBLAS_CORETYPE overrides its detection), or "" when this
/// build has no OpenBLAS. Debian's OpenBLAS falls back to "Prescott" (SSE3)
/// on a CPU newer than it knows, which bench/run.sh checks for.
std::string openblas_core();

// The -march=native part of peers() and matmul_peers().
std::vector<Peer> native_peers();
std::vector<MatmulPeer> native_matmul_peers();

}  // namespace bench
