// The C++ emitters: the public header and the source of checked wrappers,
// dispatch and registry entries of a namespace.
#include <algorithm>
#include <map>
#include <set>

#include "cpp_spelling.hpp"
#include "emit.hpp"
#include "render.hpp"
#include "spec_keys.hpp"
#include "wrapper_code.hpp"

namespace opgen::gen {

namespace {

// ---------------------------------------------------------------------------
// Header

std::string enum_values_list(const EnumInfo& e) {
  std::string s;
  for (std::size_t i = 0; i < e.cpp_values.size(); ++i) {
    if (i) s += ", ";
    s += e.cpp_values[i];
  }
  return s;
}

TemplateData enum_data(const EnumInfo& e, std::string_view doc) {
  TemplateData d;
  d.set("name", e.cpp_type);
  d.set("values", enum_values_list(e));
  TemplateData lines = template_list();
  for (const std::string& l : doc_comment_lines(doc)) {
    for (const std::string& piece : wrap_doc_line(l, kHeaderColumns - 4))
      lines.push_back(TemplateData(piece));
  }
  d.set("doc", lines);
  TemplateData cases = template_list();
  for (std::size_t i = 0; i < e.values.size(); ++i) {
    TemplateData c;
    c.set("enumerator", e.cpp_values[i]);
    c.set("literal", cpp_string(e.values[i]));
    cases.push_back(c);
  }
  d.set("cases", cases);
  d.set("count", std::to_string(e.values.size()));
  return d;
}

std::string config_field_type(const Param& f, const EnumInfo* e) {
  // Config structs own their values: counted fields are vectors.
  std::string base = arg_value_type(f, e);
  if (f.count.is_one()) {
    return base == "std::string_view" ? "std::string" : base;
  }
  base = base.substr(5, base.size() - 6);  // Span<T> -> T
  if (base == "std::string_view") base = "std::string";
  return "std::vector<" + base + ">";
}

}  // namespace

GeneratedFiles emit(const CheckedNamespace& cns, Diagnostics& diags) {
  const Namespace& ns = *cns.ns;
  GeneratedFiles files;

  auto find_shared = [&](std::string_view name) -> const EnumInfo* {
    for (const auto& e : cns.shared_enums) {
      if (e->name == name) return e.get();
    }
    return nullptr;
  };

  // ----- header
  TemplateData h;
  h.set("source", ns.source);
  h.set("namespace", ns.name);
  h.set("cpp_namespace", ns.cpp_namespace);
  h.set("foreign", TemplateData(ns.cpp_namespace != "opgen" &&
                                ns.cpp_namespace.rfind("opgen::", 0) != 0));
  TemplateData summary = template_list();
  if (ns.summary) {
    for (const std::string& l : doc_comment_lines(ns.summary->text)) summary.push_back(TemplateData(l));
  }
  h.set("summary", summary);

  TemplateData enums = template_list();
  for (const EnumDef* e : ns.enums) {
    if (const EnumInfo* info = find_shared(e->name.value)) {
      enums.push_back(enum_data(*info, e->doc ? e->doc->text : "Values of " + e->name.value + "."));
    }
  }
  for (const OpAnalysis& a : cns.ops) {
    for (const auto& e : a.enums) {
      const Param* arg = nullptr;
      for (const Param& p : a.op->args) {
        if (a.enum_of(p) == e.get()) arg = &p;
      }
      const std::string doc = "Values of the `" + (arg ? arg->name.value : std::string()) +
                              "` arg of " + ns.name + "." + a.op->name + ".";
      enums.push_back(enum_data(*e, doc));
    }
  }
  h.set("enums", enums);

  TemplateData configs = template_list();
  for (std::size_t ci = 0; ci < ns.configs.size(); ++ci) {
    const ConfigDef& c = *ns.configs[ci];
    TemplateData d;
    d.set("name", c.name.value);
    TemplateData doc = template_list();
    if (c.doc) {
      for (const std::string& l : doc_comment_lines(c.doc->text)) {
        for (const std::string& piece : wrap_doc_line(l, kHeaderColumns - 4))
          doc.push_back(TemplateData(piece));
      }
    }
    d.set("doc", doc);
    TemplateData fields = template_list();
    for (const Param& f : c.args) {
      const EnumInfo* e = f.enum_name ? find_shared(f.enum_name->value) : nullptr;
      TemplateData fd;
      fd.set("type", config_field_type(f, e));
      fd.set("name", f.name.value);
      fd.set("init", f.default_value ? cpp_literal(*f.default_value, f, e) : std::string("{}"));
      TemplateData fdoc = template_list();
      std::string text = f.doc ? f.doc->text : std::string();
      if (f.default_value) text += (text.empty() ? "" : " ") + std::string("Default ") + doc_literal(*f.default_value) + ".";
      for (const std::string& l : doc_comment_lines(text)) {
        for (const std::string& piece : wrap_doc_line(l, kHeaderColumns - 6))
          fdoc.push_back(TemplateData(piece));
      }
      fd.set("doc", fdoc);
      fields.push_back(fd);
    }
    d.set("fields", fields);
    TemplateData checks = template_list();
    for (const std::string& line : config_validate_lines(cns, ci)) checks.push_back(TemplateData(line));
    d.set("checks", checks);
    configs.push_back(d);
  }
  h.set("configs", configs);

  TemplateData ops = template_list();
  TemplateData defs = template_list();
  TemplateData impls = template_list();
  TemplateData kernel_lines = template_list();
  TemplateData entries = template_list();
  TemplateData references = template_list();
  for (const OpAnalysis& a : cns.ops) {
    const OpCode code = op_code(ns, a, diags);
    TemplateData o;
    o.set("decls", code.declarations);
    ops.push_back(o);
    TemplateData d;
    d.set("defs", code.definitions);
    defs.push_back(d);
    TemplateData i;
    i.set("impl", code.impl);
    i.set("invoker", code.invoker);
    impls.push_back(i);
    for (const std::string& l : code.kernel_table) kernel_lines.push_back(TemplateData(l));
    TemplateData e;
    e.set("entry", code.registry_entry);
    entries.push_back(e);
  }
  h.set("ops", ops);
  h.set("has_configs", TemplateData(!ns.configs.empty()));
  auto split_includes = [](const std::vector<std::string>& all, TemplateData& sys,
                           TemplateData& project) {
    for (const std::string& inc : all) (inc[0] == '<' ? sys : project).push_back(TemplateData(inc));
  };
  TemplateData sys = template_list(), project = template_list();
  split_includes(header_includes(cns), sys, project);
  h.set("system_includes", sys);
  h.set("project_includes", project);
  files.header = render("header", h);

  // ----- source
  TemplateData s = h;
  s.set("header_name", ns.name + ".hpp");
  s.set("kernel_header", ns.kernel_header);
  s.set("kernel_table", kernel_lines);
  s.set("has_kernel_table", TemplateData(!kernel_lines.is_empty_list()));
  s.set("impls", impls);
  s.set("defs", defs);
  s.set("entries", entries);
  s.set("summary_literal", cpp_string(ns.summary ? trim_text(ns.summary->text) : std::string()));
  s.set("source_literal", cpp_string(ns.source));
  s.set("name_literal", cpp_string(ns.name));
  TemplateData src_sys = template_list(), src_project = template_list();
  split_includes(source_includes(cns), src_sys, src_project);
  s.set("source_system_includes", src_sys);
  s.set("source_project_includes", src_project);
  std::string source = render("source", s);
  files.source = resolve_line_markers(source, ns.name + ".cpp");

  files.reference = emit_reference(cns, diags);
  files.formulas = emit_formulas(cns);
  files.negative_tests = emit_negative_tests(cns);
  files.property_tests = emit_property_tests(cns);
  return files;
}

}  // namespace opgen::gen
