// The demo namespace's own kernels (its spec sets kernel_header to this
// file): what a project using opgen writes for its own ops. Plain C++ here;
// a real project would use Highway like opgen's kernels/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "demo.hpp"
#include "opgen/tensor_shape.hpp"
#include "opgen/span.hpp"
#include "opgen/tensor.hpp"

namespace demo::kernels {

using opgen::Shape;
using opgen::Span;
using opgen::Tensor;

/// Pointwise: y = a * x + b.
void Affine(const float* x, float* y, std::size_t n, double a, double b);
void Affine(const double* x, double* y, std::size_t n, double a, double b);

/// Pointwise (op `shift`, kernel family `shift_by_rank`): y = x + offset * rank.
void ShiftByRank(const float* x, float* y, std::size_t n, double offset, std::int64_t rank);
void ShiftByRank(const double* x, double* y, std::size_t n, double offset, std::int64_t rank);

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

/// Custom: x with its rows and/or columns reversed (config.flip).
void Flip(const Tensor& x, const ops::FlipConfig& config, Tensor& y);

/// Custom, counted output: a shape function returns one Shape per tensor
/// (numpy.array_split's parts along dim 0), the kernel gets the prepared
/// tensors as a std::span<Tensor>.
std::vector<Shape> SplitShape(const Tensor& x, std::int64_t sections);
void Split(const Tensor& x, std::int64_t sections, std::span<Tensor> parts);

/// Custom, counted output with an exact count (its shape rule gives both).
void Duplicate(const Tensor& x, std::span<Tensor> copies, Tensor& sum);

/// Custom: x rounded once per mode (a counted enum arg), one result each.
std::vector<Shape> RoundModesShape(const Tensor& x, Span<ops::Rounding> modes);
void RoundModes(const Tensor& x, Span<ops::Rounding> modes, std::span<Tensor> ys);

/// Custom: a copy of the tensor named `key` (a counted string arg names
/// them); throws opgen::Error when no tensor has that name.
void Pick(Span<Tensor> xs, Span<std::string> names, std::string_view key, Tensor& y);

/// Custom: how many of xs have a dtype among `kinds` (a counted dtype arg).
void CountDtypes(Span<Tensor> xs, Span<opgen::DType> kinds, Tensor& n);

}  // namespace demo::kernels
