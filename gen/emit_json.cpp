// The describe document (docs/describe-json.md). Every object has the same
// keys whatever the spec says, in a fixed order; what a spec leaves out is
// null, so a consumer never tests for a key.
#include "emit_json.hpp"

#include <cctype>
#include <cmath>
#include <map>

#include "cpp_spelling.hpp"
#include "emit.hpp"
#include "resolve.hpp"

namespace opgen::gen {

std::unique_ptr<CheckedSpec> load_checked_spec(const std::string& spec,
                                               const LoadOptions& options) {
  auto out = std::make_unique<CheckedSpec>();
  std::optional<SpecSet> set = load_spec_set(spec, options, out->diags);
  if (!set) return out;
  out->set = std::move(*set);
  out->ns = resolve(out->set, out->diags);
  out->checked = check(out->ns, out->diags);
  // As `opgen check`: the emitters find the last problems (overloads C++
  // cannot tell apart); their files are dropped.
  if (!out->diags.has_errors()) emit(out->checked, out->diags);
  out->ok = !out->diags.has_errors();
  return out;
}

namespace {

constexpr const char* kKindNames[] = {"pointwise", "reduction", "custom"};
constexpr const char* kRoleNames[] = {"input", "arg", "output"};
constexpr const char* kShapeRuleNames[] = {"same",   "broadcast", "reduce", "matmul", "concat",
                                           "stack",  "from",      "scalar", "custom"};
constexpr const char* kDTypeRuleNames[] = {"same", "promote", "to_float", "fixed", "from"};

Json optional_string(const std::optional<std::string>& s) {
  return s ? Json(*s) : Json();
}

class Describer {
 public:
  explicit Describer(const CheckedSpec& spec) : spec_(spec), ns_(spec.ns) {
    for (const auto& f : spec.set.files) display_[f->path] = f->display_path;
  }

  Json run() {
    const SpecFile& file = *spec_.set.files.front();
    Json j = Json::object();
    j.set("name", ns_.name);
    j.set("cpp_namespace", ns_.cpp_namespace);
    j.set("source", ns_.source);
    j.set("location", location(ns_.loc));
    j.set("summary", ns_.summary ? Json(trim_text(ns_.summary->text)) : Json());
    j.set("doc", ns_.doc ? Json(trim_text(ns_.doc->text)) : Json());
    Json includes = Json::array();
    for (const LocatedString& inc : file.includes) includes.push(inc.value);
    j.set("includes", includes);
    Json files = Json::array();
    for (const auto& f : spec_.set.files) files.push(f->display_path);
    j.set("files", files);
    Json enums = Json::array();
    for (const EnumDef* e : ns_.enums) enums.push(shared_enum(*e));
    j.set("enums", enums);
    Json configs = Json::array();
    for (std::size_t i = 0; i < ns_.configs.size(); ++i) configs.push(config(i));
    j.set("configs", configs);
    Json ops = Json::array();
    for (const OpAnalysis& a : spec_.checked.ops) ops.push(op(a));
    j.set("ops", ops);
    return j;
  }

 private:
  // ----- small values

  Json location(const SourceLoc& loc) const {
    if (!loc.known()) return Json();
    Json j = Json::object();
    auto it = display_.find(loc.file);
    j.set("file", it != display_.end() ? it->second : *loc.file);
    j.set("line", loc.line);
    j.set("col", loc.col);
    return j;
  }

  static Json mixin_of(const std::string& from_mixin) {
    return from_mixin.empty() ? Json() : Json(from_mixin);
  }

  // Doc text of an op's entry, with the doc tokens replaced.
  Json op_text(const std::optional<LocatedText>& t, const Op& op) const {
    if (!t) return Json();
    return Json(trim_text(expand_doc_tokens(t->text, ns_, op)));
  }

  Json text(const std::optional<LocatedText>& t) const {
    return t ? Json(trim_text(t->text)) : Json();
  }

  // A literal's value in the type of its arg: integers written for a float
  // arg become numbers. JSON has no NaN or infinity: those are strings.
  static Json literal_value(const Literal& lit, bool as_float) {
    switch (lit.kind) {
      case Literal::Kind::int_:
        if (as_float) return Json(static_cast<double>(lit.int_value));
        return Json(lit.int_value);
      case Literal::Kind::float_:
        if (std::isnan(lit.float_value)) return Json("nan");
        if (std::isinf(lit.float_value)) return Json(lit.float_value > 0 ? "inf" : "-inf");
        return Json(lit.float_value);
      case Literal::Kind::bool_:
        return Json(lit.bool_value);
      case Literal::Kind::string:
        return Json(lit.string_value);
      case Literal::Kind::array: {
        Json a = Json::array();
        for (const Literal& item : lit.items) a.push(literal_value(item, as_float));
        return a;
      }
    }
    return Json();
  }

