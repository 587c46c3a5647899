// The negative tests of a namespace (<ns>_negative_test.cpp): per op, the
// checks its wrapper runs (the ones the types and counts imply, the
// constraints, the shape rules that can fail), each with the parameter and
// message text an opgen::Error proving it carries, and the op's parameters,
// from which the test runner (tests/negative/negative.hpp) builds a valid
// call and its violations. Checks no call can reach are listed as such.
#include <algorithm>
#include <set>

#include "cpp_spelling.hpp"
#include "emit.hpp"
#include "expr.hpp"
#include "render.hpp"
#include "spec_keys.hpp"

namespace opgen::gen {

namespace {

std::string type_class(std::string_view type) {
  if (type == "float") return "TypeClass::float_";
  if (type == "int") return "TypeClass::int_";
  if (type == "bool") return "TypeClass::bool_";
  return "TypeClass::" + std::string(type);
}

// The dtypes of a tensor type.
std::set<std::string> class_members(std::string_view type) {
  std::set<std::string> out;
  for (std::string_view d : kDTypeNames) {
    const bool in = type == "any" || type == d || (type == "numeric" && d != "bool") ||
                    (type == "float" && (d == "float32" || d == "float64")) ||
                    (type == "int" && (d == "int32" || d == "int64"));
    if (in) out.insert(std::string(d));
  }
  return out;
}

std::string arg_type(std::string_view type) {
  if (type == "int") return "ArgType::int_";
  if (type == "float") return "ArgType::float_";
  if (type == "bool") return "ArgType::bool_";
  if (type == "enum") return "ArgType::enum_";
  return "ArgType::" + std::string(type);
}

bool is_optional_input(const Param& p) {
  return (p.optional && p.optional->value) || p.default_from.has_value();
}

// Collects the literals of an expression: values worth trying as args.
void collect_literals(const Expr& e, std::set<std::int64_t>& ints, std::set<double>& floats,
                      std::set<std::string>& strings) {
  switch (e.kind) {
    case ExprKind::int_literal:
      ints.insert(e.int_value);
      floats.insert(static_cast<double>(e.int_value));
      break;
    case ExprKind::float_literal:
      floats.insert(e.float_value);
      break;
    case ExprKind::string_literal:
      strings.insert(e.text);
      break;
    default:
      break;
  }
  for (const ExprPtr& a : e.args) {
    if (a) collect_literals(*a, ints, floats, strings);
  }
}

struct OpChecks {
  std::vector<std::string> lines;    // Check initialisers
  std::vector<std::string> skipped;  // "what: why"
};

class OpEmitter {
 public:
  OpEmitter(const CheckedNamespace& cns, const OpAnalysis& a) : cns_(cns), ns_(*cns.ns), a_(a), op_(*a.op) {}

  TemplateData data() {
    TemplateData d;
    d.set("name", op_.cpp_name);
    d.set("qualified", cpp_string(ns_.name + "." + op_.name));
    d.set("where", cpp_string(where(op_.loc)));
    TemplateData inputs = template_list();
    for (const Param& p : op_.inputs) inputs.push_back(TemplateData(input_line(p)));
    d.set("inputs", inputs);
    d.set("has_inputs", TemplateData(!inputs.is_empty_list()));
    TemplateData args = template_list();
    for (const Param& p : op_.args) args.push_back(TemplateData(arg_line(p, p.name.value, enum_values(p))));
    for (const LocatedString& c : op_.configs) {
      const ConfigDef* def = config(c.value);
      if (def == nullptr) continue;
      for (const Param& f : def->args) {
        args.push_back(TemplateData(arg_line(f, c.value + "." + f.name.value, field_values(f))));
      }
    }
    d.set("args", args);
    d.set("has_args", TemplateData(!args.is_empty_list()));
    collect_checks();
    TemplateData checks = template_list();
    for (const std::string& l : checks_.lines) checks.push_back(TemplateData(l));
    d.set("checks", checks);
    d.set("has_checks", TemplateData(!checks.is_empty_list()));
    TemplateData skipped = template_list();
    for (const std::string& s : checks_.skipped) skipped.push_back(TemplateData(s));
    d.set("skipped", skipped);
    d.set("check_count", std::to_string(checks_.lines.size()));
    d.set("hints", hints());
    return d;
  }

