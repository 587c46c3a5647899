// The Tensor-level adapters of the shape namespace (`custom`-kind ops): the
// shape functions validate args against x and give the output shapes; the
// kernels move elements with copy_strided or memcpy, for any dtype (only
// the element size matters). An out tensor may share storage with x: the
// kernels then read from a copy.
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "builtin_kernels.hpp"
#include "opgen/detail/checks.hpp"
#include "strided_copy.hpp"

namespace opgen::kernels {

namespace {

// x, or a copy of it when y would overwrite it while it is read.
Tensor source(const Tensor& x, const Tensor& y) { return x.shares_storage(y) ? x.clone() : x; }

std::int64_t elem(const Tensor& x) { return static_cast<std::int64_t>(dtype_size(x.dtype())); }

// Copies a view of `x` (sizes and element strides, from element `first`)
// into the contiguous y.
void copy_view(const Tensor& x, std::int64_t first, const std::int64_t* sizes,
               const std::int64_t* strides, int rank, Tensor& y) {
  const Tensor src = source(x, y);
  detail::copy_strided(static_cast<const char*>(src.raw_data()) + first * elem(x), sizes, strides,
                       rank, y.raw_data(), dtype_size(x.dtype()));
}

// Same elements, same order: reshape, squeeze, unsqueeze.
void copy_all(const Tensor& x, Tensor& y) {
  if (!x.shares_storage(y)) std::memcpy(y.raw_data(), x.raw_data(), x.nbytes());
}

std::int64_t product(const std::int64_t* sizes, int from, int to) {
  std::int64_t p = 1;
  for (int i = from; i < to; ++i) p *= sizes[i];
  return p;
}

// Joins `xs` along a dimension of y that has `outer` elements before it: y
// is outer blocks, each the xs' chunks (their size along it × inner) in turn.
// Reads xs in place unless one shares y's storage (then from copies): the
// list of copies and its refcounts took a fifth of a 1K shape.concat.
void join(Span<Tensor> xs, std::int64_t outer, Tensor& y) {
  for (const Tensor& x : xs) {
    if (x.shares_storage(y)) {
      std::vector<Tensor> copies;
      for (const Tensor& t : xs) copies.push_back(source(t, y));
      join(copies, outer, y);
      return;
    }
  }
  if (outer == 0) return;
  // Each input's bytes per outer block, computed once (on the stack for up
  // to 8 inputs): a concat along the last dimension copies many small chunks.
  std::int64_t few[8];
  std::vector<std::int64_t> many;
  std::int64_t* chunk = few;
  if (xs.size() > std::size(few)) {
    many.resize(xs.size());
    chunk = many.data();
  }
  for (std::size_t i = 0; i < xs.size(); ++i) chunk[i] = xs[i].length() / outer * elem(xs[i]);
  char* out = static_cast<char*>(y.raw_data());
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::size_t i = 0; i < xs.size(); ++i) {
      std::memcpy(out, static_cast<const char*>(xs[i].raw_data()) + o * chunk[i],
                  static_cast<std::size_t>(chunk[i]));
      out += chunk[i];
    }
  }
}

}  // namespace

Shape ReshapeShape(const Tensor& x, Span<std::int64_t> shape) {
  constexpr const char* kOp = "shape.reshape";
  std::int64_t known = 1;
  int infer = -1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1 && infer < 0) {
      infer = static_cast<int>(i);
    } else if (shape[i] < 0) {
      throw Error(
          kOp, "shape",
          "shape must have non-negative sizes and at most one -1, got " + detail::show(shape));
    } else if (__builtin_mul_overflow(known, shape[i], &known)) {
      throw Error(kOp, "shape", "shape " + detail::show(shape) + " has too many elements");
    }
  }
  std::vector<std::int64_t> dims(shape.begin(), shape.end());
  if (infer >= 0) {
    if (known == 0 || x.length() % known != 0) {
      throw Error(kOp, "shape",
                  "cannot infer the -1 in shape " + detail::show(shape) + " for x of " +
                      std::to_string(x.length()) + " elements");
    }
    dims[static_cast<std::size_t>(infer)] = x.length() / known;
    known = x.length();
  }
  if (known != x.length()) {
    throw Error(kOp, "shape",
                "shape " + detail::show(shape) + " holds " + std::to_string(known) +
                    " elements, x " + x.shape().to_string() + " has " + std::to_string(x.length()));
  }
  return detail::shape_from(kOp, "shape", dims);
}

