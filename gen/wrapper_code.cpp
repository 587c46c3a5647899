#include "wrapper_code.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "cpp_spelling.hpp"
#include "spec_keys.hpp"

namespace opgen::gen {

namespace {

std::string type_class(std::string_view type) {
  if (type == "float") return "detail::TypeClass::float_";
  if (type == "int") return "detail::TypeClass::int_";
  if (type == "bool") return "detail::TypeClass::bool_";
  return "detail::TypeClass::" + std::string(type);
}

/// "float32 or float64", "float32, float64, int32 or int64".
std::string or_list(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) s += i + 1 == items.size() ? " or " : ", ";
    s += items[i];
  }
  return s;
}

bool is_optional(const Param& p) {
  if (p.kind == ParamKind::input) return (p.optional && p.optional->value) || p.default_from;
  return p.default_value || p.default_from;
}

std::size_t count_in_class(std::string_view type) {
  std::size_t n = 0;
  for (std::string_view d : kDTypeNames) {
    n += type == "any" || (type == "numeric" && d != "bool") ||
         (type == "float" && (d == "float32" || d == "float64")) ||
         (type == "int" && (d == "int32" || d == "int64"));
  }
  return n;
}

/// "2 values", "at least 1 value", "any number of values", "2 to 4 values".
std::string count_phrase(const Count& c, std::string_view noun) {
  auto n = [&](std::int64_t k) {
    return std::to_string(k) + " " + std::string(noun) + (k == 1 ? "" : "s");
  };
  if (c.max < 0) return c.min == 0 ? "any number of " + std::string(noun) + "s" : "at least " + n(c.min);
  if (c.min == c.max) return n(c.min);
  if (c.min == 0) return "at most " + n(c.max);
  return std::to_string(c.min) + " to " + n(c.max);
}

/// The text with its first letter in upper case ("At least 1 tensor").
std::string capitalized(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

/// Appends " (note)" before a sentence's final period.
std::string with_note(std::string s, const std::string& note) {
  const bool period = !s.empty() && s.back() == '.';
  if (period) s.pop_back();
  return s + (s.empty() ? "" : " ") + "(" + note + ")" + (period ? "." : "");
}

/// Index of the first parameter of the trailing run that can take a C++
/// default argument: optional, and not defaulted from another parameter
/// (C++ default arguments cannot refer to other parameters).
std::size_t first_defaulted(const std::vector<const Param*>& params) {
  std::size_t first = 0;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Param& p = *params[i];
    if (!is_optional(p) || (p.kind == ParamKind::arg && p.default_from)) first = i + 1;
  }
  return first;
}

std::string qualified(const Namespace& ns, const Op& op) { return ns.name + "." + op.name; }