  std::size_t tested() const { return checks_.lines.size(); }
  std::size_t skipped() const { return checks_.skipped.size(); }

 private:
  // "opdefs/nn.toml:22" for the namespace's file, "common.toml:40" for an
  // included one (no directories: generated text holds no build paths).
  std::string where(const SourceLoc& loc) const {
    std::string file = ns_.source;
    if (loc.file != nullptr && loc.file != op_.loc.file) {
      file = *loc.file;
      const std::size_t slash = file.find_last_of('/');
      if (slash != std::string::npos) file = file.substr(slash + 1);
    }
    return file + ":" + std::to_string(loc.line);
  }

  const ConfigDef* config(const std::string& name) const {
    for (const ConfigDef* c : ns_.configs) {
      if (c->name.value == name) return c;
    }
    return nullptr;
  }

  std::vector<std::string> enum_values(const Param& p) const {
    const EnumInfo* e = a_.enum_of(p);
    return e != nullptr ? e->values : std::vector<std::string>{};
  }

  std::vector<std::string> field_values(const Param& f) const {
    std::vector<std::string> out;
    for (const LocatedString& v : f.values) out.push_back(v.value);
    if (out.empty() && f.enum_name) {
      for (const auto& e : cns_.shared_enums) {
        if (e->name == f.enum_name->value) return e->values;
      }
    }
    return out;
  }

  std::string input_line(const Param& p) const {
    // Starts from a std::string: g++ 12 at -O3 warns (-Wrestrict, a false
    // positive) on "literal" + std::string&&.
    return std::string("{") + cpp_string(p.name.value) + ", " + type_class(p.type.value) + ", " +
           (p.count.is_one() ? "false" : "true") + ", " + std::to_string(p.count.min) + ", " +
           std::to_string(p.count.max) + ", " + (is_optional_input(p) ? "true" : "false") + "}";
  }

  std::string arg_line(const Param& p, const std::string& name, const std::vector<std::string>& values) const {
    std::string v;
    for (const std::string& s : values) v += (v.empty() ? "" : ", ") + cpp_string(s);
    const bool required = !p.default_value && !p.default_from;
    return std::string("{") + cpp_string(name) + ", " + arg_type(p.type.value) + ", " +
           (p.count.is_one() ? "false" : "true") + ", " + std::to_string(p.count.min) + ", " +
           std::to_string(p.count.max) + ", " + (required ? "true" : "false") + ", {" + v + "}}";
  }

  void add(const std::string& kind, const std::string& param, const std::string& needles,
           const std::string& what, const SourceLoc& loc) {
    checks_.lines.push_back("{CheckKind::" + kind + ", " + cpp_string(param) + ", " + cpp_string(needles) +
                            ", " + cpp_string(what) + ", " + cpp_string(where(loc)) + "}");
  }

  void skip(const std::string& what, const std::string& why, const SourceLoc& loc) {
    checks_.skipped.push_back(what + " (" + where(loc) + "): " + why);
  }

