// The corpus of bad specs (tests/bad_specs/*.toml) and the catalogue of
// diagnostic classes (gen/diagnostic_classes.def, docs/diagnostics.md).
//
// Each corpus file starts with a comment stating the rule it checks, names
// the classes of the diagnostics it triggers in "# class: id" lines, and
// states every diagnostic the generator must print for it in
// "# expect: LINE:COL: severity: message" lines, in order: exactly those,
// nothing else, from `opgen generate`, `check` and `describe` alike (a
// file with only warnings generates). Every class must be triggered by
// some corpus file, or, for the few no spec file can trigger, by a test
// named in kCoveredElsewhere; and every class has an entry, with an example
// from the corpus, in the catalogue page.

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <string_view>

#include "emit_json.hpp"
#include "memory_files.hpp"
#include "test_files.hpp"

using namespace opgen::gen;
using namespace opgen::gen::testing;
namespace fs = std::filesystem;

namespace {

// Classes no spec file in the corpus can trigger, each with the test (suite
// path) that does. The corpus test fails when a listed test does not exist
// or when a corpus file triggers the class after all.
constexpr std::pair<std::string_view, std::string_view> kCoveredElsewhere[] = {
    // A corpus file exists by definition: only a missing spec triggers it.
    {"cannot-read-spec", "bad_specs/unreadable_spec_file"},
    // A corpus file of more than 16 MiB would be absurd: the test makes one.
    {"spec-too-large", "robust/spec_too_large"},
};

struct Header {
  std::string rule;                  // the first line, "# ..."
  std::vector<std::string> classes;  // "# class: id" lines
  std::vector<std::string> expects;  // "# expect: L:C: severity: message" lines
};

Header read_header(const std::string& text) {
  Header h;
  std::istringstream in(text);
  bool first = true;
  for (std::string line; std::getline(in, line); first = false) {
    auto take = [&](std::string_view prefix, std::vector<std::string>& out) {
      if (line.rfind(prefix, 0) != 0) return false;
      out.push_back(line.substr(prefix.size()));
      return true;
    };
    if (take("# class: ", h.classes) || take("# expect: ", h.expects)) continue;
    if (first && line.rfind("# ", 0) == 0) h.rule = line.substr(2);
  }
  return h;
}

struct CorpusFile {
  fs::path path;
  Header header;
};

std::vector<CorpusFile> corpus() {
  const fs::path dir = fs::path(source_root()) / "tests" / "bad_specs";
  std::vector<CorpusFile> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".toml") {
      files.push_back({e.path(), read_header(read_file(e.path().string()))});
    }
  }
  std::sort(files.begin(), files.end(),
            [](const CorpusFile& a, const CorpusFile& b) { return a.path < b.path; });
  return files;
}

bool is_class(std::string_view name) {
  for (const DiagClassInfo& c : diag_classes()) {
    if (c.name == name) return true;
  }
  return false;
}

std::string joined(const std::set<std::string>& items) {
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : ", ") + i;
  return s.empty() ? "(none)" : s;
}

// "12:3: error: message" -> "error: message" (also "warning: ..."); ""
// for anything else, notes included.
std::string severity_and_message(const std::string& line) {
  std::size_t best = std::string::npos;
  for (std::string_view sev : {": error: ", ": warning: ", ": note: "}) {
    best = std::min(best, line.find(sev));
  }
  if (best == std::string::npos || line.compare(best, 8, ": note: ") == 0) return "";
  return line.substr(best + 2);
}

// Whether `path` ("suite/case") names a registered test unit.
bool test_exists(std::string_view path) {
  namespace ut = boost::unit_test;
  ut::test_unit_id id = ut::framework::master_test_suite().p_id;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    const std::string part(
        path.substr(start, slash == std::string_view::npos ? slash : slash - start));
    const ut::test_unit& unit = ut::framework::get(id, ut::TUT_ANY);
    if (unit.p_type != ut::TUT_SUITE) return false;
    id = static_cast<const ut::test_suite&>(unit).get(part);
    if (id == ut::INV_TEST_UNIT_ID) return false;
    if (slash == std::string_view::npos) return true;
    start = slash + 1;
  }
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bad_specs)

