// The corpus of bad specs (tests/bad_specs/*.toml). Each file states, in
// "# expect: LINE:COL: severity: message" comments, every diagnostic the
// generator must print for it, in order: exactly those, nothing else.

#include <boost/test/unit_test.hpp>
#include <filesystem>

#include "memory_files.hpp"
#include "test_files.hpp"

using namespace opgen::gen;
using namespace opgen::gen::testing;

namespace {

std::vector<std::string> expectations(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::string prefix = "# expect: ";
    if (line.rfind(prefix, 0) == 0) out.push_back(line.substr(prefix.size()));
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bad_specs)

BOOST_AUTO_TEST_CASE(corpus) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(source_root()) / "tests" / "bad_specs";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".toml") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  BOOST_TEST_REQUIRE(files.size() >= 20u);
  for (const fs::path& f : files) {
    const std::string name = f.filename().string();
    BOOST_TEST_CONTEXT(name) {
      const std::vector<std::string> want = expectations(read_file(f.string()));
      BOOST_TEST_REQUIRE(!want.empty(), "states no expected diagnostic");
      // Read from the disk (includes may be real files), shown by name.
      LoadOptions o;
      o.read = [&](const std::string& path) -> std::optional<std::string> {
        const fs::path p = dir / path;
        if (!fs::is_regular_file(p)) return std::nullopt;
        return read_file(p.string());
      };
      Diagnostics d;
      PipelineResult r = run_pipeline(name, o, d);
      BOOST_TEST(!r.files, "a bad spec must not generate");
      std::vector<std::string> got;
      for (const std::string& l : d.lines()) {
        got.push_back(l.rfind(name + ":", 0) == 0 ? l.substr(name.size() + 1) : l);
      }
      BOOST_TEST(got == want, boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
