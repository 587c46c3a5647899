// The expression language of specs: constraints (`check`), shape and dtype
// rules, and pointwise formulas. Lexer and parser build an AST whose every
// node knows its place in the spec; the type checker annotates it against
// the op's parameters; printers turn a checked tree into C++ for the
// wrapper, C++ for a scalar reference function, and prose for the docs.
//
// Grammar (C-like precedence, lowest first):
//   cond    := or ( '?' cond ':' cond )?
//   or      := and ( '||' and )*
//   and     := bitor ( '&&' bitor )*
//   bitor   := bitxor ( '|' bitxor )*
//   bitxor  := bitand ( '^' bitand )*
//   bitand  := eq ( '&' eq )*
//   eq      := rel ( ('==' | '!=') rel )*
//   rel     := shift ( ('<' | '<=' | '>' | '>=') shift )*
//   shift   := add ( ('<<' | '>>') add )*
//   add     := mul ( ('+' | '-') mul )*
//   mul     := unary ( ('*' | '/' | '%') unary )*
//   unary   := ('!' | '-' | '+' | '~') unary | postfix
//   postfix := primary ( '.' ident ( '(' args? ')' )? | '[' cond ']' )*
//   primary := int | float | string | 'true' | 'false' | ident | ident '(' args? ')'
//            | '(' cond ')' | '[' args? ']'
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.hpp"

namespace opgen::gen {

// ---------------------------------------------------------------------------
// Types

/// A shared enum's or an enum arg's values, as the checker and printers
/// need them.
struct EnumInfo {
  std::string name;                     // spec name ("Padding")
  std::string cpp_type;                 // C++ type, unqualified ("Padding", "PadMode")
  std::vector<std::string> values;      // spec values ("same", "valid", "delete")
  std::vector<std::string> cpp_values;  // C++ enumerators ("same", "valid", "delete_")
};

enum class TypeKind {
  error,        // already reported; suppresses follow-on errors
  bool_,
  int_,         // int64_t
  float_,       // double
  string,       // a string literal or string arg
  dtype,        // opgen::DType
  enum_,        // an enum arg (see Type::enum_info)
  tensor,       // one tensor input
  tensor_list,  // a counted tensor input
  int_list,     // a counted int arg, or an array literal of ints
  float_list,   // a counted float arg
  bool_list,    // a counted bool arg
  string_list,  // a counted string arg
  dtype_list,   // a counted dtype arg
  enum_list,    // a counted enum arg (see Type::enum_info)
  element,      // in a formula: one element of a tensor input (a number)
};

struct Type {
  TypeKind kind = TypeKind::error;
  const EnumInfo* enum_info = nullptr;  // for enum_ and enum_list

  bool is_error() const noexcept { return kind == TypeKind::error; }
  bool operator==(const Type&) const = default;
};

/// "bool", "int", "float", "string", "dtype", "enum Padding", "tensor",
/// "tensor list", "int list", ..., "enum Padding list", for messages.
std::string type_name(const Type& t);

// ---------------------------------------------------------------------------
// Scope: the names an expression may use

/// One name visible to an expression: an input, an arg, or a config field.
struct Symbol {
  std::string name;        // as written in the spec
  Type type;
  std::string cpp;         // how generated C++ refers to it: "alpha", "cfg.stride"
  bool optional = false;   // an optional tensor input (present() allowed)
  SourceLoc decl;          // where it is declared (for notes)
};

/// A config visible as `ConfigName.field` in an op's constraints.
struct ConfigScope {
  std::string name;            // "Conv2DConfig"
  std::vector<Symbol> fields;  // cpp: "<param>.field"
};

/// Everything an expression may refer to.
struct Scope {
  std::vector<Symbol> symbols;
  std::vector<ConfigScope> configs;

  const Symbol* find(std::string_view name) const noexcept;
  const ConfigScope* find_config(std::string_view name) const noexcept;
};

/// What an expression is for; decides which constructs are allowed.
enum class ExprMode {
  /// `[[op.constraint]] check`: must be bool. Tensors are tensors.
  constraint,
  /// `formula` of a pointwise op: tensor inputs denote one element (type
  /// `element`); the scalar math functions (exp, log, ...) and `?:` are
  /// available; tensor methods and the tensor functions are not. The
  /// result must be a number or bool.
  formula,
};

// ---------------------------------------------------------------------------
// AST

enum class ExprKind {
  int_literal,     // 42            (int_value; text keeps the spelling)
  float_literal,   // 0.5, 1e-3     (float_value; text keeps the spelling)
  bool_literal,    // true, false   (bool_value)
  string_literal,  // "same"        (text = the unquoted value)
  array_literal,   // [0, 1]        (args)
  name,            // alpha, float32 (text)
  field,           // Conv2DConfig.stride  (text = field, args[0] = the name)
  method,          // x.size(0)     (text = method, args[0] = receiver, args[1..] = arguments)
  call,            // sameType(x, y) (text = function, args)
  index,           // p[i]          (args[0] = p, args[1] = i)
  unary,           // !a -a +a ~a   (text = operator, args[0])
  binary,          // a + b ...     (text = operator, args[0], args[1])
  conditional,     // c ? a : b     (args[0..2])
};

struct Expr {
  ExprKind kind = ExprKind::name;
  /// Location of the node's first character (for a binary, conditional,
  /// method or field node, of its operator, '?', method or field name:
  /// where an error about it points).
  SourceLoc loc;
  /// The node's extent in the expression text, [begin, end): its source
  /// spelling is `source.text.substr(begin, end - begin)`.
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string text;
  std::int64_t int_value = 0;
  double float_value = 0;
  bool bool_value = false;
  std::vector<std::unique_ptr<Expr>> args;

