#include "expr_operators.hpp"

namespace opgen::gen {
namespace {

struct Binary {
  std::string_view op;
  int precedence;
};

// C's binding strengths (expr.hpp's grammar), loosest first.
constexpr Binary kBinaries[] = {
    {"||", 1}, {"&&", 2}, {"|", 3},  {"^", 4},  {"&", 5},  {"==", 6},
    {"!=", 6}, {"<", 7},  {"<=", 7}, {">", 7},  {">=", 7}, {"<<", 8},
    {">>", 8}, {"+", 9},  {"-", 9},  {"*", 10}, {"/", 10}, {"%", 10},
};

// A tighter-binding child that reads naturally without parentheses.
bool bare_is_clear(std::string_view parent, std::string_view child) noexcept {
  const int p = binary_precedence(parent);
  const int c = binary_precedence(child);
  if (p == 9 && c == 10) return true;  // a + b * c
  if ((is_comparison(parent) || is_logical(parent)) && is_arithmetic(child)) return true;
  if (is_logical(parent) && is_comparison(child)) return true;
  return false;
}

}  // namespace

int binary_precedence(std::string_view op) noexcept {
  for (const Binary& b : kBinaries) {
    if (b.op == op) return b.precedence;
  }
  return 0;
}

bool is_comparison(std::string_view op) noexcept {
  const int p = binary_precedence(op);
  return p == 6 || p == 7;
}

bool is_arithmetic(std::string_view op) noexcept { return binary_precedence(op) >= 9; }

bool is_logical(std::string_view op) noexcept { return op == "&&" || op == "||"; }

bool needs_parens(std::string_view parent_op, const Expr& child, bool right) noexcept {
  if (child.kind == ExprKind::conditional) return true;
  if (child.kind != ExprKind::binary) return false;
  const int p = binary_precedence(parent_op);
  const int c = binary_precedence(child.text);
  if (c < p) return true;
  // Equal strength: C groups left to right, so a right operand came from
  // parentheses; and `a < b < c` never means what it seems to.
  if (c == p) return right || is_comparison(parent_op);
  return !bare_is_clear(parent_op, child.text);
}

bool unary_needs_parens(const Expr& operand) noexcept {
  return operand.kind == ExprKind::binary || operand.kind == ExprKind::conditional ||
         operand.kind == ExprKind::unary;
}

bool postfix_needs_parens(const Expr& receiver) noexcept {
  return receiver.kind == ExprKind::binary || receiver.kind == ExprKind::conditional ||
         receiver.kind == ExprKind::unary;
}

}  // namespace opgen::gen
