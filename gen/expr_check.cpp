// The type checker: annotates every node with its Type and reports each
// mistake at the offending token. A subexpression that already failed has
// TypeKind::error and makes its parents fail silently, so one mistake gives
// one message while independent mistakes are all reported.
//
// Decisions beyond the spec format:
// - A string literal compared with (or chosen against) an enum takes the
//   enum's type once its value is known to be valid, so printers can emit
//   `PadMode::same` without looking at its sibling.
// - `element` (a tensor input inside a formula) is a number that behaves
//   like a float: `%`, `~`, `&`, `|`, `^`, `<<` and `>>` reject it. The
//   reference function is instantiated for every dtype of the op, so an
//   integer-only operator on an element would be a C++ template error for
//   float dtypes; a spec error here is the better failure. (Bitwise ops
//   therefore have no formula.)
// - The name node of `Config.field` is left untyped (a config is no value).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "edit_distance.hpp"
#include "expr.hpp"
#include "expr_builtins.hpp"
#include "expr_checker.hpp"

namespace opgen::gen {

std::string type_name(const Type& t) {
  switch (t.kind) {
    case TypeKind::error:
      return "<error>";
    case TypeKind::bool_:
      return "bool";
    case TypeKind::int_:
      return "int";
    case TypeKind::float_:
      return "float";
    case TypeKind::string:
      return "string";
    case TypeKind::dtype:
      return "dtype";
    case TypeKind::enum_:
      return "enum " + (t.enum_info ? t.enum_info->name : std::string("?"));
    case TypeKind::tensor:
      return "tensor";
    case TypeKind::tensor_list:
      return "tensor list";
    case TypeKind::int_list:
      return "int list";
    case TypeKind::float_list:
      return "float list";
    case TypeKind::bool_list:
      return "bool list";
    case TypeKind::string_list:
      return "string list";
    case TypeKind::dtype_list:
      return "dtype list";
    case TypeKind::enum_list:
      return "enum " + (t.enum_info ? t.enum_info->name : std::string("?")) + " list";
    case TypeKind::element:
      return "tensor element";
  }
  return "<error>";
}

const Symbol* Scope::find(std::string_view name) const noexcept {
  for (const Symbol& s : symbols) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const ConfigScope* Scope::find_config(std::string_view name) const noexcept {
  for (const ConfigScope& c : configs) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

namespace expr_check {
namespace {

// Result of arithmetic on two numbers: C's usual conversions.
Type arithmetic_result(Type a, Type b) {
  if (a.kind == K::element || b.kind == K::element) return of(K::element);
  if (a.kind == K::float_ || b.kind == K::float_) return of(K::float_);
  return of(K::int_);
}

bool same_enum(const Type& a, const Type& b) {
  return a.enum_info == b.enum_info ||
         (a.enum_info && b.enum_info && a.enum_info->name == b.enum_info->name);
}

// `a op b` for + - * in int64; nullopt on overflow.
std::optional<std::int64_t> fold(std::string_view op, std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  const bool overflow = op == "+"   ? __builtin_add_overflow(a, b, &r)
                        : op == "-" ? __builtin_sub_overflow(a, b, &r)
                                    : __builtin_mul_overflow(a, b, &r);
  if (overflow) return std::nullopt;
  return r;
}

// The value of an int expression made only of literals and + - * ~, which
// C++ folds at compile time (an int64 overflow there is a compiler warning
// in the generated code, so it is reported here instead). nullopt when not
// constant, or when a part overflows (already reported).
std::optional<std::int64_t> constant(const Expr& e) {
  if (e.kind == ExprKind::int_literal) return e.int_value;
  if (e.kind == ExprKind::unary && e.args.size() == 1) {
    const auto v = constant(*e.args[0]);
    if (!v) return std::nullopt;
    if (e.text == "~") return ~*v;
    if (e.text == "+") return v;
    if (e.text == "-") return fold("-", 0, *v);
    return std::nullopt;
  }
  if (e.kind == ExprKind::binary && e.args.size() == 2 &&
      (e.text == "+" || e.text == "-" || e.text == "*")) {
    const auto a = constant(*e.args[0]);
    const auto b = constant(*e.args[1]);
    if (!a || !b) return std::nullopt;
    return fold(e.text, *a, *b);
  }
  return std::nullopt;
}

}  // namespace

// An int operation on constants that does not fit in int64.
Type Checker::overflow(const Expr& e, Type result) {
  if (result.kind != K::int_) return result;
  bool operands = true;
  for (const ExprPtr& a : e.args) {
    if (!constant(*a)) operands = false;
  }
  if (!operands || constant(e)) return result;
  return fail(Diag::integer_overflow, e.loc,
              "integer overflow: " + to_source(e) + " does not fit in int64");
}

Type Checker::dispatch(Expr& e) {
  switch (e.kind) {
    case ExprKind::int_literal:
      return of(K::int_);
    case ExprKind::float_literal:
      return of(K::float_);
    case ExprKind::bool_literal:
      return of(K::bool_);
    case ExprKind::string_literal:
      return of(K::string);
    case ExprKind::array_literal:
      return array(e);
    case ExprKind::name:
      return name(e);
    case ExprKind::field:
      return field(e);
    case ExprKind::method:
      return method(e);
    case ExprKind::call:
      return call(e);
    case ExprKind::index:
      return index(e);
    case ExprKind::unary:
      return unary(e);
    case ExprKind::binary:
      return binary(e);
    case ExprKind::conditional:
      return conditional(e);
  }
  return kError;
}

Type Checker::single(Expr& e) {
  const Type t = check(e);
  if (!is_list(t.kind)) return t;
  return fail(Diag::counted_as_single, first_loc(e), counted_message(e));
}

Type Checker::name(Expr& e) {
  if (const Symbol* s = scope_.find(e.text)) {
    e.symbol = s;
    if (mode_ == ExprMode::formula && s->type.kind == K::tensor) return of(K::element);
    if (mode_ == ExprMode::formula && s->type.kind == K::tensor_list) {
      return fail(Diag::counted_as_single, e.loc,
                  quote(e.text) +
                      " is a counted input; a formula works on one element of "
                      "single inputs");
    }
    return s->type;
  }
  if (dtype_cpp(e.text)) return of(K::dtype);
  return fail(Diag::unknown_name, e.loc, unknown_name(e.text));
}

std::string Checker::unknown_name(const std::string& n) const {
  if (const ConfigScope* c = scope_.find_config(n)) {
    std::string msg = quote(n) + " is a config, not a value";
    if (!c->fields.empty()) msg += "; name a field, e.g. " + n + "." + c->fields.front().name;
    return msg;
  }
  if (const FunctionInfo* f = find_function(n); f && available(*f)) {
    return quote(n) + " is a function; call it: " + n + "(...)";
  }
  if (const EnumInfo* en = enum_with_value(n)) {
    return "unknown name " + quote(n) + "; values of enum " + en->name + " are strings: write '" +
           n + "'";
  }
  std::vector<std::string> candidates;
  for (const Symbol& s : scope_.symbols) candidates.push_back(s.name);
  for (const ConfigScope& c : scope_.configs) candidates.push_back(c.name);
  for (std::string_view d : dtype_names()) candidates.emplace_back(d);
  candidates.emplace_back("true");
  candidates.emplace_back("false");
  return "unknown name " + quote(n) + did_you_mean(n, candidates);
}

const EnumInfo* Checker::enum_with_value(std::string_view value) const {
  for (const Symbol& s : scope_.symbols) {
    const EnumInfo* en = s.type.enum_info;
    if ((s.type.kind != K::enum_ && s.type.kind != K::enum_list) || !en) continue;
    for (const std::string& v : en->values) {
      if (v == value) return en;
    }
  }
  return nullptr;
}

Type Checker::field(Expr& e) {
  Expr& recv = *e.args[0];
  if (recv.kind == ExprKind::name && !scope_.find(recv.text) && !dtype_cpp(recv.text)) {
    return config_field(e, recv);
  }
  const Type r = single(recv);
  if (r.is_error()) return kError;
  const std::string src = to_source(recv);
  if ((r.kind == K::tensor || r.kind == K::element) && find_method(e.text)) {
    const std::string args = find_method(e.text)->arity == 0 ? "()" : "(i)";
    return fail(Diag::no_such_member, e.loc,
                quote(e.text) + " is a method; write " + src + "." + e.text + args);
  }
  return fail(Diag::no_such_member, e.loc,
              quote(src) + " is a " + type_name(r) + " and has no fields");
}

Type Checker::config_field(Expr& e, const Expr& recv) {
  const ConfigScope* c = scope_.find_config(recv.text);
  if (!c) {
    std::vector<std::string> configs;
    for (const ConfigScope& cs : scope_.configs) configs.push_back(cs.name);
    const std::string hint = did_you_mean(recv.text, configs);
    if (hint.empty()) return fail(Diag::unknown_name, recv.loc, unknown_name(recv.text));
    return fail(Diag::unknown_config, recv.loc, "unknown config " + quote(recv.text) + hint);
  }
  std::vector<std::string> names;
  for (const Symbol& f : c->fields) {
    if (f.name == e.text) {
      e.symbol = &f;
      return f.type;
    }
    names.push_back(f.name);
  }
  return fail(
      Diag::no_such_member, e.loc,
      "config " + quote(c->name) + " has no field " + quote(e.text) + did_you_mean(e.text, names));
}

Type Checker::unary(Expr& e) {
  Expr& a = *e.args[0];
  const Type t = single(a);
  if (t.is_error()) return kError;
  if (e.text == "!") return expect(a, Want::bool_, "'!' needs a bool") ? t : kError;
  if (e.text == "~") return expect(a, Want::integer, "'~' needs an integer") ? t : kError;
  return expect(a, Want::number, quote(e.text) + " needs a number") ? overflow(e, t) : kError;
}

Type Checker::binary(Expr& e) {
  Expr& l = *e.args[0];
  Expr& r = *e.args[1];
  const Type a = single(l);
  const Type b = single(r);
  if (a.is_error() || b.is_error()) return kError;
  const std::string& op = e.text;
  if (op == "==" || op == "!=") return equality(e);
  if (op == "&&" || op == "||") return both(e, Want::bool_, "bool operands", of(K::bool_));
  if (op == "<" || op == "<=" || op == ">" || op == ">=") {
    return both(e, Want::number, "numbers", of(K::bool_));
  }
  if (op == "+" || op == "-" || op == "*") {
    const Type r = both(e, Want::number, "numbers", arithmetic_result(a, b));
    return r.is_error() ? r : overflow(e, r);
  }
  if (op == "/") return both(e, Want::number, "numbers", arithmetic_result(a, b));
  // % & | ^ << >>: integers only.
  if ((op == "&" || op == "|") && a.kind == K::bool_ && b.kind == K::bool_) {
    return fail(Diag::operand_type, e.loc,
                quote(op) + " needs integers, got bool; did you mean '" + op + op + "'?");
  }
  return both(e, Want::integer, "integers", arithmetic_result(a, b));
}

Type Checker::both(Expr& e, Want want, std::string_view what, Type result) {
  std::string msg = quote(e.text) + " needs " + std::string(what);
  std::string hint;
  if (e.text == "%" && mode_ == ExprMode::formula) hint = "; use fmod() for floats";
  bool ok = expect(*e.args[0], want, msg, hint);
  if (!expect(*e.args[1], want, msg, hint)) ok = false;
  return ok ? result : kError;
}

Type Checker::equality(Expr& e) {
  Expr& l = *e.args[0];
  Expr& r = *e.args[1];
  const K a = l.type.kind;
  const K b = r.type.kind;
  if (a == K::tensor || b == K::tensor) return compare_tensor(e);
  if (is_number(a) && is_number(b)) return of(K::bool_);
  if (a == K::enum_ || b == K::enum_) {
    const bool left = a == K::enum_;
    return match_enum(e, left ? l : r, left ? r : l) ? of(K::bool_) : kError;
  }
  if (a == b && (a == K::bool_ || a == K::dtype || a == K::string)) return of(K::bool_);
  if ((a == K::dtype && r.kind == ExprKind::string_literal) ||
      (b == K::dtype && l.kind == ExprKind::string_literal)) {
    return quoted_dtype(a == K::dtype ? r : l);
  }
  return fail(
      Diag::cannot_compare, e.loc,
      quote(e.text) + " cannot compare " + type_name(l.type) + " with " + type_name(r.type));
}

Type Checker::compare_tensor(const Expr& e) {
  const Expr& l = *e.args[0];
  const Expr& r = *e.args[1];
  const Expr& t = l.type.kind == K::tensor ? l : r;
  const Expr& other = l.type.kind == K::tensor ? r : l;
  const std::string src = to_source(t);
  if (other.type.kind == K::tensor) {
    return fail(Diag::cannot_compare, e.loc,
                "tensors cannot be compared with " + quote(e.text) + "; use sameShape(" +
                    to_source(l) + ", " + to_source(r) + ") or sameType(...)");
  }
  if (other.type.kind == K::dtype) {
    return fail(Diag::cannot_compare, first_loc(t),
                quote(src) + " is a tensor; did you mean " + src + ".dtype()?");
  }
  return fail(Diag::cannot_compare, first_loc(t), tensor_hint(t, Want::number));
}

// An enum against another value: the same enum, or a string literal that
// names one of its values (which then takes the enum's type).
bool Checker::match_enum(const Expr& op, const Expr& en, Expr& other) {
  if (other.type.kind == K::enum_) {
    if (same_enum(en.type, other.type)) return true;
  } else if (other.kind == ExprKind::string_literal && en.type.enum_info) {
    const EnumInfo& info = *en.type.enum_info;
    for (const std::string& v : info.values) {
      if (v == other.text) {
        other.type = en.type;
        return true;
      }
    }
    std::string hint = did_you_mean(other.text, info.values);
    if (hint.empty()) {
      hint = " (values:";
      for (std::size_t i = 0; i < info.values.size(); ++i) {
        hint += (i ? ", " : " ") + info.values[i];
      }
      hint += ")";
    }
    fail(Diag::unknown_enum_value, other.loc,
         quote(other.text) + " is not a value of enum " + info.name + hint);
    return false;
  }
  fail(Diag::cannot_compare, op.loc,
       quote(op.text) + " cannot compare " + type_name(en.type) + " with " + type_name(other.type));
  return false;
}

Type Checker::quoted_dtype(const Expr& literal) {
  if (dtype_cpp(literal.text)) {
    return fail(Diag::quoted_dtype, literal.loc,
                "dtype names are written without quotes: " + literal.text);
  }
  return fail(Diag::unknown_dtype, literal.loc,
              quote(literal.text) + " is not a dtype" + did_you_mean(literal.text, dtype_names()));
}

Type Checker::conditional(Expr& e) {
  Expr& c = *e.args[0];
  const Type ct = single(c);
  const Type a = single(*e.args[1]);
  const Type b = single(*e.args[2]);
  bool ok = !ct.is_error() && expect(c, Want::bool_, "the condition of '?:' must be a bool");
  if (!ok || a.is_error() || b.is_error()) return kError;
  if (is_number(a.kind) && is_number(b.kind)) return arithmetic_result(a, b);
  if (a.kind == K::enum_ || b.kind == K::enum_) {
    const bool left = a.kind == K::enum_;
    Expr& en = left ? *e.args[1] : *e.args[2];
    return match_enum(e, en, left ? *e.args[2] : *e.args[1]) ? en.type : kError;
  }
  if (a.kind == b.kind &&
      (a.kind == K::bool_ || a.kind == K::dtype || a.kind == K::string || a.kind == K::tensor)) {
    return a;
  }
  return fail(
      Diag::operand_type, e.loc,
      "the branches of '?:' have incompatible types: " + type_name(a) + " and " + type_name(b));
}

bool Checker::fits(K k, Want want) const {
  switch (want) {
    case Want::bool_:
      return k == K::bool_;
    case Want::number:
      return is_number(k);
    case Want::integer:
      return k == K::int_;
  }
  return false;
}

// Reports `operand` unless it has the wanted type. `what` starts the
// message ("'+' needs numbers"); a tensor gets a hint of its own.
bool Checker::expect(const Expr& operand, Want want, const std::string& what,
                     const std::string& hint) {
  const Type t = operand.type;
  if (t.is_error()) return false;
  if (fits(t.kind, want)) return true;
  if (t.kind == K::tensor) {
    fail(Diag::operand_type, first_loc(operand), tensor_hint(operand, want));
  } else {
    fail(Diag::operand_type, first_loc(operand), what + ", got " + type_name(t) + hint);
  }
  return false;
}

// Index and size(): an int, never a tensor element.
bool Checker::expect_int(const Expr& operand, const std::string& what) {
  const Type t = operand.type;
  if (t.is_error()) return false;
  if (t.kind == K::int_) return true;
  if (t.kind == K::tensor) {
    fail(Diag::operand_type, first_loc(operand), tensor_hint(operand, Want::integer));
  } else {
    fail(Diag::operand_type, first_loc(operand), what + ", got " + type_name(t));
  }
  return false;
}

std::string Checker::tensor_hint(const Expr& t, Want want) const {
  const std::string src = to_source(t);
  if (want == Want::bool_) {
    if (t.symbol && t.symbol->optional) {
      return quote(src) + " is a tensor, not a bool; did you mean present(" + src + ")?";
    }
    return quote(src) + " is a tensor, not a bool";
  }
  return quote(src) + " is a tensor, not a number; did you mean " + src + ".length() or " + src +
         ".rank()?";
}

std::string Checker::counted_message(const Expr& e) const {
  const std::string src = to_source(e);
  if (e.kind == ExprKind::name || e.kind == ExprKind::field) {
    return quote(src) + " is a counted parameter (" + type_name(e.type) + "); use " + src +
           "[i] or len(" + src + ")";
  }
  return quote(src) + " is a list (" + type_name(e.type) + "); one value is expected here";
}

Type Checker::fail(Diag diag, SourceLoc at, std::string message) {
  diags_.error(diag, at, std::move(message));
  return kError;
}

}  // namespace expr_check

Type check_expression(Expr& e, const Scope& scope, ExprMode mode, Diagnostics& diags) {
  return expr_check::Checker(scope, mode, diags).check(e);
}

}  // namespace opgen::gen
