// Stage 1, load: TOML text -> raw records (SpecFile) with source positions.
// The only part of the generator that sees toml++ types. Every key is taken
// with a type check; a key left over is an error with a "did you mean".
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.hpp"
#include "model.hpp"

namespace opgen::gen {

/// Reads a whole file; nullopt when it cannot be read. Tests pass an
/// in-memory map; the CLI passes disk_reader().
using FileReader = std::function<std::optional<std::string>(const std::string& path)>;

/// Reads from the file system.
FileReader disk_reader();

/// The largest spec file read (16 MiB): a larger one is an error
/// (spec-too-large), so that memory and time stay bounded. The built-in
/// specs are a few tens of KiB.
inline constexpr std::size_t kMaxSpecBytes = std::size_t{16} << 20;

struct LoadOptions {
  FileReader read = disk_reader();
  /// Directories searched, in order, for an include that is not found
  /// relative to the including file (`--include-dir`).
  std::vector<std::string> include_dirs;
  /// Directory that display paths (banners, docs, #line) are relative to;
  /// empty: display the paths as given.
  std::string root;
};

/// Parses one spec file from text; its includes are recorded, not followed.
/// Returns null when the text is not valid TOML (reported at its position).
std::unique_ptr<SpecFile> parse_spec(std::string_view text, const std::string* path,
                                     Diagnostics& diags);

/// Loads the namespace file `path` and, transitively, every file it
/// includes (paths relative to the including file; each file read once;
/// cycles are errors). The first file must have a `namespace` key and the
/// others must not. Returns nullopt when any file is missing or does not parse.
std::optional<SpecSet> load_spec_set(const std::string& path, const LoadOptions& options,
                                     Diagnostics& diags);

/// `path` relative to `root` when it lies inside it, else `path` normalised;
/// always with forward slashes. Deterministic for a given pair of inputs.
std::string display_path(const std::string& path, const std::string& root);

}  // namespace opgen::gen