void Reshape(const Tensor& x, Span<std::int64_t>, Tensor& y) { copy_all(x, y); }

void Concat(Span<Tensor> xs, std::int64_t dim, Tensor& y) {
  const int d =
      static_cast<int>(detail::normalize_dim("shape.concat", "dim", dim, y.rank(), "xs[0]"));
  join(xs, product(y.shape().data(), 0, d), y);
}

void Stack(Span<Tensor> xs, std::int64_t dim, Tensor& y) {
  const int d =
      static_cast<int>(detail::normalize_dim("shape.stack", "dim", dim, y.rank(), "the result"));
  join(xs, product(y.shape().data(), 0, d), y);
}

std::vector<Shape> SplitShape(const Tensor& x, Span<std::int64_t> sizes, std::int64_t dim) {
  constexpr const char* kOp = "shape.split";
  const int d = static_cast<int>(detail::normalize_dim(kOp, "dim", dim, x.rank(), "x"));
  std::int64_t total = 0;
  std::vector<Shape> shapes;
  for (std::int64_t s : sizes) {
    if (s < 0 || __builtin_add_overflow(total, s, &total)) {
      throw Error(kOp, "sizes", "sizes must be non-negative, got " + detail::show(sizes));
    }
    Shape part = x.shape();
    part[d] = s;
    shapes.push_back(part);
  }
  if (total != x.shape()[d]) {
    throw Error(kOp, "sizes",
                "sizes " + detail::show(sizes) + " add up to " + std::to_string(total) + ", x " +
                    x.shape().to_string() + " has " + std::to_string(x.shape()[d]) + " along dim " +
                    std::to_string(d));
  }
  return shapes;
}

void Split(const Tensor& x, Span<std::int64_t>, std::int64_t dim, std::span<Tensor> parts) {
  const int d = static_cast<int>(detail::normalize_dim("shape.split", "dim", dim, x.rank(), "x"));
  const std::int64_t outer = product(x.shape().data(), 0, d);
  const std::int64_t inner = product(x.shape().data(), d + 1, x.rank()) * elem(x);
  const std::int64_t row = x.shape()[d] * inner;  // bytes of one outer block of x
  Tensor src = x;
  for (const Tensor& p : parts) {
    if (x.shares_storage(p)) src = x.clone();
  }
  const char* in = static_cast<const char*>(src.raw_data());
  std::int64_t offset = 0;
  for (Tensor& p : parts) {
    const std::int64_t chunk = p.shape()[d] * inner;
    char* out = static_cast<char*>(p.raw_data());
    for (std::int64_t o = 0; o < outer; ++o) {
      std::memcpy(out + o * chunk, in + o * row + offset, static_cast<std::size_t>(chunk));
    }
    offset += chunk;
  }
}

namespace {

// Python's clamping of a slice bound against a dimension of size n.
std::int64_t clamp_bound(std::int64_t i, std::int64_t n) {
  if (i < 0) i = i < -n ? 0 : i + n;
  return i > n ? n : i;
}

}  // namespace

Shape SliceShape(const Tensor& x, std::int64_t dim, std::int64_t start, std::int64_t stop,
                 std::int64_t step) {
  const int d = static_cast<int>(detail::normalize_dim("shape.slice", "dim", dim, x.rank(), "x"));
  const std::int64_t n = x.shape()[d];
  const std::int64_t lo = clamp_bound(start, n), hi = clamp_bound(stop, n);
  Shape out = x.shape();
  // ceil((hi - lo) / step), without overflow for a step near INT64_MAX.
  out[d] = hi <= lo ? 0 : (hi - lo - 1) / step + 1;
  return out;
}

