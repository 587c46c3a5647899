// The runner of the generated negative tests (see negative.hpp).
#include "negative.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "opgen/error.hpp"
#include "opgen/registry.hpp"
#include "opgen/tensor.hpp"

namespace opgen::negative {

namespace {

constexpr DType kAllDTypes[] = {DType::float32, DType::float64, DType::int32, DType::int64,
                                DType::bool_};

std::vector<DType> class_dtypes(detail::TypeClass c) {
  std::vector<DType> out;
  for (DType d : kAllDTypes) {
    if (detail::in_class(d, c)) out.push_back(d);
  }
  return out;
}

// A tensor of small values every op accepts as data: floats in (0, 1]
// (valid probabilities, positive for logarithms), integers 0 and 1 (valid
// indices of any non-empty dimension), alternating bools.
Tensor make_tensor(const Shape& shape, DType dtype) {
  Tensor t = Tensor::empty(shape, dtype);
  const std::int64_t n = t.length();
  void* p = t.raw_data();
  for (std::int64_t i = 0; i < n; ++i) {
    switch (dtype) {
      case DType::float32:
        static_cast<float*>(p)[i] = 0.25f * static_cast<float>(i % 4 + 1);
        break;
      case DType::float64:
        static_cast<double*>(p)[i] = 0.25 * static_cast<double>(i % 4 + 1);
        break;
      case DType::int32:
        static_cast<std::int32_t*>(p)[i] = static_cast<std::int32_t>(i % 2);
        break;
      case DType::int64:
        static_cast<std::int64_t*>(p)[i] = i % 2;
        break;
      case DType::bool_:
        static_cast<bool*>(p)[i] = i % 2 == 0;
        break;
    }
  }
  return t;
}

Shape shape_of(std::initializer_list<std::int64_t> dims) {
  Shape s;
  for (std::int64_t d : dims) s.push_back(d);
  return s;
}

Shape shape_of(const std::vector<std::int64_t>& dims) {
  Shape s;
  for (std::int64_t d : dims) s.push_back(d);
  return s;
}

std::vector<std::int64_t> dims_of(const Shape& s) {
  std::vector<std::int64_t> out;
  for (int i = 0; i < s.rank(); ++i) out.push_back(s[i]);
  return out;
}

// One call by name: the tensors of each input slot, and the args.
struct Call {
  std::vector<std::vector<Tensor>> slots;  // per input; empty: absent
  Args args;

  std::vector<Tensor> flat(const OpSpec& op) const {
    std::vector<Tensor> out;
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (op.inputs[i].counted) {
        out.insert(out.end(), slots[i].begin(), slots[i].end());
      } else {
        out.push_back(slots[i].empty() ? Tensor() : slots[i][0]);
      }
    }
    return out;
  }
  // The first given tensor, or null.
  const Tensor* first() const {
    for (const auto& s : slots) {
      if (!s.empty() && s[0].defined()) return &s[0];
    }
    return nullptr;
  }
};

std::string describe(const ArgValue& v) {
  std::ostringstream o;
  std::visit(
      [&](const auto& x) {
        using V = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<V, std::string>) {
          o << '"' << x << '"';
        } else if constexpr (std::is_same_v<V, DType>) {
          o << dtype_name(x);
        } else if constexpr (std::is_same_v<V, bool>) {
          o << (x ? "true" : "false");
        } else if constexpr (std::is_arithmetic_v<V>) {
          o << x;
        } else {
          o << '[';
          bool first = true;
          for (const auto& e : x) {
            if (!first) o << ", ";
            first = false;
            if constexpr (std::is_same_v<typename V::value_type, DType>) {
              o << dtype_name(e);
            } else if constexpr (std::is_same_v<typename V::value_type, std::string>) {
              o << '"' << e << '"';
            } else if constexpr (std::is_same_v<typename V::value_type, bool>) {
              o << (e ? "true" : "false");
            } else {
              o << e;
            }
          }
          o << ']';
        }
      },
      v.value());
  return o.str();
}

