// The Tensor-level adapters of nn's custom ops other than softmax: the
// wrapper has checked the inputs and args and allocated y. log_softmax,
// the normalisations and bias_add run the Highway kernels of
// kernels/softmax.hpp and kernels/normalize.hpp, dropout the random
// kernels, linear linalg's GEMM.
#include <cstddef>
#include <cstdint>

#include "builtin_kernels.hpp"
#include "opgen/detail/checks.hpp"

namespace opgen::kernels {

namespace {

// Calls f(T{}) with T the float type of dtype (checked by the wrappers).
template <class F>
void WithFloat(DType dtype, F&& f) {
  if (dtype == DType::float64) {
    f(double{});
  } else {
    f(float{});
  }
}

// (outer, n, inner) of x around axis `dim`, as the softmax driver splits it.
struct Blocks {
  std::size_t outer = 1, n = 1, inner = 1;
};
Blocks SplitAt(const Shape& s, std::int64_t dim) {
  Blocks b;
  for (int i = 0; i < s.rank(); ++i) {
    const auto d = static_cast<std::size_t>(s[i]);
    if (i < dim) {
      b.outer *= d;
    } else if (i == dim) {
      b.n = d;
    } else {
      b.inner *= d;
    }
  }
  return b;
}

template <class T>
const T* OptionalData(const Tensor& t) {
  return t.defined() ? t.data<T>() : nullptr;
}

// Calls rows_fn(xs, ys, rows, n) with the elements of x and y in x's float
// type, seen as rows of n = x.size(-1) elements (the layout of layer_norm
// and rms_norm); nothing when x is empty. The rows are the product of the
// leading dimensions rather than length / n: a 64-bit division took about
// 5 % of a 1K-float rms_norm call.
template <class RowsFn>
void ForEachFloatRow(const Tensor& x, Tensor& y, const RowsFn& rows_fn) {
  if (x.length() == 0) return;
  const Blocks b = SplitAt(x.shape(), x.rank() - 1);
  WithFloat(x.dtype(), [&](auto v) {
    using T = decltype(v);
    rows_fn(x.data<T>(), y.data<T>(), b.outer, b.n);
  });
}

}  // namespace

void LogSoftmax(const Tensor& x, std::int64_t dim, Tensor& y) {
  const std::int64_t axis = detail::normalize_dim("nn.log_softmax", "dim", dim, x.rank(), "x");
  if (x.length() == 0) return;
  WithFloat(x.dtype(), [&](auto v) {
    using T = decltype(v);
    const Blocks b = SplitAt(x.shape(), axis);
    LogSoftmax(x.data<T>(), y.data<T>(), b.outer, b.n, b.inner);
  });
}

void LayerNorm(const Tensor& x, const Tensor& weight, const Tensor& bias, double eps, Tensor& y) {
  ForEachFloatRow(x, y, [&]<class T>(const T* xs, T* ys, std::size_t rows, std::size_t n) {
    LayerNorm(xs, ys, rows, n, OptionalData<T>(weight), OptionalData<T>(bias), eps);
  });
}

void RmsNorm(const Tensor& x, const Tensor& weight, double eps, Tensor& y) {
  ForEachFloatRow(x, y, [&]<class T>(const T* xs, T* ys, std::size_t rows, std::size_t n) {
    RmsNorm(xs, ys, rows, n, OptionalData<T>(weight), eps);
  });
}

void BiasAdd(const Tensor& x, const Tensor& b, std::int64_t dim, Tensor& y) {
  const std::int64_t axis = detail::normalize_dim("nn.bias_add", "dim", dim, x.rank(), "x");
  const Blocks s = SplitAt(x.shape(), axis);
  if (x.length() == 0) return;
  WithFloat(x.dtype(), [&](auto v) {
    using T = decltype(v);
    BiasAdd(x.data<T>(), b.data<T>(), y.data<T>(), s.outer, s.n, s.inner);
  });
}

void Dropout(const Tensor& x, double p, std::int64_t seed, Tensor& y) {
  WithFloat(x.dtype(), [&](auto v) {
    using T = decltype(v);
    Dropout(x.data<T>(), y.data<T>(), static_cast<std::size_t>(x.length()),
            static_cast<std::uint64_t>(seed), 0, p);
  });
}

Shape LinearShape(const Tensor& x, const Tensor& weight, const Tensor&) {
  Shape s = x.shape();
  s[s.rank() - 1] = weight.size(0);
  return s;
}

void Linear(const Tensor& x, const Tensor& weight, const Tensor& bias, Tensor& y) {
  Matmul(x, weight, false, true, y);
  if (!bias.defined() || y.length() == 0) return;
  const auto out = static_cast<std::size_t>(weight.size(0));
  const std::size_t rows = static_cast<std::size_t>(y.length()) / out;
  WithFloat(y.dtype(), [&](auto v) {
    using T = decltype(v);
    T* ys = y.data<T>();
    for (std::size_t r = 0; r < rows; ++r) Add(ys + r * out, bias.data<T>(), ys + r * out, out);
  });
}

}  // namespace opgen::kernels