  Json count(const Count& c) const {
    Json j = Json::object();
    j.set("text", c.text);
    j.set("min", c.min);
    j.set("max", c.max < 0 ? Json() : Json(c.max));
    return j;
  }

  Json enum_json(const EnumInfo& e, bool shared, const std::optional<LocatedText>& doc,
                 const SourceLoc& loc) const {
    Json j = Json::object();
    j.set("name", shared ? Json(e.name) : Json());
    j.set("cpp_type", e.cpp_type);
    j.set("shared", shared);
    j.set("values", Json::strings(e.values));
    j.set("cpp_values", Json::strings(e.cpp_values));
    j.set("doc", text(doc));
    j.set("location", location(loc));
    return j;
  }

  const EnumDef* enum_def(std::string_view name) const {
    for (const EnumDef* e : ns_.enums) {
      if (e->name.value == name) return e;
    }
    return nullptr;
  }

  const EnumInfo* shared_enum_info(std::string_view name) const {
    for (const auto& e : spec_.checked.shared_enums) {
      if (e->name == name) return e.get();
    }
    return nullptr;
  }

  Json shared_enum(const EnumDef& e) const {
    const EnumInfo* info = shared_enum_info(e.name.value);
    if (info == nullptr) return Json();  // not reached: the checker made one per enum
    return enum_json(*info, true, e.doc, e.loc);
  }

  // The enum of an enum arg or config field, or null.
  Json param_enum(const Param& p, const EnumInfo* info) const {
    if (p.type.value != "enum" || info == nullptr) return Json();
    if (p.enum_name) {
      const EnumDef* def = enum_def(p.enum_name->value);
      return enum_json(*info, true, def ? def->doc : std::nullopt,
                       def ? def->loc : p.enum_name->loc);
    }
    return enum_json(*info, false, std::nullopt, p.values.empty() ? p.loc : p.values.front().loc);
  }

  static bool is_optional(const Param& p) {
    if (p.kind == ParamKind::input) {
      return (p.optional && p.optional->value) || p.default_from.has_value();
    }
    return p.default_value.has_value() || p.default_from.has_value();
  }

  // ----- rules

  static Json operand(const RuleOperand& o, bool list, bool is_bool) {
    Json j = Json::object();
    if (!o.is_literal()) {
      j.set("arg", o.param->name.value);
    } else if (is_bool) {
      j.set("value", o.bool_value);
    } else if (list) {
      Json a = Json::array();
      for (std::int64_t v : o.ints) a.push(v);
      j.set("value", a);
    } else {
      j.set("value", o.ints.empty() ? Json() : Json(o.ints.front()));
    }
    return j;
  }

  static Json tensor_names(const std::vector<const Param*>& tensors) {
    Json a = Json::array();
    for (const Param* p : tensors) a.push(p->name.value);
    return a;
  }

  Json shape_rule(const ShapeRule& r, const LocatedText& src) const {
    using K = ShapeRule::Kind;
    Json j = Json::object();
    j.set("rule", kShapeRuleNames[static_cast<int>(r.kind)]);
    j.set("source", src.text);
    j.set("normalized", r.source);
    j.set("tensors", tensor_names(r.tensors));
    Json operands = Json::object();
    switch (r.kind) {
      case K::reduce:
        operands.set("dims", operand(r.dims, true, false));
        operands.set("keep_dims", operand(r.keep_dims, false, true));
        break;
      case K::matmul:
        operands.set("trans_a", operand(r.trans_a, false, true));
        operands.set("trans_b", operand(r.trans_b, false, true));
        break;
      case K::concat:
      case K::stack:
        operands.set("dim", operand(r.dims, false, false));
        break;
      case K::from:
        operands.set("shape", operand(r.dims, true, false));
        break;
      default:
        break;
    }
    j.set("operands", operands);
    j.set("location", location(src.loc));
    return j;
  }

  Json dtype_rule(const DTypeRule& r, const LocatedText& src) const {
    Json j = Json::object();
    j.set("rule", kDTypeRuleNames[static_cast<int>(r.kind)]);
    j.set("source", src.text);
    j.set("normalized", r.source);
    j.set("tensors", tensor_names(r.tensors));
    j.set("dtype", r.kind == DTypeRule::Kind::fixed ? Json(r.fixed) : Json());
    j.set("arg", r.arg != nullptr ? Json(r.arg->name.value) : Json());
    j.set("location", location(src.loc));
    return j;
  }

  // ----- parameters

