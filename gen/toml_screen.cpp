#include "toml_screen.hpp"

#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <optional>

namespace opgen::gen {

namespace {

// Walks a UTF-8 text one code point at a time, counting lines and columns
// as the diagnostics do (columns count code points, from 1).
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  bool done() const { return at_ >= text_.size(); }
  std::size_t offset() const { return at_; }
  std::uint32_t line() const { return line_; }
  std::uint32_t col() const { return col_; }

  /// The code point at the cursor, or nullopt at the end or on bytes that
  /// are not UTF-8 (the parser reports those).
  std::optional<char32_t> peek(std::size_t ahead_bytes = 0) const {
    const std::size_t i = at_ + ahead_bytes;
    if (i >= text_.size()) return std::nullopt;
    const auto b0 = static_cast<unsigned char>(text_[i]);
    if (b0 < 0x80) return b0;
    std::size_t n = 0;
    char32_t cp = 0;
    if ((b0 & 0xE0) == 0xC0) {
      n = 1;
      cp = b0 & 0x1F;
    } else if ((b0 & 0xF0) == 0xE0) {
      n = 2;
      cp = b0 & 0x0F;
    } else if ((b0 & 0xF8) == 0xF0) {
      n = 3;
      cp = b0 & 0x07;
    } else {
      return std::nullopt;
    }
    if (i + n >= text_.size()) return std::nullopt;
    for (std::size_t k = 1; k <= n; ++k) {
      const auto b = static_cast<unsigned char>(text_[i + k]);
      if ((b & 0xC0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (b & 0x3F);
    }
    return cp;
  }

  /// Moves past the code point at the cursor.
  void next() {
    const auto b0 = static_cast<unsigned char>(text_[at_]);
    std::size_t n = 1;
    if (b0 >= 0xF0) {
      n = 4;
    } else if (b0 >= 0xE0) {
      n = 3;
    } else if (b0 >= 0xC0) {
      n = 2;
    }
    at_ = std::min(text_.size(), at_ + n);
    if (b0 == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
  }

  bool starts_with(std::string_view s) const { return text_.substr(at_).starts_with(s); }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
  std::uint32_t line_ = 1;
  std::uint32_t col_ = 1;
};

std::string code_point_name(char32_t c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(c));
  return buf;
}

bool is_space(char32_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

bool screen_toml_text(std::string_view text, const std::string* path, Diagnostics& diags) {
  enum class State { normal, comment, basic, multi_basic, literal, multi_literal };
  State state = State::normal;
  Cursor c(text);
  auto report = [&](char32_t cp, const std::string& where) {
    diags.error(Diag::misplaced_non_ascii, {path, c.line(), c.col()},
                "the non-ASCII character " + code_point_name(cp) + " " + where);
    return false;
  };
  // A byte-order mark may open the file; the parser skips it.
  if (c.starts_with("\xEF\xBB\xBF")) c.next();
  while (!c.done()) {
    const std::optional<char32_t> cp = c.peek();
    if (!cp) return true;  // not UTF-8: the parser's error
    switch (state) {
      case State::normal:
        if (*cp >= 0x80) {
          return report(*cp,
                        "is outside a string or comment (TOML allows only ASCII in keys and "
                        "between values)");
        }
        if (*cp == '#') {
          state = State::comment;
        } else if (c.starts_with("\"\"\"")) {
          c.next();
          c.next();
          state = State::multi_basic;
        } else if (c.starts_with("'''")) {
          c.next();
          c.next();
          state = State::multi_literal;
        } else if (*cp == '"') {
          state = State::basic;
        } else if (*cp == '\'') {
          state = State::literal;
        }
        c.next();
        break;
      case State::comment:
        if (*cp == '\n') state = State::normal;
        c.next();
        break;
      case State::literal:
      case State::basic:
        if (state == State::basic && *cp == '\\') {
          c.next();  // the escaped character may be a quote
          if (c.done() || !c.peek()) break;
        } else if (*cp == '\n' || *cp == (state == State::basic ? U'"' : U'\'')) {
          state = State::normal;
        }
        c.next();
        break;
      case State::multi_basic:
      case State::multi_literal: {
        const std::string_view close = state == State::multi_basic ? "\"\"\"" : "'''";
        if (c.starts_with(close)) {
          // Up to two more quotes belong to the string.
          for (int k = 0; k < 3; ++k) c.next();
          for (int k = 0; k < 2 && c.starts_with(close.substr(0, 1)); ++k) c.next();
          state = State::normal;
          break;
        }
        if (state == State::multi_basic && *cp == '\\') {
          c.next();
          const std::optional<char32_t> e = c.peek();
          if (!e) break;
          if (*e >= 0x80) {
            return report(*e, "follows a backslash (not an escape TOML knows)");
          }
          if (is_space(*e)) {
            // A line-ending backslash: the parser skips the white space and
            // line breaks after it, testing each character it meets.
            while (!c.done() && c.peek() && is_space(*c.peek())) c.next();
            const std::optional<char32_t> first = c.peek();
            if (first && *first >= 0x80) {
              return report(*first,
                            "begins the text after a line-ending backslash; the TOML parser "
                            "opgen uses (toml++ 3.3) misreads it there: start the line with an "
                            "ASCII character or drop the backslash");
            }
            break;
          }
        }
        c.next();
        break;
      }
    }
  }
  return true;
}

}  // namespace opgen::gen
