// Support for the registry's call-by-name entry points that the generator
// emits per op: unpacking a flat list of tensors and a map of named args
// into the typed parameters of the op's C++ function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "opgen/dtype.hpp"
#include "opgen/registry.hpp"
#include "opgen/span.hpp"
#include "opgen/tensor.hpp"

namespace opgen::detail {

/// How one input of an op takes tensors from the flat input list.
struct InputSlot {
  const char* name;
  /// Fewest and most tensors it takes (max < 0: no limit). A plain input is
  /// {1, 1}; an optional one {0, 1}; a counted one its count's bounds.
  std::int64_t min;
  std::int64_t max;
};

/// The unpacked call of one op. The constructor checks the number of
/// inputs and that every arg name is known; the accessors convert and check
/// each arg. Every failure is an opgen::Error naming the op.
///
/// Inputs are matched in order. At most one input may take a variable
/// number of tensors: it takes what the others leave. Trailing optional
/// inputs may be left out of the list.
class CallArgs {
 public:
  CallArgs(const char* op, std::span<const Tensor> inputs, const Args& args,
           std::initializer_list<InputSlot> slots, std::initializer_list<const char*> arg_names);

  /// The tensor of input slot `i` (a null Tensor when an optional input was
  /// not given).
  const Tensor& tensor(std::size_t i) const;
  /// The tensors of counted input slot `i`.
  Span<Tensor> tensors(std::size_t i) const;

  /// True when arg `name` was given.
  bool has(std::string_view name) const;

  /// The value of a required arg; int converts to float, nothing else converts.
  std::int64_t get_int(const char* name) const;
  double get_float(const char* name) const;
  bool get_bool(const char* name) const;
  std::string get_string(const char* name) const;
  DType get_dtype(const char* name) const;
  /// Counted args: the values as a span whose storage this object owns.
  Span<std::int64_t> get_ints(const char* name) const;
  Span<double> get_floats(const char* name) const;
  Span<bool> get_bools(const char* name) const;
  Span<std::string> get_strings(const char* name) const;
  Span<DType> get_dtypes(const char* name) const;

  /// An enum arg given by value name, checked against `values` (the enum's
  /// values in declaration order); returns the value's index.
  std::size_t get_enum(const char* name, std::initializer_list<std::string_view> values) const;
  /// A counted enum arg given as value names (a vector of strings), each
  /// checked as get_enum checks one; returns the indices.
  std::vector<std::size_t> get_enum_indices(const char* name,
                                            std::initializer_list<std::string_view> values) const;
  /// Same, as values of enum type E (whose values are `values`, in order),
  /// in storage this object owns.
  template <class E>
  Span<E> get_enums(const char* name, std::initializer_list<std::string_view> values) const {
    auto owned = std::make_shared<std::vector<E>>();
    for (std::size_t i : get_enum_indices(name, values)) owned->push_back(static_cast<E>(i));
    enums_.push_back(owned);
    return Span<E>(*owned);
  }

  /// The op name, for messages.
  const char* op() const noexcept { return op_; }

 private:
  const ArgValue& find(const char* name) const;

  const char* op_;
  std::span<const Tensor> inputs_;
  const Args& args_;
  std::vector<std::pair<std::size_t, std::size_t>> ranges_;  // per slot: first, count
  // Storage for converted counted args (kept stable while the call runs).
  mutable std::deque<std::vector<std::int64_t>> ints_;
  mutable std::deque<std::vector<double>> floats_;
  mutable std::deque<std::unique_ptr<bool[]>> bools_;
  mutable std::deque<std::shared_ptr<const void>> enums_;  // std::vector<E> of get_enums
  static const Tensor kNull;
};

}  // namespace opgen::detail
