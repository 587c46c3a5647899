// In-memory spec files for the generator tests: the stages read specs
// through a FileReader, so no test needs the disk.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "diagnostics.hpp"
#include "pipeline.hpp"
#include "spec_loader.hpp"

namespace opgen::gen::testing {

/// Files by path; `options()` gives LoadOptions reading from them.
struct MemoryFiles {
  std::map<std::string, std::string> files;

  LoadOptions options() const {
    LoadOptions o;
    o.read = [this](const std::string& path) -> std::optional<std::string> {
      auto it = files.find(path);
      if (it == files.end()) return std::nullopt;
      return it->second;
    };
    return o;
  }
};

/// Runs the whole pipeline on `text` as "spec.toml" (plus `more` files) and
/// returns the diagnostic lines.
inline std::vector<std::string> diagnose(const std::string& text,
                                         std::map<std::string, std::string> more = {}) {
  MemoryFiles fs;
  fs.files = std::move(more);
  fs.files["spec.toml"] = text;
  Diagnostics diags;
  run_pipeline("spec.toml", fs.options(), diags);
  return diags.lines();
}

/// The pipeline's result on `text` as "spec.toml"; diagnostics into `diags`.
inline PipelineResult generate(const std::string& text, Diagnostics& diags,
                               std::map<std::string, std::string> more = {}) {
  static MemoryFiles fs;  // the reader refers to it while the pipeline runs
  fs.files = std::move(more);
  fs.files["spec.toml"] = text;
  return run_pipeline("spec.toml", fs.options(), diags);
}

}  // namespace opgen::gen::testing