void Slice(const Tensor& x, std::int64_t dim, std::int64_t start, std::int64_t, std::int64_t step,
           Tensor& y) {
  const int d = static_cast<int>(detail::normalize_dim("shape.slice", "dim", dim, x.rank(), "x"));
  std::int64_t strides[kMaxRank];
  detail::contiguous_strides(x.shape().data(), x.rank(), strides);
  const std::int64_t first = clamp_bound(start, x.shape()[d]) * strides[d];
  // A dimension of one element never steps (and a huge step would overflow).
  if (y.shape()[d] > 1) strides[d] *= step;
  copy_view(x, first, y.shape().data(), strides, y.rank(), y);
}

Shape SqueezeShape(const Tensor& x, Span<std::int64_t> dims) {
  constexpr const char* kOp = "shape.squeeze";
  bool drop[kMaxRank] = {};
  for (std::int64_t d : dims) {
    const int j = static_cast<int>(detail::normalize_dim(kOp, "dims", d, x.rank(), "x"));
    if (x.rank() > 0 && x.shape()[j] != 1) {
      throw Error(kOp, "dims",
                  "dims: dimension " + std::to_string(d) + " of x " + x.shape().to_string() +
                      " has size " + std::to_string(x.shape()[j]) + ", not 1");
    }
    if (x.rank() > 0) drop[j] = true;
  }
  Shape out;
  for (int i = 0; i < x.rank(); ++i) {
    if (!(dims.empty() ? x.shape()[i] == 1 : drop[i])) out.push_back(x.shape()[i]);
  }
  return out;
}

void Squeeze(const Tensor& x, Span<std::int64_t>, Tensor& y) { copy_all(x, y); }

Shape UnsqueezeShape(const Tensor& x, std::int64_t dim) {
  constexpr const char* kOp = "shape.unsqueeze";
  if (x.rank() == kMaxRank) {
    throw Error(kOp, "x", "x already has the maximum rank " + std::to_string(kMaxRank));
  }
  const std::int64_t r = x.rank() + 1;
  if (dim < -r || dim >= r) {
    throw Error(kOp, "dim",
                "dim " + std::to_string(dim) + " is out of range for a result of rank " +
                    std::to_string(r));
  }
  const int d = static_cast<int>(dim < 0 ? dim + r : dim);
  Shape out;
  for (int i = 0; i <= x.rank(); ++i) {
    if (i == d) out.push_back(1);
    if (i < x.rank()) out.push_back(x.shape()[i]);
  }
  return out;
}

void Unsqueeze(const Tensor& x, std::int64_t, Tensor& y) { copy_all(x, y); }

void Cast(const Tensor& x, DType, Tensor& y) { detail::cast_into(x, y); }

Shape BroadcastToShape(const Tensor& x, Span<std::int64_t> shape) {
  constexpr const char* kOp = "shape.broadcast_to";
  const Shape target = detail::shape_from(kOp, "shape", shape);
  const int extra = target.rank() - x.rank();
  bool ok = extra >= 0;
  for (int i = 0; ok && i < x.rank(); ++i) {
    ok = x.shape()[i] == 1 || x.shape()[i] == target[i + extra];
  }
  if (!ok) {
    throw Error(kOp, "shape",
                "x " + x.shape().to_string() + " cannot be broadcast to " + target.to_string());
  }
  return target;
}

void BroadcastTo(const Tensor& x, Span<std::int64_t>, Tensor& y) {
  std::int64_t strides[kMaxRank] = {}, own[kMaxRank];
  detail::contiguous_strides(x.shape().data(), x.rank(), own);
  const int extra = y.rank() - x.rank();
  for (int i = 0; i < x.rank(); ++i) {
    strides[i + extra] = x.shape()[i] == 1 ? 0 : own[i];
  }
  copy_view(x, 0, y.shape().data(), strides, y.rank(), y);
}

Shape TileShape(const Tensor& x, Span<std::int64_t> reps) {
  constexpr const char* kOp = "shape.tile";
  const int r =
      std::max(x.rank(), static_cast<int>(std::min<std::size_t>(reps.size(), kMaxRank + 1)));
  Shape out;
  for (int i = 0; i < r; ++i) {
    const int xi = i - (r - x.rank());
    const int ri = i - (r - static_cast<int>(reps.size()));
    const std::int64_t size = xi >= 0 ? x.shape()[xi] : 1;
    const std::int64_t rep = ri >= 0 ? reps[static_cast<std::size_t>(ri)] : 1;
    std::int64_t total = 0;
    if (rep < 0) throw Error(kOp, "reps", "reps must be non-negative, got " + detail::show(reps));
    if (__builtin_mul_overflow(size, rep, &total)) {
      throw Error(kOp, "reps", "the tiled size does not fit in int64");
    }
    out.push_back(total);  // throws beyond kMaxRank
  }
  return out;
}

