// The keys each kind of spec table accepts (SPEC-FORMAT.md; user docs in
// docs/spec-format.md). A key not listed is an "unknown key" error with the
// closest listed key as the suggestion.
#pragma once

#include <string_view>
#include <utility>

namespace opgen::gen {

inline constexpr std::string_view kFileKeys[] = {
    "namespace", "kernel_header", "summary", "doc", "cpp_namespace",
    "include",   "op",            "mixin",   "config", "enum"};

inline constexpr std::string_view kOpKeys[] = {
    "name",       "use",       "kind",        "kernel",  "dtypes",   "summary", "doc",
    "notes",      "input",     "arg",         "output",  "constraint", "signature",
    "config",     "inplace",   "aliases",     "out_variant", "cpp_name", "formula"};

/// A mixin has every op key except kernel, cpp_name, aliases and formula.
inline constexpr std::string_view kMixinKeys[] = {
    "name",   "use",    "kind",       "dtypes",    "summary", "doc",     "notes",
    "input",  "arg",    "output",     "constraint", "signature", "config", "inplace",
    "out_variant"};

inline constexpr std::string_view kInputKeys[] = {"name", "type", "doc", "count", "optional",
                                                  "default_from"};
inline constexpr std::string_view kArgKeys[] = {"name",         "type",   "doc", "count", "default",
                                                "default_from", "values", "enum"};
inline constexpr std::string_view kOutputKeys[] = {"name", "type", "doc", "count", "shape",
                                                   "dtype"};
inline constexpr std::string_view kConstraintKeys[] = {"check", "message", "backend"};
inline constexpr std::string_view kSignatureKeys[] = {"params", "doc"};
inline constexpr std::string_view kUseKeys[] = {"mixin", "skip"};
inline constexpr std::string_view kInplaceKeys[] = {"output", "input"};
inline constexpr std::string_view kConfigKeys[] = {"name", "doc", "arg", "constraint"};
inline constexpr std::string_view kEnumKeys[] = {"name", "doc", "values"};

/// Keys of other op-definition systems (ND4J, ONNX, PyTorch) and plural
/// slips, mapped to ours, for "did you mean".
inline constexpr std::pair<std::string_view, std::string_view> kKeySynonyms[] = {
    {"description", "doc"},   {"desc", "doc"},          {"documentation", "doc"},
    {"inputs", "input"},      {"args", "arg"},          {"outputs", "output"},
    {"constraints", "constraint"}, {"signatures", "signature"}, {"mixins", "use"},
    {"configs", "config"},    {"alias", "aliases"},     {"values_", "values"},
    {"optional_", "optional"}, {"defaults", "default"}, {"kernels", "kernel"},
    {"includes", "include"},  {"types", "dtypes"},      {"brief", "summary"}};

/// Parts of a mixin a `use` entry may skip.
inline constexpr std::string_view kSkippable[] = {"input",     "arg", "output", "constraint",
                                                  "signature", "doc", "config"};

inline constexpr std::string_view kKinds[] = {"pointwise", "reduction", "custom"};
inline constexpr std::string_view kDTypeNames[] = {"float32", "float64", "int32", "int64", "bool"};
inline constexpr std::string_view kInputTypes[] = {"float", "int",     "numeric", "bool",
                                                   "any",   "float32", "float64", "int32",
                                                   "int64"};
inline constexpr std::string_view kArgTypes[] = {"int", "float", "bool", "string", "dtype",
                                                 "enum"};

/// Shape rules of outputs: each is written `rule(operands...)`, except
/// `custom`, written alone.
inline constexpr std::string_view kShapeRules[] = {"same",   "broadcast", "reduce",
                                                   "matmul", "concat",    "stack",
                                                   "from",   "scalar",    "custom"};
/// Dtype rules of outputs, written `rule(operands...)`; a dtype name
/// (kDTypeNames) is a rule too.
inline constexpr std::string_view kDTypeRules[] = {"same", "promote", "to_float", "from"};

/// True when `type` names one dtype (kDTypeNames), not a class such as
/// `float` or `numeric`.
inline bool is_fixed_dtype(std::string_view type) {
  for (std::string_view d : kDTypeNames) {
    if (d == type) return true;
  }
  return false;
}

}  // namespace opgen::gen
