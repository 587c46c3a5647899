// Parameter checks and the helpers that constraint expressions compile to.
// Shape rules live in shape_rules.cpp, value renderings in show.cpp.
#include "opgen/detail/checks.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "message_text.hpp"

namespace opgen::detail {

void throw_missing(const char* op, const char* param, const std::string& name) {
  throw Error(op, param, name + " is required but was not given (null tensor)");
}

namespace {

// "xs[2]": the name of one tensor of a counted input, for messages.
std::string element_name(const char* param, std::size_t i) {
  return std::string(param) + "[" + std::to_string(i) + "]";
}

void check_type(const char* op, const char* param, const std::string& name, const Tensor& t,
                TypeClass c) {
  if (!t.defined()) throw_missing(op, param, name);
  if (!in_class(t.dtype(), c)) {
    throw Error(op, param,
                name + " must be " + std::string(class_phrase(c)) + ", got " +
                    std::string(dtype_name(t.dtype())));
  }
}

// "1 value", "2 values".
std::string values_phrase(std::int64_t n) {
  return std::to_string(n) + (n == 1 ? " value" : " values");
}

}  // namespace

std::string_view class_phrase(TypeClass c) noexcept {
  switch (c) {
    case TypeClass::float_:
      return "a float tensor (float32 or float64)";
    case TypeClass::int_:
      return "an int tensor (int32 or int64)";
    case TypeClass::numeric:
      return "a numeric tensor (float32, float64, int32 or int64)";
    case TypeClass::bool_:
      return "a bool tensor";
    case TypeClass::any:
      return "a tensor";
    case TypeClass::float32:
      return "a float32 tensor";
    case TypeClass::float64:
      return "a float64 tensor";
    case TypeClass::int32:
      return "an int32 tensor";
    case TypeClass::int64:
      return "an int64 tensor";
  }
  return "a tensor";
}

void require_tensor(const char* op, const char* param, const Tensor& t) {
  if (!t.defined()) throw_missing(op, param, param);
}

void throw_type(const char* op, const char* param, const Tensor& t, TypeClass c) {
  check_type(op, param, param, t, c);
  // check_type throws for every tensor throw_type is called with.
  throw Error(op, param, std::string(param) + " must be " + std::string(class_phrase(c)));
}

void require_type(const char* op, const char* param, Span<Tensor> ts, TypeClass c) {
  for (std::size_t i = 0; i < ts.size(); ++i) {
    // The name ("xs[2]") only for the message: building it on every call
    // took a tenth of a 1K shape.concat.
    const Tensor& t = ts[i];
    if (!t.defined() || !in_class(t.dtype(), c)) [[unlikely]] {
      check_type(op, param, element_name(param, i), t, c);
    }
  }
}

void require_count(const char* op, const char* param, std::size_t n, std::int64_t lo,
                   std::int64_t hi) {
  const auto count = static_cast<std::int64_t>(n);
  if (count >= lo && (hi < 0 || count <= hi)) return;
  std::string want;
  if (lo == hi) {
    want = "exactly " + values_phrase(lo);
  } else if (hi < 0) {
    want = "at least " + values_phrase(lo);
  } else if (lo <= 0) {
    want = "at most " + values_phrase(hi);
  } else {
    want = "between " + std::to_string(lo) + " and " + values_phrase(hi);
  }
  throw Error(op, param, std::string(param) + " must have " + want + ", got " + std::to_string(n));
}

void throw_unsupported(const char* op, DType dtype, std::initializer_list<DType> supported) {
  std::string list;
  for (DType d : supported) {
    if (!list.empty()) list += ", ";
    list += dtype_name(d);
  }
  throw Error(op, "no kernel for " + std::string(dtype_name(dtype)) + " (supported: " + list + ")");
}

void require_same_dtype(const char* op, std::initializer_list<NamedGroup> groups) {
  const Tensor* first = nullptr;
  bool all_same = true;
  bool any_counted = false;
  for (const NamedGroup& g : groups) {
    any_counted = any_counted || g.tensors.count != 1;
    for (std::size_t i = 0; i < g.tensors.count; ++i) {
      const Tensor& t = g.tensors.first[i];
      if (!t.defined()) continue;
      if (first == nullptr) first = &t;
      all_same = all_same && t.dtype() == first->dtype();
    }
  }
  if (all_same) return;
  // "x and y must have the same dtype, got float32 and float64"; with a
  // counted input each dtype is labelled, since positions no longer match names.
  std::vector<std::string> names;
  std::vector<std::string> got;
  for (const NamedGroup& g : groups) {
    names.emplace_back(g.name);
    for (std::size_t i = 0; i < g.tensors.count; ++i) {
      const Tensor& t = g.tensors.first[i];
      if (!t.defined()) continue;
      std::string dtype(dtype_name(t.dtype()));
      got.push_back(any_counted
                        ? (g.tensors.count != 1 ? element_name(g.name, i) : g.name) + " " + dtype
                        : dtype);
    }
  }
  const std::string subject = names.size() == 1 ? "the tensors of " + names[0] : join_and(names);
  throw Error(op, groups.begin()->name,
              subject + " must have the same dtype, got " + join_and(got));
}

void fail_check(const char* op, std::string_view message, std::string_view check,
                std::initializer_list<ShownValue> values) {
  std::string text = message.empty() ? std::string("check failed") : std::string(message);
  text += " (check: ";
  text += check;
  const char* sep = "; ";
  for (const ShownValue& v : values) {
    text += sep;
    text += v.expr;
    text += " = ";
    text += v.value;
    sep = ", ";
  }
  text += ")";
  throw Error(op, text);
}

std::int64_t dim_size_general(const char* op, const char* param, const Tensor& t,
                              std::int64_t i) {
  if (!t.defined()) throw_missing(op, param, param);
  const std::int64_t rank = t.rank();
  const std::int64_t j = i < 0 ? i + rank : i;
  if (j < 0 || j >= rank) {
    throw Error(op, param,
                std::string(param) + ".size(" + std::to_string(i) + "): dimension " +
                    std::to_string(i) + " is out of range for " + param + " of rank " +
                    std::to_string(rank));
  }
  return t.shape()[static_cast<int>(j)];
}

bool element(const char* op, const char* param, const std::vector<bool>& p, std::int64_t i) {
  const auto n = static_cast<std::int64_t>(p.size());
  if (i < 0 || i >= n) throw_index(op, param, i, p.size());
  return p[static_cast<std::size_t>(i)];
}

void throw_enum_value(const char* op, const char* param, const char* type, std::size_t i,
                      std::int64_t value) {
  const std::string item = std::string(param) + "[" + std::to_string(i) + "]";
  fail_check(op, item + " is not a " + type + " value", param, {{item.c_str(), show(value)}});
}

void throw_index(const char* op, const char* param, std::int64_t i, std::size_t n) {
  throw Error(op, param,
              std::string(param) + "[" + std::to_string(i) + "]: index " + std::to_string(i) +
                  " is out of range for " + param + " of length " + std::to_string(n));
}

std::int64_t checked_div(const char* op, std::int64_t a, std::int64_t b) {
  if (b == 0) throw Error(op, "division by zero in a check (" + std::to_string(a) + " / 0)");
  // INT64_MIN / -1 overflows; wrap around as the other integer operators do.
  if (b == -1) return static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(a));
  return a / b;
}