std::string describe(const OpSpec& op, const Call& c) {
  std::string s = "(";
  bool first = true;
  for (std::size_t i = 0; i < c.slots.size(); ++i) {
    if (!first) s += ", ";
    first = false;
    s += std::string(op.inputs[i].name) + "=";
    if (c.slots[i].empty()) {
      s += "absent";
      continue;
    }
    if (op.inputs[i].counted) s += "[";
    for (std::size_t j = 0; j < c.slots[i].size(); ++j) {
      if (j > 0) s += ", ";
      s += c.slots[i][j].defined() ? c.slots[i][j].description() : std::string("null");
    }
    if (op.inputs[i].counted) s += "]";
  }
  for (const auto& [name, value] : c.args) {
    if (!first) s += ", ";
    first = false;
    s += name + "=" + describe(value);
  }
  return s + ")";
}

// ---------------------------------------------------------------------------
// Candidate values

std::vector<std::int64_t> int_values(const Hints& h) {
  std::vector<std::int64_t> v = {0, 1, 2, -1, 3, -2, 4, 5, -3, 7, 100, -100,
                                 std::numeric_limits<std::int64_t>::max(),
                                 std::numeric_limits<std::int64_t>::min()};
  for (std::int64_t x : h.ints) {
    for (std::int64_t d : {x - 1, x, x + 1, -x}) v.push_back(d);
  }
  return v;
}

std::vector<double> float_values(const Hints& h) {
  std::vector<double> v = {0.5, 1.0, 0.0, 2.0, 0.25, -1.0, -0.5, 1.5, 3.0, 100.0, -100.0, 1e30,
                           -1e30, std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()};
  for (double x : h.floats) {
    for (double d : {x, -x, x - 0.5, x + 0.5, std::nextafter(x, 1e300), std::nextafter(x, -1e300)}) {
      v.push_back(d);
    }
  }
  return v;
}

std::vector<std::string> string_values(const Hints& h) {
  std::vector<std::string> v = {"a", "", "zzz"};
  v.insert(v.end(), h.strings.begin(), h.strings.end());
  return v;
}

bool count_fits(const ArgSpec& a, std::size_t n) {
  const auto k = static_cast<std::int64_t>(n);
  return k >= a.count_min && (a.count_max < 0 || k <= a.count_max);
}

// Values of one element of arg `a`.
std::vector<ArgValue> scalar_values(const ArgSpec& a, const Hints& h) {
  std::vector<ArgValue> out;
  switch (a.type) {
    case ArgType::int_:
      for (std::int64_t v : int_values(h)) out.emplace_back(v);
      break;
    case ArgType::float_:
      for (double v : float_values(h)) out.emplace_back(v);
      break;
    case ArgType::bool_:
      out.emplace_back(false);
      out.emplace_back(true);
      break;
    case ArgType::string:
      for (const std::string& v : string_values(h)) out.emplace_back(v);
      break;
    case ArgType::dtype:
      for (DType d : kAllDTypes) out.emplace_back(d);
      break;
    case ArgType::enum_:
      for (const std::string& v : a.values) out.emplace_back(v);
      break;
  }
  return out;
}

// A counted value of `n` elements, each from `pick(i)`.
template <class T, class F>
ArgValue counted_value(std::size_t n, F pick) {
  std::vector<T> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(pick(i));
  return ArgValue(std::move(v));
}

