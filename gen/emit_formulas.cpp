// The scalar reference functions of a namespace (<ns>_reference.hpp): one
// function template per op with a formula, computing one element the way the
// kernels must. Kernel tests use them as their oracle; users can too.
#include <algorithm>
#include <set>

#include "cpp_spelling.hpp"
#include "emit.hpp"
#include "render.hpp"
#include "spec_keys.hpp"

namespace opgen::gen {

namespace {

// `cond ? a : b` starting at column `column`, as clang-format would break
// it when longer than `width` (two columns are kept for the closing
// parentheses): `: b` on a line of its own, under the `?`. Other
// expressions, and conditionals whose `?` and `:` are not at the top level,
// stay on one line; string literals are skipped.
std::string break_conditional(const std::string& value, std::size_t column, std::size_t width) {
  if (column + value.size() + 2 <= width) return value;
  std::size_t depth = 0, question = std::string::npos, colon = std::string::npos;
  bool quoted = false;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    if (quoted) {
      if (c == '\\') ++i;
      if (c == '"') quoted = false;
      continue;
    }
    if (c == '"') quoted = true;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    if (depth != 0) continue;
    if (value.compare(i, 3, " ? ") == 0 && question == std::string::npos) question = i;
    if (value.compare(i, 3, " : ") == 0 && question != std::string::npos &&
        colon == std::string::npos) {
      colon = i;
    }
  }
  if (colon == std::string::npos) return value;
  return value.substr(0, colon) + "\n" + std::string(column + question + 1, ' ') +
         value.substr(colon + 1);
}

// "T", unless a parameter of the op already has that name.
std::string element_type_name(const Op& op) {
  std::string t = "T";
  auto taken = [&](const std::string& name) {
    for (const auto* list : {&op.inputs, &op.args}) {
      for (const Param& p : *list) {
        if (p.name.value == name) return true;
      }
    }
    return false;
  };
  while (taken(t)) t += '_';
  return t;
}

// Generated code inside namespace opgen reaches opgen::formula as
// `formula::`; a namespace of its own spells it out.
std::string helpers_prefix(const Namespace& ns) {
  const bool inside = ns.cpp_namespace == "opgen" || ns.cpp_namespace.rfind("opgen::", 0) == 0;
  return inside ? "formula::" : "opgen::formula::";
}

TemplateData doc_lines(const std::vector<std::string>& lines) {
  TemplateData list = template_list();
  for (const std::string& l : lines) {
    if (l.empty()) list.push_back(TemplateData("///"));
    if (l.empty()) continue;
    for (const std::string& piece : wrap_doc_line(l, kHeaderColumns - 4)) {
      list.push_back(TemplateData("/// " + piece));
    }
  }
  return list;
}

}  // namespace

std::string emit_formulas(const CheckedNamespace& cns) {
  const Namespace& ns = *cns.ns;
  TemplateData d;
  d.set("source", ns.source);
  d.set("cpp_namespace", ns.cpp_namespace);

  std::set<std::string> system, project;
  TemplateData functions = template_list();
  for (const OpAnalysis& a : cns.ops) {
    if (!a.formula) continue;
    const Op& op = *a.op;
    FormulaContext ctx;
    ctx.element_type = element_type_name(op);
    ctx.helpers = helpers_prefix(ns);
    ctx.integer_elements = std::any_of(a.dtypes.begin(), a.dtypes.end(), [](const std::string& t) {
      return t != "float32" && t != "float64";
    });

    std::string params;
    // Only inputs of no fixed dtype have the element type; with none and a
    // bool result (a logical op on bools), the function is a plain inline one.
    bool templated = false;
    for (const Param& p : op.inputs) {
      std::string type = ctx.element_type;
      if (is_fixed_dtype(p.type.value)) {
        type = ctype(p.type.value);
      } else {
        templated = true;
      }
      if (type.rfind("std::int", 0) == 0) system.insert("<cstdint>");
      params += (params.empty() ? "" : ", ") + type + " " + p.name.value;
    }
    for (const Param& p : op.args) {
      const std::string type = arg_value_type(p, a.enum_of(p));
      if (type == "std::int64_t") system.insert("<cstdint>");
      // Enum and dtype args need the types the namespace's header declares.
      if (p.type.value == "enum" || p.type.value == "dtype") {
        project.insert("\"" + ns.name + ".hpp\"");
      }
      params += (params.empty() ? "" : ", ") + type + " " + p.name.value;
    }

    const bool boolean = a.formula->type.kind == TypeKind::bool_;
    const std::string value = to_cpp_formula(*a.formula, ctx);
    const std::string source = to_source(*a.formula);

    std::vector<std::string> doc;
    if (op.summary) {
      for (const std::string& l :
           doc_comment_lines(trim_text(expand_doc_tokens(op.summary->text, ns, op)))) {
        doc.push_back(l);
      }
      doc.emplace_back();
    }
    doc.push_back("Formula of " + ns.name + "." + op.name + ": `" + source + "`.");

    TemplateData f;
    f.set("doc", doc_lines(doc));
    f.set("element_type", ctx.element_type);
    f.set("templated", TemplateData(templated || !boolean));
    f.set("result", boolean ? std::string("bool") : ctx.element_type);
    f.set("name", op.cpp_name);
    f.set("params", params);
    std::string returned = value;
    if (!boolean) {
      // As clang-format would break a long return: after the conversion's
      // parenthesis, with a continuation indent.
      const std::string convert = ctx.helpers + "element<" + ctx.element_type + ">(";
      const bool long_line = std::string("  return ").size() + convert.size() + value.size() + 2 > 100;
      returned =
          convert + (long_line ? "\n      " + break_conditional(value, 6, 100) : value) + ")";
    }
    f.set("value", returned);
    functions.push_back(f);
    system.insert("<cmath>");
    project.insert("\"opgen/formula.hpp\"");
  }
  d.set("functions", functions);
  d.set("has_functions", TemplateData(!functions.is_empty_list()));
  TemplateData sys = template_list(), proj = template_list();
  for (const std::string& s : system) sys.push_back(TemplateData(s));
  for (const std::string& s : project) proj.push_back(TemplateData(s));
  d.set("system_includes", sys);
  d.set("project_includes", proj);
  return render("formulas", d);
}

}  // namespace opgen::gen
