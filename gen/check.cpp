#include "check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include "edit_distance.hpp"
#include "resolve.hpp"
#include "spec_keys.hpp"

namespace opgen::gen {

bool is_cpp_keyword(std::string_view name) {
  static constexpr std::string_view kKeywords[] = {
      "alignas",   "alignof",      "and",        "and_eq",      "asm",          "auto",
      "bitand",    "bitor",        "bool",       "break",       "case",         "catch",
      "char",      "char8_t",      "char16_t",   "char32_t",    "class",        "compl",
      "concept",   "const",        "consteval",  "constexpr",   "constinit",    "const_cast",
      "continue",  "co_await",     "co_return",  "co_yield",    "decltype",     "default",
      "delete",    "do",           "double",     "dynamic_cast", "else",        "enum",
      "explicit",  "export",       "extern",     "false",       "float",        "for",
      "friend",    "goto",         "if",         "inline",      "int",          "long",
      "mutable",   "namespace",    "new",        "noexcept",    "not",          "not_eq",
      "nullptr",   "operator",     "or",         "or_eq",       "private",      "protected",
      "public",    "register",     "reinterpret_cast", "requires", "return",    "short",
      "signed",    "sizeof",       "static",     "static_assert", "static_cast", "struct",
      "switch",    "template",     "this",       "thread_local", "throw",       "true",
      "try",       "typedef",      "typeid",     "typename",    "union",        "unsigned",
      "using",     "virtual",      "void",       "volatile",    "wchar_t",      "while",
      "xor",       "xor_eq"};
  return std::find(std::begin(kKeywords), std::end(kKeywords), name) != std::end(kKeywords);
}

bool is_identifier(std::string_view name) {
  if (name.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(name[0])) return false;
  return std::all_of(name.begin(), name.end(),
                     [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

bool is_lower_snake(std::string_view name) {
  if (name.empty() || name[0] < 'a' || name[0] > 'z') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::string local_enum_type(const Op& op, const Param& arg) {
  return pascal_case(op.name) + pascal_case(arg.name.value);
}

std::string enumerator(std::string_view value) {
  std::string v(value);
  if (is_cpp_keyword(v)) v += '_';
  return v;
}

std::string config_param_name(std::string_view config) {
  std::string s(config);
  if (!s.empty()) s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}

std::string static_out_dtype(const OpAnalysis& a, std::size_t out, const std::string& d) {
  const DTypeRule& r = a.dtype_rules[out];
  switch (r.kind) {
    case DTypeRule::Kind::fixed:
      return r.fixed;
    case DTypeRule::Kind::to_float:
      return d == "float32" || d == "float64" ? d : "float32";
    case DTypeRule::Kind::same:
      if (!r.tensors.empty() && is_fixed_dtype(r.tensors[0]->type.value)) return r.tensors[0]->type.value;
      return d;
    case DTypeRule::Kind::promote:
      return d;
    case DTypeRule::Kind::from:
      return "";
  }
  return "";
}

const EnumInfo* OpAnalysis::enum_of(const Param& arg) const {
  if (scope) {
    for (const Symbol& s : scope->symbols) {
      const bool is_enum = s.type.kind == TypeKind::enum_ || s.type.kind == TypeKind::enum_list;
      if (s.name == arg.name.value && is_enum) return s.type.enum_info;
    }
  }
  return nullptr;
}

namespace {

constexpr std::array<std::string_view, 4> kDocTokens = {"%OPNAME%", "%NAMESPACE%", "%KERNEL%",
                                                        "%CPP_NAME%"};

// Names other systems use for our types, for "did you mean".
std::string type_synonym(std::string_view word, bool arg) {
  static constexpr std::pair<std::string_view, std::string_view> kTensor[] = {
      {"double", "float64"}, {"long", "int64"},     {"boolean", "bool"}, {"integer", "int"},
      {"number", "numeric"}, {"real", "float"},     {"half", "float"},   {"tensor", "any"}};
  static constexpr std::pair<std::string_view, std::string_view> kArg[] = {
      {"double", "float"},  {"float32", "float"}, {"float64", "float"}, {"long", "int"},
      {"int32", "int"},     {"int64", "int"},     {"integer", "int"},   {"boolean", "bool"},
      {"str", "string"},    {"text", "string"},   {"real", "float"},    {"DataType", "dtype"}};
  using Pair = std::pair<std::string_view, std::string_view>;
  const std::span<const Pair> table = arg ? std::span<const Pair>(kArg) : std::span<const Pair>(kTensor);
  for (const auto& [other, ours] : table) {
    if (word == other) return "; did you mean '" + std::string(ours) + "'?";
  }
  return "";
}

bool input_type_allows(std::string_view type, std::string_view dtype) {
  if (type == "any") return true;
  if (type == "numeric") return dtype != "bool";
  if (type == "float") return dtype == "float32" || dtype == "float64";
  if (type == "int") return dtype == "int32" || dtype == "int64";
  return type == dtype;
}

std::vector<std::string> dtypes_of_type(std::string_view type) {
  std::vector<std::string> out;
  for (std::string_view d : kDTypeNames) {
    if (input_type_allows(type, d)) out.emplace_back(d);
  }
  return out;
}

// Counted config fields are vectors; expressions see them as spans, except
// bool ones: a std::vector<bool> has no bools to view, and the runtime's
// element() and show() take it as it is.
std::string config_field_cpp(const Param& f, const EnumInfo* e, const std::string& access) {
  if (f.count.is_one()) return access;
  const std::string& t = f.type.value;
  std::string elem;
  if (t == "int") {
    elem = "std::int64_t";
  } else if (t == "float") {
    elem = "double";
  } else if (t == "string") {
    elem = "std::string";
  } else if (t == "dtype") {
    elem = "DType";
  } else if (t == "enum" && e != nullptr) {
    elem = e->cpp_type;
  } else {
    return access;
  }
  return "Span<" + elem + ">(" + access + ")";
}

Type arg_type(const Param& p, const EnumInfo* e) {
  const std::string& t = p.type.value;
  const bool one = p.count.is_one();
  if (t == "int") return {one ? TypeKind::int_ : TypeKind::int_list};
  if (t == "float") return {one ? TypeKind::float_ : TypeKind::float_list};
  if (t == "bool") return {one ? TypeKind::bool_ : TypeKind::bool_list};
  if (t == "string") return {one ? TypeKind::string : TypeKind::string_list};
  if (t == "dtype") return {one ? TypeKind::dtype : TypeKind::dtype_list};
  if (t == "enum") return {one ? TypeKind::enum_ : TypeKind::enum_list, e};
  return {TypeKind::error};
}

class Checker {
 public:
  Checker(const Namespace& ns, Diagnostics& diags) : ns_(ns), diags_(diags) {}

  CheckedNamespace run() {
    CheckedNamespace out;
    out.ns = &ns_;
    check_namespace();
    for (const EnumDef* e : ns_.enums) out.shared_enums.push_back(shared_enum(*e));
    shared_ = &out.shared_enums;
    for (const ConfigDef* c : ns_.configs) check_config(*c, out);
    for (const Op& op : ns_.ops) out.ops.push_back(check_op(op));
    return out;
  }

 private:
  // ----- names

  // A name longer than kMaxNameLength: reported (once, clipped) and true.
  bool name_too_long(const std::string& name, SourceLoc loc, std::string_view what) {
    if (name.size() <= kMaxNameLength) return false;
    diags_.error(Diag::name_too_long, loc,
                 std::string(what) + " '" + name.substr(0, 24) + "...' is " +
                     std::to_string(name.size()) + " characters long (at most " +
                     std::to_string(kMaxNameLength) + ")");
    return true;
  }

  void check_cpp_name(const LocatedString& n, std::string_view what) {
    if (name_too_long(n.value, n.loc, what)) return;
    if (!is_identifier(n.value)) {
      diags_.error(
          Diag::not_an_identifier, n.loc,
          std::string(what) + " '" + n.value + "' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)");
    } else if (is_cpp_keyword(n.value)) {
      diags_.error(
          Diag::cpp_keyword, n.loc,
          std::string(what) + " '" + n.value + "' is a C++ keyword and cannot be a C++ name");
    }
  }

  void check_doc_tokens(const std::optional<LocatedText>& doc) {
    if (doc) check_doc_tokens(*doc);
  }
  void check_doc_tokens(const LocatedText& doc) {
    const std::string& t = doc.text;
    for (std::size_t i = t.find('%'); i != std::string::npos; i = t.find('%', i + 1)) {
      std::size_t j = i + 1;
      while (j < t.size() && ((t[j] >= 'A' && t[j] <= 'Z') || t[j] == '_')) ++j;
      if (j == i + 1 || j >= t.size() || t[j] != '%') continue;
      const std::string_view token(t.data() + i, j - i + 1);
      if (std::find(kDocTokens.begin(), kDocTokens.end(), token) == kDocTokens.end()) {
        diags_.error(Diag::unknown_doc_token, doc.at(i),
                     "unknown doc token '" + std::string(token) + "'" +
                         did_you_mean(token, std::span<const std::string_view>(kDocTokens)) +
                         " (tokens: %OPNAME%, %NAMESPACE%, %KERNEL%, %CPP_NAME%)");
      }
      i = j;
    }
  }

  // The stems of the runtime's headers in include/opgen/ (and of the
  // generated builtin.hpp): a namespace's header is <name>.hpp in the same
  // include folder for the built-in namespaces, and beside them in a
  // consumer's include path.
  static bool is_runtime_header_name(std::string_view name) {
    static constexpr std::string_view kNames[] = {
        "builtin", "denormals", "detail", "dtype",  "error",        "formula",
        "opgen",   "registry",  "span",   "tensor", "tensor_shape", "threads"};
    return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
  }

  void check_namespace() {
    if (name_too_long(ns_.name, ns_.loc, "namespace")) {
    } else if (!is_lower_snake(ns_.name) || is_cpp_keyword(ns_.name)) {
      diags_.error(Diag::name_not_snake_case, ns_.loc,
                   "namespace '" + ns_.name +
                       "' must be lower snake_case ([a-z][a-z0-9_]*) and not a C++ "
                       "keyword");
    } else if (is_runtime_header_name(ns_.name)) {
      diags_.error(Diag::reserved_namespace, ns_.loc,
                   "namespace '" + ns_.name + "' is the name of the runtime header <opgen/" +
                       ns_.name + ".hpp>, which the generated header " + ns_.name +
                       ".hpp would hide; choose another name");
    }
    // cpp_namespace: identifiers separated by '::'.
    std::string_view cn = ns_.cpp_namespace;
    bool ok = !cn.empty();
    for (std::size_t start = 0; ok && start <= cn.size();) {
      const std::size_t sep = cn.find("::", start);
      const std::string_view part =
          cn.substr(start, sep == std::string_view::npos ? std::string_view::npos : sep - start);
      ok = is_identifier(part) && !is_cpp_keyword(part);
      if (sep == std::string_view::npos) break;
      start = sep + 2;
    }
    // One derived from the name is fine when the name is (checked above).
    if (!ok && ns_.cpp_namespace_loc.known()) {
      diags_.error(Diag::not_an_identifier, ns_.cpp_namespace_loc,
                   "cpp_namespace '" + ns_.cpp_namespace + "' is not a C++ namespace");
    }
    check_doc_tokens(ns_.doc);
  }

  std::unique_ptr<EnumInfo> shared_enum(const EnumDef& e) {
    auto info = std::make_unique<EnumInfo>();
    info->name = e.name.value;
    info->cpp_type = e.name.value;
    check_cpp_name(e.name, "enum name");
    check_enum_values(e.values, e.loc, "enum '" + e.name.value + "'");
    for (const LocatedString& v : e.values) {
      info->values.push_back(v.value);
      info->cpp_values.push_back(enumerator(v.value));
    }
    return info;
  }

  void check_enum_values(const std::vector<LocatedString>& values, SourceLoc where,
                         const std::string& what) {
    if (values.empty()) diags_.error(Diag::empty_list, where, what + " has no values");
    std::map<std::string, SourceLoc> seen;
    for (const LocatedString& v : values) {
      if (name_too_long(v.value, v.loc, "enum value")) {
      } else if (!is_identifier(v.value)) {
        diags_.error(Diag::not_an_identifier, v.loc,
                     "enum value '" + v.value + "' is not an identifier");
      }
      auto [it, fresh] = seen.emplace(v.value, v.loc);
      if (!fresh) {
        diags_.error(Diag::duplicate_list_item, v.loc, "duplicate enum value '" + v.value + "'");
        diags_.note(it->second, "first listed here");
      }
    }
  }

  // ----- parameters

  void check_count(const Param& p) {
    if (p.count.max == 0) {
      diags_.error(Diag::empty_list, p.count.loc,
                   "count of '" + p.name.value + "' allows no values");
    }
  }

  void check_input(const Param& p) {
    if (p.type.value.empty()) {
      if (p.misspelled.count("type") == 0) {
        diags_.error(Diag::missing_key, p.loc, "input '" + p.name.value + "' has no 'type'");
      }
    } else if (std::find(std::begin(kInputTypes), std::end(kInputTypes), p.type.value) ==
               std::end(kInputTypes)) {
      std::string hint = type_synonym(p.type.value, false);
      if (hint.empty()) hint = did_you_mean(p.type.value, std::span<const std::string_view>(kInputTypes));
      std::string msg = "unknown input type '" + p.type.value + "'" + hint;
      if (p.type.value == "bool") msg.clear();
      if (!msg.empty()) {
        diags_.error(Diag::unknown_tensor_type, p.type.loc,
                     msg + " (types: float, int, numeric, bool, any, or a dtype name)");
      }
    }
    check_count(p);
  }

  void check_output(const Param& p) {
    if (p.type.value.empty()) {
      if (p.misspelled.count("type") == 0) {
        diags_.error(Diag::missing_key, p.loc, "output '" + p.name.value + "' has no 'type'");
      }
    } else if (std::find(std::begin(kInputTypes), std::end(kInputTypes), p.type.value) ==
                   std::end(kInputTypes) &&
               p.type.value != "bool") {
      diags_.error(Diag::unknown_tensor_type, p.type.loc,
                   "unknown output type '" + p.type.value + "'" +
                       did_you_mean(p.type.value, std::span<const std::string_view>(kInputTypes)) +
                       " (types: float, int, numeric, bool, any, or a dtype name)");
    }
    check_count(p);
    if (!p.shape && p.misspelled.count("shape") == 0) {
      diags_.error(Diag::missing_key, p.loc, "output '" + p.name.value + "' has no 'shape' rule");
    }
    if (!p.dtype && p.misspelled.count("dtype") == 0) {
      diags_.error(Diag::missing_key, p.loc, "output '" + p.name.value + "' has no 'dtype' rule");
    }
  }

  // Checks a literal default against an arg's type; `what` names the arg.
  void check_literal(const Literal& lit, const Param& p, const EnumInfo* e) {
    const std::string& t = p.type.value;
    // The problem with one value, with its class; an empty message when none.
    auto scalar_ok = [&](const Literal& v) -> std::pair<Diag, std::string> {
      const Diag mismatch = Diag::default_type_mismatch;
      switch (v.kind) {
        case Literal::Kind::int_:
          if (t == "int") return {};
          if (t == "float") {
            // Literal defaults convert where no precision is lost.
            const auto d = static_cast<double>(v.int_value);
            if (std::abs(v.int_value) <= (std::int64_t{1} << 53) ||
                static_cast<std::int64_t>(d) == v.int_value) {
              return {};
            }
            return {mismatch,
                    "integer " + std::to_string(v.int_value) + " cannot be a float exactly"};
          }
          break;
        case Literal::Kind::float_:
          if (t == "float") return {};
          break;
        case Literal::Kind::bool_:
          if (t == "bool") return {};
          break;
        case Literal::Kind::string:
          if (t == "string") return {};
          if (t == "dtype") {
            if (std::find(std::begin(kDTypeNames), std::end(kDTypeNames), v.string_value) !=
                std::end(kDTypeNames)) {
              return {};
            }
            return {
                Diag::unknown_dtype,
                "unknown dtype '" + v.string_value + "'" +
                    did_you_mean(v.string_value, std::span<const std::string_view>(kDTypeNames))};
          }
          if (t == "enum" && e != nullptr) {
            if (std::find(e->values.begin(), e->values.end(), v.string_value) != e->values.end()) {
              return {};
            }
            return {Diag::unknown_enum_value,
                    "'" + v.string_value + "' is not a value of " +
                        (e->name.empty() ? "'" + p.name.value + "'" : "enum " + e->name) +
                        did_you_mean(v.string_value, e->values)};
          }
          if (t == "enum") return {};
          break;
        case Literal::Kind::array:
          break;
      }
      static constexpr std::string_view kKindNames[] = {"an integer", "a float", "a bool",
                                                        "a string", "an array"};
      return {mismatch, "default of " + t + " arg '" + p.name.value + "' cannot be " +
                            std::string(kKindNames[static_cast<int>(v.kind)])};
    };
    if (!p.count.is_one()) {
      if (lit.kind != Literal::Kind::array) {
        diags_.error(Diag::default_count_mismatch, lit.loc,
                     "'" + p.name.value + "' takes " + p.count.text +
                         " values: its default must be an array");
        return;
      }
      const auto n = static_cast<std::int64_t>(lit.items.size());
      if (n < p.count.min || (p.count.max >= 0 && n > p.count.max)) {
        diags_.error(Diag::default_count_mismatch, lit.loc,
                     "default of '" + p.name.value + "' has " + std::to_string(n) +
                         " values; its count is " + p.count.text);
      }
      for (const Literal& item : lit.items) {
        if (auto [diag, why] = scalar_ok(item); !why.empty()) diags_.error(diag, item.loc, why);
      }
      return;
    }
    if (auto [diag, why] = scalar_ok(lit); !why.empty()) diags_.error(diag, lit.loc, why);
  }

  void check_arg(const Op* op, const Param& p, std::vector<std::unique_ptr<EnumInfo>>* local,
                 const EnumInfo*& info) {
    info = nullptr;
    const std::string& t = p.type.value;
    if (t.empty()) {
      if (p.misspelled.count("type") == 0) {
        diags_.error(Diag::missing_key, p.loc, "arg '" + p.name.value + "' has no 'type'");
      }
    } else if (std::find(std::begin(kArgTypes), std::end(kArgTypes), t) == std::end(kArgTypes)) {
      std::string hint = type_synonym(t, true);
      if (hint.empty()) hint = did_you_mean(t, std::span<const std::string_view>(kArgTypes));
      diags_.error(Diag::unknown_arg_type, p.type.loc,
                   "unknown arg type '" + t + "'" + hint +
                       " (types: int, float, bool, string, dtype, enum)");
    }
    check_count(p);
    if (t == "enum") {
      if (p.enum_name && p.values_loc.known()) {
        diags_.error(Diag::conflicting_keys, p.enum_name->loc,
                     "enum arg '" + p.name.value + "' has both 'values' and 'enum'; use one");
      } else if (p.enum_name) {
        for (const auto& e : *shared_) {
          if (e->name == p.enum_name->value) info = e.get();
        }
      } else if (p.values_loc.known()) {
        check_enum_values(p.values, p.values_loc, "enum arg '" + p.name.value + "'");
        auto e = std::make_unique<EnumInfo>();
        e->cpp_type = op ? local_enum_type(*op, p) : pascal_case(p.name.value);
        for (const LocatedString& v : p.values) {
          e->values.push_back(v.value);
          e->cpp_values.push_back(enumerator(v.value));
        }
        info = e.get();
        if (local) local->push_back(std::move(e));
      } else {
        diags_.error(Diag::missing_key, p.loc,
                     "enum arg '" + p.name.value +
                         "' needs 'values' (its own) or 'enum' (a shared [[enum]])");
      }
    } else if (p.values_loc.known()) {
      diags_.error(Diag::enum_key_on_non_enum, p.values_loc,
                   "'values' is only for enum args; set type = \"enum\" on '" + p.name.value + "'");
    } else if (p.enum_name) {
      diags_.error(Diag::enum_key_on_non_enum, p.enum_name->loc,
                   "'enum' is only for enum args; set type = \"enum\" on '" + p.name.value + "'");
    }
    if (p.default_value && p.default_from) {
      diags_.error(Diag::conflicting_keys, p.default_from->loc,
                   "'" + p.name.value + "' has both 'default' and 'default_from'; use one");
    }
    if (p.default_value) check_literal(*p.default_value, p, info);
  }

  // ----- configs

  void check_config(const ConfigDef& c, CheckedNamespace& out) {
    check_cpp_name(c.name, "config name");
    auto scope = std::make_unique<Scope>();
    std::map<std::string, SourceLoc> seen;
    std::vector<std::unique_ptr<EnumInfo>> local;
    for (const Param& a : c.args) {
      check_name(a, seen);
      const EnumInfo* info = nullptr;
      check_arg(nullptr, a, &local, info);
      if (!a.default_value && !a.default_from) {
        diags_.error(Diag::missing_key, a.loc,
                     "config field '" + a.name.value +
                         "' needs a 'default' (config fields always have one)");
      }
      if (a.default_from) {
        diags_.error(Diag::bad_config_field, a.default_from->loc,
                     "config fields take 'default', not 'default_from'");
      }
      if (a.type.value == "enum" && a.enum_name == std::nullopt) {
        diags_.error(Diag::bad_config_field, a.loc,
                     "config field '" + a.name.value +
                         "' must use a shared enum (enum = \"Name\"), not local values");
      }
      scope->symbols.push_back({a.name.value, arg_type(a, info),
                                config_field_cpp(a, info, a.name.value), false, a.name.loc});
    }
    for (auto& e : local) out.shared_enums.push_back(std::move(e));
    std::vector<CheckedConstraint> constraints;
    for (const Constraint& k : c.constraints) {
      constraints.push_back(check_constraint(k, *scope));
    }
    out.config_scopes.push_back(std::move(scope));
    out.config_constraints.push_back(std::move(constraints));
  }

  // ----- constraints and rules

  CheckedConstraint check_constraint(const Constraint& c, const Scope& scope) {
    CheckedConstraint out;
    out.constraint = &c;
    if (c.message) check_doc_tokens(*c.message);
    ExprPtr e = parse_expression(c.check, diags_);
    if (!e) return out;
    const Type t = check_expression(*e, scope, ExprMode::constraint, diags_);
    if (t.is_error()) return out;
    if (t.kind != TypeKind::bool_) {
      diags_.error(
          Diag::constraint_not_bool, c.check.loc,
          "a check must be a condition (bool), but '" + c.check.text + "' is " + type_name(t));
      return out;
    }
    out.expr = std::move(e);
    return out;
  }

  void check_name(const Param& p, std::map<std::string, SourceLoc>& seen) {
    if (p.name.value.empty()) return;
    check_cpp_name(p.name, "parameter name");
    auto [it, fresh] = seen.emplace(p.name.value, p.name.loc);
    if (!fresh) {
      diags_.error(Diag::duplicate_parameter, p.name.loc,
                   "duplicate parameter '" + p.name.value + "'");
      diags_.note(it->second, "'" + p.name.value + "' first declared here");
    }
  }

  const Param* find_param(const Op& op, std::string_view name) {
    for (const auto* list : {&op.inputs, &op.args, &op.outputs}) {
      for (const Param& p : *list) {
        if (p.name.value == name) return &p;
      }
    }
    return nullptr;
  }

  std::vector<std::string> param_names(const Op& op, bool inputs, bool args) {
    std::vector<std::string> out;
    if (inputs) {
      for (const Param& p : op.inputs) out.push_back(p.name.value);
    }
    if (args) {
      for (const Param& p : op.args) out.push_back(p.name.value);
    }
    return out;
  }

  // A rule operand naming a tensor input.
  const Param* rule_tensor(const Op& op, const Expr& e, bool allow_list, std::string_view rule) {
    if (e.kind == ExprKind::name) {
      for (const Param& p : op.inputs) {
        if (p.name.value != e.text) continue;
        if (!p.count.is_one() && !allow_list) {
          diags_.error(Diag::rule_operand_type, e.loc,
                       "'" + e.text + "' is a counted input; " + std::string(rule) +
                           "() takes single tensors (use " + e.text + "[0]?)");
          return nullptr;
        }
        return &p;
      }
    }
    if (e.kind == ExprKind::index && e.args[0]->kind == ExprKind::name &&
        e.args[1]->kind == ExprKind::int_literal && e.args[1]->int_value == 0) {
      for (const Param& p : op.inputs) {
        if (p.name.value == e.args[0]->text && !p.count.is_one()) return &p;
      }
    }
    const std::string text = e.kind == ExprKind::name ? e.text : to_source(e);
    diags_.error(Diag::rule_unknown_operand, e.loc,
                 "'" + text + "' is not a tensor input of '" + op.name + "'" +
                     did_you_mean(text, param_names(op, true, false)));
    return nullptr;
  }

  // An operand that is an arg of type `type` (count one or not) or a literal.
  bool rule_operand(const Op& op, const Expr& e, std::string_view type, bool list,
                    RuleOperand& out, std::string_view what) {
    if (e.kind == ExprKind::name && e.text != "true" && e.text != "false") {
      for (const Param& p : op.args) {
        if (p.name.value != e.text) continue;
        if (p.type.value != type || p.count.is_one() == list) {
          diags_.error(Diag::rule_operand_type, e.loc,
                       "'" + e.text + "' must be " + std::string(what));
          return false;
        }
        out.param = &p;
        return true;
      }
      diags_.error(Diag::rule_unknown_operand, e.loc,
                   "'" + e.text + "' is not an arg of '" + op.name + "'" +
                       did_you_mean(e.text, param_names(op, false, true)));
      return false;
    }
    if (type == "bool" && e.kind == ExprKind::bool_literal) {
      out.bool_value = e.bool_value;
      return true;
    }
    if (type == "int" && !list && e.kind == ExprKind::int_literal) {
      out.ints = {e.int_value};
      return true;
    }
    if (type == "int" && !list && e.kind == ExprKind::unary && e.text == "-" &&
        e.args[0]->kind == ExprKind::int_literal) {
      out.ints = {-e.args[0]->int_value};
      return true;
    }
    if (type == "int" && list && e.kind == ExprKind::array_literal) {
      for (const auto& item : e.args) {
        if (item->kind != ExprKind::int_literal) {
          diags_.error(Diag::rule_operand_type, item->loc,
                       "array items in a rule must be integer literals");
          return false;
        }
        out.ints.push_back(item->int_value);
      }
      return true;
    }
    diags_.error(Diag::rule_operand_type, e.loc,
                 "expected " + std::string(what) + ", got '" + to_source(e) + "'");
    return false;
  }

  bool expect_args(const Expr& call, std::size_t lo, std::size_t hi, std::string_view usage) {
    const std::size_t n = call.args.size();
    if (n < lo || n > hi) {
      std::string takes =
          lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
      if (hi == 0) {
        takes = "no arguments";
      } else {
        takes += hi == 1 ? " argument" : " arguments";
      }
      diags_.error(Diag::wrong_argument_count, call.loc,
                   std::string(call.text) + "() takes " + takes + ", got " + std::to_string(n) +
                       ": " + std::string(usage));
      return false;
    }
    return true;
  }

  std::optional<ShapeRule> check_shape_rule(const Op& op, const Param& out) {
    const LocatedText& src = *out.shape;
    constexpr auto& kRules = kShapeRules;  // spec_keys.hpp, shared with the schema
    ExprPtr e = parse_expression(src, diags_);
    if (!e) return std::nullopt;
    ShapeRule rule;
    rule.source = to_source(*e);
    if (e->kind == ExprKind::name && e->text == "custom") {
      rule.kind = ShapeRule::Kind::custom;
      rule.ok = true;
      return rule;
    }
    if (e->kind != ExprKind::call) {
      diags_.error(Diag::unknown_shape_rule, e->loc,
                   "a shape rule is one of same(x), broadcast(x, y, ...), reduce(x, dims, "
                   "keep_dims), matmul(a, b[, trans_a, trans_b]), concat(xs, dim), "
                   "stack(xs, dim), from(arg), scalar() or custom");
      return std::nullopt;
    }
    const std::string& f = e->text;
    auto& a = e->args;
    bool ok = true;
    if (f == "same") {
      rule.kind = ShapeRule::Kind::same;
      ok = expect_args(*e, 1, 1, "same(x)");
      if (ok) {
        const Param* p = rule_tensor(op, *a[0], false, f);
        ok = p != nullptr;
        if (ok) rule.tensors.push_back(p);
      }
    } else if (f == "broadcast") {
      rule.kind = ShapeRule::Kind::broadcast;
      ok = expect_args(*e, 1, 16, "broadcast(x, y, ...)");
      for (std::size_t i = 0; ok && i < a.size(); ++i) {
        const Param* p = rule_tensor(op, *a[i], false, f);
        ok = p != nullptr;
        if (ok) rule.tensors.push_back(p);
      }
    } else if (f == "reduce") {
      rule.kind = ShapeRule::Kind::reduce;
      ok = expect_args(*e, 3, 3, "reduce(x, dims, keep_dims)");
      if (ok) {
        const Param* p = rule_tensor(op, *a[0], false, f);
        ok = p != nullptr;
        if (ok) rule.tensors.push_back(p);
        ok = rule_operand(op, *a[1], "int", true, rule.dims,
                          "a counted int arg or an array literal of dims") && ok;
        ok = rule_operand(op, *a[2], "bool", false, rule.keep_dims, "a bool arg or literal") && ok;
      }
    } else if (f == "matmul") {
      rule.kind = ShapeRule::Kind::matmul;
      ok = a.size() == 2 || a.size() == 4;
      if (!ok) {
        diags_.error(Diag::wrong_argument_count, e->loc,
                     "matmul() takes 2 or 4 arguments: matmul(a, b) or matmul(a, b, "
                     "trans_a, trans_b)");
      }
      for (std::size_t i = 0; ok && i < 2; ++i) {
        const Param* p = rule_tensor(op, *a[i], false, f);
        ok = p != nullptr;
        if (ok) rule.tensors.push_back(p);
      }
      if (ok && a.size() == 4) {
        ok = rule_operand(op, *a[2], "bool", false, rule.trans_a, "a bool arg or literal") &&
             rule_operand(op, *a[3], "bool", false, rule.trans_b, "a bool arg or literal");
      }
    } else if (f == "concat" || f == "stack") {
      rule.kind = f == "concat" ? ShapeRule::Kind::concat : ShapeRule::Kind::stack;
      ok = expect_args(*e, 2, 2, f + "(xs, dim)");
      if (ok) {
        const Param* p = rule_tensor(op, *a[0], true, f);
        ok = p != nullptr;
        if (ok && p->count.is_one()) {
          diags_.error(
              Diag::rule_operand_type, a[0]->loc,
              f + "() takes a counted input, and '" + p->name.value + "' is a single tensor");
          ok = false;
        }
        if (ok) rule.tensors.push_back(p);
        ok = rule_operand(op, *a[1], "int", false, rule.dims, "an int arg or literal") && ok;
      }
    } else if (f == "from") {
      rule.kind = ShapeRule::Kind::from;
      ok = expect_args(*e, 1, 1, "from(shape_arg)") &&
           rule_operand(op, *a[0], "int", true, rule.dims, "a counted int arg (a shape)");
      if (ok && rule.dims.is_literal()) {
        diags_.error(Diag::rule_operand_type, a[0]->loc,
                     "from() takes an arg; for a fixed shape, use a default");
        ok = false;
      }
    } else if (f == "scalar") {
      rule.kind = ShapeRule::Kind::scalar;
      ok = expect_args(*e, 0, 0, "scalar()");
    } else {
      diags_.error(Diag::unknown_shape_rule, e->loc,
                   "unknown shape rule '" + f + "'" +
                       did_you_mean(f, std::span<const std::string_view>(kRules)));
      return std::nullopt;
    }
    if (!ok) return std::nullopt;
    rule.ok = true;
    return rule;
  }

  std::optional<DTypeRule> check_dtype_rule(const Op& op, const Param& out) {
    const LocatedText& src = *out.dtype;
    constexpr auto& kRules = kDTypeRules;  // spec_keys.hpp, shared with the schema
    ExprPtr e = parse_expression(src, diags_);
    if (!e) return std::nullopt;
    DTypeRule rule;
    rule.source = to_source(*e);
    if (e->kind == ExprKind::name) {
      if (std::find(std::begin(kDTypeNames), std::end(kDTypeNames), e->text) ==
          std::end(kDTypeNames)) {
        std::string hint = type_synonym(e->text, false);
        if (hint.empty() || hint.find("'int'") != std::string::npos) {
          hint = did_you_mean(e->text, std::span<const std::string_view>(kDTypeNames));
        }
        diags_.error(Diag::unknown_dtype, e->loc,
                     "unknown dtype '" + e->text + "'" + hint +
                         " (a dtype rule is same(x), promote(x, y), to_float(x), "
                         "from(arg) or a dtype name)");
        return std::nullopt;
      }
      rule.kind = DTypeRule::Kind::fixed;
      rule.fixed = e->text;
      rule.ok = true;
      return rule;
    }
    if (e->kind != ExprKind::call) {
      diags_.error(Diag::unknown_dtype_rule, e->loc,
                   "a dtype rule is same(x), promote(x, y, ...), to_float(x), from(arg) "
                   "or a dtype name");
      return std::nullopt;
    }
    const std::string& f = e->text;
    if (f == "from") {
      rule.kind = DTypeRule::Kind::from;
      if (!expect_args(*e, 1, 1, "from(dtype_arg)")) return std::nullopt;
      const Expr& a = *e->args[0];
      for (const Param& p : op.args) {
        if (a.kind == ExprKind::name && p.name.value == a.text) {
          if (p.type.value != "dtype") {
            diags_.error(Diag::rule_operand_type, a.loc,
                         "from() takes a dtype arg; '" + a.text + "' is " + p.type.value);
            return std::nullopt;
          }
          if (!p.count.is_one()) {
            diags_.error(Diag::rule_operand_type, a.loc,
                         "from() takes a single dtype arg; '" + a.text + "' has a count");
            return std::nullopt;
          }
          rule.arg = &p;
          rule.ok = true;
          return rule;
        }
      }
      diags_.error(Diag::rule_unknown_operand, a.loc,
                   "'" + to_source(a) + "' is not an arg of '" + op.name + "'" +
                       did_you_mean(a.text, param_names(op, false, true)));
      return std::nullopt;
    }
    if (f == "same") {
      rule.kind = DTypeRule::Kind::same;
      if (!expect_args(*e, 1, 1, "same(x)")) return std::nullopt;
    } else if (f == "promote") {
      rule.kind = DTypeRule::Kind::promote;
      if (!expect_args(*e, 1, 16, "promote(x, y, ...)")) return std::nullopt;
    } else if (f == "to_float") {
      rule.kind = DTypeRule::Kind::to_float;
      if (!expect_args(*e, 1, 1, "to_float(x)")) return std::nullopt;
    } else {
      diags_.error(Diag::unknown_dtype_rule, e->loc,
                   "unknown dtype rule '" + f + "'" +
                       did_you_mean(f, std::span<const std::string_view>(kRules)));
      return std::nullopt;
    }
    for (const auto& a : e->args) {
      const Param* p = rule_tensor(op, *a, f == "same", f);
      if (p == nullptr) return std::nullopt;
      rule.tensors.push_back(p);
    }
    rule.ok = true;
    return rule;
  }

  // ----- signatures

  void check_signatures(const Op& op) {
    for (const Signature& s : op.signatures) {
      check_doc_tokens(s.doc);
      std::set<std::string> listed;
      bool seen_output = false;
      for (const LocatedString& name : s.params) {
        const Param* p = find_param(op, name.value);
        bool is_config = false;
        for (const LocatedString& c : op.configs) is_config |= c.value == name.value;
        if (p == nullptr && !is_config) {
          std::vector<std::string> all = param_names(op, true, true);
          for (const Param& o : op.outputs) all.push_back(o.name.value);
          for (const LocatedString& c : op.configs) all.push_back(c.value);
          diags_.error(Diag::signature_unknown_parameter, name.loc,
                       "signature names unknown parameter '" + name.value + "'" +
                           did_you_mean(name.value, all));
          // The parameter suggested is not also missing: the signature meant it.
          if (std::string meant = closest(name.value, all); !meant.empty()) listed.insert(meant);
          continue;
        }
        if (!listed.insert(name.value).second) {
          diags_.error(Diag::duplicate_list_item, name.loc,
                       "signature lists '" + name.value + "' twice");
        }
        if (p != nullptr && p->kind == ParamKind::output) {
          seen_output = true;
          if (!op.out_variant) {
            diags_.error(
                Diag::signature_out_variant, name.loc,
                "signature names output '" + name.value + "', but the op sets out_variant = false");
          }
        } else if (seen_output) {
          diags_.error(Diag::signature_order, name.loc,
                       "signature lists '" + name.value + "' after an output; outputs come last");
        }
      }
      for (const auto* list : {&op.inputs, &op.args}) {
        for (const Param& p : *list) {
          const bool required = p.kind == ParamKind::input
                                    ? !(p.optional && p.optional->value) && !p.default_from
                                    : !p.default_value && !p.default_from;
          if (required && listed.count(p.name.value) == 0 && !p.name.value.empty()) {
            diags_.error(Diag::signature_incomplete, s.loc,
                         "signature does not list required parameter '" + p.name.value + "'");
          }
        }
      }
      if (seen_output) {
        for (const Param& o : op.outputs) {
          if (listed.count(o.name.value) == 0) {
            diags_.error(
                Diag::signature_incomplete, s.loc,
                "an out signature must list every output; '" + o.name.value + "' is missing");
          }
        }
      }
    }
  }

  // ----- the op

  OpAnalysis check_op(const Op& op) {
    OpAnalysis a;
    a.op = &op;
    a.scope = std::make_unique<Scope>();

    // Names.
    if (!op.name.empty() && !name_too_long(op.name, op.name_loc, "op name")) {
      if (!is_lower_snake(op.name)) {
        diags_.error(Diag::name_not_snake_case, op.name_loc,
                     "op name '" + op.name + "' must be lower snake_case");
      }
      if (is_cpp_keyword(op.name) && op.cpp_name == op.name) {
        diags_.error(Diag::cpp_keyword, op.name_loc,
                     "op name '" + op.name +
                         "' is a C++ keyword: set cpp_name (for example cpp_name = \"" + ns_.name +
                         "_" + op.name + "\")");
      } else if (op.cpp_name != op.name) {
        check_cpp_name({op.cpp_name, op.name_loc}, "cpp_name");
      }
    }
    // A kernel named after the op is an identifier when the op name is
    // lower snake_case (checked above); a given one is shown as written.
    if (op.kernel_key && !is_identifier(op.kernel)) {
      diags_.error(
          Diag::not_an_identifier, op.kernel_loc,
          "kernel '" + op.kernel_key->value + "' is not an identifier" +
              (op.kernel_key->value == op.kernel ? "" : " (it is called as '" + op.kernel + "')"));
    }
    if (!op.summary && op.misspelled.count("summary") == 0) {
      diags_.error(Diag::missing_key, op.name_loc,
                   "op '" + op.name + "' has no 'summary' (every op is documented)");
    } else {
      check_doc_tokens(op.summary);
    }
    for (const LocatedText& d : op.doc) check_doc_tokens(d);
    check_doc_tokens(op.notes);
    for (const LocatedString& alias : op.aliases) {
      const std::size_t dot = alias.value.find('.');
      const bool ok = dot == std::string::npos
                          ? is_identifier(alias.value)
                          : is_lower_snake(alias.value.substr(0, dot)) &&
                                is_identifier(alias.value.substr(dot + 1));
      if (!ok) {
        diags_.error(
            Diag::bad_alias, alias.loc,
            "alias '" + alias.value + "' must be a name or a qualified name 'namespace.name'");
      }
    }

    std::map<std::string, SourceLoc> seen;
    for (const Param& p : op.inputs) {
      check_name(p, seen);
      check_input(p);
    }
    for (const Param& p : op.args) check_name(p, seen);
    for (const Param& p : op.outputs) {
      check_name(p, seen);
      check_output(p);
    }
    for (const LocatedString& c : op.configs) {
      if (auto [it, fresh] = seen.emplace(config_param_name(c.value), c.loc); !fresh) {
        diags_.error(Diag::duplicate_parameter, c.loc,
                     "config '" + c.value + "' clashes with parameter '" + it->first + "'");
      }
    }

    // Scope: inputs, then args (with their enum types), then configs.
    for (const Param& p : op.inputs) {
      a.scope->symbols.push_back(
          {p.name.value, {p.count.is_one() ? TypeKind::tensor : TypeKind::tensor_list},
           p.name.value, p.optional && p.optional->value, p.name.loc});
    }
    for (const Param& p : op.args) {
      const EnumInfo* info = nullptr;
      check_arg(&op, p, &a.enums, info);
      a.scope->symbols.push_back({p.name.value, arg_type(p, info), p.name.value, false, p.name.loc});
    }
    for (const LocatedString& c : op.configs) {
      for (const ConfigDef* def : ns_.configs) {
        if (def->name.value != c.value) continue;
        ConfigScope cs;
        cs.name = c.value;
        for (const Param& f : def->args) {
          const EnumInfo* info = nullptr;
          if (f.enum_name) {
            for (const auto& e : *shared_) {
              if (e->name == f.enum_name->value) info = e.get();
            }
          }
          cs.fields.push_back(
              {f.name.value, arg_type(f, info),
               config_field_cpp(f, info, config_param_name(c.value) + "." + f.name.value), false,
               f.name.loc});
        }
        a.scope->configs.push_back(std::move(cs));
      }
    }

    // A part of the op could not be read (reported): the checks below look
    // its parameters up and would only report the same problem again.
    if (op.incomplete) return a;

    check_default_from(op, a);
    check_inplace(op);
    check_dtypes(op, a);

    for (const Param& out : op.outputs) {
      std::optional<ShapeRule> s = out.shape ? check_shape_rule(op, out) : std::nullopt;
      std::optional<DTypeRule> d = out.dtype ? check_dtype_rule(op, out) : std::nullopt;
      a.shapes.push_back(s.value_or(ShapeRule{}));
      a.dtype_rules.push_back(d.value_or(DTypeRule{}));
    }
    check_counted_outputs(op, a);
    for (const Constraint& c : op.constraints) a.constraints.push_back(check_constraint(c, *a.scope));
    check_signatures(op);
    check_kind(op, a);
    if (op.formula) check_formula(op, a);
    return a;
  }

  void check_default_from(const Op& op, OpAnalysis& a) {
    for (const Param& p : op.inputs) {
      if (!p.default_from) continue;
      const std::string& from = p.default_from->text;
      const Param* q = nullptr;
      for (const Param& r : op.inputs) {
        if (r.name.value == from && &r != &p) q = &r;
      }
      if (q == nullptr) {
        diags_.error(Diag::default_from_unknown, p.default_from->loc,
                     "default_from of input '" + p.name.value + "' must name another input" +
                         did_you_mean(from, param_names(op, true, false)));
      } else if (q->type.value != p.type.value && p.type.value != "any") {
        diags_.error(Diag::default_from_type, p.default_from->loc,
                     "input '" + p.name.value + "' (" + p.type.value + ") cannot default to '" +
                         from + "' (" + q->type.value + ")");
      }
    }
    for (const Param& p : op.args) {
      if (!p.default_from) continue;
      ExprPtr e = parse_expression(*p.default_from, diags_);
      if (!e) continue;
      const Type want = arg_type(p, a.enum_of(p));
      // `x.shape()` is a value only here (constraints use x.size(i)): a
      // counted int arg may default to an input's shape.
      if (e->kind == ExprKind::method && e->text == "shape" && e->args.size() == 1 &&
          e->args[0]->kind == ExprKind::name) {
        const Symbol* s = a.scope->find(e->args[0]->text);
        if (s == nullptr || s->type.kind != TypeKind::tensor) {
          diags_.error(Diag::default_from_unknown, e->args[0]->loc,
                       "'" + e->args[0]->text + "' is not a tensor input" +
                           did_you_mean(e->args[0]->text, param_names(op, true, false)));
        } else if (want.kind != TypeKind::int_list) {
          diags_.error(Diag::default_from_type, p.default_from->loc,
                       "default_from x.shape() needs a counted int arg; '" + p.name.value +
                           "' is " + type_name(want));
        } else {
          a.default_from.emplace_back(&p, std::move(e));
        }
        continue;
      }
      const Type t = check_expression(*e, *a.scope, ExprMode::constraint, diags_);
      if (t.is_error()) continue;
      const bool ok = t == want || (want.kind == TypeKind::float_ && t.kind == TypeKind::int_);
      if (!ok) {
        diags_.error(Diag::default_from_type, p.default_from->loc,
                     "default_from of '" + p.name.value + "' is " + type_name(t) +
                         ", but the arg is " + type_name(want));
        continue;
      }
      a.default_from.emplace_back(&p, std::move(e));
    }
  }

  void check_inplace(const Op& op) {
    if (!op.inplace) return;
    const Inplace& in = *op.inplace;
    const Param* o = find_param(op, in.output.value);
    const Param* i = find_param(op, in.input.value);
    if (o == nullptr || o->kind != ParamKind::output) {
      diags_.error(Diag::bad_inplace, in.output.loc,
                   "inplace output '" + in.output.value + "' is not an output");
    } else if (!o->count.is_one()) {
      diags_.error(Diag::bad_inplace, in.output.loc,
                   "inplace output '" + in.output.value +
                       "' has a count; only a single tensor output can be "
                       "written in place");
    }
    if (i == nullptr || i->kind != ParamKind::input || !i->count.is_one()) {
      diags_.error(Diag::bad_inplace, in.input.loc,
                   "inplace input '" + in.input.value + "' is not a single tensor input");
    }
  }

  // Counted outputs: how many tensors there are must be known before the
  // kernel runs. A custom shape rule says it (the shape function returns one
  // Shape per tensor); any other rule gives n copies of one shape, so it
  // needs an exact count. Calls by name return every output's tensors in one
  // flat list, so at most one output may have a count that is not exact.
  void check_counted_outputs(const Op& op, const OpAnalysis& a) {
    const Param* ranged = nullptr;
    const Param* counted_custom = nullptr;
    const Param* other_custom = nullptr;
    for (std::size_t i = 0; i < op.outputs.size() && i < a.shapes.size(); ++i) {
      const Param& p = op.outputs[i];
      const ShapeRule& r = a.shapes[i];
      const bool custom = r.ok && r.kind == ShapeRule::Kind::custom;
      if (p.count.is_one()) {
        if (custom && other_custom == nullptr) other_custom = &p;
        continue;
      }
      if (custom && counted_custom == nullptr) counted_custom = &p;
      if (r.ok && !custom && p.count.min != p.count.max) {
        diags_.error(Diag::counted_output, p.shape->loc,
                     "output '" + p.name.value + "' takes " + p.count.text +
                         " tensors, so only shape = \"custom\" can say how many "
                         "(the shape function returns one Shape per tensor); '" +
                         r.source + "' needs an exact count");
      }
      if (p.count.min != p.count.max) {
        if (ranged != nullptr) {
          diags_.error(Diag::counted_output, p.count.loc,
                       "outputs '" + ranged->name.value + "' and '" + p.name.value +
                           "' both have a count that is not exact; calls by name "
                           "return all outputs in one list, so only one may");
        } else {
          ranged = &p;
        }
      }
    }
    if (counted_custom != nullptr && other_custom != nullptr) {
      diags_.error(Diag::counted_output, counted_custom->shape->loc,
                   "the custom shape function of '" + op.name +
                       "' returns one Shape per tensor "
                       "of counted output '" +
                       counted_custom->name.value +
                       "', so it cannot also give the shape of output '" +
                       other_custom->name.value + "'; give that output another shape rule");
    }
  }

  void check_dtypes(const Op& op, OpAnalysis& a) {
    // The kernel is chosen by the first required input whose type is a
    // class (a `where` condition of type bool does not choose it).
    auto fixed = [](const Param& p) {
      return std::find(std::begin(kDTypeNames), std::end(kDTypeNames), p.type.value) !=
             std::end(kDTypeNames);
    };
    for (const Param& p : op.inputs) {
      if (!(p.optional && p.optional->value) && !fixed(p)) {
        a.dispatch_input = &p;
        break;
      }
    }
    for (const Param& p : op.inputs) {
      if (a.dispatch_input == nullptr && !(p.optional && p.optional->value)) a.dispatch_input = &p;
    }
    const Param* typed = a.dispatch_input;
    if (typed == nullptr && !op.outputs.empty()) typed = &op.outputs.front();
    if (op.dtypes_given) {
      std::set<std::string> seen;
      for (const LocatedString& d : op.dtypes) {
        if (std::find(std::begin(kDTypeNames), std::end(kDTypeNames), d.value) ==
            std::end(kDTypeNames)) {
          diags_.error(Diag::unknown_dtype, d.loc,
                       "unknown dtype '" + d.value + "' in 'dtypes'" +
                           did_you_mean(d.value, std::span<const std::string_view>(kDTypeNames)));
          continue;
        }
        if (!seen.insert(d.value).second) {
          diags_.error(Diag::duplicate_list_item, d.loc, "dtype '" + d.value + "' listed twice");
          continue;
        }
        if (typed != nullptr && !typed->type.value.empty() &&
            !input_type_allows(typed->type.value, d.value)) {
          diags_.error(Diag::dtype_not_allowed, d.loc,
                       "dtype '" + d.value + "' is not allowed by the type of '" +
                           typed->name.value + "' (" + typed->type.value + ")");
        }
        a.dtypes.push_back(d.value);
      }
      if (op.dtypes.empty()) {
        diags_.error(Diag::empty_list, op.dtypes_loc.known() ? op.dtypes_loc : op.name_loc,
                     "'dtypes' of '" + op.name + "' is empty");
      }
    } else if (typed != nullptr) {
      a.dtypes = dtypes_of_type(typed->type.value);
    }
  }

  void check_kind(const Op& op, OpAnalysis& a) {
    if (op.kind == OpKind::pointwise) {
      std::size_t tensors = 0;
      for (const Param& p : op.inputs) {
        ++tensors;
        if (!p.count.is_one()) {
          diags_.error(Diag::pointwise_op, p.count.loc,
                       "pointwise ops take single tensors; '" + p.name.value + "' has a count");
        }
        if (p.optional && p.optional->value) {
          diags_.error(Diag::pointwise_op, p.optional->loc,
                       "pointwise ops cannot have optional inputs");
        }
      }
      if (tensors < 1 || tensors > 3) {
        diags_.error(Diag::pointwise_op, op.kind_loc.known() ? op.name_loc : op.loc,
                     "a pointwise op takes 1 to 3 tensor inputs; '" + op.name + "' has " +
                         std::to_string(tensors));
      }
      if (op.outputs.size() != 1) {
        diags_.error(Diag::pointwise_op, op.name_loc,
                     "a pointwise op has exactly one output; '" + op.name + "' has " +
                         std::to_string(op.outputs.size()));
      } else if (!op.outputs[0].count.is_one()) {
        diags_.error(
            Diag::pointwise_op, op.outputs[0].count.loc,
            "a pointwise op has one output tensor; '" + op.outputs[0].name.value + "' has a count");
      }
      for (std::size_t i = 0; i < a.shapes.size(); ++i) {
        const auto k = a.shapes[i].kind;
        if (a.shapes[i].ok && k != ShapeRule::Kind::same && k != ShapeRule::Kind::broadcast) {
          diags_.error(Diag::pointwise_op, op.outputs[i].shape->loc,
                       "the output of a pointwise op has shape same(...) or broadcast(...)");
        }
      }
      for (const Param& p : op.args) {
        if (!p.count.is_one() || p.type.value == "string") {
          diags_.error(Diag::pointwise_op, p.name.loc,
                       "pointwise kernels take scalar int, float, bool, enum or "
                       "dtype args; '" +
                           p.name.value + "' is not one");
        }
      }
      if (!op.configs.empty()) {
        diags_.error(Diag::pointwise_op, op.configs.front().loc,
                     "pointwise ops cannot take configs (kernels see "
                     "scalar args only); use args");
      }
    } else if (op.kind == OpKind::reduction) {
      if (op.inputs.size() != 1 || !op.inputs[0].count.is_one()) {
        diags_.error(Diag::reduction_op, op.name_loc, "a reduction takes exactly one tensor input");
      }
      if (op.outputs.size() != 1) {
        diags_.error(Diag::reduction_op, op.name_loc, "a reduction has exactly one output");
      } else if (!op.outputs[0].count.is_one()) {
        diags_.error(
            Diag::reduction_op, op.outputs[0].count.loc,
            "a reduction has one output tensor; '" + op.outputs[0].name.value + "' has a count");
      } else if (!a.shapes.empty() && a.shapes[0].ok &&
                 a.shapes[0].kind != ShapeRule::Kind::reduce) {
        diags_.error(Diag::reduction_op, op.outputs[0].shape->loc,
                     "the output of a reduction has shape reduce(x, dims, keep_dims)");
      }
      for (const Param& p : op.args) {
        const bool rule_arg = !a.shapes.empty() &&
                              (a.shapes[0].dims.param == &p || a.shapes[0].keep_dims.param == &p);
        if (!rule_arg && (!p.count.is_one() || p.type.value == "string")) {
          diags_.error(Diag::reduction_op, p.name.loc,
                       "reduction kernels take scalar args besides the rule's dims "
                       "and keep_dims; '" +
                           p.name.value + "' is not one");
        }
      }
      if (!op.configs.empty()) {
        diags_.error(Diag::reduction_op, op.configs.front().loc,
                     "reductions cannot take configs; use args");
      }
    }
    // Dtype rules whose result the generated dispatch cannot know statically.
    if (op.kind != OpKind::custom) {
      for (std::size_t i = 0; i < a.dtype_rules.size(); ++i) {
        if (a.dtype_rules[i].kind == DTypeRule::Kind::from && op.outputs[i].dtype) {
          diags_.error(Diag::from_dtype_needs_custom, op.outputs[i].dtype->loc,
                       "from(arg) dtype rules need kind = \"custom\" (the kernel picks the "
                       "output type)");
        }
      }
    }
  }

  void check_formula(const Op& op, OpAnalysis& a) {
    if (op.kind != OpKind::pointwise) {
      diags_.error(Diag::formula_not_pointwise, op.formula->loc,
                   "'formula' is only for pointwise ops");
      return;
    }
    a.formula_scope = std::make_unique<Scope>();
    Scope& scope = *a.formula_scope;
    // Elements of an integer-only op are integers, so that bitwise
    // formulas type-check; otherwise an element is a number of any dtype.
    const bool ints = !a.dtypes.empty() && std::all_of(a.dtypes.begin(), a.dtypes.end(),
                                                        [](const std::string& d) {
                                                          return d == "int32" || d == "int64";
                                                        });
    // A bool input's element is a bool (a condition, an operand of && || !).
    for (const Param& p : op.inputs) {
      const TypeKind kind = p.type.value == "bool" ? TypeKind::bool_
                            : ints                 ? TypeKind::int_
                                                   : TypeKind::element;
      scope.symbols.push_back({p.name.value, {kind}, p.name.value, false, p.name.loc});
    }
    for (const Param& p : op.args) {
      scope.symbols.push_back({p.name.value, arg_type(p, a.enum_of(p)), p.name.value, false,
                               p.name.loc});
    }
    ExprPtr e = parse_expression(*op.formula, diags_);
    if (!e) return;
    const Type t = check_expression(*e, scope, ExprMode::formula, diags_);
    if (t.is_error()) return;
    if (t.kind != TypeKind::int_ && t.kind != TypeKind::float_ && t.kind != TypeKind::bool_ &&
        t.kind != TypeKind::element) {
      diags_.error(Diag::formula_not_number, op.formula->loc,
                   "a formula computes one number (or bool), not " + type_name(t));
      return;
    }
    a.formula = std::move(e);
  }

  const Namespace& ns_;
  Diagnostics& diags_;
  const std::vector<std::unique_ptr<EnumInfo>>* shared_ = nullptr;
};

}  // namespace

CheckedNamespace check(const Namespace& ns, Diagnostics& diags) {
  return Checker(ns, diags).run();
}

}  // namespace opgen::gen
