// The opgen command line, run as a user runs it (environment variable
// OPGEN_EXE names the program): exit codes, output files, depfile,
// write-if-changed, and nothing written on errors.

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
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


// Starts `opgen generate SPEC --out-dir OUT` in the background, with
// `pause_flag` (when not empty) as OPGEN_TEST_PAUSE_MID_WRITE; returns its pid.
pid_t start_generate(const std::string& spec, const fs::path& out, const std::string& pause_flag) {
  const char* exe = std::getenv("OPGEN_EXE");
  BOOST_TEST_REQUIRE(exe != nullptr, "OPGEN_EXE is not set");
  const pid_t pid = ::fork();
  BOOST_TEST_REQUIRE(pid >= 0);
  if (pid == 0) {
    if (!pause_flag.empty()) ::setenv("OPGEN_TEST_PAUSE_MID_WRITE", pause_flag.c_str(), 1);
    std::freopen("/dev/null", "w", stderr);
    const std::string out_dir = out.string();
    ::execl(exe, exe, "generate", spec.c_str(), "--out-dir", out_dir.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

// The generated files of namespace "demo" in `out`, by name.
std::map<std::string, std::string> outputs(const fs::path& out) {
  std::map<std::string, std::string> files;
  for (const char* f : {"demo.hpp", "demo.cpp", "demo.md", "demo_reference.hpp"}) {
    files[f] = fs::exists(out / f) ? read_file((out / f).string()) : "<missing>";
  }
  return files;
}

// Files in `out` that are not generated outputs (temporaries).
std::vector<std::string> litter(const fs::path& out) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(out)) {
    const std::string name = e.path().filename().string();
    if (name != "demo.hpp" && name != "demo.cpp" && name != "demo.md" &&
        name != "demo_reference.hpp") {
      names.push_back(name);
    }
  }
  return names;
}

// kGood with `n` more ops: a spec whose outputs take a while to write.
std::string big_spec(int n, const std::string& summary) {
  std::string text = kGood;
  for (int i = 0; i < n; ++i) {
    text += "[[op]]\nname = \"op" + std::to_string(i) + "\"\nkind = \"pointwise\"\nsummary = \"" +
            summary + "\"\ninput = [ { name = \"x\", type = \"float\", doc = \"Input.\" } ]\n" +
            "output = [ { name = \"y\", type = \"float\", shape = \"same(x)\", dtype = " +
            "\"same(x)\", doc = \"Result.\" } ]\n";
  }
  return text;
}

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

// SIGKILL in the middle of writing a file: every output keeps its previous
// content (the half-written data is only in a temporary), and the next run
// writes the new outputs and removes the temporary the killed one left.
BOOST_AUTO_TEST_CASE(killed_mid_write) {
  TempDir t;
  const std::string spec = t.write("demo.toml", kGood);
  const fs::path out = t.dir / "out";
  BOOST_TEST_REQUIRE(run_opgen("generate " + spec + " --out-dir " + out.string()).status == 0);
  const std::map<std::string, std::string> before = outputs(out);
  t.write("demo.toml", big_spec(50, "Changed."));

  const std::string flag = (t.dir / "paused").string();
  const pid_t pid = start_generate(spec, out, flag);
  for (int i = 0; i < 3000 && !fs::exists(flag); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const bool paused = fs::exists(flag);
  ::kill(pid, SIGKILL);
  int st = 0;
  ::waitpid(pid, &st, 0);
  BOOST_TEST_REQUIRE(paused, "the generator never reached the middle of a write");
  BOOST_TEST(WIFSIGNALED(st));
  // Killed halfway through the first file: a temporary holds half of it.
  const std::vector<std::string> left = litter(out);
  BOOST_TEST_REQUIRE(left.size() == 1u);
  BOOST_TEST(left[0].rfind("demo.hpp.tmp", 0) == 0u, left[0]);
  BOOST_TEST(fs::file_size(out / left[0]) > 0u);
  BOOST_TEST(outputs(out) == before);

  const Run again = run_opgen("generate " + spec + " --out-dir " + out.string());
  BOOST_TEST_REQUIRE(again.status == 0, again.output);
  const std::map<std::string, std::string> after = outputs(out);
  for (const char* name : {"demo.hpp", "demo.cpp", "demo.md"}) {  // no formulas: no references
    BOOST_TEST(after.at(name) != before.at(name), name << " was not regenerated");
    BOOST_TEST(after.at(name).find("op49") != std::string::npos, name << " lacks the new ops");
  }
  BOOST_TEST(litter(out).empty());
}

// Killed at random moments while replacing one big result with another:
// each output is always one of the two complete versions, never a mix or a
// truncated file, and a final run brings every output up to date.
BOOST_AUTO_TEST_CASE(killed_at_random_times) {
  TempDir t;
  const fs::path out = t.dir / "out";
  const fs::path ref = t.dir / "ref";
  const std::string spec = (t.dir / "demo.toml").string();
  std::map<std::string, std::string> versions[2];
  for (int v = 0; v < 2; ++v) {
    t.write("demo.toml", big_spec(400, v == 0 ? "First." : "Second."));
    BOOST_TEST_REQUIRE(run_opgen("generate " + spec + " --out-dir " + ref.string()).status == 0);
    versions[v] = outputs(ref);
  }
  BOOST_TEST_REQUIRE(run_opgen("generate " + spec + " --out-dir " + out.string()).status == 0);
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> delay_ms(0, 400);
  int killed = 0;
  for (int round = 0; round < 12; ++round) {
    t.write("demo.toml", big_spec(400, round % 2 == 0 ? "First." : "Second."));
    const pid_t pid = start_generate(spec, out, "");
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(rng)));
    ::kill(pid, SIGKILL);
    int st = 0;
    ::waitpid(pid, &st, 0);
    killed += WIFSIGNALED(st) ? 1 : 0;
    for (const auto& [name, text] : outputs(out)) {
      BOOST_TEST((text == versions[0].at(name) || text == versions[1].at(name)),
                 name << " is neither version after round " << round);
    }
  }
  BOOST_TEST_MESSAGE(killed << " of 12 runs killed before they finished");
  BOOST_TEST(run_opgen("generate " + spec + " --out-dir " + out.string()).status == 0);
  BOOST_TEST((outputs(out) == versions[1]));
  BOOST_TEST(litter(out).empty());
}