std::string result_struct(const Op& op) {
  std::string s;
  bool upper = true;
  for (char c : op.cpp_name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    s += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return s + "Result";
}

/// What an overload that allocates its outputs returns: the tensor, the
/// tensors of a counted output, or the result struct.
std::string return_type(const Op& op) {
  if (op.outputs.size() != 1) return result_struct(op);
  return op.outputs[0].count.is_one() ? "Tensor" : "std::vector<Tensor>";
}

bool any_counted_output(const Op& op) {
  return std::any_of(op.outputs.begin(), op.outputs.end(),
                     [](const Param& p) { return !p.count.is_one(); });
}

/// The storage of a counted arg's literal default, which a span then views
/// (a braced list would die with its statement): `static constexpr
/// std::int64_t dims_default[] = {0, 1};`, `static const` for strings.
std::string default_array(const Param& p, const std::string& span_type, const EnumInfo* e) {
  const std::string elem = span_type.substr(5, span_type.size() - 6);  // Span<T> -> T
  return std::string(elem == "std::string" ? "static const " : "static constexpr ") + elem + " " +
         p.name.value + "_default[] = " + cpp_literal(*p.default_value, p, e) + ";";
}

std::string tensor_ref(const Param& p) {
  return p.count.is_one() ? p.name.value : "detail::element(kOp, \"" + p.name.value + "\", " + p.name.value + ", 0)";
}

std::string dtype_rule_cpp(const DTypeRule& r) {
  switch (r.kind) {
    case DTypeRule::Kind::same:
      return tensor_ref(*r.tensors[0]) + ".dtype()";
    case DTypeRule::Kind::promote: {
      std::string s = r.tensors[0]->name.value + ".dtype()";
      for (std::size_t i = 1; i < r.tensors.size(); ++i) {
        s = "promote_types(" + s + ", " + r.tensors[i]->name.value + ".dtype())";
      }
      return s;
    }
    case DTypeRule::Kind::to_float:
      return "to_float_type(" + r.tensors[0]->name.value + ".dtype())";
    case DTypeRule::Kind::fixed:
      return dtype_enum(r.fixed);
    case DTypeRule::Kind::from:
      return r.arg->name.value;
  }
  return "";
}

std::string operand_cpp(const RuleOperand& o, bool is_bool, bool is_list) {
  if (!o.is_literal()) return o.param->name.value;
  if (is_bool) return o.bool_value ? "true" : "false";
  if (!is_list) return std::to_string(o.ints.empty() ? 0 : o.ints[0]);
  std::string s = "Span<std::int64_t>({";
  for (std::size_t i = 0; i < o.ints.size(); ++i) s += (i ? ", " : "") + std::to_string(o.ints[i]);
  return s + "})";
}

class OpWriter {
 public:
  OpWriter(const Namespace& ns, const OpAnalysis& a, Diagnostics& diags)
      : ns_(ns), a_(a), op_(*a.op), diags_(diags), ctx_{"kOp", ""} {}

  OpDocs docs() {
    OpDocs d;
    overloads_ = overloads_of(a_);
    for (const Overload& o : overloads_) d.declarations.push_back(overload_declaration(ns_, a_, o, true) + ";");
    for (const Param& p : op_.inputs) {
      d.params.push_back({p.name.value, p.count.is_one() ? "input" : "inputs", input_dtypes(p),
                          p.optional && p.optional->value ? "none" : p.default_from ? p.default_from->text : "",
                          p.doc ? trim_text(expand_doc_tokens(p.doc->text, ns_, op_)) : ""});
    }
    for (const Param& p : op_.args) {
      std::string type = p.type.value;
      if (const EnumInfo* e = enum_of(p)) {
        std::vector<std::string> vs;
        for (const std::string& v : e->values) vs.push_back("\"" + v + "\"");
        type = "enum: " + or_list(vs);
      }
      if (!p.count.is_one()) type += " [" + p.count.text + "]";
      std::string def;
      if (p.default_value) def = doc_literal(*p.default_value);
      if (p.default_from) def = p.default_from->text;
      d.params.push_back({p.name.value, "arg", type, def,
                          p.doc ? trim_text(expand_doc_tokens(p.doc->text, ns_, op_)) : ""});
    }
    for (const LocatedString& c : op_.configs) {
      d.params.push_back({config_param_name(c.value), "config", c.value, c.value + "{}", "Settings; see " + c.value + "."});
    }
    for (std::size_t i = 0; i < op_.outputs.size(); ++i) {
      const Param& p = op_.outputs[i];
      std::string desc = p.doc ? trim_text(expand_doc_tokens(p.doc->text, ns_, op_)) : "";
      desc += (desc.empty() ? "" : " ") + std::string("Shape: ") + shape_doc(i) + ".";
      if (p.count.is_one()) {
        d.params.push_back({p.name.value, "output", dtype_doc(i), "", desc});
      } else {
        d.params.push_back(
            {p.name.value, "outputs", dtype_doc(i) + " [" + p.count.text + "]", "", desc});
      }
    }
    for (const CheckedConstraint& cc : a_.constraints) {
      if (!cc.expr) continue;
      std::string item = to_prose(*cc.expr);
      if (cc.constraint->message) item += " (\"" + trim_text(expand_doc_tokens(cc.constraint->message->text, ns_, op_)) + "\")";
      (cc.constraint->backend ? d.backend : d.requires_).push_back(item);
    }
    d.errors = throws_items();
    return d;
  }

  OpCode run() {
    OpCode code;
    overloads_ = overloads_of(a_);
    check_overloads();
    code.kernel_table = kernel_table();
    code.impl = impl();
    code.declarations = declarations();
    code.definitions = definitions();
    code.invoker = invoker();
    code.registry_entry = registry_entry();
    return code;
  }

 private:
  const EnumInfo* enum_of(const Param& p) const { return a_.enum_of(p); }

  std::string arg_cpp_type(const Param& p) const { return arg_value_type(p, enum_of(p)); }

  // Types of the args a pointwise or reduction kernel receives (after the
  // shape rule's own args).
  std::vector<const Param*> kernel_args() const {
    std::vector<const Param*> out;
    for (const Param& p : op_.args) {
      if (op_.kind == OpKind::reduction && !a_.shapes.empty() &&
          (a_.shapes[0].dims.param == &p || a_.shapes[0].keep_dims.param == &p)) {
        continue;
      }
      out.push_back(&p);
    }
    return out;
  }

  std::string kernel_const(const std::string& dtype) const { return op_.cpp_name + "_" + dtype; }

  // ----- kernel table

  std::vector<std::string> kernel_table() const {
    std::vector<std::string> lines;
    const std::string line = "#line " + std::to_string(op_.kernel_loc.line ? op_.kernel_loc.line : op_.loc.line) +
                             " " + cpp_string(ns_.source);
    std::string extra;
    for (const Param* p : kernel_args()) extra += ", " + arg_cpp_type(*p);
    const std::string family = "kernels::" + op_.kernel;
    if (op_.kind == OpKind::custom) {
      std::string sig;
      for (const Param& p : op_.inputs) sig += (sig.empty() ? "" : ", ") + param_type(p, nullptr);
      for (const Param& p : op_.args) sig += (sig.empty() ? "" : ", ") + arg_cpp_type(p);
      for (const LocatedString& c : op_.configs) sig += (sig.empty() ? "" : ", ") + std::string("const ") + c.value + "&";
      const std::string shape_sig = sig;
      for (const Param& p : op_.outputs) sig += (sig.empty() ? "" : ", ") + param_type(p, nullptr);
      lines.push_back(line);
      lines.push_back("constexpr void (*" + op_.cpp_name + ")(" + sig + ") = " + family + ";");
      // One shape function serves the custom outputs; for a counted one
      // (the checker makes it the only one) it gives one Shape per tensor.
      const Param* custom = nullptr;
      for (std::size_t i = 0; i < a_.shapes.size(); ++i) {
        if (a_.shapes[i].kind == ShapeRule::Kind::custom && custom == nullptr) custom = &op_.outputs[i];
      }
      if (custom != nullptr) {
        const std::string ret = custom->count.is_one() ? "Shape" : "std::vector<Shape>";
        lines.push_back(line);
        lines.push_back("constexpr " + ret + " (*" + op_.cpp_name + "_shape)(" + shape_sig + ") = " +
                        family + "Shape;");
      }
      return lines;
    }
    for (const std::string& d : a_.dtypes) {
      const std::string in = ctype(d);
      // A `from` rule has no static dtype; its kernels compute in `d`.
      const std::string static_out = static_out_dtype(a_, 0, d);
      const std::string out = ctype(static_out.empty() ? d : static_out);
      std::string type;
      if (op_.kind == OpKind::reduction) {
        type = "detail::ReduceKernel<" + in + ", " + out + extra + ">";
      } else if (op_.inputs.size() == 1) {
        type = "detail::UnaryKernel<" + in + ", " + out + extra + ">";
      } else if (op_.inputs.size() == 2) {
        type = "detail::BinaryKernel<" + in + ", " + out + extra + ">";
      } else {
        const Param& first = op_.inputs[0];
        const std::string in0 = is_fixed_dtype(first.type.value) ? ctype(first.type.value) : in;
        type = "detail::TernaryKernel<" + in0 + ", " + in + ", " + out + extra + ">";
      }
      lines.push_back(line);
      lines.push_back("constexpr " + type + " " + kernel_const(d) + " = " + family + ";");
    }
    return lines;
  }

  // ----- checks

  void input_checks(std::vector<std::string>& body) const {
    for (const Param& p : op_.inputs) {
      const std::string& n = p.name.value;
      const std::string q = cpp_string(n);
      const bool optional = p.optional && p.optional->value;
      const std::string cls = p.type.value == "any" ? "" : type_class(p.type.value);
      if (!p.count.is_one()) {
        body.push_back("detail::require_count(kOp, " + q + ", " + n + ".size(), " +
                       std::to_string(p.count.min) + ", " + std::to_string(p.count.max) + ");");
        body.push_back("detail::require_type(kOp, " + q + ", " + n + ", " +
                       (cls.empty() ? "detail::TypeClass::any" : cls) + ");");
        continue;
      }
      const std::string check = cls.empty()
                                    ? "detail::require_tensor(kOp, " + q + ", " + n + ");"
                                    : "detail::require_type(kOp, " + q + ", " + n + ", " + cls + ");";
      body.push_back(optional ? "if (" + n + ".defined()) " + check : check);
    }
  }

  void arg_checks(std::vector<std::string>& body) const {
    for (const Param& p : op_.args) {
      const std::string& n = p.name.value;
      if (!p.count.is_one() && !(p.count.min == 0 && p.count.max < 0)) {
        body.push_back("detail::require_count(kOp, " + cpp_string(n) + ", " + n + ".size(), " +
                       std::to_string(p.count.min) + ", " + std::to_string(p.count.max) + ");");
      }
      const EnumInfo* e = enum_of(p);
      if (e != nullptr && !p.count.is_one()) {
        body.push_back("detail::require_enum_values(kOp, " + cpp_string(n) + ", " +
                       cpp_string(e->cpp_type) + ", " + n + ", " + std::to_string(e->values.size()) +
                       ");");
      } else if (e != nullptr) {
        body.push_back("if (static_cast<unsigned>(" + n + ") >= " + std::to_string(e->values.size()) +
                       "u) {");
        body.push_back("  detail::fail_cold([=] {");
        body.push_back("    detail::fail_check(kOp, " +
                       cpp_string(n + " is not a " + e->cpp_type + " value") + ", " +
                       cpp_string(n) + ", {{" + cpp_string(n) +
                       ", detail::show(static_cast<std::int64_t>(" + n + "))}});");
        body.push_back("  });");
        body.push_back("}");
      }
    }
    for (const LocatedString& c : op_.configs) {
      body.push_back(config_param_name(c.value) + ".validate(kOp);");
    }
  }

  void constraint_checks(std::vector<std::string>& body) const {
    for (const CheckedConstraint& cc : a_.constraints) {
      const Constraint& c = *cc.constraint;
      if (!cc.expr) continue;
      if (c.backend) {
        body.push_back("// Enforced by the kernel: " + to_source(*cc.expr));
        continue;
      }
      const std::string message =
          c.message ? expand_doc_tokens(c.message->text, ns_, op_) : to_prose(*cc.expr);
      std::string values;
      for (const ShownTerm& t : shown_terms(*cc.expr, c.check, ctx_)) {
        values += (values.empty() ? "" : ", ") + std::string("{") + cpp_string(t.source) +
                  ", show(" + t.cpp + ")}";
      }
      body.push_back("if (!(" + to_cpp(*cc.expr, ctx_) + ")) {");
      // The message is built out of line (detail::fail_cold), and the lambda
      // captures by value: captured by reference, the wrapper's parameters
      // would escape, and g++ then no longer ends the wrapper in a jump to
      // its kernel (1K float32 clip: 18.8 -> 21.6 ns per call on Zen 5).
      // The copies are made only when the check fails.
      body.push_back("  detail::fail_cold([=] {");
      const std::string call = "    detail::fail_check(kOp, " + cpp_string(message) + ", " +
                               cpp_string(to_source(*cc.expr)) + ",";
      if (call.size() + values.size() + 6 <= 98) {
        body.push_back(call + " {" + values + "});");
      } else {
        body.push_back(call);
        body.push_back("                       {" + values + "});");
      }
      body.push_back("  });");
      body.push_back("}");
    }
  }

  // `{"x", x}, {"y", y}`: the named tensors of output i's shape rule.
  std::string broadcast_groups(std::size_t i) const {
    std::string s;
    for (const Param* p : a_.shapes[i].tensors) {
      s += (s.empty() ? "" : ", ") + std::string("{") + cpp_string(p->name.value) + ", " + p->name.value + "}";
    }
    return s;
  }

  std::string shape_cpp(std::size_t i) const {
    const ShapeRule& r = a_.shapes[i];
    switch (r.kind) {
      case ShapeRule::Kind::same:
        return tensor_ref(*r.tensors[0]) + ".shape()";
      case ShapeRule::Kind::broadcast:
        return "detail::broadcast_shape(kOp, {" + broadcast_groups(i) + "})";
      case ShapeRule::Kind::reduce:
        return "detail::reduce_shape(kOp, " +
               cpp_string(r.dims.param ? r.dims.param->name.value : "dims") + ", " +
               r.tensors[0]->name.value + ", " + operand_cpp(r.dims, false, true) + ", " +
               operand_cpp(r.keep_dims, true, false) + ", " + cpp_string(r.tensors[0]->name.value) +
               ")";
      case ShapeRule::Kind::matmul: {
        const bool flags = !r.trans_a.is_literal() || !r.trans_b.is_literal() ||
                           r.trans_a.bool_value || r.trans_b.bool_value;
        return "detail::matmul_shape(kOp, " + cpp_string(r.tensors[0]->name.value) + ", " +
               r.tensors[0]->name.value + ", " + cpp_string(r.tensors[1]->name.value) + ", " +
               r.tensors[1]->name.value + ", " +
               (flags ? operand_cpp(r.trans_a, true, false) : "false") + ", " +
               (flags ? operand_cpp(r.trans_b, true, false) : "false") + ")";
      }
      case ShapeRule::Kind::concat:
      case ShapeRule::Kind::stack:
        return std::string("detail::") + (r.kind == ShapeRule::Kind::concat ? "concat" : "stack") +
               "_shape(kOp, " + cpp_string(r.tensors[0]->name.value) + ", " +
               r.tensors[0]->name.value + ", " + operand_cpp(r.dims, false, false) + ")";
      case ShapeRule::Kind::from:
        return "detail::shape_from(kOp, " + cpp_string(r.dims.param->name.value) + ", " +
               r.dims.param->name.value + ")";
      case ShapeRule::Kind::scalar:
        return "Shape{}";
      case ShapeRule::Kind::custom: {
        std::string args;
        for (const Param& p : op_.inputs) args += (args.empty() ? "" : ", ") + p.name.value;
        for (const Param& p : op_.args) args += (args.empty() ? "" : ", ") + p.name.value;
        for (const LocatedString& c : op_.configs) args += (args.empty() ? "" : ", ") + config_param_name(c.value);
        return "kernel_table::" + op_.cpp_name + "_shape(" + args + ")";
      }
    }
    return "";
  }

  // ----- the checked implementation

  std::string impl_params() const {
    std::string s;
    auto add = [&](const std::string& x) { s += (s.empty() ? "" : ", ") + x; };
    for (const Param& p : op_.inputs) {
      add(param_type(p, nullptr) + " " + p.name.value + (p.default_from ? "_given" : ""));
    }
    for (const Param& p : op_.args) add(arg_cpp_type(p) + " " + p.name.value);
    for (const LocatedString& c : op_.configs) add("const " + c.value + "& " + config_param_name(c.value));
    for (const Param& p : op_.outputs) {
      add((p.count.is_one() ? "Tensor& " : "detail::OutputList ") + p.name.value);
    }
    return s;
  }

  std::string impl() const {
    std::vector<std::string> body;
    body.push_back("constexpr const char* kOp = " + cpp_string(qualified(ns_, op_)) + ";");
    for (const Param& p : op_.inputs) {
      if (!p.default_from) continue;
      const std::string& n = p.name.value;
      body.push_back("const Tensor& " + n + " = " + n + "_given.defined() ? " + n + "_given : " +
                     p.default_from->text + ";");
    }
    input_checks(body);
    arg_checks(body);
    constraint_checks(body);
    dispatch(body);
    std::string s = "void " + op_.cpp_name + "(" + impl_params() + ") {\n";
    for (const std::string& l : body) s += (l.empty() ? "" : "  ") + l + "\n";
    return s + "}\n";
  }

  std::string supported_list() const {
    std::string s;
    for (const std::string& d : a_.dtypes) s += (s.empty() ? "" : ", ") + dtype_enum(d);
    return s;
  }

  void prepare_outputs(std::vector<std::string>& body) const {
    for (std::size_t i = 0; i < op_.outputs.size(); ++i) {
      const Param& p = op_.outputs[i];
      const std::string& n = p.name.value;
      if (p.count.is_one() && a_.shapes[i].kind == ShapeRule::Kind::broadcast) {
        // The same checks, without building the shape when the inputs
        // have out's shape (the out call of a pointwise op).
        body.push_back("detail::prepare_broadcast_output(kOp, " + cpp_string(n) + ", " + n + ", {" +
                       broadcast_groups(i) + "}, " + dtype_rule_cpp(a_.dtype_rules[i]) + ");");
        continue;
      }
      const ShapeRule& rule = a_.shapes[i];
      if (p.count.is_one() && rule.kind == ShapeRule::Kind::reduce) {
        // The same, without building the shape for the out call of a
        // whole reduction.
        body.push_back("detail::prepare_reduce_output(kOp, " + cpp_string(n) + ", " + n + ", " +
                       cpp_string(rule.dims.param ? rule.dims.param->name.value : "dims") + ", " +
                       cpp_string(rule.tensors[0]->name.value) + ", " +
                       rule.tensors[0]->name.value + ", " + operand_cpp(rule.dims, false, true) +
                       ", " + operand_cpp(rule.keep_dims, true, false) + ", " +
                       dtype_rule_cpp(a_.dtype_rules[i]) + ");");
        continue;
      }
      if (p.count.is_one() && rule.kind == ShapeRule::Kind::scalar) {
        body.push_back("detail::prepare_scalar_output(kOp, " + cpp_string(n) + ", " + n + ", " +
                       dtype_rule_cpp(a_.dtype_rules[i]) + ");");
        continue;
      }
      if (p.count.is_one()) {
        body.push_back("detail::prepare_output(kOp, " + cpp_string(n) + ", " + n + ", " +
                       shape_cpp(i) + ", " + dtype_rule_cpp(a_.dtype_rules[i]) + ");");
        continue;
      }
      // A custom shape function gives the shapes; another rule, n copies.
      const std::string shapes =
          a_.shapes[i].kind == ShapeRule::Kind::custom
              ? shape_cpp(i)
              : "std::vector<Shape>(" + std::to_string(p.count.min) + ", " + shape_cpp(i) + ")";
      body.push_back("detail::prepare_outputs(kOp, " + cpp_string(n) + ", " + n + ", " + shapes +
                     ", " + dtype_rule_cpp(a_.dtype_rules[i]) + ", " +
                     std::to_string(p.count.min) + ", " + std::to_string(p.count.max) + ");");
    }
  }

  void dispatch(std::vector<std::string>& body) const {
    if (op_.kind == OpKind::custom) {
      if (a_.dispatch_input != nullptr) {
        body.push_back("detail::require_supported(kOp, " + tensor_ref(*a_.dispatch_input) +
                       ".dtype(), {" + supported_list() + "});");
      } else if (!op_.outputs.empty()) {
        body.push_back("detail::require_supported(kOp, " + dtype_rule_cpp(a_.dtype_rules[0]) +
                       ", {" + supported_list() + "});");
      }
      prepare_outputs(body);
      std::string args;
      for (const Param& p : op_.inputs) args += (args.empty() ? "" : ", ") + p.name.value;
      for (const Param& p : op_.args) args += (args.empty() ? "" : ", ") + p.name.value;
      for (const LocatedString& c : op_.configs) args += (args.empty() ? "" : ", ") + config_param_name(c.value);
      for (const Param& p : op_.outputs) {
        args += (args.empty() ? "" : ", ") + p.name.value + (p.count.is_one() ? "" : ".tensors()");
      }
      body.push_back("kernel_table::" + op_.cpp_name + "(" + args + ");");
      return;
    }
    // Pointwise and reduction: choose the compute dtype, cast or check the
    // inputs, then one kernel call per dtype.
    direct_call(body);
    std::vector<std::string> operands;  // the tensors handed to the driver
    const DTypeRule& rule = a_.dtype_rules[0];
    std::vector<const Param*> classed;  // inputs whose dtype follows the compute dtype
    for (const Param& p : op_.inputs) {
      if (!is_fixed_dtype(p.type.value)) classed.push_back(&p);
    }
    const bool promote = op_.kind == OpKind::pointwise && rule.kind == DTypeRule::Kind::promote;
    if (promote) {
      body.push_back("const DType dtype = " + dtype_rule_cpp(rule) + ";");
    } else {
      body.push_back("const DType dtype = " + a_.dispatch_input->name.value + ".dtype();");
      if (classed.size() > 1) {
        std::string groups;
        for (const Param* p : classed) {
          groups += (groups.empty() ? "" : ", ") + std::string("{") + cpp_string(p->name.value) + ", " + p->name.value + "}";
        }
        body.push_back("detail::require_same_dtype(kOp, {" + groups + "});");
      }
    }
    body.push_back("detail::require_supported(kOp, dtype, {" + supported_list() + "});");
    prepare_outputs(body);
    for (const Param& p : op_.inputs) {
      if (promote && !is_fixed_dtype(p.type.value)) {
        // A reference, not a copy: no reference-count round trip when the
        // input already has the dtype (the common case), and a slot for the
        // converted copy that costs nothing until used (a null Tensor would
        // zero its inline shape on every call).
        body.push_back("detail::CastSlot " + p.name.value + "_tmp;");
        body.push_back("const Tensor& " + p.name.value + "_cast = detail::cast_ref(" +
                       p.name.value + ", dtype, " + p.name.value + "_tmp);");
        operands.push_back(p.name.value + "_cast");
      } else {
        operands.push_back(p.name.value);
      }
    }
    body.push_back("switch (dtype) {");
    for (const std::string& d : a_.dtypes) {
      body.push_back("  case " + dtype_enum(d) + ":");
      body.push_back("    " + kernel_call(d, operands));
      body.push_back("    break;");
    }
    body.push_back("  default:");
    body.push_back("    break;  // rejected by require_supported above");
    body.push_back("}");
  }

  // The driver call of dtype `d`'s kernel on `operands`.
  std::string kernel_call(const std::string& d, const std::vector<std::string>& operands) const {
    std::string call;
    if (op_.kind == OpKind::reduction) {
      call = "detail::reduce(";
    } else {
      call = op_.inputs.size() == 1   ? "detail::unary("
             : op_.inputs.size() == 2 ? "detail::binary("
                                      : "detail::ternary(";
    }
    for (const std::string& o : operands) call += o + ", ";
    if (op_.kind == OpKind::reduction) {
      call += operand_cpp(a_.shapes[0].dims, false, true) + ", ";
    }
    call += op_.outputs[0].name.value + ", kernel_table::" + kernel_const(d);
    for (const Param* p : kernel_args()) call += ", " + p->name.value;
    return call + ");";
  }

  // The out call of a pointwise op whose inputs all have out's dtype and
  // shape, the usual call in a loop over preallocated tensors: the dtype
  // rule, the output preparation and the casts below would all be no-ops,
  // so go straight to the kernel (a third of a small call; with one input
  // the general path is already as short). The same for a call without an
  // out tensor whose inputs agree in dtype and shape (detail::fresh_output),
  // once the dtype is known to be one the op keeps: allocate the output as
  // the general path would, then the kernel. Only where that holds by
  // construction: one output of broadcast shape (or an input's shape,
  // which matches_output then checks too), every input a single required
  // tensor of a dtype class, and per dtype d only when the output rule
  // maps inputs of dtype d to d (not a fixed bool output, not to_float of
  // an int, not a dtype from an arg). Any other call, or an unsupported
  // dtype, takes the general path below, which says what is wrong.
  void direct_call(std::vector<std::string>& body) const {
    if (op_.kind != OpKind::pointwise || op_.inputs.size() < 2 || op_.outputs.size() != 1 ||
        !op_.outputs[0].count.is_one() ||
        (a_.shapes[0].kind != ShapeRule::Kind::broadcast && a_.shapes[0].kind != ShapeRule::Kind::same)) {
      return;
    }
    for (const Param& p : op_.inputs) {
      if (!p.count.is_one() || is_optional(p) || is_fixed_dtype(p.type.value)) return;
    }
    const DTypeRule& rule = a_.dtype_rules[0];
    auto keeps = [&](const std::string& d) {
      switch (rule.kind) {
        case DTypeRule::Kind::same:
        case DTypeRule::Kind::promote:
          return true;
        case DTypeRule::Kind::to_float:
          return d == "float32" || d == "float64";
        case DTypeRule::Kind::fixed:
          return d == rule.fixed;
        case DTypeRule::Kind::from:
          return false;
      }
      return false;
    };
    std::vector<std::string> cases;
    std::vector<std::string> operands;
    for (const Param& p : op_.inputs) operands.push_back(p.name.value);
    const std::string& out = op_.outputs[0].name.value;
    const std::string& first = op_.inputs[0].name.value;
    for (const std::string& d : a_.dtypes) {
      if (!keeps(d)) continue;
      cases.push_back("    case " + dtype_enum(d) + ":");
      cases.push_back("      if (!" + out + ".defined()) detail::assign_empty(" + out + ", " +
                      first + ".shape(), " + dtype_enum(d) + ");");
      cases.push_back("      " + kernel_call(d, operands));
      cases.push_back("      return;");
    }
    if (cases.empty()) return;
    std::string inputs;
    for (const Param& p : op_.inputs) inputs += ", " + p.name.value;
    // One line where it fits the house style's 100 columns (the body is
    // indented by 2), else broken after the ||.
    const std::string matches = "detail::matches_output(" + out + inputs + ")";
    const std::string fresh = "detail::fresh_output(" + out + inputs + ")";
    if (2 + 4 + matches.size() + 4 + fresh.size() + 3 <= 100) {
      body.push_back("if (" + matches + " || " + fresh + ") {");
    } else {
      body.push_back("if (" + matches + " ||");
      body.push_back("    " + fresh + ") {");
    }
    body.push_back("  switch (" + first + ".dtype()) {");
    body.insert(body.end(), cases.begin(), cases.end());
    body.push_back("    default:");
    body.push_back("      break;  // the general path below rejects it");
    body.push_back("  }");
    body.push_back("}");
  }

  // ----- overloads

  std::string default_expr(const Param& p) const {
    if (p.kind == ParamKind::input) return "Tensor()";
    if (p.default_value) {
      const std::string lit = cpp_literal(*p.default_value, p, enum_of(p));
      if (!p.count.is_one()) return arg_cpp_type(p) + "(" + lit + ")";
      return lit;
    }
    for (const auto& [param, expr] : a_.default_from) {
      if (param != &p) continue;
      if (expr->kind == ExprKind::method && expr->text == "shape") {
        return expr->args[0]->text + ".shape().dims()";
      }
      return to_cpp(*expr, ctx_);
    }
    return "{}";
  }

  /// Declarations of the locals that stand for the args an overload does
  /// not take: their defaults, in spec order (a default_from may use an
  /// earlier one).
  std::vector<std::string> default_locals(const Overload& o) const {
    std::vector<std::string> out;
    for (const Param& p : op_.args) {
      if (std::find(o.params.begin(), o.params.end(), &p) != o.params.end()) continue;
      const std::string type = arg_cpp_type(p);
      const std::string& n = p.name.value;
      if (p.default_value && !p.count.is_one()) {
        if (p.default_value->items.empty()) {
          out.push_back("const " + type + " " + n + ";");
        } else {
          out.push_back(default_array(p, type, enum_of(p)));
          out.push_back("const " + type + " " + n + "(" + n + "_default);");
        }
      } else {
        out.push_back("const " + type + " " + n + " = " + default_expr(p) + ";");
      }
    }
    return out;
  }

  std::string call_impl(const Overload& o, const std::vector<std::string>& outs) const {
    std::string args;
    auto add = [&](const std::string& x) { args += (args.empty() ? "" : ", ") + x; };
    for (const auto* list : {&op_.inputs, &op_.args}) {
      for (const Param& p : *list) {
        const bool given = std::find(o.params.begin(), o.params.end(), &p) != o.params.end() ||
                           (o.inplace && p.name.value == op_.inplace->input.value);
        // Missing args are locals (default_locals); missing inputs are null.
        add(given || p.kind == ParamKind::arg ? p.name.value : default_expr(p));
      }
    }
    for (const LocatedString& c : op_.configs) {
      const bool given = std::find(o.configs.begin(), o.configs.end(), c.value) != o.configs.end();
      add(given ? config_param_name(c.value) : c.value + "{}");
    }
    for (const std::string& x : outs) add(x);
    return "impl::" + op_.cpp_name + "(" + args + ");";
  }

  std::string definition(const Overload& o) const {
    std::string s = overload_declaration(ns_, a_, o, false) + " {\n";
    const std::vector<std::string> locals = default_locals(o);
    bool kop = false;
    for (const std::string& l : locals) kop |= l.find("kOp") != std::string::npos;
    if (kop) s += "  constexpr const char* kOp = " + cpp_string(qualified(ns_, op_)) + ";\n";
    for (const std::string& l : locals) s += "  " + l + "\n";
    std::vector<std::string> outs;
    if (o.inplace) {
      const std::string& x = op_.inplace->input.value;
      for (const Param& p : op_.outputs) outs.push_back(p.name.value == op_.inplace->output.value ? x : p.name.value);
      s += "  " + call_impl(o, outs) + "\n  return " + x + ";\n}\n";
      return s;
    }
    // A counted output reaches the implementation as an OutputList over
    // the caller's span (out overloads) or over the vector returned.
    auto out_arg = [](const Param& p, const std::string& expr) {
      return p.count.is_one() ? expr : "detail::OutputList(" + expr + ")";
    };
    if (o.out) {
      for (const Param& p : op_.outputs) outs.push_back(out_arg(p, p.name.value));
      return s + "  " + call_impl(o, outs) + "\n}\n";
    }
    if (op_.outputs.size() == 1) {
      const Param& p = op_.outputs[0];
      s += "  " + return_type(op_) + " " + p.name.value + ";\n";
      s += "  " + call_impl(o, {out_arg(p, p.name.value)}) + "\n";
      return s + "  return " + p.name.value + ";\n}\n";
    }
    s += "  " + result_struct(op_) + " result;\n";
    for (const Param& p : op_.outputs) outs.push_back(out_arg(p, "result." + p.name.value));
    return s + "  " + call_impl(o, outs) + "\n  return result;\n}\n";
  }

  // Two overloads C++ cannot tell apart are a spec error.
  void check_overloads() const {
    std::map<std::string, const Overload*> seen;
    for (const Overload& o : overloads_) {
      std::vector<std::string> types;
      for (const Param* p : o.params) types.push_back(p->kind == ParamKind::input ? param_type(*p, nullptr) : arg_cpp_type(*p));
      for (const std::string& c : o.configs) types.push_back(c);
      if (o.out) {
        for (const Param& p : op_.outputs) {
          types.push_back(p.count.is_one() ? "const Tensor&" : "std::span<Tensor>");
        }
      }
      std::size_t first = types.size();
      if (o.defaults) first = first_defaulted(o.params);
      for (std::size_t n = first; n <= types.size(); ++n) {
        std::string key = (o.inplace ? "inplace(" : "(");
        for (std::size_t i = 0; i < n; ++i) {
          if (i > 0) key += ',';
          key += types[i] == "Tensor&" ? "const Tensor&" : types[i];
        }
        key += ")";
        auto [it, fresh] = seen.emplace(key, &o);
        if (!fresh && it->second != &o) {
          diags_.error(Diag::overload_clash, o.loc.known() ? o.loc : op_.name_loc,
                       "two overloads of '" + op_.name + "' take the same C++ parameters " + key +
                           "; C++ cannot tell them apart");
          if (it->second->loc.known()) diags_.note(it->second->loc, "the other overload");
        }
      }
    }
  }

  // ----- docs

  std::string input_dtypes(const Param& p) const {
    if (is_fixed_dtype(p.type.value)) return p.type.value;
    std::vector<std::string> ds;
    for (std::string_view d : kDTypeNames) {
      const std::string dd(d);
      const bool by_type = p.type.value == "any" ||
                           (p.type.value == "numeric" && d != "bool") ||
                           (p.type.value == "float" && (d == "float32" || d == "float64")) ||
                           (p.type.value == "int" && (d == "int32" || d == "int64"));
      const bool by_kernel = &p != a_.dispatch_input ||
                             std::find(a_.dtypes.begin(), a_.dtypes.end(), dd) != a_.dtypes.end();
      if (by_type && by_kernel) ds.push_back(dd);
    }
    return or_list(ds);
  }

  std::string param_doc(const Param& p) const {
    std::string s = p.doc ? trim_text(expand_doc_tokens(p.doc->text, ns_, op_)) : std::string();
    if (p.kind == ParamKind::input) {
      s = with_note(s, input_dtypes(p) + (p.count.is_one() ? "" : "; " + count_phrase(p.count, "tensor")));
      if (p.optional && p.optional->value) s += " Optional: pass Tensor() to omit.";
      if (p.default_from) s += " Defaults to " + p.default_from->text + ".";
      return s;
    }
    if (!p.count.is_one()) s = with_note(s, count_phrase(p.count, "value"));
    if (const EnumInfo* e = enum_of(p)) {
      std::vector<std::string> vs;
      for (const std::string& v : e->values) vs.push_back("\"" + v + "\"");
      s += " One of " + or_list(vs) + ".";
    }
    if (p.default_value) s += " Default " + doc_literal(*p.default_value) + ".";
    if (p.default_from) s += " Default: " + p.default_from->text + ".";
    return s;
  }

  std::vector<std::string> throws_items() const {
    std::vector<std::string> items;
    for (const Param& p : op_.inputs) {
      const std::string dtypes = input_dtypes(p);
      // "an int32 or int64 tensor": only the int dtype names begin with a vowel.
      const std::string what = p.type.value == "any"         ? "a tensor"
                               : dtypes.rfind("int", 0) == 0 ? "an " + dtypes + " tensor"
                                                             : "a " + dtypes + " tensor";
      if (!p.count.is_one()) {
        items.push_back(p.name.value + " does not hold " + count_phrase(p.count, "tensor") + ", each " + what);
      } else if (p.optional && p.optional->value) {
        items.push_back(p.name.value + " is given but is not " + what);
      } else {
        items.push_back(p.name.value + " is null or not " + what);
      }
    }
    for (const Param& p : op_.args) {
      if (!p.count.is_one() && !(p.count.min == 0 && p.count.max < 0)) {
        items.push_back(p.name.value + " does not have " + count_phrase(p.count, "value"));
      }
    }
    for (const CheckedConstraint& cc : a_.constraints) {
      if (!cc.expr || cc.constraint->backend) continue;
      std::string item = to_prose(*cc.expr) + " does not hold";
      if (cc.constraint->message) item += " (" + trim_text(expand_doc_tokens(cc.constraint->message->text, ns_, op_)) + ")";
      items.push_back(item);
    }
    for (const ShapeRule& r : a_.shapes) {
      switch (r.kind) {
        case ShapeRule::Kind::broadcast:
          if (r.tensors.size() > 1) {
            std::vector<std::string> names;
            for (const Param* p : r.tensors) names.push_back(p->name.value);
            items.push_back(or_list(names).replace(or_list(names).rfind(" or "), 4, " and ") +
                            " cannot be broadcast together");
          }
          break;
        case ShapeRule::Kind::reduce:
          items.push_back("a dimension in " +
                          (r.dims.param ? r.dims.param->name.value : std::string("dims")) +
                          " is out of range or repeated");
          break;
        case ShapeRule::Kind::matmul:
          items.push_back("the inner dimensions of " + r.tensors[0]->name.value + " and " +
                          r.tensors[1]->name.value + " differ");
          break;
        case ShapeRule::Kind::concat:
        case ShapeRule::Kind::stack:
          items.push_back("the shapes of " + r.tensors[0]->name.value + " do not fit together");
          break;
        default:
          break;
      }
    }
    for (std::size_t i = 0; i < op_.outputs.size(); ++i) {
      const Param& p = op_.outputs[i];
      if (p.count.is_one()) continue;
      if (a_.shapes[i].kind == ShapeRule::Kind::custom && p.count.min != p.count.max) {
        items.push_back(op_.kernel + "Shape gives a number of " + p.name.value +
                        " tensors its count (" + p.count.text + ") does not allow");
      }
      if (op_.out_variant) {
        items.push_back("(out overloads) " + p.name.value + " does not hold one tensor per shape");
      }
    }
    if (a_.dispatch_input != nullptr && !is_fixed_dtype(a_.dispatch_input->type.value) &&
        a_.dtypes.size() < std::max<std::size_t>(1, count_in_class(a_.dispatch_input->type.value))) {
      items.push_back("the kernels do not implement the dtype (" + or_list(a_.dtypes) + " only)");
    }
    return items;
  }

  std::string shape_doc(std::size_t i) const {
    const ShapeRule& r = a_.shapes[i];
    switch (r.kind) {
      case ShapeRule::Kind::same:
        return "the shape of " + r.tensors[0]->name.value;
      case ShapeRule::Kind::broadcast: {
        if (r.tensors.size() == 1) return "the shape of " + r.tensors[0]->name.value;
        std::vector<std::string> names;
        for (const Param* p : r.tensors) names.push_back(p->name.value);
        std::string l = or_list(names);
        return "the broadcast shape of " + l.replace(l.rfind(" or "), 4, " and ");
      }
      case ShapeRule::Kind::scalar:
        return "a scalar (rank 0)";
      case ShapeRule::Kind::custom:
        return op_.outputs[i].count.is_one() ? "computed by " + op_.kernel + "Shape"
                                             : "one per tensor, computed by " + op_.kernel + "Shape";
      default:
        return r.source;
    }
  }

  std::string dtype_doc(std::size_t i) const {
    const DTypeRule& r = a_.dtype_rules[i];
    switch (r.kind) {
      case DTypeRule::Kind::same:
        return "the dtype of " + r.tensors[0]->name.value;
      case DTypeRule::Kind::promote: {
        std::vector<std::string> names;
        for (const Param* p : r.tensors) names.push_back(p->name.value);
        std::string l = or_list(names);
        if (names.size() > 1) l.replace(l.rfind(" or "), 4, " and ");
        return "the promoted dtype of " + l;
      }
      case DTypeRule::Kind::to_float:
        return "the dtype of " + r.tensors[0]->name.value + " if float, else float32";
      case DTypeRule::Kind::fixed:
        return r.fixed;
      case DTypeRule::Kind::from:
        return "the dtype given by " + r.arg->name.value;
    }
    return "";
  }

  std::vector<std::string> main_doc() const {
    std::vector<std::string> out;
    auto para = [&](const std::string& text) {
      if (!out.empty()) out.push_back("");
      for (const std::string& l : doc_comment_lines(text)) out.push_back(l);
    };
    if (op_.summary) para(trim_text(expand_doc_tokens(op_.summary->text, ns_, op_)));
    for (const LocatedText& d : op_.doc) para(trim_text(expand_doc_tokens(d.text, ns_, op_)));
    if (a_.formula) para("Element formula: `" + to_source(*a_.formula) + "`.");
    out.push_back("");
    std::size_t width = 0;
    for (const auto* list : {&op_.inputs, &op_.args}) {
      for (const Param& p : *list) width = std::max(width, p.name.value.size());
    }
    for (const LocatedString& c : op_.configs) width = std::max(width, config_param_name(c.value).size());
    for (const auto* list : {&op_.inputs, &op_.args}) {
      for (const Param& p : *list) {
        std::string name = p.name.value;
        name.resize(width, ' ');
        out.push_back("@param " + name + "  " + param_doc(p));
      }
    }
    for (const LocatedString& c : op_.configs) {
      std::string name = config_param_name(c.value);
      name.resize(width, ' ');
      out.push_back("@param " + name + "  Settings (" + c.value + "); its defaults when omitted.");
    }
    for (std::size_t i = 0; i < op_.outputs.size(); ++i) {
      const Param& p = op_.outputs[i];
      std::string s = "@return " + (op_.outputs.size() > 1 ? "." + p.name.value + " " : p.name.value + ": ");
      if (p.doc) s += trim_text(expand_doc_tokens(p.doc->text, ns_, op_)) + " ";
      if (!p.count.is_one()) s += capitalized(count_phrase(p.count, "tensor")) + ". ";
      s += "Shape: " + shape_doc(i) + "; dtype: " + dtype_doc(i) + ".";
      out.push_back(s);
    }
    out.push_back("@throws opgen::Error when");
    for (const std::string& t : throws_items()) out.push_back("  - " + t + ";");
    if (out.back().back() == ';') out.back().back() = '.';
    return out;
  }

  std::string comment(const std::vector<std::string>& lines) const {
    std::string s;
    // A line may hold a parameter's multi-line doc: each of its lines is
    // a comment line of its own, or the rest would be code.
    for (const std::string& line : lines) {
      if (line.empty()) s += "///\n";
      for (const std::string& l : line.empty() ? std::vector<std::string>{} : doc_comment_lines(line)) {
        if (l.empty()) s += "///\n";
        if (l.empty()) continue;
        for (const std::string& piece : wrap_doc_line(l, kHeaderColumns - 4))
          s += "/// " + piece + "\n";
      }
    }
    return s;
  }

  std::string declarations() const {
    std::string s;
    if (op_.outputs.size() > 1) {
      s += "/// The outputs of " + qualified(ns_, op_) + ".\n";
      s += "struct " + result_struct(op_) + " {\n";
      for (const Param& p : op_.outputs) {
        if (p.doc) {
          for (const std::string& l : doc_comment_lines(trim_text(p.doc->text))) {
            for (const std::string& piece : wrap_doc_line(l, kHeaderColumns - 6))
              s += "  /// " + piece + "\n";
          }
        }
        s += std::string(p.count.is_one() ? "  Tensor " : "  std::vector<Tensor> ") + p.name.value + ";\n";
      }
      s += "};\n\n";
    }
    bool first = true;
    for (const Overload& o : overloads_) {
      if (first) {
        s += comment(main_doc());
      } else if (!o.doc.empty()) {
        s += comment(doc_comment_lines(trim_text(expand_doc_tokens(o.doc, ns_, op_))));
      } else if (o.inplace) {
        s += "/// In place: writes the result into " + op_.inplace->input.value +
             " (which must have the result's shape and dtype) and returns it.\n";
      } else if (o.out) {
        std::vector<std::string> names;
        for (const Param& p : op_.outputs) names.push_back(p.name.value);
        s += "/// Writes the result into " + or_list(names) +
             ": allocated when null, otherwise its shape and dtype must match.\n";
      } else {
        std::vector<std::string> omitted;
        for (const auto* list : {&op_.inputs, &op_.args}) {
          for (const Param& p : *list) {
            if (std::find(o.params.begin(), o.params.end(), &p) == o.params.end()) omitted.push_back(p.name.value);
          }
        }
        s += "/// Same, with the default " + or_list(omitted) + ".\n";
      }
      s += wrap_declaration(overload_declaration(ns_, a_, o, true) + ";", kHeaderColumns) + "\n";
      first = false;
    }
    return s;
  }

  std::string definitions() const {
    std::string s;
    for (const Overload& o : overloads_) {
      if (!s.empty()) s += '\n';
      s += definition(o);
    }
    return s;
  }

  // ----- call by name

  std::string invoker() const {
    std::vector<std::string> body;
    body.push_back("constexpr const char* kOp = " + cpp_string(qualified(ns_, op_)) + ";");
    std::string slots, names;
    for (const Param& p : op_.inputs) {
      std::int64_t lo = p.count.min, hi = p.count.max;
      if (is_optional(p)) lo = 0;
      slots += (slots.empty() ? "" : ", ") + std::string("{") + cpp_string(p.name.value) + ", " +
               std::to_string(lo) + ", " + std::to_string(hi) + "}";
    }
    for (const Param& p : op_.args) names += (names.empty() ? "" : ", ") + cpp_string(p.name.value);
    for (const LocatedString& c : op_.configs) {
      for (const ConfigDef* def : ns_.configs) {
        if (def->name.value != c.value) continue;
        for (const Param& f : def->args) names += (names.empty() ? "" : ", ") + cpp_string(c.value + "." + f.name.value);
      }
    }
    body.push_back("const detail::CallArgs call(kOp, inputs, args, {" + slots + "}, {" + names + "});");
    for (std::size_t i = 0; i < op_.inputs.size(); ++i) {
      const Param& p = op_.inputs[i];
      body.push_back((p.count.is_one() ? "const Tensor& " : "const Span<Tensor> ") + p.name.value +
                     " = call.tensor" + (p.count.is_one() ? "" : "s") + "(" + std::to_string(i) + ");");
    }
    for (const Param& p : op_.args) body.push_back(invoker_arg(p));
    for (const LocatedString& c : op_.configs) {
      const std::string v = config_param_name(c.value);
      body.push_back(c.value + " " + v + ";");
      for (const ConfigDef* def : ns_.configs) {
        if (def->name.value != c.value) continue;
        for (const Param& f : def->args) {
          const std::string key = cpp_string(c.value + "." + f.name.value);
          body.push_back("if (call.has(" + key + ")) " + v + "." + f.name.value + " = " +
                         config_getter(c.value, f, key) + ";");
        }
      }
    }
    std::string args;
    for (const auto* list : {&op_.inputs, &op_.args}) {
      for (const Param& p : *list) args += (args.empty() ? "" : ", ") + p.name.value;
    }
    for (const LocatedString& c : op_.configs) args += (args.empty() ? "" : ", ") + config_param_name(c.value);
    if (!any_counted_output(op_)) {
      body.push_back("std::vector<Tensor> out(" + std::to_string(op_.outputs.size()) + ");");
      for (std::size_t i = 0; i < op_.outputs.size(); ++i) {
        args += (args.empty() ? "" : ", ") + std::string("out[") + std::to_string(i) + "]";
      }
      body.push_back("impl::" + op_.cpp_name + "(" + args + ");");
      body.push_back("return out;");
    } else {
      // The outputs flattened in spec order, a counted one's tensors where
      // it stands.
      for (const Param& p : op_.outputs) {
        const std::string& n = p.name.value;
        body.push_back((p.count.is_one() ? "Tensor " : "std::vector<Tensor> ") + n + ";");
        args += (args.empty() ? "" : ", ") + (p.count.is_one() ? n : "detail::OutputList(" + n + ")");
      }
      body.push_back("impl::" + op_.cpp_name + "(" + args + ");");
      body.push_back("std::vector<Tensor> out;");
      for (const Param& p : op_.outputs) {
        const std::string& n = p.name.value;
        body.push_back(p.count.is_one() ? "out.push_back(" + n + ");"
                                        : "out.insert(out.end(), " + n + ".begin(), " + n + ".end());");
      }
      body.push_back("return out;");
    }
    std::string s = "std::vector<Tensor> " + op_.cpp_name +
                    "(std::span<const Tensor> inputs, const Args& args) {\n";
    for (const std::string& l : body) s += "  " + l + "\n";
    return s + "}\n";
  }

  std::string getter(const Param& p) const {
    const std::string& t = p.type.value;
    const std::string key = cpp_string(p.name.value);
    const bool one = p.count.is_one();
    if (t == "int") return one ? "call.get_int(" + key + ")" : "call.get_ints(" + key + ")";
    if (t == "float") return one ? "call.get_float(" + key + ")" : "call.get_floats(" + key + ")";
    if (t == "bool") return one ? "call.get_bool(" + key + ")" : "call.get_bools(" + key + ")";
    if (t == "dtype") return one ? "call.get_dtype(" + key + ")" : "call.get_dtypes(" + key + ")";
    if (t == "string") return one ? "call.get_string(" + key + ")" : "call.get_strings(" + key + ")";
    if (const EnumInfo* e = enum_of(p)) return enum_getter(*e, key, one);
    return "{}";
  }

  // An enum arg or config field by value name(s).
  static std::string enum_getter(const EnumInfo& e, const std::string& key, bool one) {
    std::string values;
    for (const std::string& v : e.values) values += (values.empty() ? "" : ", ") + cpp_string(v);
    if (!one) return "call.get_enums<" + e.cpp_type + ">(" + key + ", {" + values + "})";
    return "static_cast<" + e.cpp_type + ">(call.get_enum(" + key + ", {" + values + "}))";
  }

  // The enum of a config's field, as the op's scope knows it.
  const EnumInfo* config_field_enum(const std::string& config, const Param& f) const {
    for (const ConfigScope& cs : a_.scope->configs) {
      if (cs.name != config) continue;
      for (const Symbol& field : cs.fields) {
        if (field.name == f.name.value) return field.type.enum_info;
      }
    }
    return nullptr;
  }

  std::string config_getter(const std::string& config, const Param& f,
                            const std::string& key) const {
    const std::string& t = f.type.value;
    const bool one = f.count.is_one();
    // Counted fields are vectors; the getters return spans.
    auto vec = [&](const std::string& get, const std::string& type) {
      return "[&] { const auto v = " + get + "; return std::vector<" + type +
             ">(v.begin(), v.end()); }()";
    };
    auto get = [&](const std::string& name) { return "call." + name + "(" + key + ")"; };
    if (t == "int") return one ? get("get_int") : vec(get("get_ints"), "std::int64_t");
    if (t == "float") return one ? get("get_float") : vec(get("get_floats"), "double");
    if (t == "bool") return one ? get("get_bool") : vec(get("get_bools"), "bool");
    if (t == "dtype") return one ? get("get_dtype") : vec(get("get_dtypes"), "DType");
    if (t == "string") return one ? get("get_string") : vec(get("get_strings"), "std::string");
    if (const EnumInfo* e = config_field_enum(config, f)) {
      return one ? enum_getter(*e, key, true) : vec(enum_getter(*e, key, false), e->cpp_type);
    }
    return "{}";
  }

  std::string invoker_arg(const Param& p) const {
    const std::string type = arg_cpp_type(p);
    const std::string& n = p.name.value;
    std::string value = getter(p);
    if (p.type.value == "string" && p.count.is_one()) {
      // Keep the string alive for the string_view passed to the op.
      const std::string fallback = p.default_value ? cpp_string(p.default_value->string_value) : "\"\"";
      if (is_optional(p) && p.default_value) {
        return "const std::string " + n + "_value = call.has(" + cpp_string(n) + ") ? " + value +
               " : std::string(" + fallback + ");\n  const std::string_view " + n + " = " + n + "_value;";
      }
      return "const std::string " + n + "_value = " + value + ";\n  const std::string_view " + n +
             " = " + n + "_value;";
    }
    if (!is_optional(p)) return "const " + type + " " + n + " = " + value + ";";
    std::string fallback;
    if (p.default_value && !p.count.is_one()) {
      // A literal array needs storage that outlives this statement.
      if (p.default_value->items.empty()) {
        fallback = type + "()";
      } else {
        const std::string elem = type.substr(5, type.size() - 6);
        return default_array(p, type, enum_of(p)) + "\n  const " + type + " " + n + " = call.has(" +
               cpp_string(n) + ") ? " + value + " : " + type + "(std::span<const " + elem + ">(" +
               n + "_default));";
      }
    } else {
      fallback = default_expr(p);
    }
    return "const " + type + " " + n + " = call.has(" + cpp_string(n) + ") ? " + value + " : " +
           fallback + ";";
  }

  std::string registry_entry() const {
    std::vector<std::string> l;
    l.push_back("OpInfo& op = ns.ops.emplace_back();");
    l.push_back("op.name = " + cpp_string(qualified(ns_, op_)) + ";");
    if (!op_.aliases.empty()) {
      std::string s;
      for (const LocatedString& al : op_.aliases) {
        const std::string q = al.value.find('.') == std::string::npos ? ns_.name + "." + al.value : al.value;
        s += (s.empty() ? "" : ", ") + cpp_string(q);
      }
      l.push_back("op.aliases = {" + s + "};");
    }
    l.push_back("op.summary = " + cpp_string(op_.summary ? trim_text(expand_doc_tokens(op_.summary->text, ns_, op_)) : std::string()) + ";");
    std::string doc;
    for (const LocatedText& d : op_.doc) {
      doc += (doc.empty() ? "" : "\n\n") + trim_text(expand_doc_tokens(d.text, ns_, op_));
    }
    if (!doc.empty()) l.push_back("op.doc = " + cpp_string(doc) + ";");
    static constexpr const char* kKindNames[] = {"pointwise", "reduction", "custom"};
    l.push_back("op.kind = " + cpp_string(kKindNames[static_cast<int>(op_.kind)]) + ";");
    l.push_back("op.cpp_name = " + cpp_string(ns_.cpp_namespace + "::" + op_.cpp_name) + ";");
    l.push_back("op.source = " + cpp_string(ns_.source + ":" + std::to_string(op_.loc.line)) + ";");
    l.push_back("op.params = {");
    auto param_info = [&](const Param& p, const char* kind) {
      std::string values;
      if (const EnumInfo* e = enum_of(p)) {
        for (const std::string& v : e->values) values += (values.empty() ? "" : ", ") + cpp_string(v);
      }
      std::string def;
      if (p.default_value) def = doc_literal(*p.default_value);
      if (p.default_from) def = p.default_from->text;
      const std::string doc = p.doc ? trim_text(expand_doc_tokens(p.doc->text, ns_, op_)) : std::string();
      l.push_back("    {" + cpp_string(p.name.value) + ", ParamKind::" + kind + ", " +
                  cpp_string(p.type.value) + ", " + cpp_string(p.count.text) + ", " +
                  (is_optional(p) ? "true" : "false") + ", " + cpp_string(def) + ", {" + values +
                  "}, " + cpp_string(doc) + "},");
    };
    for (const Param& p : op_.inputs) param_info(p, "input");
    for (const Param& p : op_.args) param_info(p, "arg");
    for (const Param& p : op_.outputs) param_info(p, "output");
    l.push_back("};");
    std::string dts;
    for (const std::string& d : a_.dtypes) dts += (dts.empty() ? "" : ", ") + dtype_enum(d);
    l.push_back("op.dtypes = {" + dts + "};");
    l.push_back("op.invoke = &by_name::" + op_.cpp_name + ";");
    std::string s = "  {\n";
    for (const std::string& x : l) s += "    " + x + "\n";
    return s + "  }\n";
  }

  const Namespace& ns_;
  const OpAnalysis& a_;
  const Op& op_;
  Diagnostics& diags_;
  CppContext ctx_;
  std::vector<Overload> overloads_;
};

}  // namespace

