// The keys come from spec_keys.hpp, the text of each key's description from
// the tables below (the short form of docs/spec-format.md). A table kind's
// properties are listed in the loader's key order.
#include "spec_schema.hpp"

#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "spec_keys.hpp"

namespace opgen::gen {

namespace {

using Keys = std::span<const std::string_view>;
using KeySchemas = std::vector<std::pair<std::string_view, Json>>;

constexpr std::string_view kIdentifier = "^[A-Za-z_][A-Za-z0-9_]*$";
constexpr std::string_view kLowerSnake = "^[a-z][a-z0-9_]*$";

// ----- fragments

Json described(std::string_view description, std::string_view type) {
  Json j = Json::object();
  j.set("description", description);
  j.set("type", type);
  return j;
}

Json string_key(std::string_view description) { return described(description, "string"); }

Json pattern_key(std::string_view description, std::string_view pattern) {
  Json j = string_key(description);
  j.set("pattern", pattern);
  return j;
}

Json one_of_strings(Keys values) {
  Json a = Json::array();
  for (std::string_view v : values) a.push(v);
  return a;
}

Json enum_key(std::string_view description, Keys values) {
  Json j = string_key(description);
  j.set("enum", one_of_strings(values));
  return j;
}

Json bool_key(std::string_view description) { return described(description, "boolean"); }

Json string_array(std::string_view description, Json items) {
  Json j = described(description, "array");
  j.set("items", std::move(items));
  return j;
}

Json plain_strings() {
  Json j = Json::object();
  j.set("type", "string");
  return j;
}

Json patterned_strings(std::string_view pattern) {
  Json j = plain_strings();
  j.set("pattern", pattern);
  return j;
}

Json enum_strings(Keys values) {
  Json j = plain_strings();
  j.set("enum", one_of_strings(values));
  return j;
}

Json ref(std::string_view definition) {
  Json j = Json::object();
  j.set("$ref", "#/definitions/" + std::string(definition));
  return j;
}

// An array of tables: `[[op.input]]` blocks or `input = [ {...} ]`.
Json tables_key(std::string_view description, std::string_view definition) {
  Json j = described(description, "array");
  j.set("items", ref(definition));
  return j;
}

Json any_of(std::vector<Json> alternatives) {
  Json a = Json::array();
  for (Json& alt : alternatives) a.push(std::move(alt));
  return a;
}

// `count`: an integer or ">=n", "<=n", "a..b" (spaces around are allowed).
Json count_key(std::string_view description) {
  Json integer = Json::object();
  integer.set("type", "integer");
  integer.set("minimum", 1);
  Json text = Json::object();
  text.set("type", "string");
  text.set("pattern", "^ *(>=[0-9]+|<=[0-9]+|[0-9]+\\.\\.[0-9]+|[0-9]+) *$");
  Json j = Json::object();
  j.set("description", description);
  j.set("anyOf", any_of({std::move(integer), std::move(text)}));
  return j;
}

// `default`: a number, bool or string, or an array of them.
Json default_key(std::string_view description) {
  Json scalar = Json::object();
  scalar.set("type", Json::strings({"number", "boolean", "string"}));
  Json array = Json::object();
  array.set("type", "array");
  array.set("items", scalar);
  Json j = Json::object();
  j.set("description", description);
  j.set("anyOf", any_of({scalar, std::move(array)}));
  return j;
}

std::string alternatives(Keys names) {
  std::string s;
  for (std::string_view n : names) {
    if (!s.empty()) s += '|';
    s += n;
  }
  return s;
}

// `rule(...)` for every rule but `custom`, which stands alone.
std::string shape_rule_pattern() {
  std::vector<std::string_view> calls;
  for (std::string_view r : kShapeRules) {
    if (r != "custom") calls.push_back(r);
  }
  return "^\\s*(custom|(" + alternatives(calls) + ")\\s*\\([\\s\\S]*\\))\\s*$";
}

std::string dtype_rule_pattern() {
  return "^\\s*((" + alternatives(kDTypeRules) + ")\\s*\\([\\s\\S]*\\)|" +
         alternatives(kDTypeNames) + ")\\s*$";
}

// A table: its keys in the loader's order, each described; no other keys.
Json table(std::string_view what, std::string_view description, Keys keys,
           const KeySchemas& schemas, std::vector<std::string_view> required) {
  Json properties = Json::object();
  for (std::string_view key : keys) {
    const Json* found = nullptr;
    for (const auto& [k, s] : schemas) {
      if (k == key) found = &s;
    }
    if (found == nullptr) {
      throw std::logic_error("spec schema: key '" + std::string(key) + "' of " +
                             std::string(what) + " has no description");
    }
    properties.set(key, *found);
  }
  for (const auto& entry : schemas) {
    bool listed = false;
    for (std::string_view key : keys) listed = listed || key == entry.first;
    if (!listed) {
      throw std::logic_error("spec schema: '" + std::string(entry.first) +
                             "' is not a key of " + std::string(what));
    }
  }
  Json j = described(description, "object");
  j.set("properties", properties);
  j.set("additionalProperties", false);
  if (!required.empty()) {
    Json r = Json::array();
    for (std::string_view k : required) r.push(k);
    j.set("required", r);
  }
  return j;
}

// ----- the key descriptions, per table kind

KeySchemas file_keys() {
  KeySchemas k;
  k.emplace_back("namespace",
                 pattern_key("The namespace this file defines: lower snake_case, not a C++ "
                             "keyword. Required in a namespace file; a file without it is "
                             "include-only and holds shared [[mixin]], [[config]] and [[enum]] "
                             "entries.",
                             kLowerSnake));
  k.emplace_back("kernel_header",
                 string_key("The header the generated source includes to reach the kernels. "
                            "Default \"builtin_kernels.hpp\" (opgen's own kernels)."));
  k.emplace_back("summary", string_key("One line for the header comment and the reference page."));
  k.emplace_back("doc", string_key("Longer text (Markdown) for the reference page."));
  k.emplace_back("cpp_namespace",
                 pattern_key("The C++ namespace of the generated API, `a::b`. Default "
                             "`opgen::<namespace>`.",
                             "^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*$"));
  k.emplace_back("include",
                 string_array("Include-only files (relative to this file, then to each "
                              "--include-dir) whose mixins, configs and enums become visible "
                              "here.",
                              plain_strings()));
  k.emplace_back("op", tables_key("The ops, in the order they appear everywhere.", "op"));
  k.emplace_back("mixin", tables_key("Shared parts of ops, applied with `use`.", "mixin"));
  k.emplace_back("config", tables_key("Config structs: fields with defaults and their own "
                                      "constraints, taken by ops after their args.",
                                      "config"));
  k.emplace_back("enum", tables_key("Shared enums, for enum args and config fields.", "enum"));
  return k;
}

Json use_entry() {
  KeySchemas k;
  k.emplace_back("mixin", string_key("The mixin's name."));
  k.emplace_back("skip", string_array("Parts of the mixin (and of what it uses) to leave out.",
                                      enum_strings(kSkippable)));
  return table("use entry", "A mixin with parts left out.", kUseKeys, k, {"mixin"});
}

Json inplace_key() {
  KeySchemas k;
  k.emplace_back("output", pattern_key("The output written in place.", kIdentifier));
  k.emplace_back("input", pattern_key("The input that receives it (and is returned).",
                                      kIdentifier));
  return table("inplace",
               "Adds `<name>_inplace(Tensor& input, args...)`, which writes the output into the "
               "input and returns it.",
               kInplaceKeys, k, {"output", "input"});
}

// The keys ops and mixins share, plus the op-only ones.
KeySchemas op_keys(bool mixin) {
  KeySchemas k;
  k.emplace_back("name", mixin ? string_key("The mixin's name, unique among the mixins visible "
                                            "to a file.")
                               : pattern_key("The op's name: lower snake_case, unique in the "
                                             "namespace. A C++ keyword needs `cpp_name`.",
                                             kLowerSnake));
  Json use = described("Mixins applied in order, before the entries of this table: \"name\" or "
                       "{ mixin = \"name\", skip = [...] }.",
                       "array");
  Json use_item = Json::object();
  use_item.set("anyOf", any_of({plain_strings(), use_entry()}));
  use.set("items", use_item);
  k.emplace_back("use", use);
  k.emplace_back("kind", enum_key("How the kernel is driven: pointwise (elementwise, "
                                  "broadcasting), reduction (over dims) or custom (the kernel "
                                  "gets the tensors). Required, usually from a mixin.",
                                  kKinds));
  k.emplace_back("dtypes", string_array("The element types the kernels implement. Default: every "
                                        "dtype the type of the dispatch input allows.",
                                        enum_strings(kDTypeNames)));
  k.emplace_back("summary", string_key("One line; every op needs one (from a mixin or its own)."));
  k.emplace_back("doc", string_key("Markdown for the header comment, the registry and the "
                                   "reference page. Additive: mixins' docs come first. Tokens "
                                   "%OPNAME%, %NAMESPACE%, %KERNEL%, %CPP_NAME% are replaced."));
  k.emplace_back("notes", string_key("Markdown for the reference page only."));
  k.emplace_back("input", tables_key("Tensor inputs. An entry with the name of a mixin's "
                                     "replaces it in place.",
                                     "input"));
  k.emplace_back("arg", tables_key("Scalar or small-array arguments. An entry with the name of a "
                                   "mixin's replaces it in place.",
                                   "arg"));
  k.emplace_back("output", tables_key("Output tensors, each with a shape and a dtype rule.",
                                      "output"));
  k.emplace_back("constraint", tables_key("Checks the generated wrapper runs before the kernel "
                                          "(additive with mixins').",
                                          "constraint"));
  k.emplace_back("signature", tables_key("C++ overloads, each taking the listed parameters in "
                                         "order. Default: every parameter, optional ones "
                                         "defaulted.",
                                         "signature"));
  k.emplace_back("config", string_array("Config structs ([[config]] names) taken after the args.",
                                        patterned_strings(kIdentifier)));
  k.emplace_back("inplace", inplace_key());
  k.emplace_back("out_variant", bool_key("false: no overload taking the outputs. Default true."));
  if (!mixin) {
    k.emplace_back("kernel", pattern_key("The kernel family, called as kernels::<Kernel> in "
                                         "PascalCase. Default: the op's name.",
                                         kIdentifier));
    k.emplace_back("aliases",
                   string_array("Extra names the registry finds the op under; \"ns.name\" "
                                "registers under another namespace.",
                                patterned_strings("^([a-z][a-z0-9_]*\\.)?[A-Za-z_][A-Za-z0-9_]*$")));
    k.emplace_back("cpp_name", pattern_key("The C++ function name when it must differ from "
                                           "`name` (required for C++ keywords).",
                                           kIdentifier));
    k.emplace_back("formula", string_key("Pointwise ops: the op on one element, an expression "
                                         "such as \"x > 0 ? x : alpha * x\", printed in the "
                                         "docs."));
  }
  return k;
}

Json param_name() {
  return pattern_key("An identifier, unique among the op's inputs, args, outputs and configs; "
                     "not a C++ keyword.",
                     kIdentifier);
}

Json param_doc() { return string_key("What the parameter means (Markdown)."); }

Json input_table() {
  KeySchemas k;
  k.emplace_back("name", param_name());
  k.emplace_back("type", enum_key("The dtypes it takes: float (float32, float64), int (int32, "
                                  "int64), numeric (float or int), bool, any, or one dtype.",
                                  kInputTypes));
  k.emplace_back("doc", param_doc());
  k.emplace_back("count", count_key("How many tensors: 1 (default), n, \">=n\", \"<=n\" or "
                                    "\"a..b\"; other than 1, a Span<Tensor>."));
  k.emplace_back("optional", bool_key("true: the input may be absent (a null Tensor); present(x) "
                                      "tests it in constraints."));
  k.emplace_back("default_from", pattern_key("Another input used when this one is absent.",
                                             kIdentifier));
  return table("input", "A tensor input.", kInputKeys, k, {"name", "type"});
}

KeySchemas arg_keys() {
  KeySchemas k;
  k.emplace_back("name", param_name());
  k.emplace_back("type", enum_key("int (std::int64_t), float (double), bool, string, dtype "
                                  "(opgen::DType) or enum.",
                                  kArgTypes));
  k.emplace_back("doc", param_doc());
  k.emplace_back("count", count_key("How many values: 1 (default), n, \">=n\", \"<=n\" or "
                                    "\"a..b\"; other than 1, a span."));
  k.emplace_back("default", default_key("A literal of the arg's type: an array for counted "
                                        "args, an enum value or dtype name as a string. Makes "
                                        "the arg optional."));
  k.emplace_back("default_from",
                 string_key("An expression for the default: another arg, \"x.dtype()\", "
                            "\"x.rank()\", \"x.shape()\" or any expression of the arg's type."));
  k.emplace_back("values", string_array("type = \"enum\": the allowed values.",
                                        patterned_strings(kIdentifier)));
  k.emplace_back("enum", pattern_key("type = \"enum\": a shared [[enum]] to use instead of "
                                     "values.",
                                     kIdentifier));
  return k;
}

Json output_table() {
  KeySchemas k;
  k.emplace_back("name", param_name());
  k.emplace_back("type", enum_key("As for inputs (documentation; the dtype rule decides).",
                                  kInputTypes));
  k.emplace_back("doc", param_doc());
  k.emplace_back("count", count_key("How many tensors: 1 (default), n, \">=n\", \"<=n\" or "
                                    "\"a..b\"; other than 1, a std::vector<Tensor> result "
                                    "(std::span<Tensor> in out overloads). Other than exactly "
                                    "n, the shape rule must be custom."));
  k.emplace_back("shape", pattern_key("The shape rule: same(x), broadcast(x, y, ...), reduce(x, "
                                      "dims, keep_dims), matmul(a, b[, trans_a, trans_b]), "
                                      "concat(xs, dim), stack(xs, dim), from(shape), scalar() "
                                      "or custom.",
                                      shape_rule_pattern()));
  k.emplace_back("dtype", pattern_key("The dtype rule: same(x), promote(x, y, ...), to_float(x), "
                                      "from(arg) or a dtype name.",
                                      dtype_rule_pattern()));
  return table("output", "An output tensor.", kOutputKeys, k, {"name", "type", "shape", "dtype"});
}

Json constraint_table() {
  KeySchemas k;
  k.emplace_back("check", string_key("An expression that must hold, such as \"x.rank() == 2 && "
                                     "alpha >= 0\"."));
  k.emplace_back("message", string_key("The error message when the check fails. Default: the "
                                       "check in prose."));
  k.emplace_back("backend", bool_key("true: documented and type-checked, but enforced by the "
                                     "kernel, not the wrapper."));
  return table("constraint", "A check on the parameters.", kConstraintKeys, k, {"check"});
}

Json signature_table() {
  KeySchemas k;
  k.emplace_back("params", string_array("The overload's parameters in order: inputs, args and "
                                        "configs, then outputs for an out overload. Every "
                                        "required parameter must be listed.",
                                        patterned_strings(kIdentifier)));
  k.emplace_back("doc", string_key("What this overload is for."));
  return table("signature", "One C++ overload.", kSignatureKeys, k, {"params"});
}

Json config_table() {
  KeySchemas k;
  k.emplace_back("name", pattern_key("The struct's name.", kIdentifier));
  k.emplace_back("doc", string_key("What the config is for (Markdown)."));
  k.emplace_back("arg", tables_key("The fields: args, each with a default; enum fields use "
                                   "shared enums.",
                                   "arg"));
  k.emplace_back("constraint", tables_key("Checks validate() runs on the fields.", "constraint"));
  return table("config", "A config struct.", kConfigKeys, k, {"name"});
}

Json enum_table() {
  KeySchemas k;
  k.emplace_back("name", pattern_key("The enum's name; enum args use it as enum = \"Name\".",
                                     kIdentifier));
  k.emplace_back("doc", string_key("What the enum is for (Markdown)."));
  k.emplace_back("values", string_array("The values, in order.", patterned_strings(kIdentifier)));
  return table("enum", "A shared enum.", kEnumKeys, k, {"name", "values"});
}

}  // namespace

Json spec_schema() {
  Json definitions = Json::object();
  definitions.set("op", table("op", "An op.", kOpKeys, op_keys(false), {"name"}));
  definitions.set("mixin", table("mixin", "A mixin: any op key but kernel, cpp_name, aliases "
                                          "and formula.",
                                 kMixinKeys, op_keys(true), {"name"}));
  definitions.set("input", input_table());
  definitions.set("arg", table("arg", "A scalar or small-array argument.", kArgKeys, arg_keys(),
                               {"name", "type"}));
  definitions.set("output", output_table());
  definitions.set("constraint", constraint_table());
  definitions.set("signature", signature_table());
  definitions.set("config", config_table());
  definitions.set("enum", enum_table());

  Json schema = Json::object();
  schema.set("$schema", "http://json-schema.org/draft-07/schema#");
  schema.set("title", "opgen spec file");
  Json file = table("the file",
                    "An opgen spec: a namespace file (with `namespace`) or an include-only file. "
                    "Generated by `opgen schema` from the generator's key tables; see "
                    "docs/spec-format.md.",
                    kFileKeys, file_keys(), {});
  for (const auto& [key, value] : file.members()) schema.set(key, value);
  schema.set("definitions", definitions);
  return schema;
}

}  // namespace opgen::gen
