// Unpacking a call by name (a flat list of tensors and named args) into the
// typed parameters of an op.
#include "opgen/detail/call.hpp"

#include <algorithm>
#include <variant>

#include "opgen/error.hpp"
#include "suggestion.hpp"

namespace opgen::detail {

const Tensor CallArgs::kNull;

namespace {

// Optional inputs take zero or one tensor; every other slot whose bounds
// differ takes a variable number.
bool is_variable(const InputSlot& s) { return s.min != s.max && s.max != 1; }

// "xs[>=1]", "xs[2..4]", "bias (optional)": a slot as the count message lists it,
// in the spec's count syntax.
std::string slot_text(const InputSlot& s) {
  const std::string name = s.name;
  if (s.min == 1 && s.max == 1) return name;
  if (s.min == 0 && s.max == 1) return name + " (optional)";
  if (s.min == s.max) return name + "[" + std::to_string(s.min) + "]";
  if (s.max < 0) return name + "[>=" + std::to_string(s.min) + "]";
  if (s.min == 0) return name + "[<=" + std::to_string(s.max) + "]";
  return name + "[" + std::to_string(s.min) + ".." + std::to_string(s.max) + "]";
}

// "expects 2 inputs (x, y), got 1".
[[noreturn]] void throw_input_count(const char* op, std::initializer_list<InputSlot> slots,
                                    std::int64_t lo, std::int64_t hi, std::size_t got) {
  auto inputs = [](std::int64_t n) { return std::to_string(n) + (n == 1 ? " input" : " inputs"); };
  std::string expects;
  if (lo == hi) {
    expects = inputs(lo);
  } else if (hi < 0) {
    expects = "at least " + inputs(lo);
  } else {
    expects = std::to_string(lo) + " to " + inputs(hi);
  }
  std::string list;
  for (const InputSlot& s : slots) {
    if (!list.empty()) list += ", ";
    list += slot_text(s);
  }
  throw Error(op, "expects " + expects + " (" + list + "), got " + std::to_string(got));
}

}  // namespace

CallArgs::CallArgs(const char* op, std::span<const Tensor> inputs, const Args& args,
                   std::initializer_list<InputSlot> slots,
                   std::initializer_list<const char*> arg_names)
    : op_(op), inputs_(inputs), args_(args) {
  for (const auto& entry : args) {
    const std::string& name = entry.first;
    const bool known =
        std::any_of(arg_names.begin(), arg_names.end(), [&](const char* a) { return name == a; });
    if (known) continue;
    std::vector<std::string_view> names(arg_names.begin(), arg_names.end());
    std::string hint = did_you_mean(name, names);
    if (hint.empty()) {
      if (names.empty()) {
        hint = " (" + std::string(op) + " takes no args)";
      } else {
        hint = " (args: ";
        for (std::size_t i = 0; i < names.size(); ++i) {
          hint += (i > 0 ? ", " : "") + std::string(names[i]);
        }
        hint += ")";
      }
    }
    throw Error(op, name, "unknown arg '" + name + "'" + hint);
  }

  // Every slot but the variable one (if any) takes its maximum; the
  // variable one takes what is left. Without one, trailing optional slots
  // may be left out.
  const std::size_t n = inputs.size();
  const InputSlot* variable = nullptr;
  std::int64_t fixed = 0;     // tensors taken by the other slots
  std::int64_t required = 0;  // without a variable slot: the end of the last required slot
  for (const InputSlot& s : slots) {
    if (variable == nullptr && is_variable(s)) {
      variable = &s;
      continue;
    }
    // A second variable slot (which the spec checker rejects) takes its minimum.
    fixed += is_variable(s) ? s.min : s.max;
    if (s.min > 0) required = fixed;
  }
  const auto count = static_cast<std::int64_t>(n);
  if (variable != nullptr) {
    const std::int64_t lo = fixed + variable->min;
    const std::int64_t hi = variable->max < 0 ? -1 : fixed + variable->max;
    if (count < lo || (hi >= 0 && count > hi)) throw_input_count(op, slots, lo, hi, n);
  } else if (count < required || count > fixed) {
    throw_input_count(op, slots, required, fixed, n);
  }

  ranges_.reserve(slots.size());
  std::size_t next = 0;
  for (const InputSlot& s : slots) {
    std::size_t take = 0;
    if (&s == variable) {
      take = static_cast<std::size_t>(count - fixed);
    } else {
      take = std::min(static_cast<std::size_t>(is_variable(s) ? s.min : s.max), n - next);
    }
    ranges_.emplace_back(next, take);
    next += take;
  }
}

const Tensor& CallArgs::tensor(std::size_t i) const {
  const auto [first, count] = ranges_.at(i);
  return count == 0 ? kNull : inputs_[first];
}

Span<Tensor> CallArgs::tensors(std::size_t i) const {
  const auto [first, count] = ranges_.at(i);
  return Span<Tensor>(inputs_.subspan(first, count));
}

bool CallArgs::has(std::string_view name) const { return args_.find(name) != args_.end(); }

const ArgValue& CallArgs::find(const char* name) const {
  const auto it = args_.find(std::string_view(name));
  if (it == args_.end()) {
    throw Error(op_, name, "arg " + std::string(name) + " is required but was not given");
  }
  return it->second;
}

namespace {

[[noreturn]] void throw_arg_type(const char* op, const char* name, const char* want,
                                 const ArgValue& got) {
  throw Error(
      op, name,
      "arg " + std::string(name) + " must be " + want + ", got " + std::string(got.type_name()));
}

// The value of `v` as T, or a type error.
template <class T>
const T& expect(const char* op, const char* name, const char* want, const ArgValue& v) {
  const T* p = std::get_if<T>(&v.value());
  if (p == nullptr) throw_arg_type(op, name, want, v);
  return *p;
}

}  // namespace

std::int64_t CallArgs::get_int(const char* name) const {
  return expect<std::int64_t>(op_, name, "int", find(name));
}

double CallArgs::get_float(const char* name) const {
  const ArgValue& v = find(name);
  if (const auto* i = std::get_if<std::int64_t>(&v.value())) return static_cast<double>(*i);
  return expect<double>(op_, name, "float", v);
}

bool CallArgs::get_bool(const char* name) const {
  return expect<bool>(op_, name, "bool", find(name));
}

std::string CallArgs::get_string(const char* name) const {
  return expect<std::string>(op_, name, "string", find(name));
}

DType CallArgs::get_dtype(const char* name) const {
  return expect<DType>(op_, name, "dtype", find(name));
}

Span<std::int64_t> CallArgs::get_ints(const char* name) const {
  return expect<std::vector<std::int64_t>>(op_, name, "int[]", find(name));
}

Span<double> CallArgs::get_floats(const char* name) const {
  const ArgValue& v = find(name);
  if (const auto* ints = std::get_if<std::vector<std::int64_t>>(&v.value())) {
    std::vector<double>& converted = floats_.emplace_back(ints->begin(), ints->end());
    return converted;
  }
  return expect<std::vector<double>>(op_, name, "float[]", v);
}

Span<bool> CallArgs::get_bools(const char* name) const {
  // std::vector<bool> packs bits; the op takes a span of real bools.
  const std::vector<bool>& bits = expect<std::vector<bool>>(op_, name, "bool[]", find(name));
  std::unique_ptr<bool[]>& values = bools_.emplace_back(new bool[bits.size()]);
  std::copy(bits.begin(), bits.end(), values.get());
  return Span<bool>(values.get(), bits.size());
}

Span<std::string> CallArgs::get_strings(const char* name) const {
  return expect<std::vector<std::string>>(op_, name, "string[]", find(name));
}

Span<DType> CallArgs::get_dtypes(const char* name) const {
  return expect<std::vector<DType>>(op_, name, "dtype[]", find(name));
}

namespace {

// The index of enum value `value` among `values`; `shown` names the arg
// ("mode", "modes[1]") in the error.
std::size_t enum_index(const char* op, const char* name, const std::string& shown,
                       const std::string& value, std::initializer_list<std::string_view> values) {
  const auto it = std::find(values.begin(), values.end(), value);
  if (it != values.end()) return static_cast<std::size_t>(it - values.begin());
  std::string list;
  for (std::string_view v : values) {
    if (!list.empty()) list += ", ";
    // Appended piece by piece: g++ 12 at -O3 warns (-Wrestrict, a false
    // positive) on "literal" + std::string&&.
    list += '\'';
    list += v;
    list += '\'';
  }
  const std::vector<std::string_view> candidates(values.begin(), values.end());
  throw Error(op, name,
              "arg " + shown + " must be one of " + list + ", got '" + value + "'" +
                  did_you_mean(value, candidates));
}

}  // namespace

std::size_t CallArgs::get_enum(const char* name,
                               std::initializer_list<std::string_view> values) const {
  const std::string& value = expect<std::string>(op_, name, "string", find(name));
  return enum_index(op_, name, name, value, values);
}

std::vector<std::size_t> CallArgs::get_enum_indices(
    const char* name, std::initializer_list<std::string_view> values) const {
  const auto& names = expect<std::vector<std::string>>(op_, name, "string[]", find(name));
  std::vector<std::size_t> out;
  out.reserve(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string shown = std::string(name) + "[" + std::to_string(i) + "]";
    out.push_back(enum_index(op_, name, shown, names[i], values));
  }
  return out;
}

}  // namespace opgen::detail