std::vector<Overload> overloads_of(const OpAnalysis& a) {
  const Op& op = *a.op;
  std::vector<Overload> out;
  std::vector<const Param*> all;
  for (const auto* list : {&op.inputs, &op.args}) {
    for (const Param& p : *list) all.push_back(&p);
  }
  std::vector<std::string> configs;
  for (const LocatedString& c : op.configs) configs.push_back(c.value);

  bool has_out_signature = false;
  if (!op.signatures.empty()) {
    for (const Signature& s : op.signatures) {
      Overload o;
      o.loc = s.loc;
      if (s.doc) o.doc = s.doc->text;
      for (const LocatedString& n : s.params) {
        const Param* p = nullptr;
        for (const Param* q : all) {
          if (q->name.value == n.value) p = q;
        }
        for (const Param& q : op.outputs) {
          if (q.name.value == n.value) o.out = true;
        }
        if (p != nullptr) o.params.push_back(p);
        if (std::find(configs.begin(), configs.end(), n.value) != configs.end()) {
          o.configs.push_back(n.value);
        }
      }
      has_out_signature |= o.out;
      out.push_back(std::move(o));
    }
  } else {
    // Default: all parameters, and only the required ones. One function
    // with C++ default arguments when the optional ones are trailing and
    // their defaults can be written as default arguments.
    std::size_t last_required = 0;
    bool defaults_ok = true;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (!is_optional(*all[i])) last_required = i + 1;
      if (all[i]->kind == ParamKind::arg && all[i]->default_from) defaults_ok = false;
    }
    for (std::size_t i = 0; i < last_required; ++i) {
      if (is_optional(*all[i])) defaults_ok = false;
    }
    Overload full;
    full.params = all;
    full.configs = configs;
    full.loc = op.name_loc;
    const bool any_optional = last_required < all.size() || !configs.empty();
    if (defaults_ok) {
      full.defaults = any_optional;
      out.push_back(full);
    } else {
      out.push_back(full);
      Overload required;
      required.loc = op.name_loc;
      for (const Param* p : all) {
        if (!is_optional(*p)) required.params.push_back(p);
      }
      out.push_back(required);
    }
  }
  if (op.out_variant && !has_out_signature) {
    Overload o;
    o.params = all;
    o.configs = configs;
    o.out = true;
    o.loc = op.name_loc;
    out.push_back(o);
  }
  if (op.inplace) {
    Overload o;
    o.inplace = true;
    o.defaults = true;
    o.loc = op.inplace->loc;
    for (const Param* p : all) {
      if (p->name.value != op.inplace->input.value) o.params.push_back(p);
    }
    o.configs = configs;
    out.push_back(o);
  }
  return out;
}

