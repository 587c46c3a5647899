#include "spec_loader.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "edit_distance.hpp"
#include "spec_keys.hpp"
#include "toml_screen.hpp"

namespace opgen::gen {

namespace {

// ---------------------------------------------------------------------------
// Positions

class Context {
 public:
  Context(const std::string* path, std::string_view text, Diagnostics& diags)
      : path_(path), text_(text), diags_(diags) {
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < text_.size(); ++i) {
      if (text_[i] == '\n') line_starts_.push_back(i + 1);
    }
  }

  SourceLoc loc(const toml::source_region& r) const {
    return {path_, r.begin.line, r.begin.column};
  }
  SourceLoc loc(const toml::node& n) const { return loc(n.source()); }
  SourceLoc loc(const toml::key& k) const { return loc(k.source()); }

  Diagnostics& diags() { return diags_; }

  /// The value of a string node with the location of each character.
  LocatedText text(const toml::node& n) const {
    LocatedText t;
    t.text = n.as_string() ? n.as_string()->get() : std::string();
    t.loc = loc(n);
    t.char_locs = char_locations(n.source(), t.text);
    if (!t.char_locs.empty()) t.loc = t.char_locs.front();
    return t;
  }

 private:
  // Byte offset of a (line, column) position; columns count code points.
  // Line starts are indexed once per file: walking from the top for every
  // string made loading quadratic in the file's size.
  std::size_t offset_of(std::uint32_t line, std::uint32_t col) const {
    if (line == 0) line = 1;
    if (line > line_starts_.size()) return text_.size();
    std::size_t i = line_starts_[line - 1];
    for (std::uint32_t c = 1; c < col && i < text_.size(); ++i) {
      if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++c;
      // Skip to the end of a multi-byte character.
      while (i + 1 < text_.size() && (static_cast<unsigned char>(text_[i + 1]) & 0xC0) == 0x80) {
        ++i;
      }
    }
    return i;
  }

  // Walks the raw TOML string literal at `r` and records where each byte of
  // its value comes from. Returns {} when the walk disagrees with the
  // value (then positions fall back to the start of the string).
  std::vector<SourceLoc> char_locations(const toml::source_region& r,
                                        const std::string& value) const {
    std::size_t i = offset_of(r.begin.line, r.begin.column);
    if (i >= text_.size()) return {};
    std::uint32_t line = r.begin.line;
    std::uint32_t col = r.begin.column;
    auto advance = [&](std::size_t n) {
      for (std::size_t k = 0; k < n && i < text_.size(); ++k, ++i) {
        const auto c = static_cast<unsigned char>(text_[i]);
        if (c == '\n') {
          ++line;
          col = 1;
        } else if ((c & 0xC0) != 0x80) {
          ++col;
        }
      }
    };
    const char quote = text_[i];
    if (quote != '"' && quote != '\'') return {};
    const bool literal = quote == '\'';
    const bool multi = text_.substr(i, 3) == std::string_view(quote == '"' ? "\"\"\"" : "'''");
    advance(multi ? 3 : 1);
    if (multi && i < text_.size() && text_[i] == '\n') advance(1);  // trimmed newline
    if (multi && text_.substr(i, 2) == "\r\n") advance(2);
    std::vector<SourceLoc> locs;
    locs.reserve(value.size() + 1);
    while (locs.size() < value.size() && i < text_.size()) {
      const SourceLoc here{path_, line, col};
      const char c = text_[i];
      if (!literal && c == '\\' && i + 1 < text_.size()) {
        const char e = text_[i + 1];
        if (e == 'u' || e == 'U') {
          const std::size_t digits = e == 'u' ? 4 : 8;
          const std::size_t before = locs.size();
          // The escape becomes 1-4 UTF-8 bytes; find how many by the value.
          advance(2 + digits);
          std::size_t bytes = 1;
          const auto lead = static_cast<unsigned char>(value[before]);
          if (lead >= 0xF0) bytes = 4;
          else if (lead >= 0xE0) bytes = 3;
          else if (lead >= 0xC0) bytes = 2;
          for (std::size_t k = 0; k < bytes; ++k) locs.push_back(here);
          continue;
        }
        if (e == '\n' || e == ' ' || e == '\t' || e == '\r') {
          // Line-ending backslash: skip it and the following whitespace.
          advance(1);
          while (i < text_.size() && (text_[i] == ' ' || text_[i] == '\t' || text_[i] == '\n' ||
                                      text_[i] == '\r')) {
            advance(1);
          }
          continue;
        }
        advance(2);
        locs.push_back(here);
        continue;
      }
      if (multi && c == '\r' && i + 1 < text_.size() && text_[i + 1] == '\n') {
        advance(1);  // CRLF becomes LF in the value
        continue;
      }
      locs.push_back(here);
      advance(1);
    }
    if (locs.size() != value.size()) return {};
    locs.push_back({path_, line, col});
    return locs;
  }

