// The opgen command line, run as a user runs it (environment variable
// OPGEN_EXE names the program): exit codes, output files, depfile,
// write-if-changed, and nothing written on errors.

#include <sys/wait.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "test_files.hpp"

using namespace opgen::gen::testing;
namespace fs = std::filesystem;

namespace {

struct Run {
  int status = -1;
  std::string output;  // stdout and stderr
};

Run run_opgen(const std::string& args) {
  const char* exe = std::getenv("OPGEN_EXE");
  BOOST_TEST_REQUIRE(exe != nullptr, "OPGEN_EXE is not set");
  Run r;
  FILE* p = ::popen((std::string(exe) + " " + args + " 2>&1").c_str(), "r");
  BOOST_TEST_REQUIRE(p != nullptr);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.output.append(buf, n);
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// A fresh directory with one spec file.
struct TempDir {
  fs::path dir;
  TempDir() {
    dir = fs::temp_directory_path() /
          ("opgen-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempDir() { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name, std::ios::binary) << text;
    return (dir / name).string();
  }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

const char* kGood = R"spec(namespace = "demo"
[[op]]
name = "neg"
kind = "pointwise"
summary = "Negation."
input = [ { name = "x", type = "float", doc = "Input." } ]
output = [ { name = "y", type = "float", shape = "same(x)", dtype = "same(x)", doc = "Result." } ]
)spec";

}  // namespace

BOOST_AUTO_TEST_SUITE(cli)

BOOST_AUTO_TEST_CASE(help_and_version) {
  const Run help = run_opgen("--help");
  BOOST_TEST(help.status == 0);
  BOOST_TEST(help.output.find("generate SPEC --out-dir DIR") != std::string::npos);
  const Run version = run_opgen("--version");
  BOOST_TEST(version.status == 0);
  BOOST_TEST(version.output.rfind("opgen ", 0) == 0);
}

BOOST_AUTO_TEST_CASE(usage_errors_exit_2) {
  BOOST_TEST(run_opgen("").status == 2);
  BOOST_TEST(run_opgen("frobnicate x.toml").status == 2);
  BOOST_TEST(run_opgen("generate").status == 2);
  BOOST_TEST(run_opgen("check --bogus x.toml").status == 2);
  const Run missing = run_opgen("check /nonexistent/spec.toml");
  BOOST_TEST(missing.status == 2);
  BOOST_TEST(missing.output.find("cannot read") != std::string::npos);
}

// The quick start's promise: a typo is reported at its place, with a
// suggestion, and the exit status is 1.
BOOST_AUTO_TEST_CASE(check_reports_typos) {
  TempDir t;
  std::string text = kGood;
  text.replace(text.find("summary"), 7, "sumary");
  const std::string spec = t.write("spec.toml", text);
  const Run r = run_opgen("check " + spec);
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find(spec + ":5:1: error: unknown key 'sumary' in op; did you mean "
                           "'summary'?") != std::string::npos);
  BOOST_TEST(r.output.find("    sumary = \"Negation.\"\n    ^\n") != std::string::npos);
}

// --show-classes ends each error and warning with its class id, to look up
// in docs/diagnostics.md; plain output has none. `generate` tells a missing
// spec (exit status 2) from spec errors by that class.
BOOST_AUTO_TEST_CASE(show_classes) {
  TempDir t;
  std::string text = kGood;
  text.replace(text.find("summary"), 7, "sumary");
  const std::string spec = t.write("spec.toml", text);
  const Run r = run_opgen("check --show-classes " + spec);
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find("did you mean 'summary'? [unknown-key]\n    sumary") !=
             std::string::npos);
  BOOST_TEST(run_opgen("check " + spec).output.find("[unknown-key]") == std::string::npos);
  const Run missing = run_opgen("generate --show-classes " + (t.dir / "none.toml").string() +
                                " --out-dir " + (t.dir / "out").string());
  BOOST_TEST(missing.status == 2);
  BOOST_TEST(missing.output.find("cannot read spec file [cannot-read-spec]") != std::string::npos);
  BOOST_TEST(!fs::exists(t.dir / "out"));
}

BOOST_AUTO_TEST_CASE(generate_writes_files_and_depfile) {
  TempDir t;
  const std::string spec = t.write("demo.toml", kGood);
  const fs::path out = t.dir / "out";
  const Run r = run_opgen("generate " + spec + " --out-dir " + out.string() + " --depfile " +
                      (t.dir / "demo.d").string());
  BOOST_TEST_REQUIRE(r.status == 0, r.output);
  for (const char* f : {"demo.hpp", "demo.cpp", "demo.md", "demo_reference.hpp"}) {
    BOOST_TEST(fs::exists(out / f));
  }
  const std::string dep = read_file((t.dir / "demo.d").string());
  BOOST_TEST(dep.find((out / "demo.hpp").string()) == 0u);
  BOOST_TEST(dep.find((out / "demo_reference.hpp").string()) != std::string::npos);
  BOOST_TEST(dep.find(spec) != std::string::npos);

  // An unchanged result leaves the files alone (ninja's restat relies on it).
  const auto before = fs::last_write_time(out / "demo.hpp");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  BOOST_TEST(run_opgen("generate " + spec + " --out-dir " + out.string()).status == 0);
  BOOST_TEST((fs::last_write_time(out / "demo.hpp") == before));
}

// An error anywhere: exit 1 and no file touched.
BOOST_AUTO_TEST_CASE(errors_write_nothing) {
  TempDir t;
  const std::string good = t.write("demo.toml", kGood);
  const fs::path out = t.dir / "out";
  BOOST_TEST_REQUIRE(run_opgen("generate " + good + " --out-dir " + out.string()).status == 0);
  const std::string before = read_file((out / "demo.hpp").string());
  std::string text = kGood;
  text += "[[op]]\nname = \"neg\"\n";  // a duplicate
  t.write("demo.toml", text);
  const Run r = run_opgen("generate " + good + " --out-dir " + out.string());
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find("duplicate op 'neg'") != std::string::npos);
  BOOST_TEST(read_file((out / "demo.hpp").string()) == before);
  BOOST_TEST(!fs::exists(t.dir / "out2"));
}

BOOST_AUTO_TEST_CASE(list) {
  TempDir t;
  const Run r = run_opgen("list " + t.write("demo.toml", kGood));
  BOOST_TEST(r.status == 0);
  BOOST_TEST(r.output == "demo.neg(x) -> y\n");
}

BOOST_AUTO_TEST_SUITE_END()
