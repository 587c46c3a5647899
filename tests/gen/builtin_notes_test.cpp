// The built-in ops' reference entries: every op of opdefs/ states its
// accuracy and its cost, in the notes, as "Accuracy: ... Complexity: ...",
// and every pointwise one has a formula (its reference function and the
// formula line of its page).

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "memory_files.hpp"
#include "resolve.hpp"
#include "spec_loader.hpp"
#include "test_files.hpp"

using namespace opgen::gen;
using opgen::gen::testing::MemoryFiles;
using opgen::gen::testing::read_file;
using opgen::gen::testing::source_root;

namespace {

namespace fs = std::filesystem;

/// What is wrong with the notes of each op of `ns`, one line per op naming
/// it ("math.add (opdefs/math.toml:9): ..."); empty when all follow the
/// convention: "Accuracy:" and, after it, "Complexity:".
std::vector<std::string> notes_problems(const Namespace& ns) {
  std::vector<std::string> out;
  for (const Op& op : ns.ops) {
    const std::string text = op.notes ? op.notes->text : "";
    const std::size_t accuracy = text.find("Accuracy:");
    const std::size_t complexity = text.find("Complexity:");
    std::string problem;
    if (!op.notes) {
      problem = "no notes";
    } else if (accuracy == std::string::npos && complexity == std::string::npos) {
      problem = "notes say neither \"Accuracy:\" nor \"Complexity:\"";
    } else if (accuracy == std::string::npos) {
      problem = "notes lack \"Accuracy:\"";
    } else if (complexity == std::string::npos) {
      problem = "notes lack \"Complexity:\"";
    } else if (complexity < accuracy) {
      problem = "notes give \"Complexity:\" before \"Accuracy:\"";
    }
    if (!problem.empty()) {
      out.push_back(ns.name + "." + op.name + " (" + ns.source + ":" + std::to_string(op.loc.line) +
                    "): " + problem);
    }
  }
  return out;
}

/// The pointwise ops of `ns` without a formula, one line per op as above.
std::vector<std::string> pointwise_without_formula(const Namespace& ns) {
  std::vector<std::string> out;
  for (const Op& op : ns.ops) {
    if (op.kind == OpKind::pointwise && !op.formula) {
      out.push_back(ns.name + "." + op.name + " (" + ns.source + ":" + std::to_string(op.loc.line) +
                    "): pointwise without a formula");
    }
  }
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += "\n  " + l;
  return s;
}

/// The namespace files of opdefs/ (the include-only common.toml is not one).
std::vector<fs::path> builtin_namespace_files() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(source_root()) / "opdefs")) {
    if (e.path().extension() != ".toml") continue;
    Diagnostics diags;
    const std::string text = read_file(e.path().string());
    const std::string path = e.path().string();
    const auto spec = parse_spec(text, &path, diags);
    if (spec && spec->namespace_name) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(builtin_notes)

// The checks report an op whose notes lack either statement, or a pointwise
// op without a formula, by name, and accept one that has both in order (and
// a formula).
BOOST_AUTO_TEST_CASE(check_names_the_offending_ops) {
  MemoryFiles fs;
  fs.files["spec.toml"] = R"spec(namespace = "demo"
[[mixin]]
name = "unary"
kind = "pointwise"
input = [ { name = "x", type = "float", doc = "Input." } ]
output = [ { name = "y", type = "float", shape = "same(x)", dtype = "same(x)", doc = "Result." } ]

[[op]]
name = "good"
use = ["unary"]
summary = "Both, in order."
notes = "Accuracy: exact. Complexity: O(n), one pass."

[[op]]
name = "no_accuracy"
use = ["unary"]
summary = "Cost only."
notes = "Complexity: O(n), one pass."

[[op]]
name = "no_complexity"
use = ["unary"]
summary = "Accuracy only."
notes = "Accuracy: exact."

[[op]]
name = "swapped"
use = ["unary"]
summary = "Both, the wrong way round."
notes = "Complexity: O(n). Accuracy: exact."

[[op]]
name = "bare"
use = ["unary"]
summary = "No notes."

[[op]]
name = "with_formula"
use = ["unary"]
summary = "Both, and a formula."
notes = "Accuracy: exact. Complexity: O(n), one pass."
formula = "x"
)spec";
  Diagnostics diags;
  const auto set = load_spec_set("spec.toml", fs.options(), diags);
  BOOST_TEST_REQUIRE(set.has_value());
  const Namespace ns = resolve(*set, diags);
  BOOST_TEST_REQUIRE(!diags.has_errors());
  const std::vector<std::string> want = {
      "demo.no_accuracy (spec.toml:14): notes lack \"Accuracy:\"",
      "demo.no_complexity (spec.toml:20): notes lack \"Complexity:\"",
      "demo.swapped (spec.toml:26): notes give \"Complexity:\" before \"Accuracy:\"",
      "demo.bare (spec.toml:32): no notes",
  };
  const std::vector<std::string> got = notes_problems(ns);
  BOOST_TEST(got == want, boost::test_tools::per_element());
  const std::vector<std::string> want_formula = {
      "demo.good (spec.toml:8): pointwise without a formula",
      "demo.no_accuracy (spec.toml:14): pointwise without a formula",
      "demo.no_complexity (spec.toml:20): pointwise without a formula",
      "demo.swapped (spec.toml:26): pointwise without a formula",
      "demo.bare (spec.toml:32): pointwise without a formula",
  };
  const std::vector<std::string> got_formula = pointwise_without_formula(ns);
  BOOST_TEST(got_formula == want_formula, boost::test_tools::per_element());
}

// Every built-in op documents its accuracy and complexity (the reference
// pages show the notes as written), and every pointwise one has a formula.
BOOST_AUTO_TEST_CASE(every_builtin_op_states_accuracy_complexity_and_formula) {
  const std::vector<fs::path> files = builtin_namespace_files();
  BOOST_TEST_REQUIRE(files.size() >= 6u);  // bitwise, linalg, math, nn, random, shape
  std::size_t ops = 0;
  std::vector<std::string> problems;
  for (const fs::path& file : files) {
    Diagnostics diags;
    LoadOptions options;
    options.root = source_root();
    const auto set = load_spec_set(file.string(), options, diags);
    BOOST_TEST_REQUIRE(set.has_value(), file.string() << ":" << joined(diags.lines()));
    const Namespace ns = resolve(*set, diags);
    BOOST_TEST_REQUIRE(!diags.has_errors(), file.string() << ":" << joined(diags.lines()));
    ops += ns.ops.size();
    for (std::string& p : notes_problems(ns)) problems.push_back(std::move(p));
    for (std::string& p : pointwise_without_formula(ns)) problems.push_back(std::move(p));
  }
  BOOST_TEST(ops >= 100u);  // the check saw the built-in ops, not an empty folder
  BOOST_TEST(problems.empty(), problems.size()
                                   << " problems: built-in ops do not follow the notes convention "
                                      "\"Accuracy: ... Complexity: ...\" or lack a formula:"
                                   << joined(problems));
}

BOOST_AUTO_TEST_SUITE_END()