std::string overload_declaration(const Namespace& ns, const OpAnalysis& a, const Overload& o,
                                 bool with_defaults) {
  (void)ns;
  const Op& op = *a.op;
  std::string params;
  auto add = [&](const std::string& x) { params += (params.empty() ? "" : ", ") + x; };
  if (o.inplace) add("Tensor& " + op.inplace->input.value);
  // Default arguments only on the trailing run of optional parameters.
  std::size_t first_default = o.params.size();
  if (o.defaults && with_defaults) first_default = first_defaulted(o.params);
  for (std::size_t i = 0; i < o.params.size(); ++i) {
    const Param& p = *o.params[i];
    std::string decl = param_type(p, a.enum_of(p)) + " " + p.name.value;
    if (i >= first_default) {
      if (p.kind == ParamKind::input) {
        decl += " = Tensor()";
      } else if (p.default_value) {
        decl += " = " + cpp_literal(*p.default_value, p, a.enum_of(p));
      }
    }
    add(decl);
  }
  for (const std::string& c : o.configs) {
    add("const " + c + "& " + config_param_name(c) + (o.defaults && with_defaults ? " = {}" : ""));
  }
  if (o.out) {
    for (const Param& p : op.outputs) add(param_type(p, nullptr) + " " + p.name.value);
  }
  std::string ret = o.out ? "void" : o.inplace ? "Tensor&" : return_type(op);
  const std::string name = o.inplace ? op.cpp_name + "_inplace" : op.cpp_name;
  return ret + " " + name + "(" + params + ")";
}

