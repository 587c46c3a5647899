// A strict JSON reader for the tests (RFC 8259), independent of the
// generator's writer so that it can catch the writer's mistakes: it rejects
// trailing commas, raw control characters in strings, bad escapes, leading
// zeros, duplicate keys and anything after the value.
#pragma once

#include <charconv>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace opgen::gen::testing {

struct JsonMember;

struct JsonNode {
  enum class Kind { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonNode> items;
  std::vector<JsonMember> members;  // in document order

  bool is(Kind k) const noexcept { return kind == k; }
  /// A member of an object, or null when absent.
  const JsonNode* find(std::string_view key) const noexcept;
  /// A member that must exist (throws otherwise, naming the key).
  const JsonNode& at(std::string_view key) const;
  /// An item of an array that must exist.
  const JsonNode& operator[](std::size_t i) const;
  /// The object in this array whose "name" is `name` (throws when none).
  const JsonNode& named(std::string_view name) const;
};

/// A member of an object (a struct rather than std::pair, which clang cannot
/// instantiate for a type that contains it).
struct JsonMember {
  std::string first;
  JsonNode second;
};

// Defined out of the class: they need JsonNode complete.

inline const JsonNode* JsonNode::find(std::string_view key) const noexcept {
  for (const auto& [k, v] : members) {
    if (k == key) return &v;
  }
  return nullptr;
}

inline const JsonNode& JsonNode::at(std::string_view key) const {
  if (kind != Kind::object) {
    throw std::runtime_error("not an object, looking up '" + std::string(key) + "'");
  }
  const JsonNode* v = find(key);
  if (v == nullptr) throw std::runtime_error("no key '" + std::string(key) + "'");
  return *v;
}

inline const JsonNode& JsonNode::operator[](std::size_t i) const {
  if (kind != Kind::array || i >= items.size()) {
    throw std::runtime_error("no item " + std::to_string(i));
  }
  return items[i];
}

inline const JsonNode& JsonNode::named(std::string_view name) const {
  for (const JsonNode& item : items) {
    const JsonNode* n = item.find("name");
    if (n != nullptr && n->kind == Kind::string && n->string == name) return item;
  }
  throw std::runtime_error("no item named '" + std::string(name) + "'");
}

namespace detail {

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : s_(text) {}

  JsonNode document() {
    JsonNode v = value(0);
    skip_space();
    if (i_ != s_.size()) fail("text after the value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("invalid JSON at offset " + std::to_string(i_) + ": " + why);
  }

  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }

  bool take(char c) {
    skip_space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }

  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }

  JsonNode value(int depth) {
    if (depth > 200) fail("nesting too deep");
    skip_space();
    if (i_ >= s_.size()) fail("unexpected end");
    JsonNode v;
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      v.kind = JsonNode::Kind::object;
      if (take('}')) return v;
      do {
        skip_space();
        if (i_ >= s_.size() || s_[i_] != '"') fail("expected a key");
        std::string key = string();
        if (v.find(key) != nullptr) fail("duplicate key '" + key + "'");
        expect(':');
        JsonNode member = value(depth + 1);
        v.members.push_back({std::move(key), std::move(member)});
      } while (take(','));
      expect('}');
    } else if (c == '[') {
      ++i_;
      v.kind = JsonNode::Kind::array;
      if (take(']')) return v;
      do {
        v.items.push_back(value(depth + 1));
      } while (take(','));
      expect(']');
    } else if (c == '"') {
      v.kind = JsonNode::Kind::string;
      v.string = string();
    } else if (literal("true")) {
      v.kind = JsonNode::Kind::boolean;
      v.boolean = true;
    } else if (literal("false")) {
      v.kind = JsonNode::Kind::boolean;
    } else if (literal("null")) {
      v.kind = JsonNode::Kind::null;
    } else {
      v.kind = JsonNode::Kind::number;
      v.number = number();
    }
    return v;
  }

  static void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::uint32_t hex4() {
    if (i_ + 4 > s_.size()) fail("short \\u escape");
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = s_[i_++];
      v <<= 4;
      if (h >= '0' && h <= '9') v |= static_cast<std::uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f') v |= static_cast<std::uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') v |= static_cast<std::uint32_t>(h - 'A' + 10);
      else fail("bad hex digit in \\u escape");
    }
    return v;
  }

  std::string string() {
    ++i_;  // opening quote
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      const char c = s_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("raw control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated escape");
      const char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00) {
            if (!literal("\\u")) fail("lone high surrogate");
            const std::uint32_t low = hex4();
            if (low < 0xDC00 || low >= 0xE000) fail("bad low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            fail("lone low surrogate");
          }
          append_utf8(out, cp);
          break;
        }
        default:
          fail(std::string("bad escape '\\") + e + "'");
      }
    }
  }

  double number() {
    const std::size_t start = i_;
    auto digits = [&] {
      const std::size_t from = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ - from;
    };
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    if (i_ < s_.size() && s_[i_] == '0') {
      ++i_;
      if (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') fail("leading zero");
    } else if (digits() == 0) {
      fail("expected a value");
    }
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (digits() == 0) fail("expected digits after '.'");
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (digits() == 0) fail("expected exponent digits");
    }
    double v = 0;
    const auto [end, ec] = std::from_chars(s_.data() + start, s_.data() + i_, v);
    if (ec != std::errc() || end != s_.data() + i_) fail("bad number");
    return v;
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace detail

/// Parses a whole JSON text; throws std::runtime_error naming the offset of
/// the first problem.
inline JsonNode parse_json(std::string_view text) { return detail::JsonParser(text).document(); }

}  // namespace opgen::gen::testing
