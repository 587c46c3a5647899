#include "pipeline.hpp"

#include "check.hpp"
#include "resolve.hpp"

namespace opgen::gen {

namespace {

std::string op_line(const Namespace& ns, const OpAnalysis& a) {
  const Op& op = *a.op;
  std::string s = ns.name + "." + op.name + "(";
  bool first = true;
  for (const auto* list : {&op.inputs, &op.args}) {
    for (const Param& p : *list) {
      s += (first ? "" : ", ") + p.name.value;
      if (!p.count.is_one()) s += "[" + p.count.text + "]";
      const bool optional = p.kind == ParamKind::input
                                ? (p.optional && p.optional->value) || p.default_from.has_value()
                                : p.default_value.has_value() || p.default_from.has_value();
      if (optional) s += "?";
      first = false;
    }
  }
  for (const LocatedString& c : op.configs) {
    s += (first ? "" : ", ") + c.value + "?";
    first = false;
  }
  s += ") -> ";
  for (std::size_t i = 0; i < op.outputs.size(); ++i) {
    const Param& p = op.outputs[i];
    s += (i ? ", " : "") + p.name.value + (p.count.is_one() ? "" : "[" + p.count.text + "]");
  }
  return s;
}

}  // namespace

PipelineResult run_pipeline(const std::string& spec, const LoadOptions& options,
                            Diagnostics& diags, bool emit_files) {
  PipelineResult result;
  std::optional<SpecSet> set = load_spec_set(spec, options, diags);
  if (!set) return result;
  result.read_paths = set->read_paths;
  const Namespace ns = resolve(*set, diags);
  result.ns = ns.name;
  const CheckedNamespace checked = check(ns, diags);
  if (diags.has_errors()) return result;
  for (const OpAnalysis& a : checked.ops) result.op_lines.push_back(op_line(ns, a));
  // Emitting finds the last problems (overloads C++ cannot tell apart), so
  // it runs for `check` and `list` too; they drop the files.
  GeneratedFiles files = emit(checked, diags);
  if (diags.has_errors() || !emit_files) return result;
  result.files = std::move(files);
  return result;
}

}  // namespace opgen::gen
