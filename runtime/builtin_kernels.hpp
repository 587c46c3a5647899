// The kernels of opgen's built-in namespaces, as their generated wrappers
// see them: every Highway kernel header (pointer-and-count entry points the
// pointwise and reduction drivers run), and the Tensor-level adapters of
// `custom`-kind ops, which take validated tensors and write the outputs.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "kernels/activation.hpp"
#include "kernels/bitwise.hpp"
#include "kernels/compare.hpp"
#include "kernels/elementary.hpp"
#include "kernels/elementwise.hpp"
#include "kernels/matmul.hpp"
#include "kernels/normalize.hpp"
#include "kernels/random.hpp"
#include "kernels/reduce.hpp"
#include "kernels/softmax.hpp"
#include "kernels/statistics.hpp"
#include "kernels/transcendental.hpp"
#include "opgen/tensor_shape.hpp"
#include "opgen/span.hpp"
#include "opgen/tensor.hpp"

namespace opgen::kernels {

/// nn.softmax: y = softmax of x along `dim` (negative counts from the end;
/// a scalar takes 0 or -1 and gives 1). x is float32 or float64 (checked by
/// the wrapper); y has x's shape and dtype and may be x itself. Throws
/// opgen::Error naming "nn.softmax" and "dim" when dim is out of range.
void Softmax(const Tensor& x, std::int64_t dim, Tensor& y);

// nn's other custom ops (runtime/nn.cpp); the wrappers have checked the
// dtypes, ranks and sizes their specs state and allocated y.

/// nn.log_softmax: y = x - max - ln(sum(exp(x - max))) along dim (as Softmax).
void LogSoftmax(const Tensor& x, std::int64_t dim, Tensor& y);
/// nn.layer_norm and nn.rms_norm over the last dimension; weight and bias
/// may be null tensors (absent).
void LayerNorm(const Tensor& x, const Tensor& weight, const Tensor& bias, double eps, Tensor& y);
void RmsNorm(const Tensor& x, const Tensor& weight, double eps, Tensor& y);
/// nn.bias_add: y = x + b along dim.
void BiasAdd(const Tensor& x, const Tensor& b, std::int64_t dim, Tensor& y);
/// nn.dropout: the pointer kernel of kernels/random.hpp with first = 0.
void Dropout(const Tensor& x, double p, std::int64_t seed, Tensor& y);
/// nn.linear: y = x weightᵀ + bias through Matmul; the shape is x's with
/// its last dimension replaced by weight.size(0).
Shape LinearShape(const Tensor& x, const Tensor& weight, const Tensor& bias);
void Linear(const Tensor& x, const Tensor& weight, const Tensor& bias, Tensor& y);

// linalg (runtime/linalg.cpp). Each op's wrapper has checked the dtypes and
// ranks its spec states and allocated the output with the shape function's
// result; an out tensor may share storage with an input.

/// linalg.matmul: c = a · b (numpy.matmul rules, optional transposes of
/// matrix operands, broadcast batch dimensions) through the GEMM kernels.
void Matmul(const Tensor& a, const Tensor& b, bool trans_a, bool trans_b, Tensor& c);
/// linalg.transpose: x's dims permuted (reversed when dims is empty); the
/// shape function throws opgen::Error unless dims is a permutation.
Shape TransposeShape(const Tensor& x, Span<std::int64_t> dims);
void Transpose(const Tensor& x, Span<std::int64_t> dims, Tensor& y);
/// linalg.outer: z[i, j] = x[i] · y[j] over the flattened x and y.
Shape OuterShape(const Tensor& x, const Tensor& y);
void Outer(const Tensor& x, const Tensor& y, Tensor& z);
/// linalg.trace: sums of diagonal `offset` of x's last two dimensions.
Shape TraceShape(const Tensor& x, std::int64_t offset);
void Trace(const Tensor& x, std::int64_t offset, Tensor& y);
/// linalg.diag: a vector's diagonal matrix or a matrix's diagonal.
Shape DiagShape(const Tensor& x, std::int64_t offset);
void Diag(const Tensor& x, std::int64_t offset, Tensor& y);
/// random.uniform, random.normal, random.exponential, random.bernoulli and
/// random.binomial: y (allocated by the wrapper with the shape and dtype
/// asked for, both checked) receives elements offset .. offset + n - 1 of
/// the stream of seed (kernels/random.hpp); the shape and dtype arguments
/// are y's and are not read again.
void Uniform(Span<std::int64_t> shape, std::int64_t seed, double low, double high, DType dtype,
             std::int64_t offset, Tensor& y);
void Normal(Span<std::int64_t> shape, std::int64_t seed, double mean, double stddev, DType dtype,
            std::int64_t offset, Tensor& y);
void Exponential(Span<std::int64_t> shape, std::int64_t seed, double lambda, DType dtype,
                 std::int64_t offset, Tensor& y);
void Bernoulli(Span<std::int64_t> shape, std::int64_t seed, double p, DType dtype,
               std::int64_t offset, Tensor& y);
void Binomial(Span<std::int64_t> shape, std::int64_t seed, std::int64_t n_trials, double p,
              DType dtype, std::int64_t offset, Tensor& y);

// shape (runtime/shape_ops.cpp): element moves for every dtype. Shape
// functions throw opgen::Error naming the op and the arg for args that do
// not fit x (a bad reshape, split sizes that do not add up, ...).

Shape ReshapeShape(const Tensor& x, Span<std::int64_t> shape);
void Reshape(const Tensor& x, Span<std::int64_t> shape, Tensor& y);
void Concat(Span<Tensor> xs, std::int64_t dim, Tensor& y);
void Stack(Span<Tensor> xs, std::int64_t dim, Tensor& y);
std::vector<Shape> SplitShape(const Tensor& x, Span<std::int64_t> sizes, std::int64_t dim);
void Split(const Tensor& x, Span<std::int64_t> sizes, std::int64_t dim, std::span<Tensor> parts);
Shape SliceShape(const Tensor& x, std::int64_t dim, std::int64_t start, std::int64_t stop,
                 std::int64_t step);
void Slice(const Tensor& x, std::int64_t dim, std::int64_t start, std::int64_t stop,
           std::int64_t step, Tensor& y);
Shape SqueezeShape(const Tensor& x, Span<std::int64_t> dims);
void Squeeze(const Tensor& x, Span<std::int64_t> dims, Tensor& y);
Shape UnsqueezeShape(const Tensor& x, std::int64_t dim);
void Unsqueeze(const Tensor& x, std::int64_t dim, Tensor& y);
void Cast(const Tensor& x, DType dtype, Tensor& y);
Shape BroadcastToShape(const Tensor& x, Span<std::int64_t> shape);
void BroadcastTo(const Tensor& x, Span<std::int64_t> shape, Tensor& y);
Shape TileShape(const Tensor& x, Span<std::int64_t> reps);
void Tile(const Tensor& x, Span<std::int64_t> reps, Tensor& y);
void Flip(const Tensor& x, Span<std::int64_t> dims, Tensor& y);
Shape GatherShape(const Tensor& x, const Tensor& indices, std::int64_t dim);
void Gather(const Tensor& x, const Tensor& indices, std::int64_t dim, Tensor& y);

/// math.cumsum: y = the running sum of x along `dim` (negative counts from
/// the end; a scalar takes 0 or -1 and is copied). x is numeric (checked by
/// the wrapper); y has x's shape and dtype and may be x itself. Throws
/// opgen::Error naming "math.cumsum" and "dim" when dim is out of range.
void Cumsum(const Tensor& x, std::int64_t dim, Tensor& y);

/// math.dot: z (a scalar of x's dtype) = sum(x[i] * y[i]); x and y are
/// vectors of one length and one numeric dtype (checked by the wrapper).
void Dot(const Tensor& x, const Tensor& y, Tensor& z);

}  // namespace opgen::kernels
