// Support for generated wrappers: argument checks, the helpers constraint
// expressions compile to, shape and dtype rules, and output preparation.
//
// Everything here takes the qualified op name first ("math.add") so that
// every opgen::Error it throws names the op. Generated code calls these;
// hand-written code normally does not need them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "opgen/dtype.hpp"
#include "opgen/error.hpp"
#include "opgen/span.hpp"
#include "opgen/tensor.hpp"
#include "opgen/tensor_shape.hpp"

namespace opgen::detail {

// ---------------------------------------------------------------------------
// Parameter checks (emitted by the generator from types and counts)

/// The dtype classes of the spec's tensor types.
enum class TypeClass : std::uint8_t {
  float_,   // float32, float64
  int_,     // int32, int64
  numeric,  // float or int
  bool_,    // bool
  any,      // every dtype
  float32,
  float64,
  int32,
  int64,
};

/// True when `t` belongs to class `c`.
constexpr bool in_class(DType t, TypeClass c) noexcept {
  switch (c) {
    case TypeClass::float_:
      return is_float(t);
    case TypeClass::int_:
      return is_int(t);
    case TypeClass::numeric:
      return is_float(t) || is_int(t);
    case TypeClass::bool_:
      return t == DType::bool_;
    case TypeClass::any:
      return true;
    case TypeClass::float32:
      return t == DType::float32;
    case TypeClass::float64:
      return t == DType::float64;
    case TypeClass::int32:
      return t == DType::int32;
    case TypeClass::int64:
      return t == DType::int64;
  }
  return false;
}
/// "a float tensor (float32 or float64)", for messages.
std::string_view class_phrase(TypeClass c) noexcept;

/// The error of a failed require_type (`t` null or of another class).
[[noreturn]] void throw_type(const char* op, const char* param, const Tensor& t, TypeClass c);

/// Throws unless `t` is non-null ("x is required but was not given").
void require_tensor(const char* op, const char* param, const Tensor& t);
/// The error of a null tensor: "<name> is required but was not given
/// (null tensor)", where `name` is "x", "xs[2]" or "a tensor".
[[noreturn]] void throw_missing(const char* op, const char* param, const std::string& name);
/// Throws unless `t` is non-null and its dtype belongs to `c`
/// ("x must be a float tensor (float32 or float64), got int32"). Inline:
/// on every call of every op, and the message is built only on failure.
inline void require_type(const char* op, const char* param, const Tensor& t, TypeClass c) {
  if (!t.defined() || !in_class(t.dtype(), c)) [[unlikely]] {
    throw_type(op, param, t, c);
  }
}
/// Same, for every tensor of a counted input (messages say "xs[2]").
void require_type(const char* op, const char* param, Span<Tensor> ts, TypeClass c);
/// Throws unless lo <= n <= hi (hi < 0: no upper bound)
/// ("dims must have at least 1 value, got 0").
void require_count(const char* op, const char* param, std::size_t n, std::int64_t lo,
                   std::int64_t hi);
/// Throws unless every value of counted enum arg `param` is one of the
/// `count` values of enum `type` (a value cast from an integer may not be):
/// "modes[1] is not a Rounding value (check: modes; modes[1] = 7)".
template <class E>
void require_enum_values(const char* op, const char* param, const char* type, Span<E> values,
                         std::size_t count);
[[noreturn]] void throw_enum_value(const char* op, const char* param, const char* type,
                                   std::size_t i, std::int64_t value);
/// The error of a failed require_supported.
[[noreturn]] void throw_unsupported(const char* op, DType dtype,
                                    std::initializer_list<DType> supported);
/// Throws unless the dtype of `dispatch` is one the op's kernels implement
/// (`supported` lists them): "math.foo: no kernel for int32 (supported: float32, float64)".
inline void require_supported(const char* op, DType dtype, std::initializer_list<DType> supported) {
  for (DType d : supported) {
    if (d == dtype) return;
  }
  throw_unsupported(op, dtype, supported);
}

/// True when `out` is defined and every one of `inputs` is defined with
/// out's dtype and shape: an out call of a pointwise op that needs no
/// promotion, cast, allocation or broadcasting, which the generated
/// wrappers send straight to the kernel. Inline and without a temporary
/// list: it is the first thing such an out call does.
template <class... T>
inline bool matches_output(const Tensor& out, const T&... inputs) noexcept {
  static_assert((std::is_same_v<T, Tensor> && ...));
  return out.defined() && ((inputs.defined() && inputs.dtype() == out.dtype() &&
                            inputs.shape() == out.shape()) &&
                           ...);
}

/// True when `out` is null and every one of `rest` is defined with the
/// dtype and shape of `first` (defined too): a call of a pointwise op that
/// would allocate its output with exactly that dtype and shape, which the
/// generated wrappers, once the dtype is one the op keeps, allocate and
/// send straight to the kernel as they do a matching out call.
template <class... T>
inline bool fresh_output(const Tensor& out, const Tensor& first, const T&... rest) noexcept {
  static_assert((std::is_same_v<T, Tensor> && ...));
  return !out.defined() && first.defined() &&
         ((rest.defined() && rest.dtype() == first.dtype() && rest.shape() == first.shape()) &&
          ...);
}

/// One or several tensors (a single input or a counted one), so that the
/// helpers below accept `{x, y}` and `{xs}` alike. Null tensors (absent
/// optional inputs) are skipped by every helper.
struct TensorGroup {
  TensorGroup(const Tensor& t) noexcept : first(&t), count(1) {}
  TensorGroup(Span<Tensor> ts) noexcept : first(ts.data()), count(ts.size()) {}
  const Tensor* first;
  std::size_t count;
};

/// A tensor group with the parameter name it came from, for messages.
struct NamedGroup {
  const char* name;
  TensorGroup tensors;
};

/// Throws unless every non-null tensor of `groups` has the same dtype
/// ("x and y must have the same dtype, got float32 and float64"). Emitted for
/// the inputs of pointwise ops whose dtype rule does not promote.
void require_same_dtype(const char* op, std::initializer_list<NamedGroup> groups);

// ---------------------------------------------------------------------------
// Constraint expressions

/// One value shown in a failed check's message: its source text and value.
struct ShownValue {
  const char* expr;
  std::string value;
};

/// Throws the error of a failed constraint:
/// "<op>: <message> (check: <check>; a = 1, b = 2)". With an empty message
/// the check's prose stands in for it.
[[noreturn]] void fail_check(const char* op, std::string_view message, std::string_view check,
                             std::initializer_list<ShownValue> values);

/// Runs `fail` (a lambda that throws, through fail_check) out of line and
/// marked cold. The generated wrappers wrap each failed check's fail_check
/// in one: the message's strings and show() calls then live in this
/// function rather than in the wrapper, whose stack frame and saved
/// registers cost every call otherwise. With the same_type overloads below,
/// math.dot of 1K float32 went from 20.9 to 19.0 ns per call on Zen 5 (the
/// kernel alone 16.8).
template <class F>
[[noreturn]] [[gnu::noinline, gnu::cold]] void fail_cold(const F& fail) {
  fail();
  std::terminate();  // not reached: fail throws
}

/// Renderings of values for messages.
std::string show(std::int64_t v);
std::string show(int v);
std::string show(double v);
std::string show(bool v);
std::string show(DType v);
std::string show(std::string_view v);
std::string show(const Shape& v);
std::string show(const Tensor& v);
std::string show(Span<std::int64_t> v);
std::string show(Span<double> v);
std::string show(Span<bool> v);
std::string show(Span<Tensor> v);
std::string show(Span<DType> v);
std::string show(Span<std::string> v);
std::string show(const std::vector<bool>& v);

/// `x.size(i)` in a constraint: negative i counts from the end; out of
/// range throws "x.size(3): dimension 3 is out of range for x of rank 2".
std::int64_t dim_size_general(const char* op, const char* param, const Tensor& t, std::int64_t i);
/// dim_size_general with the common case inline: a non-null t and an index
/// in [0, rank).
inline std::int64_t dim_size(const char* op, const char* param, const Tensor& t, std::int64_t i) {
  if (t.defined() && i >= 0 && i < t.rank()) return t.shape()[static_cast<int>(i)];
  return dim_size_general(op, param, t, i);
}
/// `p[i]` in a constraint, with the index checked against len(p).
template <class T>
const T& element(const char* op, const char* param, Span<T> p, std::int64_t i);
/// Same, for a counted bool config field (a std::vector<bool>, which no span
/// can view).
bool element(const char* op, const char* param, const std::vector<bool>& p, std::int64_t i);
[[noreturn]] void throw_index(const char* op, const char* param, std::int64_t i, std::size_t n);

/// Integer `/` and `%` in constraints: division by zero is an opgen::Error,
/// not undefined behaviour. Division truncates toward zero, as in C++.
std::int64_t checked_div(const char* op, std::int64_t a, std::int64_t b);
std::int64_t checked_mod(const char* op, std::int64_t a, std::int64_t b);
/// Integer `<<` and `>>` in constraints, defined for every count: a count
/// outside [0, 63] gives 0 (left) or the sign fill (right).
std::int64_t shift_left(std::int64_t a, std::int64_t b) noexcept;
std::int64_t shift_right(std::int64_t a, std::int64_t b) noexcept;

/// `sameType(...)`, `sameShape(...)`, `broadcastable(...)` over every
/// non-null tensor of the groups (true for fewer than two tensors).
inline bool same_type(std::initializer_list<TensorGroup> groups) noexcept {
  // Inline: a call's operands are checked on every call.
  const Tensor* first = nullptr;
  for (const TensorGroup& g : groups) {
    for (std::size_t i = 0; i < g.count; ++i) {
      const Tensor& t = g.first[i];
      if (!t.defined()) continue;
      if (first == nullptr) first = &t;
      if (t.dtype() != first->dtype()) return false;
    }
  }
  return true;
}
bool same_shape(std::initializer_list<TensorGroup> groups) noexcept;
bool broadcastable(std::initializer_list<TensorGroup> groups) noexcept;
/// The same over single tensors (`sameType(x, y)` in a spec): the generated
/// wrappers call these when every argument names a tensor input. same_type
/// then inlines to plain comparisons, where the loop over groups above kept
/// its list on the stack (see fail_cold for what the two saved).
template <class... T>
inline bool same_type(const Tensor& a, const Tensor& b, const T&... rest) noexcept {
  static_assert((std::is_same_v<T, Tensor> && ...));
  const Tensor* first = nullptr;
  bool same = true;
  const auto visit = [&](const Tensor& t) {
    if (!t.defined()) return;
    if (first == nullptr) first = &t;
    same = same && t.dtype() == first->dtype();
  };
  visit(a);
  visit(b);
  (visit(rest), ...);
  return same;
}
template <class... T>
inline bool same_shape(const Tensor& a, const Tensor& b, const T&... rest) noexcept {
  static_assert((std::is_same_v<T, Tensor> && ...));
  return same_shape({a, b, rest...});
}
template <class... T>
inline bool broadcastable(const Tensor& a, const Tensor& b, const T&... rest) noexcept {
  static_assert((std::is_same_v<T, Tensor> && ...));
  return broadcastable({a, b, rest...});
}

// ---------------------------------------------------------------------------
// Shape and dtype rules of outputs

/// numpy broadcasting of `acc` with `s`, in place. Returns false, leaving
/// `acc` unchanged, when the shapes are incompatible.
bool broadcast_into(Shape& acc, const Shape& s) noexcept;
/// broadcast_shape for any groups (counted inputs, null tensors, shapes
/// that differ).
Shape broadcast_shape_general(const char* op, std::initializer_list<NamedGroup> groups);
/// `broadcast(x, y, ...)`: numpy broadcasting of the non-null tensors;
/// throws "x and y cannot be broadcast together: [2, 3] and [4]". The
/// common case, single tensors of one shape, is inline; the rest is
/// broadcast_shape_general.
inline Shape broadcast_shape(const char* op, std::initializer_list<NamedGroup> groups) {
  const Shape* first = nullptr;
  for (const NamedGroup& g : groups) {
    if (g.tensors.count != 1 || !g.tensors.first->defined()) {
      return broadcast_shape_general(op, groups);
    }
    const Shape& s = g.tensors.first->shape();
    if (first == nullptr) {
      first = &s;
    } else if (!(s == *first)) {
      return broadcast_shape_general(op, groups);
    }
  }
  return first != nullptr ? *first : Shape();
}
/// True when `dims` reduces every element of x into one result: every
/// dimension (empty dims) or the only dimension of a vector.
inline bool reduces_everything(const Tensor& x, Span<std::int64_t> dims) noexcept {
  return dims.empty() || (x.rank() == 1 && dims.size() == 1 && (dims[0] == 0 || dims[0] == -1));
}
/// `reduce(x, dims, keep_dims)`: x's shape without the reduced dims (or with
/// them set to 1). Empty `dims` reduces every dimension; negative dims count
/// from the end; a scalar accepts 0 and -1. Throws for a dimension out of
/// range or given twice, naming `dims_param`
/// ("dims: dimension 2 is out of range for x of rank 2"); `x_param` names x
/// in the message ("a tensor" when null).
Shape reduce_shape_general(const char* op, const char* dims_param, const Tensor& x,
                           Span<std::int64_t> dims, bool keep_dims, const char* x_param = nullptr);
/// reduce_shape_general with the common case inline: a non-null x reduced
/// to a scalar (every dimension, or the only one of a vector, without
/// keep_dims), which can throw nothing.
inline Shape reduce_shape(const char* op, const char* dims_param, const Tensor& x,
                          Span<std::int64_t> dims, bool keep_dims,
                          const char* x_param = nullptr) {
  if (!keep_dims && x.defined() && reduces_everything(x, dims)) return Shape();
  return reduce_shape_general(op, dims_param, x, dims, keep_dims, x_param);
}
/// `matmul(a, b, trans_a, trans_b)`: [..., m, k] x [..., k, n] -> [..., m, n]
/// with broadcast batch dimensions; rank-1 operands as in numpy.matmul.
/// Throws on mismatched inner dimensions.
Shape matmul_shape(const char* op, const char* a_param, const Tensor& a, const char* b_param,
                   const Tensor& b, bool trans_a, bool trans_b);
/// `concat(xs, dim)`: equal shapes except along `dim`, whose sizes add up.
Shape concat_shape(const char* op, const char* param, Span<Tensor> xs, std::int64_t dim);
/// `stack(xs, dim)`: equal shapes, a new dimension of size len(xs) at `dim`.
Shape stack_shape(const char* op, const char* param, Span<Tensor> xs, std::int64_t dim);
/// `from(arg)`: the arg's values as a shape (non-negative, rank <= kMaxRank).
Shape shape_from(const char* op, const char* param, Span<std::int64_t> dims);

/// Makes `out` ready to receive an op's result: a null `out` is allocated
/// with `shape` and `dtype`; otherwise its shape and dtype must match exactly
/// ("out y must be float32[2, 3], got float32[3]").
void prepare_output_general(const char* op, const char* param, Tensor& out, const Shape& shape,
                            DType dtype);
inline void prepare_output(const char* op, const char* param, Tensor& out, const Shape& shape,
                           DType dtype) {
  // A given out of the right shape and dtype: nothing to do (inline, as on
  // every out call); otherwise allocate it or throw, out of line.
  if (out.defined() && out.dtype() == dtype && out.shape() == shape) return;
  prepare_output_general(op, param, out, shape, dtype);
}

/// prepare_output(op, param, out, reduce_shape(op, dims_param, x, dims,
/// keep_dims, x_param), dtype), with the out call of a whole reduction (into a given
/// scalar out) inline and without building a shape: 1K float32 mean took
/// 1 ns less per call on Zen 5 (of 11 ns). Everything else, and every
/// error, goes the general way.
void prepare_reduce_output_general(const char* op, const char* param, Tensor& out,
                                   const char* dims_param, const char* x_param, const Tensor& x,
                                   Span<std::int64_t> dims, bool keep_dims, DType dtype);
inline void prepare_reduce_output(const char* op, const char* param, Tensor& out,
                                  const char* dims_param, const char* x_param, const Tensor& x,
                                  Span<std::int64_t> dims, bool keep_dims, DType dtype) {
  if (!keep_dims && out.defined() && out.dtype() == dtype && out.rank() == 0 && x.defined() &&
      reduces_everything(x, dims)) {
    return;
  }
  prepare_reduce_output_general(op, param, out, dims_param, x_param, x, dims, keep_dims, dtype);
}

/// prepare_output(op, param, out, Shape{}, dtype) (a scalar output), with a
/// given scalar out of dtype `dtype` checked inline and without building
/// the shape.
inline void prepare_scalar_output(const char* op, const char* param, Tensor& out, DType dtype) {
  if (out.defined() && out.dtype() == dtype && out.rank() == 0) return;
  prepare_output_general(op, param, out, Shape(), dtype);
}

/// prepare_output(op, param, out, broadcast_shape(op, groups), dtype), with
/// the common case of an out call inline and without building the shape: a
/// given out of dtype `dtype` whose shape every group (one non-null tensor
/// each) has. Everything else, and every error, goes the general way.
inline void prepare_broadcast_output(const char* op, const char* param, Tensor& out,
                                     std::initializer_list<NamedGroup> groups, DType dtype) {
  if (out.defined() && out.dtype() == dtype) {
    bool same = true;
    for (const NamedGroup& g : groups) {
      same = same && g.tensors.count == 1 && g.tensors.first->defined() &&
             g.tensors.first->shape() == out.shape();
    }
    if (same) return;
  }
  prepare_output(op, param, out, broadcast_shape(op, groups), dtype);
}

/// The tensors of a counted output as an op's implementation fills them:
/// either a vector it sizes itself (the overloads that return the tensors,
/// and calls by name) or the caller's tensors (out overloads), whose number
/// must then match. A view: it refers to the vector or span it was made from.
class OutputList {
 public:
  explicit OutputList(std::vector<Tensor>& owned) noexcept : owned_(&owned) {}
  explicit OutputList(std::span<Tensor> given) noexcept : given_(given) {}

