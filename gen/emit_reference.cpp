// The reference page of a namespace (docs/reference/<ns>.md).
#include <algorithm>

#include "cpp_spelling.hpp"
#include "emit.hpp"
#include "render.hpp"
#include "wrapper_code.hpp"

namespace opgen::gen {

namespace {

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) s += (i ? std::string(sep) : "") + items[i];
  return s;
}

// GitHub's heading anchors: lowercase, spaces to '-', punctuation dropped.
std::string anchor(std::string_view heading) {
  std::string a;
  for (char c : heading) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-') {
      a += c;
    } else if (c >= 'A' && c <= 'Z') {
      a += static_cast<char>(c - 'A' + 'a');
    } else if (c == ' ') {
      a += '-';
    }
  }
  return a;
}

TemplateData lines_of(const std::string& text) {
  TemplateData list = template_list();
  if (!text.empty()) list.push_back(TemplateData(text));
  return list;
}

}  // namespace

std::string emit_reference(const CheckedNamespace& cns, Diagnostics& diags) {
  (void)diags;
  const Namespace& ns = *cns.ns;
  TemplateData d;
  d.set("source", ns.source);
  d.set("namespace", ns.name);
  d.set("cpp_namespace", ns.cpp_namespace);
  d.set("summary", lines_of(ns.summary ? trim_text(ns.summary->text) : std::string()));
  TemplateData nsdoc = template_list();
  if (ns.doc) {
    TemplateData x;
    x.set("doc", trim_text(ns.doc->text));
    nsdoc.push_back(x);
  }
  d.set("doc", nsdoc);

  TemplateData enums = template_list();
  for (const EnumDef* e : ns.enums) {
    TemplateData x;
    x.set("name", e->name.value);
    x.set("doc", e->doc ? trim_text(e->doc->text) : std::string());
    std::vector<std::string> vs;
    for (const LocatedString& v : e->values) vs.push_back("`" + v.value + "`");
    x.set("values", join(vs, ", "));
    enums.push_back(x);
  }
  d.set("enums", enums);

  TemplateData configs = template_list();
  for (std::size_t ci = 0; ci < ns.configs.size(); ++ci) {
    const ConfigDef& c = *ns.configs[ci];
    TemplateData x;
    x.set("name", c.name.value);
    x.set("doc", c.doc ? trim_text(c.doc->text) : std::string());
    TemplateData fields = template_list();
    for (const Param& f : c.args) {
      TemplateData fd;
      fd.set("name", f.name.value);
      std::string type = f.type.value == "enum" && f.enum_name ? f.enum_name->value : f.type.value;
      if (!f.count.is_one()) type += " [" + f.count.text + "]";
      fd.set("type", markdown_cell(type));
      fd.set("default", f.default_value ? markdown_cell(doc_literal(*f.default_value)) : std::string());
      fd.set("description", f.doc ? markdown_cell(f.doc->text) : std::string());
      fields.push_back(fd);
    }
    x.set("fields", fields);
    TemplateData req = template_list();
    for (const CheckedConstraint& cc : cns.config_constraints[ci]) {
      if (cc.expr) req.push_back(TemplateData(to_prose(*cc.expr)));
    }
    x.set("requires", req);
    configs.push_back(x);
  }
  d.set("configs", configs);

  static constexpr const char* kKinds[] = {"pointwise", "reduction", "custom"};
  TemplateData ops = template_list();
  for (const OpAnalysis& a : cns.ops) {
    const Op& op = *a.op;
    const OpDocs docs = op_docs(ns, a);
    TemplateData x;
    const std::string qualified = ns.name + "." + op.name;
    x.set("name", op.name);
    x.set("qualified", qualified);
    x.set("anchor", anchor(qualified));
    const std::string summary =
        op.summary ? trim_text(expand_doc_tokens(op.summary->text, ns, op)) : std::string();
    x.set("summary", summary);
    x.set("summary_cell", markdown_cell(summary));
    TemplateData decls = template_list();
    for (const std::string& s : docs.declarations) decls.push_back(TemplateData(s));
    x.set("declarations", decls);
    TemplateData doc = template_list();
    for (const LocatedText& t : op.doc) doc.push_back(TemplateData(trim_text(expand_doc_tokens(t.text, ns, op))));
    x.set("doc", doc);
    TemplateData params = template_list();
    for (const OpDocs::Row& r : docs.params) {
      TemplateData p;
      p.set("name", markdown_cell(r.name));
      p.set("kind", r.kind);
      p.set("type", markdown_cell(r.type));
      p.set("default", markdown_cell(r.default_value));
      p.set("description", markdown_cell(r.description));
      params.push_back(p);
    }
    x.set("params", params);
    TemplateData formula = template_list();
    if (a.formula) {
      TemplateData f;
      f.set("formula", to_source(*a.formula));
      formula.push_back(f);
    }
    x.set("formula", formula);
    TemplateData req = template_list(), backend = template_list(), errors = template_list();
    for (const std::string& r : docs.requires_) req.push_back(TemplateData(r));
    for (const std::string& r : docs.backend) backend.push_back(TemplateData(r));
    for (const std::string& r : docs.errors) errors.push_back(TemplateData(r));
    x.set("requires", req);
    x.set("has_requires", TemplateData(!docs.requires_.empty()));
    x.set("backend", backend);
    x.set("has_backend", TemplateData(!docs.backend.empty()));
    x.set("errors", errors);
    TemplateData notes = template_list();
    if (op.notes) {
      TemplateData n;
      n.set("notes", trim_text(expand_doc_tokens(op.notes->text, ns, op)));
      notes.push_back(n);
    }
    x.set("notes", notes);
    std::vector<std::string> aliases;
    for (const LocatedString& al : op.aliases) {
      aliases.push_back("`" + (al.value.find('.') == std::string::npos ? ns.name + "." + al.value : al.value) + "`");
    }
    x.set("has_aliases", TemplateData(!aliases.empty()));
    x.set("aliases", join(aliases, ", "));
    x.set("kernel", op.kernel);
    x.set("kind", std::string(kKinds[static_cast<int>(op.kind)]));
    x.set("dtypes", join(a.dtypes, ", "));
    x.set("location", ns.source + ":" + std::to_string(op.loc.line));
    ops.push_back(x);
  }
  d.set("ops", ops);
  return render("reference", d);
}

}  // namespace opgen::gen
