// Stage 3, check: every rule of the spec format, as named passes over the
// resolved model. Parses and type-checks constraints, formulas and the
// shape and dtype rules of outputs, and records what the emitters need in an
// Analysis per op. Problems go to Diagnostics; nothing here stops early.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "diagnostics.hpp"
#include "expr.hpp"
#include "model.hpp"

namespace opgen::gen {

/// An operand of a rule that is either a parameter or a literal
/// (`reduce(x, dims, false)`, `reduce(x, [0, 1], keep)`).
struct RuleOperand {
  const Param* param = nullptr;            // an arg
  std::vector<std::int64_t> ints;          // literal int or int array
  bool bool_value = false;                 // literal bool
  bool is_literal() const noexcept { return param == nullptr; }
};

/// An output's shape rule.
struct ShapeRule {
  enum class Kind { same, broadcast, reduce, matmul, concat, stack, from, scalar, custom };
  Kind kind = Kind::same;
  std::vector<const Param*> tensors;  // tensor operands, in order
  RuleOperand dims;       // reduce: dims; concat/stack: dim; from: the shape arg
  RuleOperand keep_dims;  // reduce
  RuleOperand trans_a;    // matmul
  RuleOperand trans_b;    // matmul
  std::string source;     // normalised rule text for docs
  bool ok = false;        // parsed and checked without errors
};

/// An output's dtype rule.
struct DTypeRule {
  enum class Kind { same, promote, to_float, fixed, from };
  Kind kind = Kind::same;
  std::vector<const Param*> tensors;  // same / promote / to_float operands
  std::string fixed;                  // dtype name for Kind::fixed
  const Param* arg = nullptr;         // a dtype arg for Kind::from
  std::string source;
  bool ok = false;                    // parsed and checked without errors
};

struct CheckedConstraint {
  const Constraint* constraint = nullptr;
  ExprPtr expr;  // null when it did not parse or type-check
};

/// What the checker learned about one op, for the emitters.
struct OpAnalysis {
  const Op* op = nullptr;
  /// The names constraints may use; symbols point into it.
  std::unique_ptr<Scope> scope;
  /// Enum types of enum args, owned here (op-local) or pointing at shared ones.
  std::vector<std::unique_ptr<EnumInfo>> enums;
  /// Per output, in order.
  std::vector<ShapeRule> shapes;
  std::vector<DTypeRule> dtype_rules;
  std::vector<CheckedConstraint> constraints;
  /// The checked formula and the scope it was checked in (its symbols
  /// denote one element of each input).
  ExprPtr formula;
  std::unique_ptr<Scope> formula_scope;
  /// Checked `default_from` expressions of args, by arg.
  std::vector<std::pair<const Param*, ExprPtr>> default_from;
  /// Dtypes the kernels implement (the spec's list, or the default).
  std::vector<std::string> dtypes;
  /// The tensor input whose dtype selects the kernel (null: none).
  const Param* dispatch_input = nullptr;

  /// The EnumInfo of an enum arg (op-local or shared), or null.
  const EnumInfo* enum_of(const Param& arg) const;
};

/// A checked namespace: the model and one analysis per op (same order).
struct CheckedNamespace {
  const Namespace* ns = nullptr;
  std::vector<OpAnalysis> ops;
  /// Shared enums used in this namespace, as EnumInfo.
  std::vector<std::unique_ptr<EnumInfo>> shared_enums;
  /// Config fields visible to each config's own constraints.
  std::vector<std::unique_ptr<Scope>> config_scopes;
  std::vector<std::vector<CheckedConstraint>> config_constraints;  // per ns->configs
};

/// The output dtype (a name) of output `out` of an op computing in dtype
/// `d`, as its dtype rule gives it statically; "" for a `from` rule, whose
/// dtype is an argument's value at run time.
std::string static_out_dtype(const OpAnalysis& a, std::size_t out, const std::string& d);

/// Runs every check. The result is meaningful only when no error was
/// reported.
CheckedNamespace check(const Namespace& ns, Diagnostics& diags);

/// The longest name that becomes C++ (namespace, op, parameter, config,
/// enum, enum value, cpp_name): longer ones are errors (name-too-long).
inline constexpr std::size_t kMaxNameLength = 128;

/// True for C++ keywords and alternative tokens (`and`, `not`, ...).
bool is_cpp_keyword(std::string_view name);
/// `[A-Za-z_][A-Za-z0-9_]*`.
bool is_identifier(std::string_view name);
/// `[a-z][a-z0-9_]*`.
bool is_lower_snake(std::string_view name);

/// The C++ type of an enum arg's local enum: `<Op><Arg>` in PascalCase.
std::string local_enum_type(const Op& op, const Param& arg);
/// A C++ enumerator for an enum value: the value, with `_` appended when it
/// is a C++ keyword.
std::string enumerator(std::string_view value);
/// The C++ parameter name of a config struct argument ("Conv2DConfig" ->
/// "conv2DConfig").
std::string config_param_name(std::string_view config);

}  // namespace opgen::gen
