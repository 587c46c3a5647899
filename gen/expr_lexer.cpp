#include "expr_lexer.hpp"

#include <charconv>
#include <cstdio>
#include <system_error>

namespace opgen::gen {
namespace {

// Two-character operators come first so that "<=" is never read as "<", "=".
// "=" is a token of its own only so that the parser can say "did you mean
// '=='?" where it appears.
constexpr std::string_view kPuncts[] = {
    "||", "&&", "==", "!=", "<=", ">=", "<<", ">>", "!", "<", ">", "+", "-", "*", "/",
    "%",  "&",  "|",  "^",  "~",  "?",  ":",  ".",  ",", "(", ")", "[", "]", "=",
};

// Characters authors paste from prose or word processors, with what they
// meant. UTF-8 spellings, compared as bytes.
struct Lookalike {
  std::string_view glyph;
  std::string_view meant;
};
constexpr Lookalike kLookalikes[] = {
    {"\u2265", ">="}, {"\u2264", "<="}, {"\u2260", "!="}, {"\u00d7", "*"},
    {"\u2212", "-"},  {"\u201c", "\""}, {"\u201d", "\""}, {"\u2018", "'"},
    {"\u2019", "'"},  {"\u2227", "&&"}, {"\u2228", "||"}, {"\u00ac", "!"},
};

bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) noexcept {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_ident_start(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_ident_char(char c) noexcept { return is_ident_start(c) || is_digit(c); }
bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class Lexer {
 public:
  Lexer(const LocatedText& source, Diagnostics& diags)
      : source_(source), text_(source.text), diags_(diags) {}

  std::vector<Token> run() {
    while (true) {
      while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
      if (pos_ >= text_.size()) break;
      next();
    }
    tokens_.push_back({TokenKind::end, "", text_.size(), text_.size(), 0, 0});
    return std::move(tokens_);
  }

 private:
  void next() {
    const char c = text_[pos_];
    const bool dot_number = c == '.' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]);
    if (is_digit(c) || dot_number) return number();
    if (is_ident_start(c)) return identifier();
    if (c == '"' || c == '\'') return string(c);
    if (punct()) return;
    unexpected_character();
  }

  void identifier() {
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
    push(TokenKind::identifier, std::string(text_.substr(begin, pos_ - begin)), begin);
  }

  bool punct() {
    for (std::string_view p : kPuncts) {
      if (text_.substr(pos_, p.size()) == p) {
        push(TokenKind::punct, std::string(p), pos_);
        pos_ += p.size();
        tokens_.back().end = pos_;
        return true;
      }
    }
    return false;
  }

  // Decimal ints, 0x hex ints, and floats in the C spelling (digits with a
  // '.' and/or an exponent). Letters glued to a number make it malformed
  // rather than two tokens: "2x" is a typo, not "2" followed by "x".
  void number() {
    const std::size_t begin = pos_;
    const bool hex = text_.substr(pos_, 2) == "0x" || text_.substr(pos_, 2) == "0X";
    bool is_float = false;
    bool ok = true;
    if (hex) {
      pos_ += 2;
      ok = skip(is_hex_digit) > 0;
    } else {
      skip(is_digit);
      if (pos_ < text_.size() && text_[pos_] == '.') {
        ++pos_;
        skip(is_digit);
        is_float = true;
      }
      if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
        ++pos_;
        if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
        ok = skip(is_digit) > 0;
        is_float = true;
      }
    }
    if (skip(is_ident_char) > 0) ok = false;
    const std::string spelling(text_.substr(begin, pos_ - begin));
    if (!ok) {
      error(Diag::expr_bad_number, begin, "malformed number '" + spelling + "'");
      return;
    }
    if (is_float) return float_literal(spelling, begin);
    int_literal(spelling, begin, hex);
  }

  void int_literal(const std::string& spelling, std::size_t begin, bool hex) {
    std::int64_t value = 0;
    const char* first = spelling.data() + (hex ? 2 : 0);
    const auto r = std::from_chars(first, spelling.data() + spelling.size(), value, hex ? 16 : 10);
    if (r.ec != std::errc()) {
      error(Diag::expr_bad_number, begin,
            "integer literal '" + spelling + "' is out of range for int64");
      return;
    }
    push(TokenKind::int_literal, spelling, begin);
    tokens_.back().int_value = value;
  }

  void float_literal(const std::string& spelling, std::size_t begin) {
    double value = 0;
    const auto r = std::from_chars(spelling.data(), spelling.data() + spelling.size(), value);
    if (r.ec != std::errc()) {
      // from_chars reports both overflow and underflow; either would change
      // the value the author wrote.
      error(Diag::expr_bad_number, begin,
            "float literal '" + spelling + "' is out of range for a double");
      return;
    }
    push(TokenKind::float_literal, spelling, begin);
    tokens_.back().float_value = value;
  }

  // Both quote styles, because the expression itself sits inside a TOML
  // string: `check = "mode == 'same'"` needs no TOML escapes.
  void string(char quote) {
    const std::size_t begin = pos_++;
    std::string value;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] != '\\') {
        value += text_[pos_++];
        continue;
      }
      const char e = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
      if (e == '\0') {  // a backslash last: reported as unterminated below
        ++pos_;
        continue;
      }
      if (e == '\\' || e == '"' || e == '\'') {
        value += e;
      } else {
        error(Diag::expr_bad_string, pos_,
              std::string("unknown escape '\\") + e +
                  "' in string literal (only \\\\, \\\" and \\' are escapes)");
      }
      pos_ += 2;
    }
    if (pos_ >= text_.size()) {
      error(Diag::expr_bad_string, begin, "unterminated string literal");
      return;
    }
    ++pos_;  // closing quote
    push(TokenKind::string_literal, std::move(value), begin);
  }

  void unexpected_character() {
    const std::size_t begin = pos_;
    const auto lead = static_cast<unsigned char>(text_[pos_++]);
    // Take a whole UTF-8 sequence so that the message shows the character.
    if (lead >= 0xC0) {
      while (pos_ < text_.size() && (static_cast<unsigned char>(text_[pos_]) & 0xC0) == 0x80) {
        ++pos_;
      }
    }
    const std::string_view glyph = text_.substr(begin, pos_ - begin);
    std::string shown(glyph);
    if (lead < 0x20 || lead == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(lead));
      shown = buf;
    }
    std::string msg = "unexpected character '" + shown + "'";
    for (const Lookalike& l : kLookalikes) {
      if (l.glyph == glyph) msg += "; did you mean '" + std::string(l.meant) + "'?";
    }
    error(Diag::expr_bad_character, begin, std::move(msg));
  }

  template <class Pred>
  std::size_t skip(Pred pred) {
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && pred(text_[pos_])) ++pos_;
    return pos_ - begin;
  }

  void push(TokenKind kind, std::string text, std::size_t begin) {
    tokens_.push_back({kind, std::move(text), begin, pos_, 0, 0});
  }

  void error(Diag diag, std::size_t offset, std::string message) {
    diags_.error(diag, source_.at(offset), std::move(message));
  }

  const LocatedText& source_;
  std::string_view text_;
  Diagnostics& diags_;
  std::size_t pos_ = 0;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> lex_expression(const LocatedText& source, Diagnostics& diags) {
  return Lexer(source, diags).run();
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case TokenKind::end:
      return "end of expression";
    case TokenKind::string_literal:
      return "string \"" + t.text + "\"";
    default:
      return "'" + t.text + "'";
  }
}

}  // namespace opgen::gen
