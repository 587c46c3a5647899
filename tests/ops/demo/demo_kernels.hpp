// The demo namespace's own kernels (its spec sets kernel_header to this
// file): what a project using opgen writes for its own ops. Plain C++ here;
// a real project would use Highway like opgen's kernels/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "demo.hpp"
#include "opgen/shape.hpp"
#include "opgen/span.hpp"
#include "opgen/tensor.hpp"

namespace demo::kernels {

using opgen::Shape;
using opgen::Span;
using opgen::Tensor;

/// Pointwise: y = a * x + b.
void Affine(const float* x, float* y, std::size_t n, double a, double b);
void Affine(const double* x, double* y, std::size_t n, double a, double b);

/// Custom: window sums of a float32 matrix, and the number of windows.
Shape PoolShape(const Tensor& x, const Tensor& mask, ops::PoolEdge edge,
                const ops::WindowConfig& config);
void Pool(const Tensor& x, const Tensor& mask, ops::PoolEdge edge, const ops::WindowConfig& config,
          Tensor& y, Tensor& count);

/// Custom: weighted sum of tensors of one shape and float dtype.
void Mix(Span<Tensor> xs, Span<double> weights, Tensor& y);

/// Custom: conversion to `to` (y is allocated with that dtype).
void Convert(const Tensor& x, opgen::DType to, ops::Rounding rounding, std::string_view label,
             Tensor& y);

/// Custom: a + t (b - a) with broadcasting (only equal shapes or a
/// one-element b are needed by the tests).
void Blend(const Tensor& a, const Tensor& b, double t, Tensor& y);

/// Reduction over (outer, n, inner) blocks, times a factor.
void RowSums(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner,
             double factor);
void RowSums(const double* x, double* out, std::size_t outer, std::size_t n, std::size_t inner,
             double factor);

/// Custom: y filled with `value` (y already has its shape and dtype).
void Fill(const Tensor& x, Span<std::int64_t> shape, double value, Tensor& y);

}  // namespace demo::kernels
