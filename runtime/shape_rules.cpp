// The shape rules of outputs (`broadcast`, `reduce`, `matmul`, `concat`,
// `stack`, `from`), output preparation and dimension normalisation.
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "message_text.hpp"
#include "opgen/detail/checks.hpp"

namespace opgen::detail {

namespace {

// Dimension indices follow PyTorch for scalars: a rank-0 tensor accepts 0
// and -1, as if it had one dimension of size 1 (so softmax or sum over
// dim -1 of a scalar is not an error).
std::int64_t wrap_dim(std::int64_t dim, int rank, bool& ok) {
  const std::int64_t r = std::max(rank, 1);
  const std::int64_t j = dim < 0 ? dim + r : dim;
  ok = j >= 0 && j < r;
  return j;
}

std::string tensor_phrase(const char* tensor_param) {
  return tensor_param != nullptr ? std::string(tensor_param) : std::string("a tensor");
}

}  // namespace

bool broadcast_into(Shape& acc, const Shape& s) noexcept {
  const int rank = std::max(acc.rank(), s.rank());
  std::int64_t dims[kMaxRank];
  for (int i = 0; i < rank; ++i) {
    // Align from the right: missing leading dimensions count as 1.
    const int ia = i - (rank - acc.rank());
    const int is = i - (rank - s.rank());
    const std::int64_t a = ia >= 0 ? acc[ia] : 1;
    const std::int64_t b = is >= 0 ? s[is] : 1;
    if (a != b && a != 1 && b != 1) return false;
    dims[i] = a == 1 ? b : a;
  }
  acc = Shape(std::span<const std::int64_t>(dims, static_cast<std::size_t>(rank)));
  return true;
}

Shape broadcast_shape_general(const char* op, std::initializer_list<NamedGroup> groups) {
  // The common case first, on the hot path of every pointwise op: equal shapes.
  const Shape* first = nullptr;
  bool equal = true;
  for (const NamedGroup& g : groups) {
    for (std::size_t i = 0; i < g.tensors.count; ++i) {
      const Tensor& t = g.tensors.first[i];
      if (!t.defined()) continue;
      if (first == nullptr) first = &t.shape();
      equal = equal && t.shape() == *first;
    }
  }
  if (first == nullptr) return Shape();
  if (equal) return *first;

  Shape acc;
  bool ok = true;
  for (const NamedGroup& g : groups) {
    for (std::size_t i = 0; i < g.tensors.count; ++i) {
      const Tensor& t = g.tensors.first[i];
      if (t.defined()) ok = ok && broadcast_into(acc, t.shape());
    }
  }
  if (ok) return acc;
  std::vector<std::string> names;
  std::vector<std::string> shapes;
  for (const NamedGroup& g : groups) {
    for (std::size_t i = 0; i < g.tensors.count; ++i) {
      const Tensor& t = g.tensors.first[i];
      if (!t.defined()) continue;
      names.push_back(g.tensors.count == 1 ? std::string(g.name)
                                           : std::string(g.name) + "[" + std::to_string(i) + "]");
      shapes.push_back(t.shape().to_string());
    }
  }
  throw Error(op, groups.begin()->name,
              join_and(names) + " cannot be broadcast together: " + join_and(shapes));
}

Shape reduce_shape_general(const char* op, const char* dims_param, const Tensor& x,
                           Span<std::int64_t> dims, bool keep_dims, const char* x_param) {
  if (!x.defined()) throw_missing(op, x_param != nullptr ? x_param : "x", tensor_phrase(x_param));
  const int rank = x.rank();
  bool reduced[kMaxRank] = {};
  for (std::int64_t d : dims) {
    bool ok = false;
    const std::int64_t j = wrap_dim(d, rank, ok);
    // Built only for a message: strings on the hot path cost more than the
    // kernel of a small reduction.
    const auto where = [&] {
      return " for " + tensor_phrase(x_param) + " of rank " + std::to_string(rank);
    };
    if (!ok) {
      throw Error(op, dims_param,
                  std::string(dims_param) + ": dimension " + std::to_string(d) +
                      " is out of range" + where());
    }
    if (reduced[j]) {
      throw Error(op, dims_param,
                  std::string(dims_param) + ": dimension " + std::to_string(d) +
                      " is given twice (" + show(dims) + where() + ")");
    }
    reduced[j] = true;
  }
  Shape out;
  for (int i = 0; i < rank; ++i) {
    if (!dims.empty() && !reduced[i]) {
      out.push_back(x.shape()[i]);
    } else if (keep_dims) {
      out.push_back(1);
    }
  }
  return out;
}

Shape matmul_shape(const char* op, const char* a_param, const Tensor& a, const char* b_param,
                   const Tensor& b, bool trans_a, bool trans_b) {
  if (!a.defined()) throw_missing(op, a_param, a_param);
  if (!b.defined()) throw_missing(op, b_param, b_param);
  const int ra = a.rank();
  const int rb = b.rank();
  if (ra == 0 || rb == 0) {
    const char* p = ra == 0 ? a_param : b_param;
    throw Error(
        op, p,
        std::string(p) + " must have at least one dimension for a matrix product, got a scalar");
  }
  // numpy.matmul: a vector a is a row [1, k], a vector b a column [k, 1];
  // the added dimension is dropped from the result. Transposition applies
  // to the last two dimensions of matrices only.
  const Shape& sa = a.shape();
  const Shape& sb = b.shape();
  std::int64_t m = 1;
  std::int64_t ka = sa[ra - 1];
  if (ra >= 2) {
    m = sa[ra - 2];
    if (trans_a) std::swap(m, ka);
  }
  std::int64_t n = 1;
  std::int64_t kb = sb[0];
  if (rb >= 2) {
    kb = sb[rb - 2];
    n = sb[rb - 1];
    if (trans_b) std::swap(kb, n);
  }
  if (ka != kb) {
    auto operand = [](const char* p, const Shape& s, bool trans, int r) {
      return std::string(p) + " " + s.to_string() + (trans && r >= 2 ? " (transposed)" : "");
    };
    throw Error(op, b_param,
                std::string(a_param) + " and " + b_param +
                    " cannot be multiplied: inner dimensions differ (" +
                    operand(a_param, sa, trans_a, ra) + " has " + std::to_string(ka) + ", " +
                    operand(b_param, sb, trans_b, rb) + " has " + std::to_string(kb) + ")");
  }
  const auto batch = [](const Shape& s) {
    const int r = std::max(s.rank() - 2, 0);
    return Shape(std::span<const std::int64_t>(s.data(), static_cast<std::size_t>(r)));
  };
  Shape out = batch(sa);
  const Shape batch_b = batch(sb);
  if (!broadcast_into(out, batch_b)) {
    throw Error(op, b_param,
                std::string(a_param) + " and " + b_param +
                    " have batch dimensions that cannot be broadcast together: " +
                    batch(sa).to_string() + " and " + batch_b.to_string());
  }
  if (ra >= 2) out.push_back(m);
  if (rb >= 2) out.push_back(n);
  return out;
}

namespace {

// The checks concat and stack share: a non-empty list of non-null tensors.
void require_tensors(const char* op, const char* param, Span<Tensor> xs) {
  if (xs.empty()) {
    throw Error(op, param, std::string(param) + " must have at least 1 tensor, got 0");
  }
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (!xs[i].defined()) {
      throw_missing(op, param, std::string(param) + "[" + std::to_string(i) + "]");
    }
  }
}

}  // namespace