OpDocs op_docs(const Namespace& ns, const OpAnalysis& a) {
  Diagnostics unused;  // overload clashes are reported by op_code
  return OpWriter(ns, a, unused).docs();
}

OpCode op_code(const Namespace& ns, const OpAnalysis& a, Diagnostics& diags) {
  return OpWriter(ns, a, diags).run();
}

std::vector<std::string> config_validate_lines(const CheckedNamespace& cns, std::size_t config) {
  std::vector<std::string> lines;
  const ConfigDef& c = *cns.ns->configs[config];
  const CppContext ctx{"op", ""};
  for (const Param& f : c.args) {
    if (!f.count.is_one()) {
      lines.push_back("detail::require_count(op, " + cpp_string(c.name.value + "." + f.name.value) +
                      ", " + f.name.value + ".size(), " + std::to_string(f.count.min) + ", " +
                      std::to_string(f.count.max) + ");");
    }
  }
  for (const CheckedConstraint& cc : cns.config_constraints[config]) {
    if (!cc.expr || cc.constraint->backend) continue;
    const std::string message = cc.constraint->message ? cc.constraint->message->text : to_prose(*cc.expr);
    std::string values;
    for (const ShownTerm& t : shown_terms(*cc.expr, cc.constraint->check, ctx)) {
      values += (values.empty() ? "" : ", ") + std::string("{") + cpp_string(t.source) + ", show(" + t.cpp + ")}";
    }
    lines.push_back("if (!(" + to_cpp(*cc.expr, ctx) + ")) {");
    lines.push_back("  detail::fail_check(op, " + cpp_string(c.name.value + ": " + message) + ", " +
                    cpp_string(to_source(*cc.expr)) + ", {" + values + "});");
    lines.push_back("}");
  }
  return lines;
}