  void collect_checks() {
    // Inputs: null, dtype class, count.
    for (const Param& p : op_.inputs) {
      const std::string& n = p.name.value;
      if (!is_optional_input(p) && p.count.is_one()) {
        add("null_input", n, "is required but was not given", n + " is given", p.loc);
      }
      if (p.type.value != "any") {
        add("dtype_class", n, " must be ", n + " is a " + p.type.value + " tensor", p.type.loc);
      }
      if (!p.count.is_one()) {
        // A call by name with too few or too many tensors stops at the
        // registry's own count ("expects at least 1 input"), naming no parameter.
        add("input_count", "", "expects |" + n + " must have", n + " has " + p.count.text + " tensors",
            p.count.loc.known() ? p.count.loc : p.loc);
      }
    }
    // Args and config fields: counts and enum values.
    auto arg_checks = [&](const Param& p, const std::string& name, bool is_enum) {
      if (!p.count.is_one() && !(p.count.min == 0 && p.count.max < 0)) {
        add("arg_count", name, name + " must have", name + " has " + p.count.text + " values",
            p.count.loc.known() ? p.count.loc : p.loc);
      }
      if (is_enum) add("enum_value", name, "must be one of", name + " is one of its values", p.loc);
    };
    for (const Param& p : op_.args) {
      arg_checks(p, p.name.value, p.type.value == "enum");
      if (p.type.value == "enum") {
        skip("the C++ enum range of " + p.name.value,
             "reachable only from C++ by casting an out-of-range integer to the enum type", p.loc);
      }
    }
    for (const LocatedString& c : op_.configs) {
      const ConfigDef* def = config(c.value);
      if (def == nullptr) continue;
      for (const Param& f : def->args) arg_checks(f, c.value + "." + f.name.value, f.type.value == "enum");
    }
    // Constraints, the op's and its configs'.
    for (const CheckedConstraint& cc : a_.constraints) {
      const Constraint& c = *cc.constraint;
      if (!cc.expr) continue;
      const std::string source = to_source(*cc.expr);
      if (c.backend) {
        skip(source, "a backend constraint, enforced inside the kernel, not by the wrapper", c.loc);
        continue;
      }
      const std::string message = c.message ? expand_doc_tokens(c.message->text, ns_, op_) : to_prose(*cc.expr);
      add("constraint", "", message + " (check: " + source, source, c.check.loc);
    }
    for (const LocatedString& name : op_.configs) {
      for (std::size_t i = 0; i < ns_.configs.size(); ++i) {
        if (ns_.configs[i]->name.value != name.value) continue;
        const ConfigDef& def = *ns_.configs[i];
        for (const CheckedConstraint& cc : cns_.config_constraints[i]) {
          if (!cc.expr) continue;
          const Constraint& c = *cc.constraint;
          const std::string source = to_source(*cc.expr);
          const std::string message = c.message ? c.message->text : to_prose(*cc.expr);
          add("constraint", "", def.name.value + ": " + message + " (check: " + source,
              def.name.value + ": " + source, c.check.loc);
        }
      }
    }
    // Dtypes the kernels implement, narrower than the inputs allow.
    std::set<std::string> allowed;
    if (a_.dispatch_input != nullptr) {
      allowed = class_members(a_.dispatch_input->type.value);
    } else if (!a_.dtype_rules.empty() && a_.dtype_rules[0].kind == DTypeRule::Kind::from) {
      allowed = class_members("any");
    }
    const std::set<std::string> supported(a_.dtypes.begin(), a_.dtypes.end());
    if (std::any_of(allowed.begin(), allowed.end(), [&](const std::string& d) { return !supported.count(d); })) {
      std::string list;
      for (const std::string& d : a_.dtypes) list += (list.empty() ? "" : ", ") + d;
      add("dtype_supported", "", "no kernel for", "the dtype is one of " + list,
          op_.dtypes_loc.known() ? op_.dtypes_loc : op_.loc);
    }
    // Inputs that must share a dtype (pointwise and reduction ops that do not promote).
    if (op_.kind != OpKind::custom && !a_.dtype_rules.empty() &&
        !(op_.kind == OpKind::pointwise && a_.dtype_rules[0].kind == DTypeRule::Kind::promote)) {
      std::string names;
      std::size_t classed = 0;
      for (const Param& p : op_.inputs) {
        if (is_fixed_dtype(p.type.value)) continue;
        ++classed;
        names += (names.empty() ? "" : " and ") + p.name.value;
      }
      if (classed > 1) add("same_dtype", "", "same dtype", names + " have the same dtype", op_.loc);
    }
    // Shape rules that can fail.
    std::set<std::string> seen;
    for (std::size_t i = 0; i < a_.shapes.size(); ++i) {
      const ShapeRule& r = a_.shapes[i];
      const Param& out = op_.outputs[i];
      const SourceLoc loc = out.shape ? out.shape->loc : out.loc;
      if (!r.ok || !seen.insert(r.source).second) continue;
      const std::string what = "shape rule " + r.source;
      switch (r.kind) {
        case ShapeRule::Kind::same:
        case ShapeRule::Kind::scalar:
          break;
        case ShapeRule::Kind::broadcast: {
          std::size_t tensors = 0;
          for (const Param* p : r.tensors) tensors += p->count.is_one() ? 1 : 2;
          if (tensors > 1) add("shape_rule", r.tensors[0]->name.value, "cannot be broadcast", what, loc);
          break;
        }
        case ShapeRule::Kind::reduce:
          if (r.dims.is_literal()) {
            skip(what, "literal dims: only an input of a lower rank can break it, which other checks usually reject first", loc);
          } else {
            add("shape_rule", r.dims.param->name.value, "out of range|given twice", what, loc);
          }
          break;
        case ShapeRule::Kind::matmul:
          add("shape_rule", r.tensors.size() > 1 ? r.tensors[1]->name.value : "",
              "cannot be multiplied|batch dimensions|at least one dimension", what, loc);
          break;
        case ShapeRule::Kind::concat:
        case ShapeRule::Kind::stack:
          add("shape_rule", r.tensors.empty() ? "" : r.tensors[0]->name.value,
              "must have the shape of|out of range|at least one dimension|maximum rank", what, loc);
          break;
        case ShapeRule::Kind::from:
          if (!r.dims.is_literal()) {
            add("shape_rule", r.dims.param->name.value, "at most|non-negative", what, loc);
          }
          break;
        case ShapeRule::Kind::custom:
          skip(what, "the kernel family's shape function decides; its errors are the kernel's", loc);
          break;
      }
    }
  }

