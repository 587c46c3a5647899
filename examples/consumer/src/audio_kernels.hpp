// Kernels of the audio namespace (its spec's kernel_header). Pointwise
// kernels take contiguous arrays; custom kernels take tensors. Plain C++
// here; opgen's own kernels (kernels/ in opgen) show the Highway version.
#pragma once

#include <cstddef>

#include "opgen/tensor.hpp"

namespace consumer::audio::kernels {

/// Pointwise soft_clip, one overload per dtype of the `float` class.
void SoftClip(const float* x, float* y, std::size_t n, double limit);
void SoftClip(const double* x, double* y, std::size_t n, double limit);

/// Custom gain: y = x * 10^(db / 20).
void Gain(const opgen::Tensor& x, double db, opgen::Tensor& y);

}  // namespace consumer::audio::kernels