void Tile(const Tensor& x, Span<std::int64_t>, Tensor& y) {
  // y viewed as [rep_0, size_0, rep_1, size_1, ...]: the rep dimensions
  // have stride 0, so each repetition reads x again.
  const int r = y.rank();
  std::int64_t own[kMaxRank];
  detail::contiguous_strides(x.shape().data(), x.rank(), own);
  std::int64_t sizes[detail::kMaxCopyRank], strides[detail::kMaxCopyRank];
  for (int i = 0; i < r; ++i) {
    const int xi = i - (r - x.rank());
    const std::int64_t size = xi >= 0 ? x.shape()[xi] : 1;
    sizes[2 * i] = size == 0 ? 0 : y.shape()[i] / size;
    strides[2 * i] = 0;
    sizes[2 * i + 1] = size;
    strides[2 * i + 1] = xi >= 0 ? own[xi] : 0;
  }
  copy_view(x, 0, sizes, strides, 2 * r, y);
}

void Flip(const Tensor& x, Span<std::int64_t> dims, Tensor& y) {
  constexpr const char* kOp = "shape.flip";
  bool flip[kMaxRank] = {};
  for (std::int64_t d : dims) {
    const int j = static_cast<int>(detail::normalize_dim(kOp, "dims", d, x.rank(), "x"));
    if (x.rank() > 0) flip[j] = true;
  }
  std::int64_t strides[kMaxRank];
  detail::contiguous_strides(x.shape().data(), x.rank(), strides);
  std::int64_t first = 0;
  for (int i = 0; i < x.rank(); ++i) {
    if (dims.empty() || flip[i]) {
      first += (x.shape()[i] - 1) * strides[i];
      strides[i] = -strides[i];
    }
  }
  if (x.length() == 0) return;
  copy_view(x, first, x.shape().data(), strides, x.rank(), y);
}

Shape GatherShape(const Tensor& x, const Tensor& indices, std::int64_t dim) {
  const int d = static_cast<int>(detail::normalize_dim("shape.gather", "dim", dim, x.rank(), "x"));
  Shape out;
  for (int i = 0; i < d; ++i) out.push_back(x.shape()[i]);
  for (std::int64_t s : indices.shape()) out.push_back(s);
  for (int i = d + 1; i < x.rank(); ++i) out.push_back(x.shape()[i]);
  return out;
}

void Gather(const Tensor& x, const Tensor& indices, std::int64_t dim, Tensor& y) {
  constexpr const char* kOp = "shape.gather";
  const int d = static_cast<int>(detail::normalize_dim(kOp, "dim", dim, x.rank(), "x"));
  const std::int64_t n = x.shape()[d];
  std::vector<std::int64_t> picks(static_cast<std::size_t>(indices.length()));
  for (std::size_t i = 0; i < picks.size(); ++i) {
    const std::int64_t v = indices.dtype() == DType::int32 ? indices.data<std::int32_t>()[i]
                                                           : indices.data<std::int64_t>()[i];
    if (v < -n || v >= n) {
      throw Error(kOp, "indices",
                  "indices: " + std::to_string(v) + " is out of range for dimension " +
                      std::to_string(d) + " of x " + x.shape().to_string());
    }
    picks[i] = v < 0 ? v + n : v;
  }
  const Tensor src = source(x, y);
  const std::int64_t outer = product(x.shape().data(), 0, d);
  const std::int64_t chunk = product(x.shape().data(), d + 1, x.rank()) * elem(x);
  const char* in = static_cast<const char*>(src.raw_data());
  char* out = static_cast<char*>(y.raw_data());
  for (std::int64_t o = 0; o < outer; ++o) {
    for (const std::int64_t p : picks) {
      std::memcpy(out, in + (o * n + p) * chunk, static_cast<std::size_t>(chunk));
      out += chunk;
    }
  }
}

}  // namespace opgen::kernels