// Counted values of arg `a` for a baseline, shaped after the first input
// `x` where one is given (a shape, a permutation, dims).
std::vector<ArgValue> counted_values(const ArgSpec& a, const Hints& h, const Tensor* x,
                                     bool all_lengths) {
  std::vector<ArgValue> out;
  std::vector<std::size_t> lengths;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}}) {
    if (all_lengths || count_fits(a, n)) lengths.push_back(n);
  }
  if (a.count_min > 3) lengths.push_back(static_cast<std::size_t>(a.count_min));
  switch (a.type) {
    case ArgType::int_: {
      if (x != nullptr) {
        const std::vector<std::int64_t> shape = dims_of(x->shape());
        std::vector<std::int64_t> reversed(shape.rbegin(), shape.rend());
        std::vector<std::int64_t> perm, rperm;
        for (std::size_t i = 0; i < shape.size(); ++i) {
          perm.push_back(static_cast<std::int64_t>(i));
          rperm.push_back(static_cast<std::int64_t>(shape.size() - 1 - i));
        }
        for (const auto& v : {shape, reversed, perm, rperm, std::vector<std::int64_t>{x->length()}}) {
          if (all_lengths || count_fits(a, v.size())) out.emplace_back(v);
        }
      }
      for (std::size_t n : lengths) {
        for (std::int64_t e : {0, 1, 2, -1}) {
          out.push_back(counted_value<std::int64_t>(n, [&](std::size_t) { return e; }));
        }
        out.push_back(counted_value<std::int64_t>(n, [](std::size_t i) {
          return static_cast<std::int64_t>(i);
        }));
        out.push_back(counted_value<std::int64_t>(n, [](std::size_t i) {
          return static_cast<std::int64_t>(i + 2);
        }));
      }
      break;
    }
    case ArgType::float_:
      for (std::size_t n : lengths) {
        for (double e : {0.5, 1.0, 0.0}) {
          out.push_back(counted_value<double>(n, [&](std::size_t) { return e; }));
        }
      }
      break;
    case ArgType::bool_:
      for (std::size_t n : lengths) {
        for (bool e : {false, true}) {
          out.push_back(counted_value<bool>(n, [&](std::size_t) { return e; }));
        }
      }
      break;
    case ArgType::string: {
      const std::vector<std::string> pool = string_values(h);
      for (std::size_t n : lengths) {
        out.push_back(counted_value<std::string>(n, [&](std::size_t i) {
          const std::string index = std::to_string(i);
          return "s" + index;
        }));
        for (const std::string& e : pool) {
          out.push_back(counted_value<std::string>(n, [&](std::size_t) { return e; }));
        }
      }
      break;
    }
    case ArgType::dtype:
      for (std::size_t n : lengths) {
        for (DType e : kAllDTypes) {
          out.push_back(counted_value<DType>(n, [&](std::size_t) { return e; }));
        }
      }
      break;
    case ArgType::enum_:
      for (std::size_t n : lengths) {
        for (std::size_t k = 0; k < a.values.size(); ++k) {
          out.push_back(counted_value<std::string>(
              n, [&](std::size_t i) { return a.values[(k + i) % a.values.size()]; }));
        }
      }
      break;
  }
  (void)h;
  return out;
}

std::vector<ArgValue> baseline_values(const ArgSpec& a, const Hints& h, const Tensor* x) {
  if (a.counted) return counted_values(a, h, x, false);
  std::vector<ArgValue> v = scalar_values(a, h);
  if (v.size() > 12) v.erase(v.begin() + 12, v.end());
  return v;
}

// ---------------------------------------------------------------------------
// Baseline shapes: for input slot i of n, a shape.

using Layout = std::function<Shape(std::size_t i)>;

std::vector<Layout> layouts() {
  auto all = [](std::initializer_list<std::int64_t> d) {
    const Shape s = shape_of(d);
    return Layout([s](std::size_t) { return s; });
  };
  auto chain = [](std::vector<Shape> shapes) {
    return Layout([shapes](std::size_t i) { return shapes[std::min(i, shapes.size() - 1)]; });
  };
  return {
      all({2, 3}),
      all({3}),
      all({}),
      all({2, 3, 4}),
      chain({shape_of({2, 3}), shape_of({3, 4}), shape_of({4})}),  // matrix product, bias
      chain({shape_of({2, 3}), shape_of({4, 3}), shape_of({4})}),  // x · Wᵀ + b
      chain({shape_of({2, 3}), shape_of({3}), shape_of({3})}),     // last-dim parameters
      chain({shape_of({3}), shape_of({3, 4}), shape_of({4})}),     // vector times matrix
      chain({shape_of({2, 3}), shape_of({2})}),                    // indices, per row
      all({3, 3}),
      all({1}),
      all({2, 3, 4, 5}),
  };
}

// ---------------------------------------------------------------------------

struct Runner {
  const OpSpec& op;
  const std::string name;
  std::vector<std::string> proved;  // per check: the mutation that proved it
  int calls = 0;

  explicit Runner(const OpSpec& o) : op(o), name(o.name), proved(o.checks.size()) {}

  bool matches(const Check& c, const Error& e) const {
    if (*c.param != '\0') {
      const std::string& p = e.param();
      const std::string want = c.param;
      const bool same = p == want || (p.size() > want.size() && p.compare(0, want.size(), want) == 0 &&
                                      p[want.size()] == '[');
      if (!same) return false;
    }
    std::string_view needles = c.needles;
    while (true) {
      const std::size_t bar = needles.find('|');
      const std::string_view needle = needles.substr(0, bar);
      if (e.message().find(needle) != std::string::npos) return true;
      if (bar == std::string_view::npos) return false;
      needles.remove_prefix(bar + 1);
    }
  }

