// libFuzzer target over the whole generator: load -> resolve -> check ->
// emit into memory, plus `opgen check` (no files kept) and `opgen describe`
// (the JSON model), on one fuzzed input. Built with -Dfuzzing=enabled
// (clang only); run by tests/fuzz/run_fuzzer.sh.
//
// The input is one or more in-memory spec files: the text up to the first
// line "#@file NAME" is the namespace file "spec.toml"; each such line
// starts a file NAME (so includes, chains, diamonds and cycles are reached).
// Nothing is read from the disk: any other path is unreadable.
//
// Besides crashes, sanitizer reports, timeouts and memory blow-ups, the
// target aborts when the generator breaks its own contract:
//   - an exception escapes a stage (main() would report an internal error);
//   - files are emitted although an error was reported, or an error-free
//     run emits nothing (a bad spec silently accepted, or a failure without
//     a diagnostic);
//   - `check` or `describe` disagree with `generate` on the diagnostics.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "emit_json.hpp"
#include "pipeline.hpp"

namespace {

using namespace opgen::gen;

std::map<std::string, std::string> split_files(std::string_view input) {
  std::map<std::string, std::string> files;
  constexpr std::string_view kMarker = "#@file ";
  std::string name = "spec.toml";
  std::size_t start = 0;
  std::size_t pos = 0;
  while (pos <= input.size()) {
    const std::size_t eol = input.find('\n', pos);
    const std::string_view line =
        input.substr(pos, eol == std::string_view::npos ? std::string_view::npos : eol - pos);
    if (line.substr(0, kMarker.size()) == kMarker) {
      files[name] += std::string(input.substr(start, pos - start));
      name = std::string(line.substr(kMarker.size()));
      start = eol == std::string_view::npos ? input.size() : eol + 1;
    }
    if (eol == std::string_view::npos) break;
    pos = eol + 1;
  }
  files[name] += std::string(input.substr(start));
  return files;
}

[[noreturn]] void fail(const char* what, const Diagnostics& d) {
  std::fprintf(stderr, "opgen_fuzz: %s\n", what);
  for (const std::string& l : d.lines()) std::fprintf(stderr, "  %s\n", l.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::map<std::string, std::string> files =
      split_files(std::string_view(reinterpret_cast<const char*>(data), size));
  LoadOptions options;
  options.read = [&files](const std::string& path) -> std::optional<std::string> {
    auto it = files.find(path);
    if (it == files.end()) return std::nullopt;
    return it->second;
  };
  options.include_dirs = {"inc"};
  try {
    Diagnostics generated;
    const PipelineResult r = run_pipeline("spec.toml", options, generated);
    if (r.files.has_value() == generated.has_errors()) {
      fail(r.files ? "files emitted despite errors" : "no files and no error", generated);
    }
    Diagnostics checked;
    run_pipeline("spec.toml", options, checked, false);
    if (checked.lines() != generated.lines()) fail("check and generate disagree", checked);
    const std::unique_ptr<CheckedSpec> described = load_checked_spec("spec.toml", options);
    if (described->diags.lines() != generated.lines() || described->ok == generated.has_errors()) {
      fail("describe and generate disagree", described->diags);
    }
    if (described->ok) {
      const std::vector<const CheckedSpec*> views{described.get()};
      const std::string json = to_json_text(describe_document(views));
      if (json.empty()) fail("empty describe document", described->diags);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "opgen_fuzz: exception escaped: %s\n", e.what());
    std::abort();
  }
  return 0;
}
