// Pathological specs: each gets a clear diagnostic (or, when valid, its
// outputs), never a crash, a hang or an unbounded allocation. Sizes are far
// beyond real specs; a quadratic step or a recursion per level would blow
// the suite's time limit or its stack, which is how these tests fail.

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "check.hpp"
#include "memory_files.hpp"
#include "test_files.hpp"

using namespace opgen::gen;
using namespace opgen::gen::testing;
namespace fs = std::filesystem;

namespace {

std::string op_text(const std::string& name, const std::string& extra = "") {
  return "[[op]]\nname = \"" + name + "\"\nkind = \"pointwise\"\nsummary = \"S.\"\n" + extra +
         "input = [ { name = \"x\", type = \"float\", doc = \"In.\" } ]\n"
         "output = [ { name = \"y\", type = \"float\", shape = \"same(x)\", dtype = \"same(x)\", "
         "doc = \"Out.\" } ]\n";
}

std::vector<std::string> classes(const Diagnostics& d) {
  std::vector<std::string> out;
  for (const Diagnostic& item : d.items()) out.emplace_back(diag_name(item.diag_class));
  return out;
}

// The whole printed report (messages, source lines, carets).
std::string printed(const Diagnostics& d) {
  std::ostringstream os;
  d.print(os, true);
  return os.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(robust)

BOOST_AUTO_TEST_CASE(spec_too_large) {
  std::string huge = "namespace = \"p\"\ndoc = \"\"\"\n";
  huge += std::string(kMaxSpecBytes, 'x');
  huge += "\n\"\"\"\n";
  MemoryFiles fs;
  fs.files["huge.toml"] = huge;
  Diagnostics d;
  BOOST_TEST(!run_pipeline("huge.toml", fs.options(), d).files);
  BOOST_TEST(classes(d) == std::vector<std::string>{"spec-too-large"},
             boost::test_tools::per_element());
  BOOST_TEST(d.lines() == std::vector<std::string>{"huge.toml: error: spec file 'huge.toml' is " +
                                                   std::to_string(huge.size()) +
                                                   " bytes, more than the limit of 16 MiB"},
             boost::test_tools::per_element());
  // An included one is reported where it is included.
  fs.files["spec.toml"] = "namespace = \"p\"\ninclude = [\"huge.toml\"]\n" + op_text("neg");
  fs.files["huge.toml"] = "doc = \"\"\"\n" + std::string(kMaxSpecBytes, 'x') + "\n\"\"\"\n";
  Diagnostics d2;
  BOOST_TEST(!run_pipeline("spec.toml", fs.options(), d2).files);
  BOOST_TEST(classes(d2) == std::vector<std::string>{"spec-too-large"},
             boost::test_tools::per_element());
  BOOST_TEST(d2.lines().at(0).rfind("spec.toml:2:13: error: spec file 'huge.toml'", 0) == 0u);
}

// A 4 MiB doc is fine (below the file limit) and reaches the docs whole.
BOOST_AUTO_TEST_CASE(long_strings) {
  const std::string doc(4 << 20, 'w');
  Diagnostics d;
  const PipelineResult r =
      generate("namespace = \"p\"\n" + op_text("neg", "doc = \"" + doc + "\"\n"), d);
  BOOST_TEST_REQUIRE(r.files.has_value(), printed(d));
  BOOST_TEST(r.files->reference.find(doc) != std::string::npos);
}

// Names of a million characters: one short message each, and "did you
// mean" does not compare them (a quadratic edit distance).
BOOST_AUTO_TEST_CASE(long_names) {
  const std::string a(1 << 20, 'a');
  const std::string b(1 << 20, 'b');
  Diagnostics d;
  generate("namespace = \"p\"\n" + op_text(a) + op_text("neg", "use = [\"" + a + "\"]\n") +
               "[[mixin]]\nname = \"" + b + "\"\n",
           d);
  BOOST_TEST(classes(d) == (std::vector<std::string>{"unknown-mixin", "unused-mixin",
                                                     "name-too-long"}),
             boost::test_tools::per_element());
  const std::string report = printed(d);
  BOOST_TEST(report.size() < 2000u, report);
  BOOST_TEST(report.find("is 1048576 characters long (at most 128)") != std::string::npos,
             report);
  BOOST_TEST(report.find("unknown mixin 'aaaaaaaaaa") != std::string::npos, report);
}

// Deep nesting: a clear error at a fixed depth, with no recursion per level
// of the input beyond it (100000 levels would overflow the stack).
BOOST_AUTO_TEST_CASE(deep_nesting) {
  const std::string open(100000, '(');
  const std::string close(100000, ')');
  for (const std::string& expr :
       {open + "x" + close, std::string(100000, '-') + "x", std::string(100000, '!') + "x"}) {
    Diagnostics d;
    generate("namespace = \"p\"\n" + op_text("neg", "formula = \"" + expr + "\"\n"), d);
    BOOST_TEST(classes(d) == std::vector<std::string>{"expr-too-deep"},
               boost::test_tools::per_element());
  }
  Diagnostics d;
  generate("namespace = \"p\"\nx = " + open.substr(0, 0) + std::string(100000, '[') +
               std::string(100000, ']') + "\n",
           d);
  BOOST_TEST(classes(d) == std::vector<std::string>{"invalid-toml"},
             boost::test_tools::per_element());
}

// Thousands of ops generate, every one of them.
BOOST_AUTO_TEST_CASE(thousands_of_ops) {
  std::string text = "namespace = \"p\"\n";
  for (int i = 0; i < 5000; ++i) text += op_text("op" + std::to_string(i));
  Diagnostics d;
  const PipelineResult r = generate(text, d);
  BOOST_TEST_REQUIRE(r.files.has_value(), printed(d));
  BOOST_TEST(r.op_lines.size() == 5000u);
  BOOST_TEST(r.files->header.find("Tensor op4999(const Tensor& x)") != std::string::npos);
  BOOST_TEST(r.files->reference.find("## p.op4999") != std::string::npos);
}

// Thousands of errors in one big file: each printed with its line, in time
// linear in the file (the line index is built once).
BOOST_AUTO_TEST_CASE(thousands_of_errors) {
  std::string text = "namespace = \"p\"\n";
  for (int i = 0; i < 5000; ++i) text += op_text("Op" + std::to_string(i));
  Diagnostics d;
  generate(text, d);
  BOOST_TEST(d.error_count() == 5000u);
  const std::string report = printed(d);
  BOOST_TEST(report.find("error: op name 'Op4999' must be lower snake_case") != std::string::npos);
  BOOST_TEST(report.find("    name = \"Op4999\"\n") != std::string::npos);
}

// A chain of 300 includes, and diamonds: every file read once, its
// definitions visible once (no "defined twice").
BOOST_AUTO_TEST_CASE(include_chains_and_diamonds) {
  std::map<std::string, std::string> files;
  for (int i = 0; i < 300; ++i) {
    const std::string n = std::to_string(i), next = std::to_string(i + 1);
    files["c" + n + ".toml"] = "include = [\"c" + next + ".toml\", \"d.toml\"]\n";
  }
  files["c300.toml"] = "include = [\"d.toml\"]\n";
  files["d.toml"] =
      "[[mixin]]\nname = \"m\"\nkind = \"pointwise\"\nsummary = \"S.\"\n"
      "input = [ { name = \"x\", type = \"float\", doc = \"In.\" } ]\n"
      "output = [ { name = \"y\", type = \"float\", shape = \"same(x)\", dtype = \"same(x)\", "
      "doc = \"Out.\" } ]\n";
  Diagnostics d;
  const PipelineResult r = generate(
      "namespace = \"p\"\ninclude = [\"c0.toml\", \"d.toml\", \"c150.toml\"]\n"
      "[[op]]\nname = \"neg\"\nuse = [\"m\"]\n",
      d, files);
  BOOST_TEST_REQUIRE(r.files.has_value(), printed(d));
  BOOST_TEST(r.read_paths.size() == 303u);  // spec, c0..c300, d: each once
}

// A file that includes itself, under any spelling of its path.
BOOST_AUTO_TEST_CASE(self_include) {
  for (const char* spelling : {"spec.toml", "./spec.toml", "x/../spec.toml"}) {
    Diagnostics d;
    generate("namespace = \"p\"\ninclude = [\"" + std::string(spelling) + "\"]\n" + op_text("neg"),
             d);
    BOOST_TEST(classes(d) == std::vector<std::string>{"include-cycle"},
               boost::test_tools::per_element());
  }
}

// Includes the disk cannot give as a file: a directory, a missing file, and
// (when not running as root) a file without read permission.
BOOST_AUTO_TEST_CASE(unreadable_includes) {
  const fs::path dir = fs::temp_directory_path() / ("opgen-robust-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "a_directory.toml");
  std::ofstream(dir / "locked.toml") << "[[mixin]]\nname = \"m\"\n";
  fs::permissions(dir / "locked.toml", fs::perms::none);
  const bool root = std::ifstream(dir / "locked.toml").good();
  std::ofstream(dir / "spec.toml") << "namespace = \"p\"\ninclude = [\"a_directory.toml\", "
                                      "\"missing.toml\""
                                   << (root ? "" : ", \"locked.toml\"") << "]\n"
                                   << op_text("neg");
  LoadOptions o;  // the disk
  Diagnostics d;
  const PipelineResult r = run_pipeline((dir / "spec.toml").string(), o, d);
  BOOST_TEST(!r.files);
  const std::vector<std::string> expected(root ? 2 : 3, "cannot-read-include");
  BOOST_TEST(classes(d) == expected, boost::test_tools::per_element());
  fs::permissions(dir / "locked.toml", fs::perms::owner_all);
  fs::remove_all(dir);
}

// Doc text never leaves its place: in the header every line of it stays in
// a /// comment (a multi-line parameter doc once spilled into code), in the
// source the constraint message is one escaped literal, and in the
// reference page every table row keeps its cells.
BOOST_AUTO_TEST_CASE(doc_text_stays_in_place) {
  const std::string spec = R"spec(namespace = "docs"
summary = "Summary */ \\ {{x}} | a | <b>b</b> ünï"
[[op]]
name = "affine"
kind = "pointwise"
summary = "Neg */ of {{x}} | pipe | \\ end\\"
doc = """
Op doc */ \\
#include <evil>
{{x}} {{{y}}} {{=<% %>=}} `code */` | a | b |
<div>html</div> ≥ 𝔸 \\"""
notes = "Notes */ | a | b |\n<div>html</div> \\"
input = [ { name = "x", type = "float", doc = """Input */ \\ {{x}} | two
#define lines | here""" } ]
arg = [ { name = "a", type = "float", default = 1.0, doc = "Arg */ \\" } ]
output = [ { name = "y", type = "float", shape = "same(x)", dtype = "same(x)", doc = "Result */ \\" } ]
constraint = [ { check = "a > 0", message = "a */ must \\ be \" positive {{x}} ??/ |" } ]
)spec";
  Diagnostics d;
  const PipelineResult r = generate(spec, d);
  BOOST_TEST_REQUIRE(r.files.has_value(), printed(d));
  std::istringstream header(r.files->header);
  int doc_lines = 0;
  for (std::string line; std::getline(header, line);) {
    for (const char* piece : {"*/", "{{", "#include <evil>", "#define lines", "≥ 𝔸", "<div>"}) {
      if (line.find(piece) == std::string::npos) continue;
      ++doc_lines;
      BOOST_TEST((line.rfind("/// ", 0) == 0 || line.rfind("// ", 0) == 0), line);
      // A backslash never ends a comment line (it would splice the next one).
      BOOST_TEST(line.back() != '\\', line);
    }
  }
  BOOST_TEST(doc_lines >= 8);
  BOOST_TEST(r.files->source.find(R"("a */ must \\ be \" positive {{x}} ??/ |")") !=
                 std::string::npos);
  // Markdown: the parameter table has 5 columns in every row.
  std::istringstream page(r.files->reference);
  int rows = 0;
  for (std::string line; std::getline(page, line);) {
    if (line.rfind("| x | input", 0) != 0 && line.rfind("| a | arg", 0) != 0 &&
        line.rfind("| y | output", 0) != 0) {
      continue;
    }
    ++rows;
    int bars = 0;  // unescaped '|'
    for (std::size_t i = 0; i < line.size(); ++i) bars += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    BOOST_TEST(bars == 6, line);
  }
  BOOST_TEST(rows == 3);
}

BOOST_AUTO_TEST_SUITE_END()