  // Calls `c`; true when it returned. Errors are recorded against the
  // checks they prove; an error not naming the op, or any other exception,
  // fails the test.
  bool attempt(const Call& c, const std::string& what, bool record = true) {
    ++calls;
    try {
      const std::vector<Tensor> in = c.flat(op);
      (void)registry().call(name, in, c.args);
      return true;
    } catch (const Error& e) {
      if (e.op() != name) {
        BOOST_ERROR(name << ": " << what << " " << describe(op, c)
                         << ": the opgen::Error does not name the op: " << e.what());
        return false;
      }
      if (!record) return false;
      for (std::size_t i = 0; i < op.checks.size(); ++i) {
        if (proved[i].empty() && matches(op.checks[i], e)) {
          proved[i] = what + " " + describe(op, c) + " -> " + e.what();
        }
      }
    } catch (const std::exception& e) {
      BOOST_ERROR(name << ": " << what << " " << describe(op, c)
                       << ": threw something other than opgen::Error: " << e.what());
    }
    return false;
  }

  // --- the happy path

  std::optional<Call> baseline() {
    std::vector<DType> dtypes;
    for (DType d : kAllDTypes) {
      bool used = op.inputs.empty() && dtypes.empty();
      for (const InputSpec& in : op.inputs) used |= detail::in_class(d, in.type);
      if (used) dtypes.push_back(d);
    }
    if (dtypes.empty()) dtypes.push_back(DType::float32);
    std::vector<Layout> shapes = layouts();
    if (op.inputs.empty()) shapes.resize(1);
    std::vector<const ArgSpec*> required;
    for (const ArgSpec& a : op.args) {
      if (a.required) required.push_back(&a);
    }
    for (DType d : dtypes) {
      for (const Layout& layout : shapes) {
        Call c;
        std::size_t k = 0;  // index of the next present tensor
        for (const InputSpec& in : op.inputs) {
          std::vector<Tensor> slot;
          const std::vector<DType> own = class_dtypes(in.type);
          const DType dt = detail::in_class(d, in.type) ? d : own.front();
          if (in.counted) {
            const std::int64_t n = std::max<std::int64_t>(
                in.count_min, in.count_max < 0 ? 2 : std::min<std::int64_t>(2, in.count_max));
            for (std::int64_t j = 0; j < n; ++j) slot.push_back(make_tensor(layout(k), dt));
            ++k;
          } else if (!in.optional) {
            slot.push_back(make_tensor(layout(k++), dt));
          }
          c.slots.push_back(std::move(slot));
        }
        // Every combination of candidate values of the required args, the
        // first ones first, up to a bound.
        std::vector<std::vector<ArgValue>> pools;
        std::size_t combos = 1;
        for (const ArgSpec* a : required) {
          pools.push_back(baseline_values(*a, op.hints, c.first()));
          if (pools.back().empty()) pools.back().emplace_back(0);
          combos = std::min<std::size_t>(combos * pools.back().size(), 400);
        }
        for (std::size_t combo = 0; combo < combos; ++combo) {
          Call t = c;
          std::size_t rest = combo;
          for (std::size_t j = 0; j < required.size(); ++j) {
            t.args.insert_or_assign(required[j]->name, pools[j][rest % pools[j].size()]);
            rest /= pools[j].size();
          }
          if (attempt(t, "valid call", false)) return t;
        }
      }
    }
    return std::nullopt;
  }

  // --- mutations of a valid call

  std::vector<Shape> shape_mutations(const Shape& s) const {
    std::vector<Shape> out = {shape_of({}),     shape_of({5}),       shape_of({1}),
                              shape_of({0}),    shape_of({2, 0}),    shape_of({3, 5}),
                              shape_of({7, 7}), shape_of({2, 3, 4}), shape_of({1, 2, 3, 4}),
                              shape_of({5, 4, 3, 2, 1})};
    const std::vector<std::int64_t> d = dims_of(s);
    if (!d.empty()) {
      std::vector<std::int64_t> v = d;
      v.back() += 1;
      out.push_back(shape_of(v));
      v = d;
      v.front() += 1;
      out.push_back(shape_of(v));
      v.assign(d.rbegin(), d.rend());
      out.push_back(shape_of(v));
      v.assign(d.begin(), d.end() - 1);
      out.push_back(shape_of(v));
    }
    std::vector<std::int64_t> v = {2};
    v.insert(v.end(), d.begin(), d.end());
    out.push_back(shape_of(v));
    return out;
  }

