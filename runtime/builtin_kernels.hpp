// The kernels of opgen's built-in namespaces, as their generated wrappers
// see them: every Highway kernel header (pointer-and-count entry points the
// pointwise and reduction drivers run), and the Tensor-level adapters of
// `custom`-kind ops, which take validated tensors and write the outputs.
#pragma once

#include <cstdint>

#include "kernels/bitwise.hpp"
#include "kernels/elementwise.hpp"
#include "kernels/reduce.hpp"
#include "kernels/softmax.hpp"
#include "kernels/transcendental.hpp"
#include "opgen/tensor.hpp"

namespace opgen::kernels {

/// nn.softmax: y = softmax of x along `dim` (negative counts from the end;
/// a scalar takes 0 or -1 and gives 1). x is float32 or float64 (checked by
/// the wrapper); y has x's shape and dtype and may be x itself. Throws
/// opgen::Error naming "nn.softmax" and "dim" when dim is out of range.
void Softmax(const Tensor& x, std::int64_t dim, Tensor& y);

}  // namespace opgen::kernels