  /// True when the caller gave the tensors (an out overload).
  bool given() const noexcept { return owned_ == nullptr; }
  /// The tensors: after prepare_outputs, one per shape, ready for the kernel.
  std::span<Tensor> tensors() const noexcept {
    return owned_ != nullptr ? std::span<Tensor>(*owned_) : given_;
  }
  /// Sizes an owned vector to `n` null tensors (no-op for given tensors).
  void resize(std::size_t n) const {
    if (owned_ != nullptr) owned_->resize(n);
  }

 private:
  std::vector<Tensor>* owned_ = nullptr;
  std::span<Tensor> given_;
};

/// Makes counted output `param` ready to receive `shapes.size()` results of
/// dtype `dtype`. The number of shapes (from a custom shape function, or n
/// copies of one shape for an exact count) must lie in [lo, hi] (hi < 0: no
/// upper bound), else "ys: the shape function gave 0 tensors; the count of ys
/// is >=1". Owned tensors are allocated; given ones must be as many as the
/// shapes ("out ys must hold 3 tensors, got 2") and each is checked like
/// prepare_output's (messages name "ys[1]").
void prepare_outputs(const char* op, const char* param, const OutputList& out,
                     const std::vector<Shape>& shapes, DType dtype, std::int64_t lo,
                     std::int64_t hi);

/// `x` itself when it already has dtype `to`, else a converted copy.
/// Conversions follow C++ (float to int truncates toward zero; values out of
/// range of the target saturate).
Tensor cast(const Tensor& x, DType to);
/// The same conversion into `out`, which has x's length and any dtype (it
/// may be x itself when the dtypes match).
void cast_into(const Tensor& x, Tensor& out);

/// Where cast_ref keeps a converted copy: empty, and free to construct,
/// until a conversion is needed (a null Tensor, or a std::optional<Tensor>
/// with g++, zeroes ~100 bytes on every call).
class CastSlot {
 public:
  CastSlot() noexcept {}  // leaves value_ unconstructed
  ~CastSlot() {
    if (used_) value_.~Tensor();
  }
  CastSlot(const CastSlot&) = delete;
  CastSlot& operator=(const CastSlot&) = delete;