  void mutate_tensor(const Call& base, std::size_t slot, std::size_t j, const Tensor& like) {
    const InputSpec& in = op.inputs[slot];
    const std::string who =
        in.counted ? std::string(in.name) + "[" + std::to_string(j) + "]" : std::string(in.name);
    auto with = [&](Tensor t) {
      Call c = base;
      auto& s = c.slots[slot];
      if (s.size() <= j) s.resize(j + 1);
      s[j] = std::move(t);
      return c;
    };
    attempt(with(Tensor()), who + " null");
    for (DType d : kAllDTypes) {
      if (d != like.dtype()) attempt(with(make_tensor(like.shape(), d)), who + " as " + std::string(dtype_name(d)));
    }
    for (const Shape& s : shape_mutations(like.shape())) {
      attempt(with(make_tensor(s, like.dtype())), who + " of shape " + s.to_string());
    }
  }

  void mutate_inputs(const Call& base) {
    const Tensor* first = base.first();
    const Tensor fallback = make_tensor(shape_of({2, 3}), DType::float32);
    for (std::size_t i = 0; i < op.inputs.size(); ++i) {
      const InputSpec& in = op.inputs[i];
      const std::vector<Tensor>& slot = base.slots[i];
      if (slot.empty()) {
        // An absent optional input: given, like the first input, in each
        // dtype of its class, then mutated.
        const Tensor& like = first != nullptr ? *first : fallback;
        for (DType d : class_dtypes(in.type)) {
          Call c = base;
          c.slots[i] = {make_tensor(like.shape(), d)};
          attempt(c, std::string(in.name) + " given");
          mutate_tensor(c, i, 0, c.slots[i][0]);
        }
        if (in.counted) {
          for (int n = 1; n <= 3; ++n) {
            Call c = base;
            c.slots[i].assign(static_cast<std::size_t>(n), make_tensor(like.shape(), like.dtype()));
            attempt(c, std::string(in.name) + " with " + std::to_string(n) + " tensors");
          }
        }
        continue;
      }
      for (std::size_t j = 0; j < slot.size(); ++j) mutate_tensor(base, i, j, slot[j]);
      if (in.counted) {
        std::set<std::int64_t> counts = {0, 1, in.count_min - 1,
                                         static_cast<std::int64_t>(slot.size()) + 1};
        if (in.count_max >= 0) counts.insert(in.count_max + 1);
        for (std::int64_t n : counts) {
          if (n < 0 || n > 20) continue;
          Call c = base;
          c.slots[i].assign(static_cast<std::size_t>(n), slot[0]);
          attempt(c, std::string(in.name) + " with " + std::to_string(n) + " tensors");
        }
      }
    }
  }

  void mutate_args(const Call& base) {
    for (const ArgSpec& a : op.args) {
      std::vector<ArgValue> values;
      if (a.counted) {
        values = counted_values(a, op.hints, base.first(), true);
        // Longer than allowed, and one element at a time over every value.
        if (a.count_max >= 0) {
          const auto n = static_cast<std::size_t>(a.count_max + 1);
          switch (a.type) {
            case ArgType::int_:
              values.push_back(counted_value<std::int64_t>(n, [](std::size_t) { return 0; }));
              break;
            case ArgType::float_:
              values.push_back(counted_value<double>(n, [](std::size_t) { return 0.5; }));
              break;
            case ArgType::bool_:
              values.push_back(counted_value<bool>(n, [](std::size_t) { return false; }));
              break;
            case ArgType::string:
              values.push_back(counted_value<std::string>(n, [](std::size_t) { return "a"; }));
              break;
            case ArgType::dtype:
              values.push_back(counted_value<DType>(n, [](std::size_t) { return DType::float32; }));
              break;
            case ArgType::enum_:
              values.push_back(counted_value<std::string>(n, [&](std::size_t) {
                return a.values.empty() ? std::string() : a.values[0];
              }));
              break;
          }
        }
        const auto it = base.args.find(a.name);
        const std::size_t len = a.count_min > 0 ? static_cast<std::size_t>(a.count_min) : 2;
        for (const ArgValue& e : scalar_values(a, op.hints)) {
          for (std::size_t at = 0; at < len; ++at) {
            values.push_back(element_at(a, it == base.args.end() ? nullptr : &it->second, len, at, e));
          }
        }
        if (a.type == ArgType::enum_) {
          values.push_back(ArgValue(std::vector<std::string>(len, "no_such_value")));
        }
      } else {
        values = scalar_values(a, op.hints);
        if (a.type == ArgType::enum_) values.emplace_back("no_such_value");
      }
      for (const ArgValue& v : values) {
        Call c = base;
        c.args.insert_or_assign(a.name, v);
        attempt(c, std::string(a.name) + " = " + describe(v));
      }
    }
  }