Shape concat_shape(const char* op, const char* param, Span<Tensor> xs, std::int64_t dim) {
  require_tensors(op, param, xs);
  const Shape& first = xs[0].shape();
  if (first.rank() == 0) {
    throw Error(
        op, param,
        std::string(param) + " must have at least one dimension to be concatenated, got scalars");
  }
  bool ok = false;
  const std::int64_t d = wrap_dim(dim, first.rank(), ok);
  if (!ok) {
    throw Error(op, param,
                "dim " + std::to_string(dim) + " is out of range for " + param + "[0] of rank " +
                    std::to_string(first.rank()));
  }
  Shape out = first;
  for (std::size_t i = 1; i < xs.size(); ++i) {
    const Shape& s = xs[i].shape();
    bool match = s.rank() == first.rank();
    for (int j = 0; match && j < s.rank(); ++j) match = j == d || s[j] == first[j];
    if (!match) {
      throw Error(op, param,
                  std::string(param) + "[" + std::to_string(i) + "] must have the shape of " +
                      param + "[0] except along dim " + std::to_string(d) + ", got " +
                      s.to_string() + " and " + first.to_string());
    }
    std::int64_t& total = out[static_cast<int>(d)];
    if (__builtin_add_overflow(total, s[static_cast<int>(d)], &total)) {
      throw Error(
          op, param,
          "the concatenated size along dim " + std::to_string(d) + " does not fit in int64");
    }
  }
  return out;
}

