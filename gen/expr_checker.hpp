// The expression type checker's class, shared by its two halves:
// expr_check.cpp (names, fields, operators, ?:, reporting) and
// expr_check_calls.cpp (methods, indexing, array literals, functions).
// Internal to the generator: include it from those two files only.
#pragma once

#include <string>
#include <string_view>

#include "diagnostics.hpp"
#include "expr.hpp"
#include "expr_builtins.hpp"

namespace opgen::gen::expr_check {

using K = TypeKind;

inline Type of(K kind) { return Type{kind, nullptr}; }
inline const Type kError{};

inline bool is_number(K k) { return k == K::int_ || k == K::float_ || k == K::element; }

inline bool is_list(K k) {
  return k == K::tensor_list || k == K::int_list || k == K::float_list || k == K::bool_list ||
         k == K::string_list || k == K::dtype_list || k == K::enum_list;
}

inline std::string quote(std::string_view s) {
  std::string out = "'";
  out += s;
  out += '\'';
  return out;
}

// Where an error about an operand points: its first character, not its
// operator (`(a < b) + 1` is wrong at `a`, not at `<`).
inline SourceLoc first_loc(const Expr& e) {
  const Expr* p = &e;
  while ((p->kind == ExprKind::binary || p->kind == ExprKind::conditional ||
          p->kind == ExprKind::method || p->kind == ExprKind::field) &&
         !p->args.empty()) {
    p = p->args[0].get();
  }
  return p->loc;
}

// What an operand must be.
enum class Want { bool_, number, integer };

class Checker {
 public:
  Checker(const Scope& scope, ExprMode mode, Diagnostics& diags)
      : scope_(scope), mode_(mode), diags_(diags) {}

  // Checks `e` and its subtree and records the type on `e`. A counted value
  // is a valid result here; single() is for places that need one value.
  Type check(Expr& e) {
    const Type t = dispatch(e);
    e.type = t;
    return t;
  }

 private:
  Type dispatch(Expr& e);
  Type single(Expr& e);

  // --- names ---------------------------------------------------------------
  Type name(Expr& e);
  std::string unknown_name(const std::string& n) const;
  const EnumInfo* enum_with_value(std::string_view value) const;
  Type field(Expr& e);
  Type config_field(Expr& e, const Expr& recv);

  // --- methods and indexing --------------------------------------------------
  Type method(Expr& e);
  Type index(Expr& e);
  Type array(Expr& e);

  // --- functions -------------------------------------------------------------
  bool available(const FunctionInfo& f) const;
  Type call(Expr& e);
  Type unknown_function(Expr& e);
  // sameType, sameShape, broadcastable: tensors and counted inputs, at
  // least two tensors unless a counted input stands for several.
  Type tensor_group(Expr& e);
  Type all_args(Expr& e, Want want, std::string_view what, Type result);
  Type len(Expr& e);
  Type dtype_class(Expr& e);
  Type present(Expr& e);

  // --- operators -------------------------------------------------------------
  Type unary(Expr& e);
  Type binary(Expr& e);
  Type both(Expr& e, Want want, std::string_view what, Type result);
  Type equality(Expr& e);
  Type compare_tensor(const Expr& e);
  // An enum against another value: the same enum, or a string literal that
  // names one of its values (which then takes the enum's type).
  bool match_enum(const Expr& op, const Expr& en, Expr& other);
  Type quoted_dtype(const Expr& literal);
  Type conditional(Expr& e);
  Type overflow(const Expr& e, Type result);

  // --- reporting -------------------------------------------------------------
  bool fits(K k, Want want) const;
  // Reports `operand` unless it has the wanted type. `what` starts the
  // message ("'+' needs numbers"); a tensor gets a hint of its own.
  bool expect(const Expr& operand, Want want, const std::string& what,
              const std::string& hint = "");
  // Index and size(): an int, never a tensor element.
  bool expect_int(const Expr& operand, const std::string& what);
  std::string tensor_hint(const Expr& t, Want want) const;
  std::string counted_message(const Expr& e) const;
  // Reports a problem of class `diag` and returns the error type.
  Type fail(Diag diag, SourceLoc at, std::string message);

  const Scope& scope_;
  ExprMode mode_;
  Diagnostics& diags_;
};

}  // namespace opgen::gen::expr_check