  // An op's parameter or a config's field (a = null). `index` is its
  // position among the outputs, for the rules.
  Json param(const Param& p, const OpAnalysis* a, std::size_t index, bool field,
             const EnumInfo* info, const std::string& cpp_type) const {
    const Op* op = a ? a->op : nullptr;
    Json j = Json::object();
    j.set("name", p.name.value);
    j.set("role", field ? "field" : kRoleNames[static_cast<int>(p.kind)]);
    j.set("type", p.type.value);
    j.set("cpp_type", cpp_type);
    j.set("count", count(p.count));
    j.set("optional", p.kind != ParamKind::output && is_optional(p));
    if (p.default_value) {
      Json d = Json::object();
      d.set("text", doc_literal(*p.default_value));
      d.set("value", literal_value(*p.default_value, p.type.value == "float"));
      d.set("location", location(p.default_value->loc));
      j.set("default", d);
    } else {
      j.set("default", Json());
    }
    if (p.default_from) {
      Json d = Json::object();
      d.set("source", p.default_from->text);
      std::string normalized = p.default_from->text;
      if (a) {
        for (const auto& [arg, expr] : a->default_from) {
          if (arg == &p && expr) normalized = to_source(*expr);
        }
      }
      d.set("normalized", normalized);
      d.set("location", location(p.default_from->loc));
      j.set("default_from", d);
    } else {
      j.set("default_from", Json());
    }
    j.set("enum", param_enum(p, info));
    if (p.kind == ParamKind::output && a && index < a->shapes.size() && p.shape) {
      j.set("shape", shape_rule(a->shapes[index], *p.shape));
    } else {
      j.set("shape", Json());
    }
    if (p.kind == ParamKind::output && a && index < a->dtype_rules.size() && p.dtype) {
      j.set("dtype", dtype_rule(a->dtype_rules[index], *p.dtype));
    } else {
      j.set("dtype", Json());
    }
    j.set("doc", op ? op_text(p.doc, *op) : text(p.doc));
    j.set("from_mixin", mixin_of(p.from_mixin));
    j.set("location", location(p.loc));
    return j;
  }

  Json op_params(const OpAnalysis& a, const std::vector<Param>& list) const {
    Json out = Json::array();
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Param& p = list[i];
      const EnumInfo* info = p.kind == ParamKind::arg ? a.enum_of(p) : nullptr;
      out.push(param(p, &a, i, false, info, param_type(p, info)));
    }
    return out;
  }

  // ----- constraints, configs

  Json constraint(const CheckedConstraint& c, const Op* op) const {
    const Constraint& k = *c.constraint;
    Json j = Json::object();
    j.set("check", k.check.text);
    j.set("normalized", c.expr ? Json(to_source(*c.expr)) : Json(k.check.text));
    j.set("prose", c.expr ? Json(to_prose(*c.expr)) : Json());
    j.set("message", op ? op_text(k.message, *op) : text(k.message));
    j.set("backend", k.backend);
    j.set("from_mixin", mixin_of(k.from_mixin));
    j.set("location", location(k.loc));
    return j;
  }

  // The C++ type of a config struct's member (config structs own their
  // values: strings are std::string, counted fields std::vector).
  static std::string field_cpp_type(const Param& f, const EnumInfo* info) {
    std::string base = arg_value_type(f, info);
    if (!f.count.is_one() && base.rfind("Span<", 0) == 0) {
      base = "std::vector<" + base.substr(5, base.size() - 6) + ">";
    }
    for (std::size_t at; (at = base.find("std::string_view")) != std::string::npos;) {
      base.replace(at, 16, "std::string");
    }
    return base;
  }

  Json config(std::size_t index) const {
    const ConfigDef& c = *ns_.configs[index];
    Json j = Json::object();
    j.set("name", c.name.value);
    j.set("cpp_type", c.name.value);
    j.set("cpp_param", config_param_name(c.name.value));
    j.set("doc", text(c.doc));
    Json fields = Json::array();
    for (const Param& f : c.args) {
      const EnumInfo* info = f.enum_name ? shared_enum_info(f.enum_name->value) : nullptr;
      fields.push(param(f, nullptr, 0, true, info, field_cpp_type(f, info)));
    }
    j.set("fields", fields);
    Json constraints = Json::array();
    if (index < spec_.checked.config_constraints.size()) {
      for (const CheckedConstraint& k : spec_.checked.config_constraints[index]) {
        constraints.push(constraint(k, nullptr));
      }
    }
    j.set("constraints", constraints);
    j.set("location", location(c.loc));
    return j;
  }

  // ----- ops