  std::string hints() const {
    std::set<std::int64_t> ints;
    std::set<double> floats;
    std::set<std::string> strings;
    for (const CheckedConstraint& cc : a_.constraints) {
      if (cc.expr) collect_literals(*cc.expr, ints, floats, strings);
    }
    for (const LocatedString& name : op_.configs) {
      for (std::size_t i = 0; i < ns_.configs.size(); ++i) {
        if (ns_.configs[i]->name.value != name.value) continue;
        for (const CheckedConstraint& cc : cns_.config_constraints[i]) {
          if (cc.expr) collect_literals(*cc.expr, ints, floats, strings);
        }
      }
    }
    std::string i, f, s;
    for (std::int64_t v : ints) i += (i.empty() ? "" : ", ") + std::to_string(v);
    for (double v : floats) f += (f.empty() ? "" : ", ") + cpp_double(v);
    for (const std::string& v : strings) s += (s.empty() ? "" : ", ") + cpp_string(v);
    return "{{" + i + "}, {" + f + "}, {" + s + "}}";
  }

  const CheckedNamespace& cns_;
  const Namespace& ns_;
  const OpAnalysis& a_;
  const Op& op_;
  OpChecks checks_;
};

}  // namespace

std::string emit_negative_tests(const CheckedNamespace& cns) {
  const Namespace& ns = *cns.ns;
  TemplateData d;
  d.set("source", ns.source);
  d.set("namespace", ns.name);
  TemplateData ops = template_list();
  std::size_t tested = 0, skipped = 0;
  for (const OpAnalysis& a : cns.ops) {
    OpEmitter e(cns, a);
    ops.push_back(e.data());
    tested += e.tested();
    skipped += e.skipped();
  }
  d.set("ops", ops);
  d.set("op_count", std::to_string(cns.ops.size()));
  d.set("tested", std::to_string(tested));
  d.set("skipped", std::to_string(skipped));
  return render("negative_tests", d);
}

}  // namespace opgen::gen
