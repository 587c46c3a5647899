// to_source: the canonical spelling of an expression, for messages, docs
// and the "check:" text of run-time errors. Parentheses follow the same
// rule as the C++ printer (expr_operators.hpp), so `a && b || c` reads
// `(a && b) || c` here and in the generated code alike. Strings always use
// double quotes.

#include <string>

#include "expr.hpp"
#include "expr_operators.hpp"

namespace opgen::gen {
namespace {

std::string quoted_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

std::string list(const std::vector<ExprPtr>& args, std::size_t first) {
  std::string out;
  for (std::size_t i = first; i < args.size(); ++i) {
    if (i > first) out += ", ";
    out += to_source(*args[i]);
  }
  return out;
}

std::string receiver(const Expr& e) {
  const std::string s = to_source(e);
  return postfix_needs_parens(e) ? "(" + s + ")" : s;
}

std::string operand(const Expr& child, std::string_view op, bool right) {
  const std::string s = to_source(child);
  return needs_parens(op, child, right) ? "(" + s + ")" : s;
}

}  // namespace

std::string to_source(const Expr& e) {
  switch (e.kind) {
    case ExprKind::int_literal:
    case ExprKind::float_literal:
    case ExprKind::name:
      return e.text;
    case ExprKind::bool_literal:
      return e.bool_value ? "true" : "false";
    case ExprKind::string_literal:
      return quoted_string(e.text);
    case ExprKind::array_literal: {
      const std::string items = list(e.args, 0);
      return "[" + items + "]";
    }
    case ExprKind::field:
      return receiver(*e.args[0]) + "." + e.text;
    case ExprKind::method:
      return receiver(*e.args[0]) + "." + e.text + "(" + list(e.args, 1) + ")";
    case ExprKind::call:
      return e.text + "(" + list(e.args, 0) + ")";
    case ExprKind::index:
      return receiver(*e.args[0]) + "[" + to_source(*e.args[1]) + "]";
    case ExprKind::unary: {
      const std::string s = to_source(*e.args[0]);
      return e.text + (unary_needs_parens(*e.args[0]) ? "(" + s + ")" : s);
    }
    case ExprKind::binary:
      return operand(*e.args[0], e.text, false) + " " + e.text + " " +
             operand(*e.args[1], e.text, true);
    case ExprKind::conditional: {
      auto branch = [](const Expr& b) {
        const std::string s = to_source(b);
        return b.kind == ExprKind::conditional ? "(" + s + ")" : s;
      };
      return branch(*e.args[0]) + " ? " + branch(*e.args[1]) + " : " + branch(*e.args[2]);
    }
  }
  return e.text;
}

}  // namespace opgen::gen