std::int64_t checked_mod(const char* op, std::int64_t a, std::int64_t b) {
  if (b == 0) throw Error(op, "division by zero in a check (" + std::to_string(a) + " % 0)");
  if (b == -1) return 0;  // INT64_MIN % -1 is undefined in C++; mathematically 0
  return a % b;
}

std::int64_t shift_left(std::int64_t a, std::int64_t b) noexcept {
  if (b < 0 || b > 63) return 0;
  // Through unsigned: shifting a negative value left is fine in C++20, but
  // this keeps the intent (bits fall off the top) obvious.
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) << b);
}

std::int64_t shift_right(std::int64_t a, std::int64_t b) noexcept {
  if (b < 0 || b > 63) return a < 0 ? -1 : 0;
  return a >> b;  // arithmetic in C++20
}

namespace {

// Calls f on every non-null tensor of the groups, in order.
template <class F>
void for_each_defined(std::initializer_list<TensorGroup> groups, F&& f) {
  for (const TensorGroup& g : groups) {
    for (std::size_t i = 0; i < g.count; ++i) {
      if (g.first[i].defined()) f(g.first[i]);
    }
  }
}

}  // namespace

bool same_shape(std::initializer_list<TensorGroup> groups) noexcept {
  const Tensor* first = nullptr;
  bool same = true;
  for_each_defined(groups, [&](const Tensor& t) {
    if (first == nullptr) first = &t;
    same = same && t.shape() == first->shape();
  });
  return same;
}

bool broadcastable(std::initializer_list<TensorGroup> groups) noexcept {
  Shape acc;
  bool ok = true;
  for_each_defined(groups, [&](const Tensor& t) { ok = ok && broadcast_into(acc, t.shape()); });
  return ok;
}

}  // namespace opgen::detail
