// opgen: the runtime and every built-in namespace.
//
//   #include <opgen/opgen.hpp>
//   opgen::Tensor a = opgen::Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3});
//   opgen::Tensor c = opgen::math::add(a, a);
#pragma once

#include "opgen/builtin.hpp"
#include "opgen/denormals.hpp"
#include "opgen/dtype.hpp"
#include "opgen/error.hpp"
#include "opgen/memory.hpp"
#include "opgen/registry.hpp"
#include "opgen/span.hpp"
#include "opgen/tensor.hpp"
#include "opgen/tensor_shape.hpp"
#include "opgen/threads.hpp"