  static std::string result_type(const Op& op) {
    if (op.outputs.size() == 1) return "Tensor";
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

  Json overload(const OpAnalysis& a, const Overload& o) const {
    const Op& op = *a.op;
    Json j = Json::object();
    j.set("variant", o.out ? "out" : o.inplace ? "inplace" : "value");
    j.set("name", o.inplace ? op.cpp_name + "_inplace" : op.cpp_name);
    Json params = Json::array();
    if (o.inplace) params.push(op.inplace->input.value);
    for (const Param* p : o.params) params.push(p->name.value);
    j.set("params", params);
    j.set("configs", Json::strings(o.configs));
    Json outputs = Json::array();
    if (o.out) {
      for (const Param& p : op.outputs) outputs.push(p.name.value);
    }
    j.set("outputs", outputs);
    j.set("doc", o.doc.empty() ? Json() : Json(trim_text(expand_doc_tokens(o.doc, ns_, op))));
    j.set("cpp_declaration", overload_declaration(ns_, a, o, true));
    j.set("location", location(o.loc));
    return j;
  }

  Json op(const OpAnalysis& a) const {
    const Op& op = *a.op;
    Json j = Json::object();
    j.set("name", op.name);
    j.set("qualified_name", ns_.name + "." + op.name);
    j.set("cpp_name", op.cpp_name);
    j.set("cpp_qualified_name", ns_.cpp_namespace + "::" + op.cpp_name);
    j.set("kind", kKindNames[static_cast<int>(op.kind)]);
    j.set("kernel", op.kernel);
    j.set("dtypes", Json::strings(a.dtypes));
    j.set("dtypes_given", op.dtypes_given);
    j.set("dispatch_input", a.dispatch_input ? Json(a.dispatch_input->name.value) : Json());
    j.set("summary", op_text(op.summary, op));
    std::optional<std::string> doc;
    for (const LocatedText& t : op.doc) {
      const std::string part = trim_text(expand_doc_tokens(t.text, ns_, op));
      doc = doc ? *doc + "\n\n" + part : part;
    }
    j.set("doc", optional_string(doc));
    j.set("notes", op_text(op.notes, op));
    Json aliases = Json::array();
    for (const LocatedString& al : op.aliases) {
      Json x = Json::object();
      x.set("name", al.value);
      x.set("qualified_name",
            al.value.find('.') == std::string::npos ? ns_.name + "." + al.value : al.value);
      x.set("location", location(al.loc));
      aliases.push(x);
    }
    j.set("aliases", aliases);
    if (op.formula) {
      Json f = Json::object();
      f.set("source", op.formula->text);
      f.set("normalized", a.formula ? Json(to_source(*a.formula)) : Json(op.formula->text));
      f.set("location", location(op.formula->loc));
      j.set("formula", f);
    } else {
      j.set("formula", Json());
    }
    j.set("inputs", op_params(a, op.inputs));
    j.set("args", op_params(a, op.args));
    j.set("outputs", op_params(a, op.outputs));
    Json configs = Json::array();
    for (const LocatedString& c : op.configs) {
      Json x = Json::object();
      x.set("name", c.value);
      x.set("cpp_param", config_param_name(c.value));
      x.set("location", location(c.loc));
      configs.push(x);
    }
    j.set("configs", configs);
    Json constraints = Json::array();
    for (const CheckedConstraint& c : a.constraints) constraints.push(constraint(c, &op));
    j.set("constraints", constraints);
    Json signatures = Json::array();
    for (const Signature& s : op.signatures) {
      Json x = Json::object();
      Json names = Json::array();
      for (const LocatedString& n : s.params) names.push(n.value);
      x.set("params", names);
      x.set("doc", op_text(s.doc, op));
      x.set("from_mixin", mixin_of(s.from_mixin));
      x.set("location", location(s.loc));
      signatures.push(x);
    }
    j.set("signatures", signatures);
    Json overloads = Json::array();
    for (const Overload& o : overloads_of(a)) overloads.push(overload(a, o));
    j.set("overloads", overloads);
    j.set("cpp_result_type", result_type(op));
    if (op.inplace) {
      Json x = Json::object();
      x.set("output", op.inplace->output.value);
      x.set("input", op.inplace->input.value);
      x.set("location", location(op.inplace->loc));
      j.set("inplace", x);
    } else {
      j.set("inplace", Json());
    }
    j.set("out_variant", op.out_variant);
    j.set("location", location(op.loc));
    return j;
  }

  const CheckedSpec& spec_;
  const Namespace& ns_;
  std::map<const std::string*, std::string> display_;
};

}  // namespace

Json describe_namespace(const CheckedSpec& spec) { return Describer(spec).run(); }

Json describe_document(const std::vector<const CheckedSpec*>& specs) {
  Json doc = Json::object();
  doc.set("format_version", kDescribeFormatVersion);
  Json namespaces = Json::array();
  for (const CheckedSpec* s : specs) namespaces.push(describe_namespace(*s));
  doc.set("namespaces", namespaces);
  return doc;
}

}  // namespace opgen::gen
