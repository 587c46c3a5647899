// The Tensor-level adapters of nn's custom ops other than softmax: the
// wrapper has checked the inputs and args and allocated y. log_softmax and
// the normalisations are scalar loops with double accumulation (one pass
// for the statistics, one for the output); dropout runs the random kernels,
// bias_add the elementwise Add, linear linalg's GEMM.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

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
void LogSoftmaxTyped(const T* x, T* y, const Blocks& b) {
  for (std::size_t o = 0; o < b.outer; ++o) {
    for (std::size_t i = 0; i < b.inner; ++i) {
      const T* row = x + o * b.n * b.inner + i;
      T* out = y + o * b.n * b.inner + i;
      T m = -INFINITY;
      bool nan = false;
      for (std::size_t k = 0; k < b.n; ++k) {
        const T v = row[k * b.inner];
        nan |= std::isnan(v);
        m = std::max(m, v);
      }
      double sum = 0;
      // A row with NaN or +inf, or all -inf, has no finite log-probabilities.
      const bool defined = !nan && std::isfinite(m);
      if (defined) {
        for (std::size_t k = 0; k < b.n; ++k) sum += std::exp(static_cast<double>(row[k * b.inner]) - m);
      }
      const double lse = std::log(sum);
      for (std::size_t k = 0; k < b.n; ++k) {
        out[k * b.inner] = defined ? static_cast<T>(static_cast<double>(row[k * b.inner]) - m - lse)
                                   : static_cast<T>(NAN);
      }
    }
  }
}

// Rows of length n: y = (x - shift) * scale per row, then weight and bias.
template <class T>
void NormRows(const T* x, T* y, std::size_t rows, std::size_t n, const T* weight, const T* bias,
              double eps, bool centre) {
  for (std::size_t r = 0; r < rows; ++r) {
    const T* row = x + r * n;
    T* out = y + r * n;
    double mean = 0;
    if (centre) {
      for (std::size_t k = 0; k < n; ++k) mean += row[k];
      mean /= static_cast<double>(n);
    }
    double ss = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const double d = static_cast<double>(row[k]) - mean;
      ss += d * d;
    }
    const double scale = 1 / std::sqrt(ss / static_cast<double>(n) + eps);
    for (std::size_t k = 0; k < n; ++k) {
      double v = (static_cast<double>(row[k]) - mean) * scale;
      if (weight != nullptr) v *= static_cast<double>(weight[k]);
      if (bias != nullptr) v += static_cast<double>(bias[k]);
      out[k] = static_cast<T>(v);
    }
  }
}

template <class T>
const T* OptionalData(const Tensor& t) {
  return t.defined() ? t.data<T>() : nullptr;
}

void Normalise(const Tensor& x, const Tensor& weight, const Tensor& bias, double eps, bool centre,
               Tensor& y) {
  const std::size_t n = static_cast<std::size_t>(x.size(-1));
  if (n == 0 || x.length() == 0) return;
  const std::size_t rows = static_cast<std::size_t>(x.length()) / n;
  WithFloat(x.dtype(), [&](auto v) {
    using T = decltype(v);
    NormRows(x.data<T>(), y.data<T>(), rows, n, OptionalData<T>(weight), OptionalData<T>(bias), eps,
             centre);
  });
}

}  // namespace

void LogSoftmax(const Tensor& x, std::int64_t dim, Tensor& y) {
  const std::int64_t axis = detail::normalize_dim("nn.log_softmax", "dim", dim, x.rank(), "x");
  if (x.length() == 0) return;
  WithFloat(x.dtype(), [&](auto v) {
    using T = decltype(v);
    LogSoftmaxTyped(x.data<T>(), y.data<T>(), SplitAt(x.shape(), axis));
  });
}

void LayerNorm(const Tensor& x, const Tensor& weight, const Tensor& bias, double eps, Tensor& y) {
  Normalise(x, weight, bias, eps, true, y);
}

void RmsNorm(const Tensor& x, const Tensor& weight, double eps, Tensor& y) {
  Normalise(x, weight, Tensor(), eps, false, y);
}

void BiasAdd(const Tensor& x, const Tensor& b, std::int64_t dim, Tensor& y) {
  const std::int64_t axis = detail::normalize_dim("nn.bias_add", "dim", dim, x.rank(), "x");
  const Blocks s = SplitAt(x.shape(), axis);
  if (x.length() == 0) return;
  WithFloat(x.dtype(), [&](auto v) {
    using T = decltype(v);
    const T* xs = x.data<T>();
    const T* bs = b.data<T>();
    T* ys = y.data<T>();
    for (std::size_t o = 0; o < s.outer; ++o) {
      for (std::size_t c = 0; c < s.n; ++c) {
        const std::size_t at = (o * s.n + c) * s.inner;
        const T bias = bs[c];
        for (std::size_t i = 0; i < s.inner; ++i) ys[at + i] = xs[at + i] + bias;
      }
    }
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