  /// Keeps `t` (once) and returns it.
  const Tensor& hold(Tensor&& t) noexcept {
    ::new (static_cast<void*>(&value_)) Tensor(std::move(t));
    used_ = true;
    return value_;
  }

 private:
  union {
    Tensor value_;
  };
  bool used_ = false;
};

/// x itself when it is null or already has dtype `to`, else cast(x, to)
/// stored in `slot`: the wrappers' cast, without copying a tensor (and so
/// touching its reference count) on the common path.
inline const Tensor& cast_ref(const Tensor& x, DType to, CastSlot& slot) {
  if (!x.defined() || x.dtype() == to) return x;
  return slot.hold(cast(x, to));
}

/// Normalises dimension `dim` (negative counts from the end) against rank
/// `rank`; a scalar (rank 0) accepts 0 and -1, as in PyTorch. Throws
/// "dim 3 is out of range for x of rank 2" naming `param` (the dim's own
/// parameter); `tensor_param` names the tensor ("a tensor" when null).
std::int64_t normalize_dim(const char* op, const char* param, std::int64_t dim, int rank,
                           const char* tensor_param = nullptr);

// ---------------------------------------------------------------------------

template <class E>
void require_enum_values(const char* op, const char* param, const char* type, Span<E> values,
                         std::size_t count) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto v = static_cast<std::int64_t>(values[i]);
    if (v < 0 || static_cast<std::size_t>(v) >= count) throw_enum_value(op, param, type, i, v);
  }
}

template <class T>
const T& element(const char* op, const char* param, Span<T> p, std::int64_t i) {
  const auto n = static_cast<std::int64_t>(p.size());
  if (i < 0 || i >= n) throw_index(op, param, i, p.size());
  return p[static_cast<std::size_t>(i)];
}

}  // namespace opgen::detail
