// Source locations and the diagnostics of one generator run.
//
// Every stage reports problems here instead of stopping at the first one;
// main prints them all, sorted by position, compiler style:
//
//   opdefs/math.toml:14:19: error: unknown dtype 'flaot32'; did you mean 'float32'?
//       dtypes = ["float32", "flaot32"]
//                            ^
//   opdefs/math.toml:3:1: note: op 'add' first defined here
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace opgen::gen {

/// A position in a spec file. Line and column are 1-based; 0 means unknown.
/// `file` points at a path owned by the Diagnostics' file table (or a
/// literal), so a SourceLoc is cheap to copy and keep in the model.
struct SourceLoc {
  const std::string* file = nullptr;
  std::uint32_t line = 0;
  std::uint32_t col = 0;

  bool known() const noexcept { return file != nullptr && line != 0; }
  /// "path:line:col" (or "path", or "<unknown>").
  std::string to_string() const;
  /// The same place moved `n` columns right (for positions inside a value).
  SourceLoc shifted(std::uint32_t n) const noexcept { return {file, line, col + n}; }
};

/// Orders by file name, then line, then column.
bool operator<(const SourceLoc& a, const SourceLoc& b) noexcept;

/// A string value from a spec with the location of each of its characters,
/// so that an error inside an expression points at its own column even when
/// the TOML string has escapes or spans lines.
struct LocatedText {
  std::string text;
  /// Where the value starts (the first character after the opening quote).
  SourceLoc loc;
  /// Location of each character of `text` plus one past the end; may be
  /// empty, in which case positions are `loc` shifted by the offset.
  std::vector<SourceLoc> char_locs;

  SourceLoc at(std::size_t offset) const noexcept {
    if (char_locs.empty()) return loc.shifted(static_cast<std::uint32_t>(offset));
    return char_locs[offset < char_locs.size() ? offset : char_locs.size() - 1];
  }
};

enum class Severity { error, warning, note };

/// The class of an error or warning: which rule of the spec format it
/// reports. The closed list is diagnostic_classes.def; docs/diagnostics.md
/// is its catalogue, and tests/bad_specs/ holds a bad spec for each.
enum class Diag : std::uint8_t {
#define OPGEN_DIAG(id, name, description) id,
#include "diagnostic_classes.def"
};

struct DiagClassInfo {
  Diag diag;
  /// The kebab-case id users see: "unknown-key".
  std::string_view name;
  /// What triggers it, in one sentence.
  std::string_view description;
};

/// Every class, in the order of diagnostic_classes.def.
std::span<const DiagClassInfo> diag_classes() noexcept;
/// The kebab-case id of a class ("unknown-key" for Diag::unknown_key).
std::string_view diag_name(Diag d) noexcept;

struct Diagnostic {
  Severity severity = Severity::error;
  /// The rule broken; a note has the class of the diagnostic it belongs to.
  Diag diag_class = Diag::invalid_toml;
  SourceLoc loc;
  std::string message;
  /// Notes printed right after this diagnostic (related places).
  std::vector<Diagnostic> notes;
};

/// Collects the diagnostics of a run and owns the text of every file read,
/// so that printing can show the offending line with a caret.
class Diagnostics {
 public:
  /// Interns a file name and remembers its contents; returns the stable
  /// pointer SourceLocs use.
  const std::string* add_file(std::string path, std::string contents);
  /// The stable pointer for a path (interned if new, with no contents).
  const std::string* intern(std::string_view path);
  /// Contents of a file added with add_file (empty when unknown).
  std::string_view contents(const std::string* file) const;

  /// Records a problem of class `diag` (every error and warning names the
  /// rule it reports; add a class to diagnostic_classes.def for a new rule).
  /// Returns a reference to it so that notes can be attached:
  /// `diags.error(Diag::duplicate_op, loc, "...")`, then note().
  Diagnostic& error(Diag diag, SourceLoc loc, std::string message);
  Diagnostic& warning(Diag diag, SourceLoc loc, std::string message);
  /// Attaches a note to the most recent error or warning.
  void note(SourceLoc loc, std::string message);

  bool has_errors() const noexcept { return error_count_ > 0; }
  std::size_t error_count() const noexcept { return error_count_; }
  std::size_t warning_count() const noexcept { return items_.size() - error_count_; }
  /// In the order reported (print() sorts).
  const std::vector<Diagnostic>& items() const noexcept { return items_; }

  /// Prints every diagnostic sorted by position (stable for equal positions),
  /// each with its source line and a caret when the file is known, then
  /// its notes. Duplicates (same place, same message) are printed once.
  /// With `show_classes`, each error and warning ends in its class id
  /// ("... did you mean 'doc'? [unknown-key]").
  void print(std::ostream& os, bool show_classes = false) const;
  /// One line per diagnostic and note, "path:line:col: error: message",
  /// sorted as print() does: the form tests compare against.
  std::vector<std::string> lines() const;

 private:
  std::vector<Diagnostic> sorted() const;
  void print_one(std::ostream& os, const Diagnostic& d, bool show_class) const;

  std::map<std::string, std::unique_ptr<std::string>, std::less<>> names_;
  std::map<const std::string*, std::string> contents_;
  /// Where each line of a file starts, made when a diagnostic is first
  /// printed: thousands of diagnostics in a big file stay linear.
  mutable std::map<const std::string*, std::vector<std::size_t>> line_starts_;
  std::string_view source_line(const std::string* file, std::uint32_t line) const;
  std::vector<Diagnostic> items_;
  std::size_t error_count_ = 0;
};

}  // namespace opgen::gen
