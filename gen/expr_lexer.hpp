// Tokens of the expression language (see expr.hpp for the grammar).
//
// The lexer works on one expression's text and keeps byte offsets into it,
// so that the parser can point every error at its own column through
// LocatedText::at and every node can recover its source spelling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.hpp"

namespace opgen::gen {

enum class TokenKind {
  end,             // one past the last token (always present, exactly once)
  identifier,      // alpha, sameType, true, float32
  int_literal,     // 42, 0x1F
  float_literal,   // 0.5, 1e-3, 2., .5
  string_literal,  // "same" or 'same'
  punct,           // operators and brackets: "&&", "(", ".", ...
};

struct Token {
  TokenKind kind = TokenKind::end;
  /// The spelling, except for strings: their value with escapes resolved.
  std::string text;
  /// [begin, end) in the expression text.
  std::size_t begin = 0;
  std::size_t end = 0;
  std::int64_t int_value = 0;  // int_literal
  double float_value = 0;      // float_literal

  bool is(std::string_view punct) const noexcept {
    return kind == TokenKind::punct && text == punct;
  }
};

/// Splits `source.text` into tokens, the last one TokenKind::end. Reports
/// every lexical error (unexpected character, unterminated string, unknown
/// escape, malformed number, literal out of range) at its column and skips
/// the offending text, so one run finds them all; the caller should not
/// parse when any was reported.
std::vector<Token> lex_expression(const LocatedText& source, Diagnostics& diags);

/// "'&&'", "'alpha'", "string \"same\"", "end of expression": a token as
/// messages name it.
std::string describe(const Token& t);

}  // namespace opgen::gen