  /// Set by check_expression.
  Type type;
  /// Set by check_expression for names: the symbol referred to (null for
  /// dtype literals).
  const Symbol* symbol = nullptr;
};

using ExprPtr = std::unique_ptr<Expr>;

// ---------------------------------------------------------------------------
// Stages

/// Parses an expression. Syntax errors are reported at their column
/// ("expected ')' to close '(' at column 5"; "unexpected end of expression";
/// "'=' is not an operator; did you mean '=='?"). Returns null when the text
/// does not parse. Nesting deeper than 200 levels is an error, not a crash.
ExprPtr parse_expression(const LocatedText& source, Diagnostics& diags);

/// Type-checks `e` against `scope` and annotates every node with its type.
/// Reports every type error it finds (unknown name, method or function with
/// "did you mean", wrong argument count or type, a counted parameter used
/// where one value is expected, an enum compared with a value it does not
/// have, present() on a required input, ...) and returns the type of the
/// whole expression, TypeKind::error if anything failed. The caller checks
/// that the result type suits the context (bool for constraints).
Type check_expression(Expr& e, const Scope& scope, ExprMode mode, Diagnostics& diags);

/// Names the C++ printers need beyond the symbols' own `cpp` spellings.
struct CppContext {
  /// Expression naming the qualified op for error messages ("kOp").
  std::string op_var = "kOp";
  /// Qualification for enum types ("" when the code is inside the op's
  /// namespace).
  std::string enum_prefix;
};

/// C++ for a checked constraint expression, to be used as
/// `if (!(<cpp>)) ...` in the wrapper. Calls the helpers of
/// opgen/detail/checks.hpp where plain C++ would be wrong (checked x.size(i),
/// p[i], integer / % << >>), maps dtype literals to `DType::...` and enum
/// values to `Enum::value`.
std::string to_cpp(const Expr& e, const CppContext& ctx);

/// What the C++ of a formula needs beyond the symbols' spellings.
struct FormulaContext {
  /// The element type: the reference function's template parameter.
  std::string element_type = "T";
  /// How the generated code names namespace opgen::formula, with "::".
  std::string helpers = "opgen::formula::";
  /// True when some dtype of the op is an integer type: arithmetic that may
  /// be on integers then calls the wrapping helpers (plain C++ would
  /// overflow, divide by zero or shift out of range).
  bool integer_elements = false;
  /// Qualification for enum types ("" inside the op's namespace).
  std::string enum_prefix;
};

/// C++ for a checked formula, as the body of the scalar reference function
/// `template <class T> T name(T x, ..., args...)` (see opgen/formula.hpp for
/// the rules it implements): tensor inputs are the element variables; float
/// args are rounded to T first (`formula::arg<T>(alpha)`); min and max are
/// the IEEE 754-2019 operations of `formula::min<T>` / `formula::max<T>`;
/// arithmetic that may be on integers (an int arg, an int literal, or an
/// element when `integer_elements`) wraps, and integer `/ % << >>` are
/// defined for every operand, through `formula::add`, `div`, `shift_left`,
/// ...; the other scalar functions are <cmath>'s (`exp` -> `std::exp`).
/// The caller converts the value to T (`formula::element<T>(...)`) unless
/// the formula is a bool.
std::string to_cpp_formula(const Expr& e, const FormulaContext& ctx);

/// A value shown when a check fails: the source text of a term and the C++
/// expression whose value detail::show() renders.
struct ShownTerm {
  std::string source;  // "y.size(0)"
  std::string cpp;     // "detail::dim_size(kOp, \"y\", y, 0)"
};

/// The terms of a failed check worth showing, power-assert style: every
/// name (other than dtype literals), method call, field, index and len()
/// that is not a literal, de-duplicated by source text, in source order.
/// For `y.size(0) == x.size(1)`: y.size(0), x.size(1) (not y and x alone:
/// a term inside a shown term is not shown again).
std::vector<ShownTerm> shown_terms(const Expr& e, const LocatedText& source,
                                   const CppContext& ctx);

/// Prose for the docs: "alpha ≥ 0", "x is a matrix (rank 2)", "x and y have
/// the same dtype", "y.size(0) = x.size(1)". Never loses meaning: anything
/// without a phrase is rendered as its (normalised) source.
std::string to_prose(const Expr& e);

/// Normalised source of a parsed expression (single spaces around binary
/// operators, none inside parentheses): used in messages and docs.
std::string to_source(const Expr& e);

}  // namespace opgen::gen
