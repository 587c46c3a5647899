// Operator facts shared by the parser and the printers: how tightly each
// binary operator binds, and where a printed expression needs parentheses.
#pragma once

#include <string_view>

#include "expr.hpp"

namespace opgen::gen {

/// Binding strength of a binary operator, from 1 (`||`) to 10 (`*`, `/`,
/// `%`), as in C; 0 when `op` is not a binary operator.
int binary_precedence(std::string_view op) noexcept;

bool is_comparison(std::string_view op) noexcept;  // == != < <= > >=
bool is_arithmetic(std::string_view op) noexcept;  // + - * / %
bool is_logical(std::string_view op) noexcept;     // && ||

/// True when `child`, printed as an operand of binary operator `parent_op`
/// (its right operand when `right`), must be parenthesised. Parentheses go
/// where precedence needs them, and also where C readers (and g++/clang
/// -Wparentheses) expect them: `(a && b) || c`, `(a << 1) + b`,
/// `(a < b) == c`. Arithmetic inside comparisons and comparisons inside
/// `&&`/`||` stay bare: `a + 1 < b && c`.
bool needs_parens(std::string_view parent_op, const Expr& child, bool right) noexcept;

/// True when `operand` of a unary operator must be parenthesised: a binary
/// or conditional node, or another unary one (`-(-a)`, never `--a`).
bool unary_needs_parens(const Expr& operand) noexcept;

/// True when `receiver` of `.method()` or `[i]` must be parenthesised.
bool postfix_needs_parens(const Expr& receiver) noexcept;

}  // namespace opgen::gen