Shape stack_shape(const char* op, const char* param, Span<Tensor> xs, std::int64_t dim) {
  require_tensors(op, param, xs);
  const Shape& first = xs[0].shape();
  if (first.rank() == kMaxRank) {
    throw Error(op, param,
                "stacking tensors of rank " + std::to_string(kMaxRank) +
                    " would exceed the maximum rank " + std::to_string(kMaxRank));
  }
  // The new dimension may go anywhere from before the first to after the last.
  bool ok = false;
  const std::int64_t d = wrap_dim(dim, first.rank() + 1, ok);
  if (!ok) {
    throw Error(op, param,
                "dim " + std::to_string(dim) + " is out of range for stacking tensors of rank " +
                    std::to_string(first.rank()));
  }
  for (std::size_t i = 1; i < xs.size(); ++i) {
    if (!(xs[i].shape() == first)) {
      throw Error(op, param,
                  std::string(param) + "[" + std::to_string(i) + "] must have the shape of " +
                      param + "[0], got " + xs[i].shape().to_string() + " and " +
                      first.to_string());
    }
  }
  Shape out;
  for (int j = 0; j <= first.rank(); ++j) {
    if (j == d) out.push_back(static_cast<std::int64_t>(xs.size()));
    if (j < first.rank()) out.push_back(first[j]);
  }
  return out;
}

Shape shape_from(const char* op, const char* param, Span<std::int64_t> dims) {
  if (dims.size() > static_cast<std::size_t>(kMaxRank)) {
    throw Error(op, param,
                std::string(param) + " must have at most " + std::to_string(kMaxRank) +
                    " dimensions, got " + std::to_string(dims.size()) + " (" + show(dims) + ")");
  }
  for (std::int64_t d : dims) {
    if (d < 0) {
      throw Error(op, param,
                  std::string(param) + " must have non-negative sizes, got " + show(dims));
    }
  }
  return Shape(std::span<const std::int64_t>(dims));
}

void prepare_output_general(const char* op, const char* param, Tensor& out, const Shape& shape,
                            DType dtype) {
  if (!out.defined()) {
    try {
      out = Tensor::empty(shape, dtype);
    } catch (const Error& e) {
      // Too many elements, or too many bytes, for this op's output: say
      // which op and output (Tensor::empty names neither).
      if (!e.op().empty()) throw;
      throw Error(op, param, std::string(param) + ": " + e.message());
    }
    return;
  }
  if (out.dtype() != dtype || !(out.shape() == shape)) {
    throw Error(op, param,
                "out " + std::string(param) + " must be " + std::string(dtype_name(dtype)) +
                    shape.to_string() + ", got " + out.description());
  }
}

void prepare_reduce_output_general(const char* op, const char* param, Tensor& out,
                                   const char* dims_param, const char* x_param, const Tensor& x,
                                   Span<std::int64_t> dims, bool keep_dims, DType dtype) {
  prepare_output(op, param, out, reduce_shape(op, dims_param, x, dims, keep_dims, x_param), dtype);
}

void prepare_outputs(const char* op, const char* param, const OutputList& out,
                     const std::vector<Shape>& shapes, DType dtype, std::int64_t lo,
                     std::int64_t hi) {
  const auto n = static_cast<std::int64_t>(shapes.size());
  if (n < lo || (hi >= 0 && n > hi)) {
    std::string count;
    if (lo == hi) {
      count = std::to_string(lo);
    } else if (hi < 0) {
      count = ">=" + std::to_string(lo);
    } else if (lo == 0) {
      count = "<=" + std::to_string(hi);
    } else {
      count = std::to_string(lo) + ".." + std::to_string(hi);
    }
    throw Error(op, param,
                std::string(param) + ": the shape function gave " + std::to_string(n) +
                    (n == 1 ? " tensor" : " tensors") + "; the count of " + param + " is " + count);
  }
  if (out.given() && out.tensors().size() != shapes.size()) {
    throw Error(op, param,
                "out " + std::string(param) + " must hold " + std::to_string(n) +
                    (n == 1 ? " tensor" : " tensors") + ", got " +
                    std::to_string(out.tensors().size()));
  }
  out.resize(shapes.size());
  const std::span<Tensor> tensors = out.tensors();
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const std::string item = std::string(param) + "[" + std::to_string(i) + "]";
    prepare_output(op, item.c_str(), tensors[i], shapes[i], dtype);
  }
}

std::int64_t normalize_dim(const char* op, const char* param, std::int64_t dim, int rank,
                           const char* tensor_param) {
  bool ok = false;
  const std::int64_t j = wrap_dim(dim, rank, ok);
  if (!ok) {
    throw Error(op, param,
                std::string(param) + " " + std::to_string(dim) + " is out of range for " +
                    tensor_phrase(tensor_param) + " of rank " + std::to_string(rank));
  }
  return j;
}

}  // namespace opgen::detail