  const std::string* path_;
  std::string_view text_;
  std::vector<std::size_t> line_starts_;  // byte offset of each line's start
  Diagnostics& diags_;
};

std::string_view node_type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::table:
      return "a table";
    default:
      return "a date or time";
  }
}

// ---------------------------------------------------------------------------
// Reading one table: take each known key with a type check, then report the
// keys nobody took.

class TableReader {
 public:
  TableReader(const toml::table& table, Context& ctx, std::string_view what)
      : table_(table), ctx_(ctx), what_(what) {}

  const toml::node* node(std::string_view key) {
    taken_.insert(std::string(key));
    return table_.get(key);
  }

  std::optional<LocatedString> string(std::string_view key) {
    const toml::node* n = node(key);
    if (n == nullptr) return std::nullopt;
    if (!n->is_string()) return wrong_type(key, *n, "a string"), std::nullopt;
    const LocatedText t = ctx_.text(*n);
    check_characters(t, key);
    return LocatedString{t.text, t.loc};
  }

  std::optional<LocatedText> text(std::string_view key) {
    const toml::node* n = node(key);
    if (n == nullptr) return std::nullopt;
    if (!n->is_string()) return wrong_type(key, *n, "a string"), std::nullopt;
    LocatedText t = ctx_.text(*n);
    check_characters(t, key);
    return t;
  }

  /// Every string ends up in C++ comments or literals and in Markdown: no
  /// control character but tab and line feed, and no line break at all but
  /// in the Markdown texts 'doc' and 'notes'; no quote or backslash in the
  /// path 'kernel_header'. The first offending character is reported.
  void check_characters(const LocatedText& t, std::string_view key) {
    const bool multi_line = key == "doc" || key == "notes";
    for (std::size_t i = 0; i < t.text.size(); ++i) {
      const auto c = static_cast<unsigned char>(t.text[i]);
      if (key == "kernel_header" && (c == '"' || c == '\\')) {
        ctx_.diags().error(Diag::bad_character, t.at(i),
                           std::string("'kernel_header' holds '") + static_cast<char>(c) +
                               "' (it is written as #include \"...\")");
        return;
      }
      if (c == '\t' || (c == '\n' && multi_line) || (c >= 0x20 && c != 0x7F)) continue;
      char hex[8];
      std::snprintf(hex, sizeof hex, "U+%04X", static_cast<unsigned>(c));
      const std::string what = c == '\n' ? "a line break" : "the control character " + std::string(hex);
      ctx_.diags().error(Diag::bad_character, t.at(i),
                         "'" + std::string(key) + "' holds " + what +
                             (c == '\n' ? " (only 'doc' and 'notes' span lines)"
                                         : " (generated code and docs cannot show it)"));
      return;
    }
  }