std::vector<std::string> header_includes(const CheckedNamespace& cns) {
  std::set<std::string> inc = {"<cstdint>", "\"opgen/dtype.hpp\"", "\"opgen/tensor.hpp\""};
  bool counted = false, strings = false, vectors = false, views = false, spans = false;
  for (const OpAnalysis& a : cns.ops) {
    for (const auto* list : {&a.op->inputs, &a.op->args}) {
      for (const Param& p : *list) {
        counted |= !p.count.is_one();
        views |= p.type.value == "string";
        strings |= p.type.value == "string" && !p.count.is_one();  // Span<std::string>
      }
    }
    // Counted outputs: std::span<Tensor> in out overloads, std::vector<Tensor> returned.
    spans |= any_counted_output(*a.op);
    views |= !a.enums.empty();
  }
  vectors |= spans;
  for (const ConfigDef* c : cns.ns->configs) {
    for (const Param& f : c->args) {
      vectors |= !f.count.is_one();
      strings |= f.type.value == "string";
    }
  }
  views |= !cns.ns->enums.empty() || strings;
  // A namespace outside opgen's gets `using opgen::Span;` (see the header
  // template), so its header needs span.hpp even when no op takes a span.
  const std::string& cpp_ns = cns.ns->cpp_namespace;
  const bool foreign = cpp_ns != "opgen" && cpp_ns.rfind("opgen::", 0) != 0;
  if (counted || foreign) inc.insert("\"opgen/span.hpp\"");
  if (spans) inc.insert("<span>");
  if (views) inc.insert("<string_view>");
  if (strings) inc.insert("<string>");
  if (vectors) inc.insert("<vector>");
  // System headers first, then project headers, each sorted.
  std::vector<std::string> out;
  for (const std::string& s : inc) {
    if (s[0] == '<') out.push_back(s);
  }
  for (const std::string& s : inc) {
    if (s[0] != '<') out.push_back(s);
  }
  return out;
}

std::vector<std::string> source_includes(const CheckedNamespace& cns) {
  std::vector<std::string> out = {"<cstdint>", "<limits>", "<span>", "<string>", "<string_view>", "<vector>"};
  std::vector<std::string> project = {
      "\"" + cns.ns->kernel_header + "\"",   "\"opgen/detail/call.hpp\"",
      "\"opgen/detail/checks.hpp\"",         "\"opgen/detail/drivers.hpp\"",
      "\"opgen/detail/kernel_types.hpp\"",   "\"opgen/registry.hpp\""};
  std::sort(project.begin(), project.end());
  project.erase(std::unique(project.begin(), project.end()), project.end());
  out.insert(out.end(), project.begin(), project.end());
  return out;
}

std::string resolve_line_markers(const std::string& text, const std::string& file_name) {
  std::string out;
  std::size_t line = 1;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    const std::string_view l(text.data() + start, nl - start);
    if (l == kRestoreLineMarker) {
      out += "#line " + std::to_string(line + 1) + " " + cpp_string(file_name);
    } else {
      out += l;
    }
    if (nl < text.size()) out += '\n';
    ++line;
    start = nl + 1;
  }
  return out;
}

}  // namespace opgen::gen
