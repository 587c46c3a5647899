// The drivers that run kernels over tensors: pointwise (with numpy
// broadcasting) and reduction. Kernels see only contiguous runs of
// elements; the drivers split tensors into such runs.
//
// Preconditions (the generated wrapper establishes them): every tensor is
// non-null, inputs have the kernel's element type, `out` is allocated with
// the broadcast (or reduced) shape and the kernel's output type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "opgen/span.hpp"
#include "opgen/tensor.hpp"

namespace opgen::detail {

/// Elements per chunk when an operand is broadcast along the innermost
/// dimension: the driver repeats its value into a buffer of this many
/// elements (on the stack, L1-resident) and runs the kernel chunk by chunk.
inline constexpr std::size_t kBroadcastChunk = 512;

/// The kernel pointer types the drivers take. Generated code names one
/// overload of a kernel family with them
/// (`constexpr BinaryKernel<float, float> kAdd = kernels::Add;`), so that a
/// missing overload is an error at that line rather than a failed deduction.
template <class In, class Out, class... A>
using UnaryKernel = void (*)(const In*, Out*, std::size_t, A...);
template <class In, class Out, class... A>
using BinaryKernel = void (*)(const In*, const In*, Out*, std::size_t, A...);
template <class In0, class In1, class Out, class... A>
using TernaryKernel = void (*)(const In0*, const In1*, const In1*, Out*, std::size_t, A...);
template <class In, class Out, class... A>
using ReduceKernel = void (*)(const In*, Out*, std::size_t, std::size_t, std::size_t, A...);
template <class T, class... A>
using AxisKernel = void (*)(const T*, T*, std::size_t, std::size_t, std::size_t, A...);

/// out = kernel(x) element by element; out has x's shape.
/// Kernel: `void K(const In* x, Out* out, size_t n, A... args)`.
template <class In, class Out, class... A>
void unary(const Tensor& x, Tensor& out, void (*kernel)(const In*, Out*, std::size_t, A...),
           std::type_identity_t<A>... args);

/// out = kernel(x, y) with numpy broadcasting; out has the broadcast shape.
/// Fast paths: equal shapes (one kernel call over the whole buffers), one
/// operand with a single element (kernel over chunks against a repeated
/// buffer), then the general case, which collapses dimensions and calls
/// the kernel once per contiguous run.
/// Kernel: `void K(const In* x, const In* y, Out* out, size_t n, A... args)`.
template <class In, class Out, class... A>
void binary(const Tensor& x, const Tensor& y, Tensor& out,
            void (*kernel)(const In*, const In*, Out*, std::size_t, A...),
            std::type_identity_t<A>... args);

/// out = kernel(x, y, z) with numpy broadcasting, as `binary`.
/// Kernel: `void K(const In0* x, const In1* y, const In1* z, Out* out, size_t n, A... args)`;
/// In0 may differ from In1 (a bool condition selecting between floats).
template <class In0, class In1, class Out, class... A>
void ternary(const Tensor& x, const Tensor& y, const Tensor& z, Tensor& out,
             void (*kernel)(const In0*, const In1*, const In1*, Out*, std::size_t, A...),
             std::type_identity_t<A>... args);

/// Reduces x over `dims` (already validated; empty means every dimension)
/// into out, which holds the reduced shape (with or without kept dims:
/// the memory layout is the same). When the reduced dims are one
/// contiguous block the kernel runs on x in place as (outer, n, inner)
/// blocks; otherwise x is first copied with the reduced dims moved last.
/// Kernel: `void K(const In* x, Out* out, size_t outer, size_t n, size_t inner, A... args)`,
/// computing out[o * inner + i] from x[(o * n + k) * inner + i], k < n.
template <class In, class Out, class... A>
void reduce(const Tensor& x, Span<std::int64_t> dims, Tensor& out,
            void (*kernel)(const In*, Out*, std::size_t, std::size_t, std::size_t, A...),
            std::type_identity_t<A>... args);

/// Runs `kernel` over x as (outer, n, inner) blocks along one dimension
/// `dim` (already normalised), writing out of the same shape as x: the
/// driver of axis-wise ops such as softmax.
/// Kernel: `void K(const T* x, T* out, size_t outer, size_t n, size_t inner, A... args)`.
template <class T, class... A>
void along_axis(const Tensor& x, std::int64_t dim, Tensor& out,
                void (*kernel)(const T*, T*, std::size_t, std::size_t, std::size_t, A...),
                std::type_identity_t<A>... args);

}  // namespace opgen::detail

#include "opgen/detail/drivers-inl.hpp"