  std::optional<Located<bool>> boolean(std::string_view key) {
    const toml::node* n = node(key);
    if (n == nullptr) return std::nullopt;
    if (!n->is_boolean()) return wrong_type(key, *n, "true or false"), std::nullopt;
    return Located<bool>{n->as_boolean()->get(), ctx_.loc(*n)};
  }

  /// An array of strings; reports non-string items.
  std::optional<std::vector<LocatedString>> strings(std::string_view key) {
    const toml::node* n = node(key);
    if (n == nullptr) return std::nullopt;
    if (!n->is_array()) return wrong_type(key, *n, "an array of strings"), std::nullopt;
    return string_items(*n->as_array(), key);
  }

  std::vector<LocatedString> string_items(const toml::array& a, std::string_view key) {
    std::vector<LocatedString> out;
    for (const toml::node& item : a) {
      if (!item.is_string()) {
        ctx_.diags().error(
            Diag::wrong_value_type, ctx_.loc(item),
            "'" + std::string(key) + "' takes strings, got " + std::string(node_type_name(item)));
        continue;
      }
      out.push_back({item.as_string()->get(), ctx_.text(item).loc});
    }
    return out;
  }

  /// An array of tables (`[[op.input]]` or `input = [ {...} ]`).
  std::vector<const toml::table*> tables(std::string_view key) {
    std::vector<const toml::table*> out;
    const toml::node* n = node(key);
    if (n == nullptr) return out;
    if (!n->is_array()) {
      wrong_type(key, *n, "an array of tables ([[...]] or [ { ... } ])");
      return out;
    }
    for (const toml::node& item : *n->as_array()) {
      if (!item.is_table()) {
        ctx_.diags().error(
            Diag::wrong_value_type, ctx_.loc(item),
            "'" + std::string(key) + "' takes tables, got " + std::string(node_type_name(item)));
        continue;
      }
      out.push_back(item.as_table());
    }
    return out;
  }

  /// Reports every key not taken, with the closest known key. Names other
  /// op-definition systems use for our keys ("description", "inputs") are
  /// candidates too, and suggest the key they mean.
  /// Returns the known keys suggested, and those given a value of the wrong
  /// type, so that a check for a missing key can stay quiet about a key
  /// whose problem is reported already.
  std::set<std::string> finish(std::span<const std::string_view> known) {
    std::set<std::string> suggested = wrong_typed_;
    for (auto&& [key, value] : table_) {
      const std::string k(key.str());
      if (taken_.count(k) != 0) continue;
      std::vector<std::string_view> candidates(known.begin(), known.end());
      for (const auto& [other, ours] : kKeySynonyms) {
        if (std::find(known.begin(), known.end(), ours) != known.end()) candidates.push_back(other);
      }
      std::string suggestion = k == "description" || k == "desc" ? std::string() : closest(k, candidates);
      for (const auto& [other, ours] : kKeySynonyms) {
        const bool applies = std::find(known.begin(), known.end(), ours) != known.end();
        if (applies && (suggestion == other || k == other)) suggestion = std::string(ours);
      }
      std::string msg = "unknown key '" + k + "' in " + std::string(what_);
      if (!suggestion.empty() && suggestion != k) {
        msg += "; did you mean '" + suggestion + "'?";
        suggested.insert(suggestion);
      }
      ctx_.diags().error(Diag::unknown_key, ctx_.loc(key), msg);
    }
    return suggested;
  }

  void wrong_type(std::string_view key, const toml::node& n, std::string_view want) {
    wrong_typed_.insert(std::string(key));
    ctx_.diags().error(Diag::wrong_value_type, ctx_.loc(n),
                       "'" + std::string(key) + "' must be " + std::string(want) + ", got " +
                           std::string(node_type_name(n)));
  }

  Context& ctx() { return ctx_; }
  const toml::table& table() const { return table_; }

 private:
  const toml::table& table_;
  Context& ctx_;
  std::string_view what_;
  std::set<std::string> taken_;
  std::set<std::string> wrong_typed_;
};

