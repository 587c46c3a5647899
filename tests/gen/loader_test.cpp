// Stage 1, load: TOML text to raw records, on in-memory strings.

#include <boost/test/unit_test.hpp>

#include <set>

#include "memory_files.hpp"
#include "spec_loader.hpp"

using namespace opgen::gen;
using opgen::gen::testing::MemoryFiles;

namespace {

std::unique_ptr<SpecFile> parse(const std::string& text, Diagnostics& diags) {
  return parse_spec(text, diags.add_file("spec.toml", text), diags);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(loader)

// Every key is read with its place in the file.
BOOST_AUTO_TEST_CASE(reads_ops_with_positions) {
  Diagnostics d;
  auto spec = parse(
      "namespace = \"nn\"\n"
      "[[op]]\n"
      "name = \"relu\"\n"
      "kind = \"pointwise\"\n"
      "input = [ { name = \"x\", type = \"float\" } ]\n",
      d);
  BOOST_REQUIRE(spec);
  BOOST_TEST(d.lines().empty());
  BOOST_TEST(spec->namespace_name->value == "nn");
  BOOST_REQUIRE_EQUAL(spec->ops.size(), 1u);
  const OpBody& op = spec->ops[0];
  BOOST_TEST(op.name.value == "relu");
  BOOST_TEST(op.name.loc.line == 3u);
  BOOST_TEST(op.name.loc.col == 9u);  // first character inside the quotes
  BOOST_REQUIRE_EQUAL(op.inputs.size(), 1u);
  BOOST_TEST(op.inputs[0].type.value == "float");
  BOOST_TEST(op.inputs[0].type.loc.col == 33u);
}

// [[op.input]] blocks and inline arrays mean the same.
BOOST_AUTO_TEST_CASE(array_of_tables_forms_agree) {
  Diagnostics d;
  auto a = parse("namespace = \"m\"\n[[op]]\nname = \"f\"\n[[op.input]]\nname = \"x\"\ntype = \"int\"\n", d);
  auto b = parse("namespace = \"m\"\n[[op]]\nname = \"f\"\ninput = [ { name = \"x\", type = \"int\" } ]\n", d);
  BOOST_REQUIRE(a && b);
  BOOST_TEST(a->ops[0].inputs[0].name.value == b->ops[0].inputs[0].name.value);
  BOOST_TEST(a->ops[0].inputs[0].type.value == b->ops[0].inputs[0].type.value);
}

// A typo never passes silently, and the suggestion is the nearest key.
BOOST_AUTO_TEST_CASE(unknown_keys_are_errors_with_suggestions) {
  Diagnostics d;
  parse("namespace = \"m\"\n[[op]]\nname = \"f\"\nsumary = \"x\"\nkernal = \"k\"\n", d);
  const std::vector<std::string> want = {
      "spec.toml:4:1: error: unknown key 'sumary' in op; did you mean 'summary'?",
      "spec.toml:5:1: error: unknown key 'kernal' in op; did you mean 'kernel'?"};
  BOOST_TEST(d.lines() == want, boost::test_tools::per_element());
}

// Keys other systems use map to ours.
BOOST_AUTO_TEST_CASE(synonyms_suggest_our_key) {
  Diagnostics d;
  parse("namespace = \"m\"\n[[op]]\nname = \"f\"\ndescription = \"x\"\ninputs = []\n", d);
  const std::vector<std::string> want = {
      "spec.toml:4:1: error: unknown key 'description' in op; did you mean 'doc'?",
      "spec.toml:5:1: error: unknown key 'inputs' in op; did you mean 'input'?"};
  BOOST_TEST(d.lines() == want, boost::test_tools::per_element());
}

// A value of the wrong TOML type is reported at the value.
BOOST_AUTO_TEST_CASE(wrong_value_types) {
  Diagnostics d;
  parse("namespace = \"m\"\n[[op]]\nname = 3\ndtypes = \"float32\"\n", d);
  const std::vector<std::string> want = {
      "spec.toml:3:8: error: 'name' must be a string, got an integer",
      "spec.toml:4:10: error: 'dtypes' must be an array of strings, got a string"};
  BOOST_TEST(d.lines() == want, boost::test_tools::per_element());
}

// Invalid TOML stops at its position.
BOOST_AUTO_TEST_CASE(invalid_toml) {
  Diagnostics d;
  BOOST_TEST(!parse("namespace = \n", d));
  BOOST_REQUIRE_EQUAL(d.lines().size(), 1u);
  BOOST_TEST(d.lines()[0].rfind("spec.toml:1:", 0) == 0);
  BOOST_TEST(d.lines()[0].find("error: invalid TOML") != std::string::npos);
}

// toml++ 3.3 has undefined behaviour when it asks whether most non-ASCII
// characters are white space; the loader screens them first. Every code
// point below U+3100 and in U+FB00..U+FEFF (samples elsewhere) is accepted
// inside strings and comments, including after an escape and after a
// line-ending backslash followed by ASCII, and refused as a
// `misplaced-non-ascii` error outside them.
BOOST_AUTO_TEST_CASE(non_ascii_outside_strings_is_screened) {
  auto utf8 = [](char32_t c) {
    std::string s;
    if (c < 0x800) {
      s += static_cast<char>(0xC0 | (c >> 6));
    } else if (c < 0x10000) {
      s += static_cast<char>(0xE0 | (c >> 12));
      s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    } else {
      s += static_cast<char>(0xF0 | (c >> 18));
      s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    }
    s += static_cast<char>(0x80 | (c & 0x3F));
    return s;
  };
  auto classes = [](const Diagnostics& d) {
    std::set<Diag> out;
    for (const Diagnostic& x : d.items()) out.insert(x.diag_class);
    return out;
  };
  int checked = 0;
  for (char32_t c = 0xA0; c < 0x110000;
       c += (c < 0x3100 || (c >= 0xFB00 && c < 0xFF00)) ? 1 : 97) {
    if (c >= 0xD800 && c < 0xE000) continue;  // surrogates are not characters
    const std::string ch = utf8(c);
    Diagnostics inside;
    auto spec = parse("namespace = \"n" + ch + "\" # " + ch + "\n" +   //
                          "summary = '" + ch + "'\n" +                  //
                          "doc = \"\"\"" + ch + "\\\"" + ch + "\\\n  x" + ch + "\"\"\"\n" +
                          "cpp_namespace = '''\\\n" + ch + "'''\n",
                      inside);
    BOOST_TEST_CONTEXT("U+" << std::hex << static_cast<unsigned>(c)) {
      BOOST_TEST(spec != nullptr);
      BOOST_TEST(classes(inside).count(Diag::misplaced_non_ascii) == 0u);
      BOOST_TEST(classes(inside).count(Diag::invalid_toml) == 0u);
      for (const std::string& bad : {"namespace = \"n\"\nk" + ch + " = 1\n",
                                     "namespace = \"n\"" + ch + "\n",
                                     "namespace = " + ch + "\"n\"\n",
                                     "doc = \"\"\"a\\" + ch + "\"\"\"\n",
                                     "doc = \"\"\"a\\ \n\n " + ch + "\"\"\"\n"}) {
        Diagnostics outside;
        BOOST_TEST(parse(bad, outside) == nullptr);
        BOOST_TEST((classes(outside) == std::set<Diag>{Diag::misplaced_non_ascii}));
      }
    }
    ++checked;
  }
  BOOST_TEST(checked > 12000);
}

// Counts: every accepted form, and malformed ones.
BOOST_AUTO_TEST_CASE(counts) {
  Diagnostics d;
  auto spec = parse(
      "namespace = \"m\"\n[[op]]\nname = \"f\"\narg = [\n"
      "  { name = \"a\", type = \"int\", count = 2 },\n"
      "  { name = \"b\", type = \"int\", count = \">=1\" },\n"
      "  { name = \"c\", type = \"int\", count = \"<=3\" },\n"
      "  { name = \"d\", type = \"int\", count = \"2..4\" },\n"
      "  { name = \"e\", type = \"int\", count = \"4..2\" },\n"
      "  { name = \"f\", type = \"int\", count = -1 },\n"
      "]\n",
      d);
  BOOST_REQUIRE(spec);
  const auto& a = spec->ops[0].args;
  BOOST_TEST(a[0].count.min == 2);
  BOOST_TEST(a[0].count.max == 2);
  BOOST_TEST(a[1].count.min == 1);
  BOOST_TEST(a[1].count.max == -1);
  BOOST_TEST(a[2].count.min == 0);
  BOOST_TEST(a[2].count.max == 3);
  BOOST_TEST(a[3].count.min == 2);
  BOOST_TEST(a[3].count.max == 4);
  const std::vector<std::string> want = {
      "spec.toml:9:39: error: malformed count: '4..2' is an empty range (expected an integer n, "
      "\">=n\", \"<=n\" or \"a..b\")",
      "spec.toml:10:39: error: malformed count: -1 is out of range (expected an integer n, "
      "\">=n\", \"<=n\" or \"a..b\")"};
  BOOST_TEST(d.lines() == want, boost::test_tools::per_element());
}

// Positions inside strings follow escapes and line breaks, so errors in
// expressions point at their own column.
BOOST_AUTO_TEST_CASE(character_locations_in_strings) {
  Diagnostics d;
  auto spec = parse(
      "namespace = \"m\"\n[[op]]\nname = \"f\"\n"
      "summary = \"a\\tb\"\n"
      "doc = \"\"\"\nline one\n  x\"\"\"\n",
      d);
  BOOST_REQUIRE(spec);
  const LocatedText& s = *spec->ops[0].summary;
  BOOST_TEST(s.text == "a\tb");
  BOOST_TEST(s.at(0).col == 12u);
  BOOST_TEST(s.at(2).col == 15u);  // after the two-character escape
  const LocatedText& doc = *spec->ops[0].doc;
  BOOST_TEST(doc.at(0).line == 6u);   // the newline after """ is trimmed
  BOOST_TEST(doc.at(11).line == 7u);  // 'x' on the next line
  BOOST_TEST(doc.at(11).col == 3u);
}

// Includes are followed relative to the including file, each read once.
BOOST_AUTO_TEST_CASE(includes_and_diamonds) {
  MemoryFiles fs;
  fs.files["dir/ns.toml"] = "namespace = \"m\"\ninclude = [\"a.toml\", \"b.toml\"]\n";
  fs.files["dir/a.toml"] = "include = [\"sub/c.toml\"]\n";
  fs.files["dir/b.toml"] = "include = [\"sub/c.toml\"]\n";
  fs.files["dir/sub/c.toml"] = "[[enum]]\nname = \"E\"\nvalues = [\"p\"]\n";
  Diagnostics d;
  auto set = load_spec_set("dir/ns.toml", fs.options(), d);
  BOOST_REQUIRE(set);
  BOOST_TEST(d.lines().empty());
  const std::vector<std::string> want = {"dir/ns.toml", "dir/a.toml", "dir/sub/c.toml",
                                         "dir/b.toml"};
  BOOST_TEST(set->read_paths == want, boost::test_tools::per_element());
  BOOST_TEST(set->visible[0].size() == 4u);
}

// An include cycle is an error at the include that closes it.
BOOST_AUTO_TEST_CASE(include_cycles) {
  MemoryFiles fs;
  fs.files["ns.toml"] = "namespace = \"m\"\ninclude = [\"a.toml\"]\n";
  fs.files["a.toml"] = "include = [\"b.toml\"]\n";
  fs.files["b.toml"] = "include = [\"a.toml\"]\n";
  Diagnostics d;
  BOOST_TEST(!load_spec_set("ns.toml", fs.options(), d));
  const std::vector<std::string> want = {
      "b.toml:1:13: error: include cycle: a.toml -> b.toml -> a.toml"};
  BOOST_TEST(d.lines() == want, boost::test_tools::per_element());
}

// Including a namespace file is an error; only include-only files mix in.
BOOST_AUTO_TEST_CASE(including_a_namespace_file) {
  MemoryFiles fs;
  fs.files["ns.toml"] = "namespace = \"m\"\ninclude = [\"other.toml\"]\n";
  fs.files["other.toml"] = "namespace = \"o\"\n";
  Diagnostics d;
  BOOST_TEST(!load_spec_set("ns.toml", fs.options(), d));
  BOOST_REQUIRE_EQUAL(d.lines().size(), 1u);
  BOOST_TEST(d.lines()[0].find("is a namespace file") != std::string::npos);
}

// --include-dir: searched when the include is not beside the file.
BOOST_AUTO_TEST_CASE(include_dirs) {
  MemoryFiles fs;
  fs.files["ns.toml"] = "namespace = \"m\"\ninclude = [\"shared.toml\"]\n";
  fs.files["lib/shared.toml"] = "[[enum]]\nname = \"E\"\nvalues = [\"p\"]\n";
  LoadOptions o = fs.options();
  o.include_dirs = {"lib"};
  Diagnostics d;
  auto set = load_spec_set("ns.toml", o, d);
  BOOST_REQUIRE(set);
  BOOST_TEST(set->read_paths.back() == "lib/shared.toml");
}

// Display paths are relative to --root, with forward slashes.
BOOST_AUTO_TEST_CASE(display_paths) {
  BOOST_TEST(display_path("/a/b/opdefs/math.toml", "/a/b") == "opdefs/math.toml");
  BOOST_TEST(display_path("/elsewhere/math.toml", "/a/b") == "/elsewhere/math.toml");
  BOOST_TEST(display_path("x/../math.toml", "") == "math.toml");
}

BOOST_AUTO_TEST_SUITE_END()