  // The counted value `current` (or `len` copies of a default) with
  // element `at` replaced by the scalar `e`.
  static ArgValue element_at(const ArgSpec& a, const ArgValue* current, std::size_t len,
                             std::size_t at, const ArgValue& e) {
    auto patch = [&](auto fill, auto get) {
      using T = std::decay_t<decltype(get(e))>;
      std::vector<T> v;
      if (current != nullptr) {
        if (const auto* cur = std::get_if<std::vector<T>>(&current->value())) v = *cur;
      }
      if (v.size() < len) v.resize(len, fill);
      v[at] = get(e);
      return ArgValue(std::move(v));
    };
    switch (a.type) {
      case ArgType::int_:
        return patch(std::int64_t{0}, [](const ArgValue& x) { return std::get<std::int64_t>(x.value()); });
      case ArgType::float_:
        return patch(0.5, [](const ArgValue& x) { return std::get<double>(x.value()); });
      case ArgType::bool_:
        return patch(false, [](const ArgValue& x) { return std::get<bool>(x.value()); });
      case ArgType::string:
      case ArgType::enum_:
        return patch(a.values.empty() ? std::string("a") : a.values[0],
                     [](const ArgValue& x) { return std::get<std::string>(x.value()); });
      case ArgType::dtype:
        return patch(DType::float32, [](const ArgValue& x) { return std::get<DType>(x.value()); });
    }
    return e;
  }

  // --- the registry's own rejections, and zero-size inputs

  void expect_error(const Call& c, const std::string& what) {
    if (attempt(c, what, false)) {
      BOOST_ERROR(name << ": " << what << " " << describe(op, c) << " was accepted");
    }
  }

  void registry_misuse(const Call& base) {
    // One tensor too many, and none at all (when some input is required).
    {
      const Call& c = base;
      bool unbounded = false;
      for (const InputSpec& in : op.inputs) unbounded |= in.counted && in.count_max < 0;
      if (!unbounded) {
        std::vector<Tensor> in = c.flat(op);
        in.push_back(make_tensor(shape_of({2}), DType::float32));
        ++calls;
        try {
          (void)registry().call(name, in, base.args);
          BOOST_ERROR(name << ": a call with one input too many was accepted");
        } catch (const Error& e) {
          BOOST_CHECK_EQUAL(e.op(), name);
        } catch (const std::exception& e) {
          BOOST_ERROR(name << ": one input too many threw " << e.what());
        }
      }
    }
    bool needs_input = false;
    for (const InputSpec& in : op.inputs) needs_input |= in.counted ? in.count_min > 0 : !in.optional;
    if (needs_input) {
      Call c = base;
      for (auto& s : c.slots) s.clear();
      std::vector<Tensor> none;
      ++calls;
      try {
        (void)registry().call(name, none, base.args);
        BOOST_ERROR(name << ": a call without inputs was accepted");
      } catch (const Error& e) {
        BOOST_CHECK_EQUAL(e.op(), name);
      } catch (const std::exception& e) {
        BOOST_ERROR(name << ": a call without inputs threw " << e.what());
      }
    }
    {
      Call c = base;
      c.args.insert_or_assign("no_such_arg", 1);
      expect_error(c, "an unknown arg");
    }
    for (const ArgSpec& a : op.args) {
      // A value of every other type.
      std::vector<ArgValue> wrong;
      if (a.counted) {
        wrong = {ArgValue(1), ArgValue(0.5), ArgValue("a"), ArgValue(true)};
        if (a.type != ArgType::float_ && a.type != ArgType::int_) wrong.emplace_back(std::vector<double>{0.5});
        if (a.type != ArgType::bool_) wrong.emplace_back(std::vector<bool>{true});
        if (a.type != ArgType::string && a.type != ArgType::enum_) wrong.emplace_back(std::vector<std::string>{"a"});
      } else {
        if (a.type != ArgType::int_ && a.type != ArgType::float_) wrong.emplace_back(1);
        if (a.type != ArgType::float_) wrong.emplace_back(0.5);
        if (a.type != ArgType::string && a.type != ArgType::enum_) wrong.emplace_back("a");
        if (a.type != ArgType::bool_) wrong.emplace_back(true);
        if (a.type != ArgType::dtype) wrong.emplace_back(DType::float32);
        wrong.emplace_back(std::vector<std::int64_t>{1});
      }
      for (const ArgValue& v : wrong) {
        Call c = base;
        c.args.insert_or_assign(a.name, v);
        expect_error(c, std::string("arg ") + a.name + " of type " + std::string(v.type_name()));
      }
    }
    // An unknown name.
    ++calls;
    try {
      std::vector<Tensor> in = base.flat(op);
      (void)registry().call(name + "_no_such_op", in, base.args);
      BOOST_ERROR(name << "_no_such_op was found");
    } catch (const Error&) {
    }
  }