// ---------------------------------------------------------------------------
// Values

std::optional<Literal> read_literal(const toml::node& n, Context& ctx) {
  Literal lit;
  lit.loc = ctx.loc(n);
  if (n.is_integer()) {
    lit.kind = Literal::Kind::int_;
    lit.int_value = n.as_integer()->get();
  } else if (n.is_floating_point()) {
    lit.kind = Literal::Kind::float_;
    lit.float_value = n.as_floating_point()->get();
  } else if (n.is_boolean()) {
    lit.kind = Literal::Kind::bool_;
    lit.bool_value = n.as_boolean()->get();
  } else if (n.is_string()) {
    lit.kind = Literal::Kind::string;
    lit.string_value = n.as_string()->get();
  } else if (n.is_array()) {
    lit.kind = Literal::Kind::array;
    for (const toml::node& item : *n.as_array()) {
      if (item.is_array() || item.is_table()) {
        ctx.diags().error(
            Diag::wrong_value_type, ctx.loc(item),
            "a default array holds plain values, not " + std::string(node_type_name(item)));
        return std::nullopt;
      }
      std::optional<Literal> v = read_literal(item, ctx);
      if (!v) return std::nullopt;
      lit.items.push_back(std::move(*v));
    }
  } else {
    ctx.diags().error(
        Diag::wrong_value_type, ctx.loc(n),
        "a default must be a number, bool, string or array, got " + std::string(node_type_name(n)));
    return std::nullopt;
  }
  return lit;
}

Count read_count(const toml::node& n, Context& ctx) {
  Count c;
  c.loc = ctx.loc(n);
  auto bad = [&](const std::string& why) {
    ctx.diags().error(
        Diag::malformed_count, c.loc,
        "malformed count: " + why + " (expected an integer n, \">=n\", \"<=n\" or \"a..b\")");
    // Any number of values: later checks then have nothing to add.
    Count any;
    any.min = 0;
    any.max = -1;
    any.text = ">=0";
    any.loc = c.loc;
    return any;
  };
  constexpr std::int64_t kLimit = 1 << 20;  // far above any real parameter list
  if (n.is_integer()) {
    const std::int64_t v = n.as_integer()->get();
    if (v < 0 || v > kLimit) return bad(std::to_string(v) + " is out of range");
    c.min = c.max = v;
    c.text = std::to_string(v);
    return c;
  }
  if (!n.is_string()) return bad("got " + std::string(node_type_name(n)));
  const std::string s = n.as_string()->get();
  c.text = s;
  auto parse_int = [&](std::string_view t, std::int64_t& out) {
    if (t.empty() || t.size() > 9) return false;
    std::int64_t v = 0;
    for (char ch : t) {
      if (ch < '0' || ch > '9') return false;
      v = v * 10 + (ch - '0');
    }
    out = v;
    return v <= kLimit;
  };
  std::string_view v(s);
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
  std::int64_t a = 0, b = 0;
  if (v.substr(0, 2) == ">=") {
    if (!parse_int(v.substr(2), a)) return bad("'" + s + "'");
    c.min = a;
    c.max = -1;
  } else if (v.substr(0, 2) == "<=") {
    if (!parse_int(v.substr(2), b)) return bad("'" + s + "'");
    c.min = 0;
    c.max = b;
  } else if (const std::size_t dots = v.find(".."); dots != std::string_view::npos) {
    if (!parse_int(v.substr(0, dots), a) || !parse_int(v.substr(dots + 2), b)) {
      return bad("'" + s + "'");
    }
    if (a > b) return bad("'" + s + "' is an empty range");
    c.min = a;
    c.max = b;
  } else if (parse_int(v, a)) {
    c.min = c.max = a;
  } else {
    return bad("'" + s + "'");
  }
  c.text = s;
  return c;
}

// ---------------------------------------------------------------------------
// Records