// An error in an included file: exit 1, and no output of the namespace (nor
// its depfile) is rewritten or touched.
BOOST_AUTO_TEST_CASE(error_in_include_touches_nothing) {
  TempDir t;
  std::string text = kGood;
  text.insert(text.find('\n') + 1, "include = [\"common.toml\"]\n");
  const std::string spec = t.write("demo.toml", text);
  t.write("common.toml", "[[mixin]]\nname = \"m\"\nkind = \"pointwise\"\n");
  const fs::path out = t.dir / "out";
  const std::string dep = (t.dir / "demo.d").string();
  const std::string cmd = "generate " + spec + " --out-dir " + out.string() + " --depfile " + dep;
  BOOST_TEST_REQUIRE(run_opgen(cmd).status == 0);
  const std::map<std::string, std::string> before = outputs(out);
  const std::string dep_before = read_file(dep);
  std::map<std::string, fs::file_time_type> times;
  for (const auto& [name, unused] : before) times[name] = fs::last_write_time(out / name);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  t.write("common.toml", "[[mixin]]\nname = \"m\"\nkimd = \"pointwise\"\n");
  const Run r = run_opgen(cmd);
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find("common.toml:3:1: error: unknown key 'kimd'") != std::string::npos,
             r.output);
  BOOST_TEST(outputs(out) == before);
  for (const auto& [name, time] : times) BOOST_TEST((fs::last_write_time(out / name) == time));
  BOOST_TEST(read_file(dep) == dep_before);
  BOOST_TEST(litter(out).empty());
}

BOOST_AUTO_TEST_CASE(list) {
  TempDir t;
  const Run r = run_opgen("list " + t.write("demo.toml", kGood));
  BOOST_TEST(r.status == 0);
  BOOST_TEST(r.output == "demo.neg(x) -> y\n");
}

BOOST_AUTO_TEST_SUITE_END()
