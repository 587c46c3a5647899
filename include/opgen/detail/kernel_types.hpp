// Function-pointer types of the kernels each driver runs. Generated sources
// declare one constant of these types per op and dtype, initialised from
// the kernel family's overload set: the conversion picks the overload for
// that dtype, and fails to compile (at the spec line the op is defined on)
// when the family has none.
#pragma once

#include <cstddef>

#include "opgen/tensor_shape.hpp"
#include "opgen/tensor.hpp"

namespace opgen::detail {

/// Pointwise, one input: `void K(const In* x, Out* out, size_t n, A... args)`.
template <class In, class Out, class... A>
using UnaryKernel = void (*)(const In*, Out*, std::size_t, A...);

/// Pointwise, two inputs: `void K(const In* x, const In* y, Out* out, size_t n, A... args)`.
template <class In, class Out, class... A>
using BinaryKernel = void (*)(const In*, const In*, Out*, std::size_t, A...);

/// Pointwise, three inputs (the first may have its own element type).
template <class In0, class In1, class Out, class... A>
using TernaryKernel = void (*)(const In0*, const In1*, const In1*, Out*, std::size_t, A...);

/// Reduction over (outer, n, inner) blocks.
template <class In, class Out, class... A>
using ReduceKernel = void (*)(const In*, Out*, std::size_t, std::size_t, std::size_t, A...);

}  // namespace opgen::detail