Param read_param(const toml::table& t, ParamKind kind, Context& ctx) {
  static constexpr std::string_view kWhat[] = {"input", "arg", "output"};
  TableReader r(t, ctx, kWhat[static_cast<int>(kind)]);
  Param p;
  p.kind = kind;
  p.loc = ctx.loc(t);
  if (auto v = r.string("name")) p.name = *v;
  if (auto v = r.string("type")) p.type = *v;
  p.doc = r.text("doc");
  if (const toml::node* n = r.node("count")) p.count = read_count(*n, ctx);
  switch (kind) {
    case ParamKind::input:
      p.optional = r.boolean("optional");
      p.default_from = r.text("default_from");
      p.misspelled = r.finish(kInputKeys);
      break;
    case ParamKind::arg:
      if (const toml::node* n = r.node("default")) p.default_value = read_literal(*n, ctx);
      p.default_from = r.text("default_from");
      if (auto v = r.strings("values")) {
        p.values = std::move(*v);
        p.values_loc = ctx.loc(*t.get("values"));
      }
      p.enum_name = r.string("enum");
      p.misspelled = r.finish(kArgKeys);
      break;
    case ParamKind::output:
      p.shape = r.text("shape");
      p.dtype = r.text("dtype");
      p.misspelled = r.finish(kOutputKeys);
      break;
  }
  if (t.get("name") == nullptr && p.misspelled.count("name") == 0) {
    ctx.diags().error(Diag::missing_key, p.loc,
                      std::string(kWhat[static_cast<int>(kind)]) + " has no 'name'");
  }
  return p;
}

// A constraint without a check (reported) is dropped, so that nothing
// reports its empty check again.
std::optional<Constraint> read_constraint(const toml::table& t, Context& ctx) {
  TableReader r(t, ctx, "constraint");
  Constraint c;
  c.loc = ctx.loc(t);
  std::optional<LocatedText> check = r.text("check");
  c.message = r.text("message");
  if (auto v = r.boolean("backend")) c.backend = v->value;
  const std::set<std::string> misspelled = r.finish(kConstraintKeys);
  if (!check) {
    if (t.get("check") == nullptr && misspelled.count("check") == 0) {
      ctx.diags().error(Diag::missing_key, c.loc, "constraint has no 'check'");
    }
    return std::nullopt;
  }
  c.check = std::move(*check);
  return c;
}

// A signature without params (reported) is dropped, so that nothing
// reports the parameters it does not list.
std::optional<Signature> read_signature(const toml::table& t, Context& ctx) {
  TableReader r(t, ctx, "signature");
  Signature s;
  s.loc = ctx.loc(t);
  std::optional<std::vector<LocatedString>> params = r.strings("params");
  s.doc = r.text("doc");
  const std::set<std::string> misspelled = r.finish(kSignatureKeys);
  if (!params) {
    if (t.get("params") == nullptr && misspelled.count("params") == 0) {
      ctx.diags().error(Diag::missing_key, s.loc, "signature has no 'params'");
    }
    return std::nullopt;
  }
  s.params = std::move(*params);
  return s;
}

std::vector<MixinUse> read_uses(const toml::node& n, TableReader& r, Context& ctx) {
  std::vector<MixinUse> uses;
  if (!n.is_array()) {
    r.wrong_type("use", n, "an array of mixin names or { mixin = ..., skip = [...] } tables");
    return uses;
  }
  for (const toml::node& item : *n.as_array()) {
    MixinUse u;
    u.loc = ctx.loc(item);
    if (item.is_string()) {
      u.name = {item.as_string()->get(), ctx.text(item).loc};
    } else if (item.is_table()) {
      // Kept without a name when 'mixin' is missing or not a string (both
      // reported): resolve then knows the op is incomplete.
      TableReader ur(*item.as_table(), ctx, "use entry");
      if (auto v = ur.string("mixin")) u.name = *v;
      if (auto v = ur.strings("skip")) u.skip = std::move(*v);
      const std::set<std::string> misspelled = ur.finish(kUseKeys);
      if (item.as_table()->get("mixin") == nullptr && misspelled.count("mixin") == 0) {
        ctx.diags().error(Diag::missing_key, u.loc, "use entry has no 'mixin'");
      }
    } else {
      ctx.diags().error(Diag::wrong_value_type, u.loc,
                        "'use' takes mixin names or { mixin = ..., skip = [...] }, got " +
                            std::string(node_type_name(item)));
      continue;
    }
    uses.push_back(std::move(u));
  }
  return uses;
}

