#include "demo_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "opgen/error.hpp"

namespace demo::kernels {

namespace {

template <class T>
void affine(const T* x, T* y, std::size_t n, double a, double b) {
  for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<T>(a * x[i] + b);
}

template <class T>
void row_sums(const T* x, T* out, std::size_t outer, std::size_t n, std::size_t inner,
              double factor) {
  for (std::size_t o = 0; o < outer; ++o) {
    for (std::size_t i = 0; i < inner; ++i) {
      double s = 0;
      for (std::size_t k = 0; k < n; ++k) s += x[(o * n + k) * inner + i];
      out[o * inner + i] = static_cast<T>(s * factor);
    }
  }
}

// Reads element i of a float32/float64 tensor as double.
double at(const Tensor& t, std::int64_t i) {
  return t.dtype() == opgen::DType::float32 ? t.data<float>()[i] : t.data<double>()[i];
}

void put(Tensor& t, std::int64_t i, double v) {
  switch (t.dtype()) {
    case opgen::DType::float32:
      t.data<float>()[i] = static_cast<float>(v);
      break;
    case opgen::DType::float64:
      t.data<double>()[i] = v;
      break;
    case opgen::DType::int32:
      t.data<std::int32_t>()[i] = static_cast<std::int32_t>(v);
      break;
    case opgen::DType::int64:
      t.data<std::int64_t>()[i] = static_cast<std::int64_t>(v);
      break;
    case opgen::DType::bool_:
      t.data<bool>()[i] = v != 0;
      break;
  }
}

double get(const Tensor& t, std::int64_t i) {
  switch (t.dtype()) {
    case opgen::DType::float32:
      return t.data<float>()[i];
    case opgen::DType::float64:
      return t.data<double>()[i];
    case opgen::DType::int32:
      return t.data<std::int32_t>()[i];
    case opgen::DType::int64:
      return static_cast<double>(t.data<std::int64_t>()[i]);
    case opgen::DType::bool_:
      return t.data<bool>()[i] ? 1 : 0;
  }
  return 0;
}

}  // namespace

void Affine(const float* x, float* y, std::size_t n, double a, double b) { affine(x, y, n, a, b); }
void Affine(const double* x, double* y, std::size_t n, double a, double b) { affine(x, y, n, a, b); }

void ShiftByRank(const float* x, float* y, std::size_t n, double offset, std::int64_t rank) {
  affine(x, y, n, 1.0, offset * static_cast<double>(rank));
}
void ShiftByRank(const double* x, double* y, std::size_t n, double offset, std::int64_t rank) {
  affine(x, y, n, 1.0, offset * static_cast<double>(rank));
}

Shape PoolShape(const Tensor& x, const Tensor&, ops::PoolEdge edge, const ops::WindowConfig& c) {
  const std::int64_t h = c.size[0], w = c.size[1];
  auto windows = [&](std::int64_t len, std::int64_t k) {
    return edge == ops::PoolEdge::drop ? len / k : (len + k - 1) / k;
  };
  return Shape{windows(x.size(0), h), windows(x.size(1), w)};
}

void Pool(const Tensor& x, const Tensor& mask, ops::PoolEdge, const ops::WindowConfig& c,
          Tensor& y, Tensor& count) {
  const std::int64_t rows = x.size(0), cols = x.size(1), h = c.size[0], w = c.size[1];
  const float* px = x.data<float>();
  const float* pm = mask.defined() ? mask.data<float>() : nullptr;
  float* py = y.data<float>();
  for (std::int64_t i = 0; i < y.size(0); ++i) {
    for (std::int64_t j = 0; j < y.size(1); ++j) {
      double s = 0;
      for (std::int64_t r = i * h; r < std::min(rows, (i + 1) * h); ++r) {
        for (std::int64_t q = j * w; q < std::min(cols, (j + 1) * w); ++q) {
          s += px[r * cols + q] * (pm ? pm[r * cols + q] : 1.0f);
        }
      }
      py[i * y.size(1) + j] = static_cast<float>(s * c.scale);
    }
  }
  count.data<std::int64_t>()[0] = y.length();
}

void Mix(Span<Tensor> xs, Span<double> weights, Tensor& y) {
  for (std::int64_t i = 0; i < y.length(); ++i) {
    double s = 0;
    for (std::size_t k = 0; k < xs.size(); ++k) {
      const double wk = weights.empty() ? 1.0 / static_cast<double>(xs.size()) : weights[k];
      s += wk * at(xs[k], i);
    }
    put(y, i, s);
  }
}

void Convert(const Tensor& x, opgen::DType, ops::Rounding rounding, std::string_view, Tensor& y) {
  for (std::int64_t i = 0; i < x.length(); ++i) {
    const double v = get(x, i);
    put(y, i, rounding == ops::Rounding::down ? std::floor(v)
              : rounding == ops::Rounding::up ? std::ceil(v)
                                              : std::nearbyint(v));
  }
}

// The flat index in `x` of element `i` of `y`, whose shape x broadcasts to
// (numpy's rules: shapes aligned at the right, dimensions of 1 repeat).
std::int64_t broadcast_index(const Tensor& x, const Tensor& y, std::int64_t i) {
  std::int64_t index = 0, stride = 1;
  for (int d = y.rank() - 1, e = x.rank() - 1; d >= 0; --d, --e) {
    const std::int64_t size = y.shape()[d];
    const std::int64_t coord = i % size;
    i /= size;
    if (e >= 0) {
      if (x.shape()[e] != 1) index += coord * stride;
      stride *= x.shape()[e];
    }
  }
  return index;
}

void Blend(const Tensor& a, const Tensor& b, double t, Tensor& y) {
  for (std::int64_t i = 0; i < y.length(); ++i) {
    const double va = at(a, broadcast_index(a, y, i)), vb = at(b, broadcast_index(b, y, i));
    put(y, i, va + t * (vb - va));
  }
}

void RowSums(const float* x, float* out, std::size_t outer, std::size_t n, std::size_t inner,
             double factor) {
  row_sums(x, out, outer, n, inner, factor);
}
void RowSums(const double* x, double* out, std::size_t outer, std::size_t n, std::size_t inner,
             double factor) {
  row_sums(x, out, outer, n, inner, factor);
}

void Fill(const Tensor&, Span<std::int64_t>, double value, Tensor& y) {
  for (std::int64_t i = 0; i < y.length(); ++i) put(y, i, value);
}

void Flip(const Tensor& x, const ops::FlipConfig& config, Tensor& y) {
  const std::int64_t rows = x.size(0), cols = x.size(1);
  const float* px = x.data<float>();
  float* py = y.data<float>();
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::int64_t sr = config.flip[0] ? rows - 1 - r : r;
      const std::int64_t sc = config.flip[1] ? cols - 1 - c : c;
      py[r * cols + c] = px[sr * cols + sc];
    }
  }
}

