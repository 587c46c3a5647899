// The whole generator on one namespace file: load -> resolve -> check ->
// emit, in memory. Shared by the command line, the tests and the fuzzer.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "diagnostics.hpp"
#include "emit.hpp"
#include "model.hpp"
#include "spec_loader.hpp"

namespace opgen::gen {

struct PipelineResult {
  /// The namespace name (empty when loading failed).
  std::string ns;
  /// The emitted files; empty when any error was reported.
  std::optional<GeneratedFiles> files;
  /// Every spec file read, for the depfile.
  std::vector<std::string> read_paths;
  /// One line per op, "math.add(x, y) -> z", for `opgen list`.
  std::vector<std::string> op_lines;
};

/// Runs every stage on `spec`. With `emit_files` false (`opgen check` and
/// `list`) the emitters still run, for the problems only they find, but
/// `files` stays empty. Problems go to `diags`.
PipelineResult run_pipeline(const std::string& spec, const LoadOptions& options,
                            Diagnostics& diags, bool emit_files = true);

}  // namespace opgen::gen