OpBody read_op(const toml::table& t, bool mixin, Context& ctx) {
  TableReader r(t, ctx, mixin ? "mixin" : "op");
  OpBody op;
  op.is_mixin = mixin;
  op.loc = ctx.loc(t);
  if (auto v = r.string("name")) op.name = *v;
  if (const toml::node* n = r.node("use")) op.uses = read_uses(*n, r, ctx);
  op.kind = r.string("kind");
  op.dtypes = r.strings("dtypes");
  if (op.dtypes) op.dtypes_loc = ctx.loc(*t.get("dtypes"));
  op.summary = r.text("summary");
  op.doc = r.text("doc");
  op.notes = r.text("notes");
  for (const toml::table* p : r.tables("input")) {
    op.inputs.push_back(read_param(*p, ParamKind::input, ctx));
  }
  for (const toml::table* p : r.tables("arg")) {
    op.args.push_back(read_param(*p, ParamKind::arg, ctx));
  }
  for (const toml::table* p : r.tables("output")) {
    op.outputs.push_back(read_param(*p, ParamKind::output, ctx));
  }
  for (const toml::table* c : r.tables("constraint")) {
    if (auto k = read_constraint(*c, ctx)) op.constraints.push_back(std::move(*k));
  }
  for (const toml::table* s : r.tables("signature")) {
    if (auto sig = read_signature(*s, ctx)) op.signatures.push_back(std::move(*sig));
  }
  if (auto v = r.strings("config")) op.configs = std::move(*v);
  if (const toml::node* n = r.node("inplace")) {
    if (!n->is_table()) {
      r.wrong_type("inplace", *n, "a table { output = \"y\", input = \"x\" }");
    } else {
      TableReader ir(*n->as_table(), ctx, "inplace");
      Inplace in;
      in.loc = ctx.loc(*n);
      auto out = ir.string("output");
      auto input = ir.string("input");
      const std::set<std::string> misspelled = ir.finish(kInplaceKeys);
      // Quiet about a key that is only misspelled or of the wrong type:
      // that is reported already.
      auto reported = [&](const char* key) {
        return misspelled.count(key) != 0 || n->as_table()->get(key) != nullptr;
      };
      if (!out || !input) {
        if ((!out && !reported("output")) || (!input && !reported("input"))) {
          ctx.diags().error(Diag::missing_key, in.loc, "inplace needs both 'output' and 'input'");
        }
      } else {
        in.output = *out;
        in.input = *input;
        op.inplace = in;
      }
    }
  }
  op.out_variant = r.boolean("out_variant");
  if (!mixin) {
    op.kernel = r.string("kernel");
    op.cpp_name = r.string("cpp_name");
    if (auto v = r.strings("aliases")) op.aliases = std::move(*v);
    op.formula = r.text("formula");
    op.misspelled = r.finish(kOpKeys);
  } else {
    op.misspelled = r.finish(kMixinKeys);
  }
  if (t.get("name") == nullptr && op.misspelled.count("name") == 0) {
    ctx.diags().error(Diag::missing_key, op.loc,
                      std::string(mixin ? "mixin" : "op") + " has no 'name'");
  }
  return op;
}

