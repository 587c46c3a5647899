// opgen: the command line of the generator.
//
//   opgen generate SPEC --out-dir DIR [--depfile FILE] [--root DIR] [--include-dir DIR]...
//                  [--negative-tests] [--property-tests]
//   opgen check SPEC...
//   opgen list SPEC...
//   opgen describe --json SPEC... [--root DIR] [--include-dir DIR]...
//   opgen schema
//   opgen --version | --help
//
// Exit status: 0 success, 1 spec errors, 2 usage or I/O errors.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "emit_json.hpp"
#include "output.hpp"
#include "pipeline.hpp"
#include "spec_schema.hpp"

#ifndef OPGEN_VERSION
#define OPGEN_VERSION "unknown"
#endif

namespace {

using opgen::gen::Diagnostics;
using opgen::gen::LoadOptions;

constexpr const char* kUsage =
    "usage: opgen <command> [options]\n"
    "\n"
    "commands:\n"
    "  generate SPEC --out-dir DIR [--depfile FILE] [--root DIR] [--include-dir DIR]...\n"
    "      Write DIR/<ns>.hpp, DIR/<ns>.cpp, DIR/<ns>.md and DIR/<ns>_reference.hpp\n"
    "      (scalar reference functions of the formulas) for the namespace file\n"
    "      SPEC. Files are rewritten only when their content changes.\n"
    "      --depfile FILE    also write a Makefile-style depfile listing every\n"
    "                        spec file read (for ninja / make / CMake)\n"
    "      --root DIR        spec paths in banners and docs are shown relative\n"
    "                        to DIR (default: as given)\n"
    "      --include-dir DIR search DIR for includes not found beside the\n"
    "                        including file (repeatable)\n"
    "      --negative-tests  also write DIR/<ns>_negative_test.cpp: a Boost.Test\n"
    "                        source calling every op once per check with a\n"
    "                        violating call (runner: tests/negative/)\n"
    "      --property-tests  also write DIR/<ns>_property_test.cpp: a Boost.Test\n"
    "                        source comparing every pointwise op with a formula\n"
    "                        with its reference function (runner: tests/property/)\n"
    "  check SPEC...         Report every problem in the specs; write nothing.\n"
    "  list SPEC...          One line per op: namespace.name(params) -> outputs\n"
    "                        ('?' marks optional parameters).\n"
    "  describe --json SPEC... [--root DIR] [--include-dir DIR]...\n"
    "      Print the checked model of the specs (ops, parameters, rules,\n"
    "      constraints, overloads, configs, enums) as one JSON document on\n"
    "      stdout, for binding generators; see docs/describe-json.md.\n"
    "  schema                Print the JSON Schema of spec files (for TOML editors).\n"
    "  --version             Print the version.\n"
    "  --help                Print this help.\n"
    "\n"
    "Diagnostics go to stderr as file:line:col: error: message. With\n"
    "--show-classes (any command but schema) each error and warning ends in\n"
    "its class id, [unknown-key], catalogued in docs/diagnostics.md.\n"
    "Exit status: 0 success, 1 spec errors, 2 usage or I/O errors.\n";

int usage_error(const std::string& message) {
  std::cerr << "opgen: " << message << "\n\n" << kUsage;
  return 2;
}

struct Options {
  std::vector<std::string> specs;
  std::string out_dir;
  std::string depfile;
  bool json = false;
  bool show_classes = false;
  bool negative_tests = false;
  bool property_tests = false;
  LoadOptions load;
};

// Parses the options after the command; returns an error message or "".
std::string parse_options(int argc, char** argv, int first, bool generate, bool describe,
                          Options& o) {
  for (int i = first; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    if (generate && arg == "--out-dir") {
      if (!value(o.out_dir)) return "--out-dir needs a directory";
    } else if (generate && arg == "--depfile") {
      if (!value(o.depfile)) return "--depfile needs a file name";
    } else if (generate && arg == "--negative-tests") {
      o.negative_tests = true;
    } else if (generate && arg == "--property-tests") {
      o.property_tests = true;
    } else if (describe && arg == "--json") {
      o.json = true;
    } else if (arg == "--root") {
      if (!value(o.load.root)) return "--root needs a directory";
    } else if (arg == "--show-classes") {
      o.show_classes = true;
    } else if (arg == "--include-dir") {
      std::string dir;
      if (!value(dir)) return "--include-dir needs a directory";
      o.load.include_dirs.push_back(dir);
    } else if (arg.size() > 1 && arg[0] == '-') {
      return "unknown option '" + arg + "'";
    } else {
      o.specs.push_back(arg);
    }
  }
  if (o.specs.empty()) return "no spec file given";
  return "";
}

int generate(const Options& o) {
  if (o.specs.size() != 1) return usage_error("generate takes exactly one spec file");
  if (o.out_dir.empty()) return usage_error("generate needs --out-dir");
  Diagnostics diags;
  opgen::gen::PipelineResult r = opgen::gen::run_pipeline(o.specs[0], o.load, diags);
  diags.print(std::cerr, o.show_classes);
  if (!r.files) {
    if (r.read_paths.empty() && !diags.has_errors()) return 2;
    // A missing or unreadable spec is an I/O problem, not a spec error.
    for (const auto& d : diags.items()) {
      if (d.diag_class == opgen::gen::Diag::cannot_read_spec) return 2;
    }
    return 1;
  }
  namespace fs = std::filesystem;
  const fs::path dir(o.out_dir);
  std::vector<std::pair<std::string, const std::string*>> outputs = {
      {(dir / (r.ns + ".hpp")).string(), &r.files->header},
      {(dir / (r.ns + ".cpp")).string(), &r.files->source},
      {(dir / (r.ns + ".md")).string(), &r.files->reference},
      {(dir / (r.ns + "_reference.hpp")).string(), &r.files->formulas},
  };
  if (o.negative_tests) {
    outputs.emplace_back((dir / (r.ns + "_negative_test.cpp")).string(), &r.files->negative_tests);
  }
  if (o.property_tests) {
    outputs.emplace_back((dir / (r.ns + "_property_test.cpp")).string(), &r.files->property_tests);
  }
  for (const auto& [path, text] : outputs) {
    if (std::string err = opgen::gen::write_if_changed(path, *text); !err.empty()) {
      std::cerr << "opgen: " << err << "\n";
      return 2;
    }
  }
  if (!o.depfile.empty()) {
    std::vector<std::string> targets;
    for (const auto& out : outputs) targets.push_back(out.first);
    const std::string dep = opgen::gen::depfile_text(targets, r.read_paths);
    if (std::string err = opgen::gen::write_if_changed(o.depfile, dep); !err.empty()) {
      std::cerr << "opgen: " << err << "\n";
      return 2;
    }
  }
  return 0;
}

int check_or_list(const Options& o, bool list) {
  int status = 0;
  for (const std::string& spec : o.specs) {
    Diagnostics diags;
    opgen::gen::PipelineResult r = opgen::gen::run_pipeline(spec, o.load, diags, false);
    diags.print(std::cerr, o.show_classes);
    if (diags.has_errors()) {
      bool io = false;
      for (const auto& d : diags.items()) io |= !d.loc.known();
      status = std::max(status, io ? 2 : 1);
      continue;
    }
    if (list) {
      for (const std::string& line : r.op_lines) std::cout << line << "\n";
    }
  }
  return status;
}

int describe(const Options& o) {
  if (!o.json) return usage_error("describe needs an output format: --json");
  int status = 0;
  std::vector<std::unique_ptr<opgen::gen::CheckedSpec>> specs;
  for (const std::string& spec : o.specs) {
    auto checked = opgen::gen::load_checked_spec(spec, o.load);
    checked->diags.print(std::cerr, o.show_classes);
    if (!checked->ok) {
      bool io = false;
      for (const auto& d : checked->diags.items()) io |= !d.loc.known();
      status = std::max(status, io ? 2 : 1);
    }
    specs.push_back(std::move(checked));
  }
  if (status != 0) return status;
  std::vector<const opgen::gen::CheckedSpec*> views;
  for (const auto& s : specs) views.push_back(s.get());
  std::cout << opgen::gen::to_json_text(opgen::gen::describe_document(views));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage_error("no command given");
  const std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (cmd == "--version") {
    std::cout << "opgen " << OPGEN_VERSION << "\n";
    return 0;
  }
  if (cmd == "schema" && argc > 2) return usage_error("schema takes no arguments");
  if (cmd != "generate" && cmd != "check" && cmd != "list" && cmd != "describe" &&
      cmd != "schema") {
    return usage_error("unknown command '" + cmd + "'");
  }
  Options o;
  if (cmd != "schema") {
    if (std::string err = parse_options(argc, argv, 2, cmd == "generate", cmd == "describe", o);
        !err.empty()) {
      return usage_error(err);
    }
  }
  try {
    if (cmd == "schema") {
      std::cout << opgen::gen::to_json_text(opgen::gen::spec_schema());
      return 0;
    }
    if (cmd == "generate") return generate(o);
    if (cmd == "describe") return describe(o);
    return check_or_list(o, cmd == "list");
  } catch (const std::exception& e) {
    // A bug in the generator, never a spec problem: say so plainly.
    std::cerr << "opgen: internal error: " << e.what() << "\n";
    return 2;
  }
}
