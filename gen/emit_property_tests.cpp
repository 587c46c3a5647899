// The property tests of a namespace (<ns>_property_test.cpp): every
// pointwise op with a formula, called through the registry on random tensors
// from several seeds on every SIMD target, each element compared with the
// generated scalar reference (<ns>_reference.hpp). The runner is
// tests/property/property.hpp.
#include <algorithm>
#include <set>

#include "cpp_spelling.hpp"
#include "emit.hpp"
#include "expr.hpp"
#include "render.hpp"
#include "spec_keys.hpp"

namespace opgen::gen {

namespace {

// Scalar functions whose kernels approximate (a polynomial or a library
// call that need not round correctly): compared within a tolerance.
bool is_approximate(std::string_view f) {
  static const std::set<std::string_view> kApproximate = {
      "exp",  "exp2", "expm1", "log",   "log2",  "log10", "log1p", "cbrt",  "rsqrt",
      "pow",  "hypot", "sin",  "cos",   "tan",   "asin",  "acos",  "atan",  "atan2",
      "sinh", "cosh", "tanh",  "asinh", "acosh", "atanh", "erf",   "erfc"};
  return kApproximate.count(f) != 0;
}

// Counts the roundings of a formula: more than one arithmetic operation may
// be fused or reordered by a kernel (x * a + b as one FMA), so only a
// formula with at most one is held to bit-exact results.
void count_roundings(const Expr& e, int& roundings, bool& approximate) {
  if (e.kind == ExprKind::binary &&
      (e.text == "+" || e.text == "-" || e.text == "*" || e.text == "/")) {
    ++roundings;
  }
  if (e.kind == ExprKind::call && is_approximate(e.text)) approximate = true;
  for (const ExprPtr& a : e.args) {
    if (a) count_roundings(*a, roundings, approximate);
  }
}

std::string dtype_const(const std::string& d) { return "DType::" + std::string(d == "bool" ? "bool_" : d); }

}  // namespace

std::string emit_property_tests(const CheckedNamespace& cns) {
  const Namespace& ns = *cns.ns;
  TemplateData d;
  d.set("source", ns.source);
  d.set("namespace", ns.name);
  d.set("cpp_namespace", ns.cpp_namespace);
  TemplateData ops = template_list();
  TemplateData skipped = template_list();
  for (const OpAnalysis& a : cns.ops) {
    if (!a.formula) continue;
    const Op& op = *a.op;
    const std::string qualified = ns.name + "." + op.name;
    // What a call by name with plain values can express.
    std::string why;
    if (op.kind != OpKind::pointwise) why = "not a pointwise op";
    for (const Param& p : op.inputs) {
      if (!p.count.is_one() || (p.optional && p.optional->value) || p.default_from) {
        why = "input " + p.name.value + " is counted or optional";
      }
    }
    for (const Param& p : op.args) {
      const std::string& t = p.type.value;
      if (!p.count.is_one() || (t != "int" && t != "float" && t != "bool")) {
        why = "arg " + p.name.value + " is not a single int, float or bool";
      }
      if (p.default_from && !std::any_of(op.args.begin(), op.args.end(), [&](const Param& q) {
            return q.name.value == p.default_from->text;
          })) {
        why = "arg " + p.name.value + " defaults to an expression of the inputs";
      }
    }
    if (op.outputs.size() != 1 || !op.outputs[0].count.is_one()) why = "not one output";
    if (why.empty() && static_out_dtype(a, 0, a.dtypes.empty() ? "float32" : a.dtypes[0]).empty()) {
      why = "the output dtype comes from an arg";
    }
    if (!why.empty()) {
      skipped.push_back(TemplateData(qualified + ": " + why));
      continue;
    }
    int roundings = 0;
    bool approximate = false;
    count_roundings(*a.formula, roundings, approximate);

    // Arg values: the default, or for a required arg a value valid for
    // the usual constraints (lo < hi): -0.5, 0.5, 1.5, ... in order.
    TemplateData args = template_list();
    std::string arg_map, ref_args;
    int required = 0;
    for (const Param& p : op.args) {
      const std::string& t = p.type.value;
      const std::string type = t == "int" ? "std::int64_t" : t == "float" ? "double" : "bool";
      std::string value;
      if (p.default_value) {
        value = cpp_literal(*p.default_value, p, nullptr);
      } else if (p.default_from) {
        // Another arg's value, as the wrapper takes it.
        value = p.default_from->text;
      } else {
        const int k = required++;
        value = t == "int" ? std::to_string(k) : t == "float" ? cpp_double(-0.5 + k) : "false";
      }
      args.push_back(TemplateData("const " + type + " " + p.name.value + " = " + value + ";"));
      arg_map += (arg_map.empty() ? "" : ", ") + std::string("{") + cpp_string(p.name.value) + ", " + p.name.value + "}";
      ref_args += ", " + p.name.value;
    }

    TemplateData cases = template_list();
    for (const std::string& dt : a.dtypes) {
      const std::string out = static_out_dtype(a, 0, dt);
      std::string inputs, elements;
      std::size_t k = 0;
      for (const Param& p : op.inputs) {
        const std::string in = is_fixed_dtype(p.type.value) ? p.type.value : dt;
        inputs += (inputs.empty() ? "" : ", ") + dtype_const(in);
        elements += (elements.empty() ? "" : ", ") + std::string("r.get<") + ctype(in) + ">(" + std::to_string(k++) + ")";
      }
      const bool exact = dt != "float32" && dt != "float64" ? true : !approximate && roundings <= 1;
      TemplateData c;
      c.set("dtype", dt);
      c.set("T", ctype(dt));
      c.set("R", ctype(out));
      c.set("inputs", "{" + inputs + "}");
      c.set("accuracy", std::string(exact ? "Accuracy::exact" : "Accuracy::close"));
      // As emit_formulas: a reference with no input of the element type
      // and a bool result is a plain function, not a template.
      const bool templated =
          std::any_of(op.inputs.begin(), op.inputs.end(), [](const Param& p) { return !is_fixed_dtype(p.type.value); }) ||
          a.formula->type.kind != TypeKind::bool_;
      c.set("call", "ref::" + op.cpp_name + (templated ? "<" + ctype(dt) + ">" : std::string()) + "(" + elements +
                        ref_args + ")");
      cases.push_back(c);
    }
    TemplateData o;
    o.set("name", op.cpp_name);
    o.set("qualified", cpp_string(qualified));
    o.set("formula", to_source(*a.formula));
    o.set("exactness", std::string(approximate ? "approximate functions: within a tolerance"
                                   : roundings <= 1 ? "bit-exact"
                                                    : "several roundings (a kernel may fuse them): within a tolerance"));
    args.push_back(TemplateData(arg_map.empty() ? std::string("const opgen::Args args;")
                                                : "const opgen::Args args = {" + arg_map + "};"));
    o.set("args", args);
    o.set("cases", cases);
    ops.push_back(o);
  }
  d.set("ops", ops);
  d.set("skipped", skipped);
  d.set("has_ops", TemplateData(!ops.is_empty_list()));
  return render("property_tests", d);
}

}  // namespace opgen::gen