ConfigDef read_config(const toml::table& t, Context& ctx) {
  TableReader r(t, ctx, "config");
  ConfigDef c;
  c.loc = ctx.loc(t);
  if (auto v = r.string("name")) c.name = *v;
  c.doc = r.text("doc");
  for (const toml::table* p : r.tables("arg")) {
    c.args.push_back(read_param(*p, ParamKind::arg, ctx));
  }
  for (const toml::table* k : r.tables("constraint")) {
    if (auto con = read_constraint(*k, ctx)) c.constraints.push_back(std::move(*con));
  }
  const std::set<std::string> misspelled = r.finish(kConfigKeys);
  if (t.get("name") == nullptr && misspelled.count("name") == 0) {
    ctx.diags().error(Diag::missing_key, c.loc, "config has no 'name'");
  }
  return c;
}

EnumDef read_enum(const toml::table& t, Context& ctx) {
  TableReader r(t, ctx, "enum");
  EnumDef e;
  e.loc = ctx.loc(t);
  if (auto v = r.string("name")) e.name = *v;
  e.doc = r.text("doc");
  if (auto v = r.strings("values")) e.values = std::move(*v);
  const std::set<std::string> misspelled = r.finish(kEnumKeys);
  if (t.get("name") == nullptr && misspelled.count("name") == 0) {
    ctx.diags().error(Diag::missing_key, e.loc, "enum has no 'name'");
  }
  if (t.get("values") == nullptr && misspelled.count("values") == 0) {
    ctx.diags().error(Diag::missing_key, e.loc, "enum has no 'values'");
  }
  return e;
}

}  // namespace

std::unique_ptr<SpecFile> parse_spec(std::string_view text, const std::string* path,
                                     Diagnostics& diags) {
  toml::table root;
  if (!screen_toml_text(text, path, diags)) return nullptr;
  try {
    root = toml::parse(text, std::string_view(*path));
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    diags.error(Diag::invalid_toml, {path, b.line, b.column},
                "invalid TOML: " + std::string(e.description()));
    return nullptr;
  }
  Context ctx(path, text, diags);
  TableReader r(root, ctx, "the file");
  auto spec = std::make_unique<SpecFile>();
  spec->path = path;
  spec->namespace_name = r.string("namespace");
  spec->kernel_header = r.string("kernel_header");
  spec->summary = r.text("summary");
  spec->doc = r.text("doc");
  spec->cpp_namespace = r.string("cpp_namespace");
  if (auto v = r.strings("include")) spec->includes = std::move(*v);
  for (const toml::table* t : r.tables("op")) spec->ops.push_back(read_op(*t, false, ctx));
  for (const toml::table* t : r.tables("mixin")) spec->mixins.push_back(read_op(*t, true, ctx));
  for (const toml::table* t : r.tables("config")) spec->configs.push_back(read_config(*t, ctx));
  for (const toml::table* t : r.tables("enum")) spec->enums.push_back(read_enum(*t, ctx));
  spec->misspelled = r.finish(kFileKeys);
  return spec;
}

FileReader disk_reader() {
  return [](const std::string& path) -> std::optional<std::string> {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) return std::nullopt;
    return std::move(ss).str();
  };
}

std::string display_path(const std::string& path, const std::string& root) {
  namespace fs = std::filesystem;
  fs::path p = fs::path(path).lexically_normal();
  if (!root.empty()) {
    std::error_code ec;
    const fs::path abs = fs::absolute(p, ec);
    const fs::path base = fs::absolute(fs::path(root), ec).lexically_normal();
    if (!ec) {
      const fs::path rel = abs.lexically_normal().lexically_relative(base);
      if (!rel.empty() && *rel.begin() != "..") p = rel;
    }
  }
  return p.generic_string();
}