  // Every input with a zero-size dimension: a result or an opgen::Error
  // naming the op (attempt fails anything else).
  void zero_size(const Call& base) {
    for (int at : {0, -1}) {
      Call c = base;
      bool changed = false;
      for (auto& slot : c.slots) {
        for (Tensor& t : slot) {
          if (!t.defined()) continue;
          std::vector<std::int64_t> d = dims_of(t.shape());
          if (d.empty()) d = {0};
          d[at == 0 ? 0 : d.size() - 1] = 0;
          t = make_tensor(shape_of(d), t.dtype());
          changed = true;
        }
      }
      if (!changed) return;
      std::vector<Tensor> outs;
      ++calls;
      try {
        outs = registry().call(name, c.flat(op), c.args);
      } catch (const Error& e) {
        BOOST_CHECK_EQUAL(e.op(), name);
        continue;
      } catch (const std::exception& e) {
        BOOST_ERROR(name << ": zero-size inputs " << describe(op, c) << " threw " << e.what());
        continue;
      }
      for (const Tensor& t : outs) {
        if (!t.defined()) continue;
        std::int64_t n = 1;
        for (int i = 0; i < t.rank(); ++i) n *= t.shape()[i];
        BOOST_CHECK_EQUAL(n, t.length());
      }
    }
  }
};

}  // namespace

void run(const OpSpec& op) {
  Runner r(op);
  const std::optional<Call> base = r.baseline();
  if (!base) {
    BOOST_ERROR(op.name << " (" << op.where << "): no valid call found among " << r.calls
                        << " candidates, so its " << op.checks.size()
                        << " checks cannot be shown to reject exactly one violation");
    return;
  }
  BOOST_TEST_MESSAGE(op.name << ": valid call " << describe(op, *base));
  r.mutate_inputs(*base);
  r.mutate_args(*base);
  std::size_t shown = 0;
  for (std::size_t i = 0; i < op.checks.size(); ++i) {
    const Check& c = op.checks[i];
    if (r.proved[i].empty()) {
      BOOST_ERROR(op.name << ": no call violating \"" << c.what << "\" (" << c.where
                          << ") was rejected by it; valid call " << describe(op, *base));
    } else {
      ++shown;
      BOOST_TEST_MESSAGE("  " << c.what << ": " << r.proved[i]);
    }
  }
  r.registry_misuse(*base);
  r.zero_size(*base);
  // The valid call still succeeds: the mutations changed nothing shared.
  BOOST_CHECK(r.attempt(*base, "valid call again", false));
  BOOST_TEST_MESSAGE(op.name << ": " << shown << " of " << op.checks.size() << " checks shown, "
                             << r.calls << " calls");
}

}  // namespace opgen::negative