// The class list itself: kebab-case ids, each once, each described.
BOOST_AUTO_TEST_CASE(class_list) {
  std::set<std::string_view> seen;
  for (const DiagClassInfo& c : diag_classes()) {
    BOOST_TEST_CONTEXT(c.name) {
      BOOST_TEST(seen.insert(c.name).second, "listed twice");
      BOOST_TEST(diag_name(c.diag) == c.name);
      const bool kebab = !c.name.empty() && c.name.front() >= 'a' && c.name.front() <= 'z' &&
                         c.name.back() != '-' &&
                         std::all_of(c.name.begin(), c.name.end(), [](char ch) {
                           return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-';
                         });
      BOOST_TEST(kebab, "not kebab-case");
      BOOST_TEST((!c.description.empty() && c.description.back() == '.'),
                 "the description is one sentence ending in '.'");
    }
  }
  BOOST_TEST(seen.size() >= 60u);
}

BOOST_AUTO_TEST_CASE(corpus_files) {
  const std::vector<CorpusFile> files = corpus();
  BOOST_TEST(files.size() >= 60u);
  std::map<std::string, std::set<std::string>> triggered_by;  // class -> files
  for (const CorpusFile& f : files) {
    const std::string name = f.path.filename().string();
    BOOST_TEST_CONTEXT(name) {
      const Header& h = f.header;
      BOOST_TEST(!h.rule.empty(), "the first line is a comment stating the rule checked");
      BOOST_TEST(!h.expects.empty(), "states no expected diagnostic");
      BOOST_TEST(!h.classes.empty(), "states no '# class:'");
      std::set<std::string> stated;
      for (const std::string& c : h.classes) {
        BOOST_TEST(is_class(c), "'" << c << "' is not a class of diagnostic_classes.def");
        BOOST_TEST(stated.insert(c).second, "class '" << c << "' stated twice");
      }
      // Read from the disk (includes may be real files), shown by name.
      const fs::path dir = f.path.parent_path();
      LoadOptions o;
      o.read = [&](const std::string& path) -> std::optional<std::string> {
        const fs::path p = dir / path;
        if (!fs::is_regular_file(p)) return std::nullopt;
        return read_file(p.string());
      };
      Diagnostics d;
      PipelineResult r = run_pipeline(name, o, d);
      // Errors stop generation; warnings do not.
      BOOST_TEST(r.files.has_value() == !d.has_errors());
      std::vector<std::string> got;
      for (const std::string& l : d.lines()) {
        got.push_back(l.rfind(name + ":", 0) == 0 ? l.substr(name.size() + 1) : l);
      }
      BOOST_TEST(got == h.expects, boost::test_tools::per_element());
      // `opgen check` (no files kept) and `opgen describe` find every
      // problem `generate` does.
      Diagnostics checked;
      run_pipeline(name, o, checked, false);
      BOOST_TEST(checked.lines() == d.lines(), boost::test_tools::per_element());
      const std::unique_ptr<CheckedSpec> described = load_checked_spec(name, o);
      BOOST_TEST(described->diags.lines() == d.lines(), boost::test_tools::per_element());
      BOOST_TEST(described->ok == !d.has_errors());
      std::set<std::string> produced;
      for (const Diagnostic& item : d.items()) {
        produced.insert(std::string(diag_name(item.diag_class)));
      }
      BOOST_TEST(produced == stated,
                 "classes produced: " << joined(produced) << "; stated: " << joined(stated));
      for (const std::string& c : produced) triggered_by[c].insert(name);
    }
  }

  std::set<std::string> missing;
  for (const DiagClassInfo& c : diag_classes()) {
    if (triggered_by.count(std::string(c.name)) == 0) missing.insert(std::string(c.name));
  }
  for (const auto& [cls, test] : kCoveredElsewhere) {
    BOOST_TEST_CONTEXT(cls) {
      BOOST_TEST(is_class(cls), "covered elsewhere, but not a class");
      BOOST_TEST(test_exists(test), "covered elsewhere by '" << test << "', which does not exist");
      BOOST_TEST(triggered_by.count(std::string(cls)) == 0,
                 "a corpus file triggers it: remove it from kCoveredElsewhere");
      missing.erase(std::string(cls));
    }
  }
  BOOST_TEST(missing.empty(),
             "classes no bad spec triggers (add a file to tests/bad_specs/, "
             "stating '# class: id'): "
                 << joined(missing));
}