std::optional<SpecSet> load_spec_set(const std::string& path, const LoadOptions& options,
                                     Diagnostics& diags) {
  namespace fs = std::filesystem;
  SpecSet set;
  std::map<std::string, std::size_t> index;  // normalised path -> file index
  bool ok = true;

  // Depth-first, so that a cycle is seen as a path back to a file on the stack.
  std::vector<std::string> stack;
  auto load = [&](auto& self, const std::string& file, SourceLoc included_at) -> std::ptrdiff_t {
    const std::string key = fs::path(file).lexically_normal().generic_string();
    if (auto it = std::find(stack.begin(), stack.end(), key); it != stack.end()) {
      std::string chain;
      for (auto s = it; s != stack.end(); ++s) chain += *s + " -> ";
      diags.error(Diag::include_cycle, included_at, "include cycle: " + chain + key);
      ok = false;
      return -1;
    }
    if (auto it = index.find(key); it != index.end()) return static_cast<std::ptrdiff_t>(it->second);
    std::optional<std::string> text = options.read(file);
    if (!text) {
      if (included_at.known()) {
        diags.error(Diag::cannot_read_include, included_at,
                    "cannot read included file '" + file + "'");
      } else {
        diags.error(Diag::cannot_read_spec, {diags.intern(file), 0, 0}, "cannot read spec file");
      }
      ok = false;
      return -1;
    }
    set.read_paths.push_back(file);
    if (text->size() > kMaxSpecBytes) {
      const std::string what = "spec file '" + file + "' is " + std::to_string(text->size()) +
                               " bytes, more than the limit of " +
                               std::to_string(kMaxSpecBytes >> 20) + " MiB";
      diags.error(Diag::spec_too_large,
                  included_at.known() ? included_at : SourceLoc{diags.intern(file), 0, 0}, what);
      ok = false;
      return -1;
    }
    const std::string* name = diags.add_file(file, *text);
    std::unique_ptr<SpecFile> spec = parse_spec(*text, name, diags);
    if (!spec) {
      ok = false;
      return -1;
    }
    spec->display_path = display_path(file, options.root);
    const std::size_t me = set.files.size();
    index[key] = me;
    set.files.push_back(std::move(spec));
    set.visible.emplace_back();
    stack.push_back(key);
    std::vector<std::size_t> visible{me};
    const fs::path dir = fs::path(file).parent_path();
    // Copy: recursion appends to set.files and may move the records.
    const std::vector<LocatedString> includes = set.files[me]->includes;
    for (const LocatedString& inc : includes) {
      std::string child = (dir / inc.value).lexically_normal().generic_string();
      if (!options.read(child)) {
        for (const std::string& idir : options.include_dirs) {
          const std::string alt = (fs::path(idir) / inc.value).lexically_normal().generic_string();
          if (options.read(alt)) {
            child = alt;
            break;
          }
        }
      }
      const std::ptrdiff_t c = self(self, child, inc.loc);
      if (c < 0) continue;
      if (set.files[static_cast<std::size_t>(c)]->namespace_name) {
        diags.error(Diag::include_namespace_file, inc.loc,
                    "'" + inc.value +
                        "' is a namespace file (it has a 'namespace' key); only "
                        "include-only files can be included");
        ok = false;
      }
      for (std::size_t v : set.visible[static_cast<std::size_t>(c)]) {
        if (std::find(visible.begin(), visible.end(), v) == visible.end()) visible.push_back(v);
      }
    }
    stack.pop_back();
    set.visible[me] = std::move(visible);
    return static_cast<std::ptrdiff_t>(me);
  };
  load(load, path, SourceLoc{});
  if (!ok || set.files.empty()) return std::nullopt;
  if (!set.files[0]->namespace_name && set.files[0]->misspelled.count("namespace") != 0) {
    return std::nullopt;  // the misspelled key is already reported
  }
  if (!set.files[0]->namespace_name && set.files[0]->misspelled.count("namespace") == 0) {
    diags.error(Diag::missing_namespace, {set.files[0]->path, 1, 1},
                "missing 'namespace': a spec passed to the generator must name its namespace "
                "(files without one are include-only)");
    return std::nullopt;
  }
  return set;
}

}  // namespace opgen::gen
