// JSON values and their text, for `opgen describe --json` and `opgen
// schema`. A document is built as a Json value and written in one go; object
// keys keep the order they were set in, so the text depends only on how the
// document was built (deterministic output, stable diffs).
#pragma once

#include <concepts>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace opgen::gen {

/// A JSON value: null, a boolean, an integer, a number, a string, an array
/// or an object whose keys are kept in insertion order.
class Json {
 public:
  enum class Kind { null, boolean, integer, number, string, array, object };

  /// null.
  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : kind_(Kind::boolean), bool_(b) {}
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  Json(T i) : kind_(Kind::integer), int_(static_cast<std::int64_t>(i)) {}
  Json(double d) : kind_(Kind::number), number_(d) {}
  Json(std::string s) : kind_(Kind::string), string_(std::move(s)) {}
  Json(std::string_view s) : kind_(Kind::string), string_(s) {}
  Json(const char* s) : kind_(Kind::string), string_(s) {}

  /// An empty array; fill it with push().
  static Json array();
  /// An empty object; fill it with set().
  static Json object();
  /// An array of strings.
  static Json strings(const std::vector<std::string>& items);

  Kind kind() const noexcept { return kind_; }
  bool is_null() const noexcept { return kind_ == Kind::null; }

  /// Appends to an array. Throws std::logic_error on a non-array.
  Json& push(Json item);
  /// Sets a key of an object: a new key goes last, an existing one keeps
  /// its place and gets the new value. Throws std::logic_error on a
  /// non-object.
  Json& set(std::string_view key, Json value);

  /// The value of a key of an object, or null when absent (or not an object).
  const Json* find(std::string_view key) const noexcept;

  bool as_bool() const noexcept { return bool_; }
  std::int64_t as_int() const noexcept { return int_; }
  double as_number() const noexcept { return number_; }
  const std::string& as_string() const noexcept { return string_; }
  /// Items of an array.
  const std::vector<Json>& items() const noexcept { return items_; }
  /// Members of an object, in order.
  const std::vector<std::pair<std::string, Json>>& members() const noexcept { return members_; }

 private:
  Kind kind_ = Kind::null;
  bool bool_ = false;
  std::int64_t int_ = 0;
  double number_ = 0;
  std::string string_;
  std::vector<Json> items_;
  std::vector<std::pair<std::string, Json>> members_;
};

/// The text of a value: two-space indentation, one member or item per line,
/// except that an array holding only scalars is written on one line; empty
/// arrays and objects are `[]` and `{}`. Ends with a newline. Numbers are
/// written in the shortest form that reads back exactly, with ".0" added to
/// integral values so a float stays recognisable; NaN and infinities, which
/// JSON cannot express, are written as null.
std::string to_json_text(const Json& value);

/// A JSON string literal: quotes, backslash and control characters
/// (U+0000-U+001F, as \n, \t, ... or \u00XX) escaped; everything else,
/// including UTF-8 multi-byte sequences, passed through unchanged.
std::string json_string(std::string_view s);

}  // namespace opgen::gen