namespace {

// Rows of part i when `rows` are split into `sections` parts.
std::int64_t part_rows(std::int64_t rows, std::int64_t sections, std::int64_t i) {
  return rows / sections + (i < rows % sections ? 1 : 0);
}

}  // namespace

std::vector<Shape> SplitShape(const Tensor& x, std::int64_t sections) {
  const Shape shape = x.shape();
  std::vector<Shape> shapes;
  for (std::int64_t i = 0; i < sections; ++i) {
    std::vector<std::int64_t> dims(shape.dims().begin(), shape.dims().end());
    dims[0] = part_rows(x.size(0), sections, i);
    shapes.emplace_back(dims);
  }
  return shapes;
}

void Split(const Tensor& x, std::int64_t sections, std::span<Tensor> parts) {
  const std::int64_t row = x.size(0) == 0 ? 0 : x.length() / x.size(0);
  std::int64_t first = 0;  // element offset of the part's first row
  for (std::int64_t i = 0; i < sections; ++i) {
    Tensor& part = parts[static_cast<std::size_t>(i)];
    for (std::int64_t k = 0; k < part.length(); ++k) put(part, k, at(x, first + k));
    first += part_rows(x.size(0), sections, i) * row;
  }
}

void Duplicate(const Tensor& x, std::span<Tensor> copies, Tensor& sum) {
  for (std::int64_t i = 0; i < x.length(); ++i) {
    for (Tensor& c : copies) put(c, i, at(x, i));
    put(sum, i, 2 * at(x, i));
  }
}

std::vector<Shape> RoundModesShape(const Tensor& x, Span<ops::Rounding> modes) {
  return std::vector<Shape>(modes.size(), x.shape());
}

void RoundModes(const Tensor& x, Span<ops::Rounding> modes, std::span<Tensor> ys) {
  for (std::size_t m = 0; m < modes.size(); ++m) {
    for (std::int64_t i = 0; i < x.length(); ++i) {
      const double v = at(x, i);
      put(ys[m], i, modes[m] == ops::Rounding::down ? std::floor(v)
                    : modes[m] == ops::Rounding::up ? std::ceil(v)
                                                    : std::nearbyint(v));
    }
  }
}

void Pick(Span<Tensor> xs, Span<std::string> names, std::string_view key, Tensor& y) {
  const auto it = std::find(names.begin(), names.end(), key);
  if (it == names.end()) throw opgen::Error("demo.pick", "no tensor is named '" + std::string(key) + "'");
  const Tensor& x = xs[static_cast<std::size_t>(it - names.begin())];
  for (std::int64_t i = 0; i < y.length(); ++i) put(y, i, at(x, i));
}

void CountDtypes(Span<Tensor> xs, Span<opgen::DType> kinds, Tensor& n) {
  std::int64_t count = 0;
  for (const Tensor& x : xs) count += std::find(kinds.begin(), kinds.end(), x.dtype()) != kinds.end();
  n.data<std::int64_t>()[0] = count;
}

}  // namespace demo::kernels
