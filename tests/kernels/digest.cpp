// The digests of a run (digest.hpp): collected per (name, target), checked
// across targets, written and compared with another build's at the end.
#include "tests/kernels/digest.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace opgen::kernel_tests {
namespace {

struct Entry {
  std::string name;
  std::string target;
  double tolerance = 0;
  std::size_t count = 0;
  std::uint64_t hash = 0;
  double max_error = 0;
};

struct State {
  std::string target;
  std::vector<Entry> entries;  // in the order of the run
};

State& state() {
  static State s;
  return s;
}

std::string Hex(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// name \t target \t tolerance \t count \t hash \t max_error
void Write(const std::string& path, const std::vector<Entry>& entries) {
  std::ofstream out(path);
  out.precision(17);
  for (const Entry& e : entries) {
    out << e.name << '\t' << e.target << '\t' << e.tolerance << '\t' << e.count << '\t'
        << Hex(e.hash) << '\t' << e.max_error << '\n';
  }
  BOOST_TEST(static_cast<bool>(out), "cannot write " << path);
}

bool Read(const std::string& path, std::vector<Entry>& entries) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    Entry e;
    std::string tolerance, count, hash, error;
    if (!std::getline(fields, e.name, '\t') || !std::getline(fields, e.target, '\t') ||
        !std::getline(fields, tolerance, '\t') || !std::getline(fields, count, '\t') ||
        !std::getline(fields, hash, '\t') || !std::getline(fields, error)) {
      BOOST_ERROR(path << ": malformed line: " << line);
      return false;
    }
    e.tolerance = std::stod(tolerance);
    e.count = std::stoull(count);
    e.hash = std::stoull(hash, nullptr, 16);
    e.max_error = std::stod(error);
    entries.push_back(std::move(e));
  }
  return true;
}

// The exact checks by name: (count, hash) of the first target, and the
// names of the targets; a second (count, hash) is an error of that run.
struct Exact {
  std::size_t count = 0;
  std::uint64_t hash = 0;
  std::string targets;
};

std::map<std::string, Exact> ExactByName(const std::vector<Entry>& entries, const char* run) {
  std::map<std::string, Exact> exact;
  for (const Entry& e : entries) {
    if (e.tolerance != 0) continue;
    auto [it, added] = exact.try_emplace(e.name, Exact{e.count, e.hash, e.target});
    if (added) continue;
    BOOST_TEST((it->second.count == e.count && it->second.hash == e.hash),
               run << ": exact check " << e.name << " differs between targets "
                   << it->second.targets << " (" << it->second.count << " results, "
                   << Hex(it->second.hash) << ") and " << e.target << " (" << e.count
                   << " results, " << Hex(e.hash) << ")");
    it->second.targets += ' ' + e.target;
  }
  return exact;
}

std::string TargetsOf(const std::vector<Entry>& entries) {
  std::vector<std::string> seen;
  for (const Entry& e : entries) {
    if (std::find(seen.begin(), seen.end(), e.target) == seen.end()) seen.push_back(e.target);
  }
  std::string names;
  for (const std::string& t : seen) names += (names.empty() ? "" : " ") + t;
  return names;
}

void Compare(const std::string& path, const std::vector<Entry>& ours) {
  std::vector<Entry> theirs;
  if (!Read(path, theirs)) {
    BOOST_ERROR("cannot read the digests to compare with, " << path
                                                            << " (run that build's kernel tests "
                                                               "first)");
    return;
  }
  const auto our_exact = ExactByName(ours, "this run");
  const auto their_exact = ExactByName(theirs, path.c_str());
  std::size_t same = 0;
  std::size_t results = 0;
  for (const auto& [name, mine] : our_exact) {
    const auto it = their_exact.find(name);
    if (it == their_exact.end()) {
      BOOST_ERROR("exact check " << name << " is not in " << path);
      continue;
    }
    if (mine.count == it->second.count && mine.hash == it->second.hash) {
      ++same;
      results += mine.count;
    } else {
      BOOST_ERROR("exact check " << name << ": " << mine.count << " results hash " << Hex(mine.hash)
                                 << " on " << mine.targets << ", but " << it->second.count
                                 << " results hash " << Hex(it->second.hash) << " on "
                                 << it->second.targets << " in " << path);
    }
  }
  for (const auto& [name, theirs_entry] : their_exact) {
    if (our_exact.count(name) == 0) BOOST_ERROR("exact check " << name << " of " << path
                                                               << " did not run here");
  }
  // Checks with a tolerance: the largest error over the targets of each run.
  std::map<std::string, std::pair<double, double>> errors;
  for (const Entry& e : ours) {
    if (e.tolerance != 0) errors[e.name].first = std::max(errors[e.name].first, e.max_error);
  }
  for (const Entry& e : theirs) {
    if (e.tolerance != 0) errors[e.name].second = std::max(errors[e.name].second, e.max_error);
  }
  for (const auto& [name, pair] : errors) {
    BOOST_TEST_MESSAGE(name << ": max error " << pair.first << " here, " << pair.second << " in "
                            << path);
  }
  std::cout << "digests: " << same << " exact checks (" << results
            << " results each target) bit-identical on " << TargetsOf(ours) << " and on "
            << TargetsOf(theirs) << "; " << errors.size() << " checks with a tolerance\n";
}

// Reads `-- --digests=FILE --compare=FILE` after the Boost.Test arguments.
struct DigestRun {
  std::string write_path;
  std::string compare_path;

  DigestRun() {
    const auto& suite = boost::unit_test::framework::master_test_suite();
    for (int i = 1; i < suite.argc; ++i) {
      const std::string_view arg = suite.argv[i];
      if (arg.rfind("--digests=", 0) == 0) write_path = arg.substr(10);
      if (arg.rfind("--compare=", 0) == 0) compare_path = arg.substr(10);
    }
  }

  void setup() {}

  void teardown() {
    const std::vector<Entry>& entries = state().entries;
    ExactByName(entries, "this run");
    if (!write_path.empty()) Write(write_path, entries);
    if (!compare_path.empty()) Compare(compare_path, entries);
  }
};

}  // namespace

void SetDigestTarget(std::string target) { state().target = std::move(target); }

void RecordDigest(const std::string& name, double tolerance, const ResultHash& hash,
                  double max_error) {
  State& s = state();
  for (Entry& e : s.entries) {
    if (e.name == name && e.target == s.target) {
      // Combine: the hash of (previous hash, new hash).
      ResultHash combined;
      combined.Add(e.hash);
      combined.Add(hash.hash());
      e.hash = combined.hash();
      e.count += hash.count();
      e.max_error = std::max(e.max_error, max_error);
      e.tolerance = std::max(e.tolerance, tolerance);
      return;
    }
  }
  s.entries.push_back(Entry{name, s.target, tolerance, hash.count(), hash.hash(), max_error});
}

BOOST_TEST_GLOBAL_FIXTURE(DigestRun);

}  // namespace opgen::kernel_tests