// No spec file can be missing from the corpus: the class of a spec file that
// cannot be read is checked here (and main exits with 2 on it, cli_test).
BOOST_AUTO_TEST_CASE(unreadable_spec_file) {
  LoadOptions o;
  o.read = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
  Diagnostics d;
  const PipelineResult r = run_pipeline("no/such/spec.toml", o, d);
  BOOST_TEST(!r.files);
  BOOST_TEST_REQUIRE(d.items().size() == 1u);
  BOOST_TEST(diag_name(d.items()[0].diag_class) == "cannot-read-spec");
  BOOST_TEST(
      d.lines() == std::vector<std::string>{"no/such/spec.toml: error: cannot read spec file"},
      boost::test_tools::per_element());
}

// docs/diagnostics.md has an entry "### `id`" for every class and for
// nothing else, and each entry shows an example message that a corpus file
// of that class expects.
BOOST_AUTO_TEST_CASE(catalogue_page) {
  const std::string page =
      read_file((fs::path(source_root()) / "docs" / "diagnostics.md").string());
  std::map<std::string, std::set<std::string>> examples;  // class -> messages in the corpus
  for (const CorpusFile& f : corpus()) {
    for (const std::string& c : f.header.classes) {
      for (const std::string& e : f.header.expects) {
        if (std::string m = severity_and_message(e); !m.empty()) examples[c].insert(m);
      }
    }
  }
  // Entries: heading -> the lines up to the next heading.
  std::map<std::string, std::vector<std::string>> entries;
  std::vector<std::string>* current = nullptr;
  std::istringstream in(page);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("#", 0) == 0) current = nullptr;
    if (line.rfind("### `", 0) == 0 && line.size() > 6 && line.back() == '`') {
      const std::string id = line.substr(5, line.size() - 6);
      BOOST_TEST(entries.count(id) == 0, "'" << id << "' has two entries");
      current = &entries[id];
      continue;
    }
    if (current != nullptr) current->push_back(line);
  }
  std::set<std::string> missing;
  for (const DiagClassInfo& c : diag_classes()) {
    const std::string id(c.name);
    auto it = entries.find(id);
    if (it == entries.end()) {
      missing.insert(id);
      continue;
    }
    BOOST_TEST_CONTEXT(id) {
      bool elsewhere = false;
      for (const auto& [cls, test] : kCoveredElsewhere) elsewhere |= cls == id;
      if (elsewhere) continue;  // no corpus file to take an example from
      bool shown = false;
      for (const std::string& line : it->second) {
        const std::string m = severity_and_message(line);
        if (!m.empty() && examples[id].count(m) != 0) shown = true;
      }
      BOOST_TEST(shown, "the entry shows no example message of a corpus file of this class");
    }
  }
  BOOST_TEST(missing.empty(), "classes missing from docs/diagnostics.md: " << joined(missing));
  for (const auto& [id, lines] : entries) {
    BOOST_TEST(is_class(id),
               "docs/diagnostics.md has an entry for '" << id << "', which is not a class");
  }
}

BOOST_AUTO_TEST_SUITE_END()
