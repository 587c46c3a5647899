// Kernels of the tone namespace (its spec's kernel_header, included by the
// generated tone.cpp). Pointwise kernels take contiguous arrays, one
// overload per dtype; custom kernels take tensors. They live in
// <parent of cpp_namespace>::kernels. Plain C++ here; opgen's own kernels
// (kernels/ in opgen) show the Highway version.
#pragma once

#include <cstddef>
#include <opgen/tensor.hpp>

namespace tonemap::kernels {

/// Pointwise gamma: y = x^(1/g).
void Gamma(const float* x, float* y, std::size_t n, double g);
void Gamma(const double* x, double* y, std::size_t n, double g);

/// Custom exposure: y = x * 2^stops (x and y are float32, same shape).
void Exposure(const opgen::Tensor& x, double stops, opgen::Tensor& y);

}  // namespace tonemap::kernels
