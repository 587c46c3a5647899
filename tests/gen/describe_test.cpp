// `opgen describe --json`: the JSON writer's escaping and layout, the
// fields of the describe document on small in-memory specs, and the
// command line on the built-in specs. Every document is read back with the
// tests' own strict JSON reader (json_reader.hpp), never with the writer.

#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "emit_json.hpp"
#include "json_reader.hpp"
#include "json_writer.hpp"
#include "memory_files.hpp"
#include "test_files.hpp"

using namespace opgen::gen;
using namespace opgen::gen::testing;
using Kind = JsonNode::Kind;

namespace {

// The describe document of "spec.toml" (plus `more` files), as text.
std::string describe_text(const std::string& text, std::map<std::string, std::string> more = {}) {
  MemoryFiles fs;
  fs.files = std::move(more);
  fs.files["spec.toml"] = text;
  std::unique_ptr<CheckedSpec> spec = load_checked_spec("spec.toml", fs.options());
  std::string problems;
  for (const std::string& line : spec->diags.lines()) problems += line + "\n";
  BOOST_REQUIRE_MESSAGE(spec->ok, "the spec has errors:\n" + problems);
  return to_json_text(describe_document({spec.get()}));
}

// The document's first namespace, parsed.
JsonNode describe_ns(const std::string& text, std::map<std::string, std::string> more = {}) {
  const JsonNode doc = parse_json(describe_text(text, std::move(more)));
  return doc.at("namespaces")[0];
}

std::vector<std::string> strings_of(const JsonNode& array) {
  std::vector<std::string> out;
  for (const JsonNode& item : array.items) {
    BOOST_TEST_REQUIRE((item.kind == Kind::string));
    out.push_back(item.string);
  }
  return out;
}

std::vector<double> numbers_of(const JsonNode& array) {
  std::vector<double> out;
  for (const JsonNode& item : array.items) {
    BOOST_TEST_REQUIRE((item.kind == Kind::number));
    out.push_back(item.number);
  }
  return out;
}

const char* kCommon = R"spec(# include-only
[[mixin]]
name = "unary"
kind = "pointwise"
input = [ { name = "x", type = "float", doc = "Input." } ]
output = [ { name = "y", type = "float", shape = "same(x)", dtype = "same(x)", doc = "Result." } ]

[[enum]]
name = "Rounding"
doc = "How a conversion rounds."
values = ["nearest", "down", "up"]

[[config]]
name = "WindowConfig"
doc = "Window geometry."
arg = [ { name = "size", type = "int", count = 2, default = [2, 2], doc = "Height and width." },
        { name = "rounding", type = "enum", enum = "Rounding", default = "nearest", doc = "Rounding." } ]
constraint = [ { check = "size[0] > 0 && size[1] > 0", message = "window sizes must be positive" } ]
)spec";

const char* kSpec = R"spec(namespace = "demo"
summary = "A demo."
include = ["common.toml"]

[[op]]
name = "scale"
use = ["unary"]
summary = "Scales %OPNAME% in %NAMESPACE%."
formula = "factor * x"
arg = [ { name = "factor", type = "float", default = 2, doc = "The factor." } ]
constraint = [ { check = "factor  !=  0", message = "factor must not be zero" } ]

[[op]]
name = "pad"
kind = "custom"
summary = "Pads a tensor."
notes = "Reference page only."
aliases = ["padding", "other.pad"]
input = [
  { name = "x", type = "float", doc = "Input." },
  { name = "fill", type = "float", optional = true, doc = "Fill values." },
]
arg = [
  { name = "mode", type = "enum", values = ["same", "valid", "delete"], default = "same", doc = "Padding mode." },
  { name = "width", type = "int", count = 2, default = [1, 3], doc = "Before and after." },
  { name = "round", type = "enum", enum = "Rounding", default = "down", doc = "Rounding." },
]
output = [ { name = "y", type = "float", shape = "custom", dtype = "same(x)", doc = "Padded." } ]
config = ["WindowConfig"]

[[op]]
name = "total"
kind = "reduction"
summary = "Sums."
input = [ { name = "x", type = "numeric", doc = "Input." } ]
output = [ { name = "y", type = "numeric", shape = "reduce(x, [0, 1], false)", dtype = "same(x)", doc = "Sums." } ]
)spec";

JsonNode demo() { return describe_ns(kSpec, {{"common.toml", kCommon}}); }

}  // namespace

BOOST_AUTO_TEST_SUITE(describe)

// ---------------------------------------------------------------------------
// The writer

// Quotes, backslash and every control character are escaped; UTF-8 passes
// through as it is.
BOOST_AUTO_TEST_CASE(json_string_escapes) {
  BOOST_TEST(json_string("a\"b\\c") == "\"a\\\"b\\\\c\"");
  BOOST_TEST(json_string("l1\nl2\r\t\b\f") == "\"l1\\nl2\\r\\t\\b\\f\"");
  BOOST_TEST(json_string(std::string_view("\x00\x01\x1f", 3)) == "\"\\u0000\\u0001\\u001f\"");
  BOOST_TEST(json_string("\x7f") == "\"\x7f\"");
  BOOST_TEST(json_string("é ≥ 𝔸") == "\"é ≥ 𝔸\"");
  // Every byte value reads back unchanged.
  std::string all;
  for (int c = 1; c < 256; ++c) all += static_cast<char>(c);
  all += std::string(1, '\0');
  BOOST_TEST(parse_json(json_string(all)).string == all);
}

BOOST_AUTO_TEST_CASE(json_layout_and_numbers) {
  Json o = Json::object();
  o.set("b", 1);
  o.set("a", Json::array().push(1.5).push(2.0).push(1e-30).push(-0.25));
  o.set("empty", Json::array());
  o.set("nothing", Json::object());
  o.set("b", "again");  // an existing key keeps its place
  o.set("nan", std::nan(""));
  o.set("list", Json::array().push(Json::object().set("k", true)));
  BOOST_TEST(to_json_text(o) ==
             "{\n"
             "  \"b\": \"again\",\n"
             "  \"a\": [1.5, 2.0, 1e-30, -0.25],\n"
             "  \"empty\": [],\n"
             "  \"nothing\": {},\n"
             "  \"nan\": null,\n"
             "  \"list\": [\n"
             "    {\n"
             "      \"k\": true\n"
             "    }\n"
             "  ]\n"
             "}\n");
  const JsonNode back = parse_json(to_json_text(o));
  BOOST_TEST(numbers_of(back.at("a")) == (std::vector<double>{1.5, 2.0, 1e-30, -0.25}),
             boost::test_tools::per_element());
  BOOST_CHECK_THROW(Json().push(1), std::logic_error);
  BOOST_CHECK_THROW(Json::array().set("k", 1), std::logic_error);
}

// The reader the tests rely on rejects what is not JSON.
BOOST_AUTO_TEST_CASE(reader_is_strict) {
  for (const char* bad : {"", "[1,]", "{\"a\":1,}", "{\"a\":1 \"b\":2}", "\"a\nb\"", "01",
                          "[1] 2", "{\"a\":1,\"a\":2}", "\"\\x\"", "nul", "\"\\ud800\"", "1."}) {
    BOOST_TEST_INFO(bad);
    BOOST_CHECK_THROW(parse_json(bad), std::runtime_error);
  }
  BOOST_TEST(parse_json("\"\\ud835\\udd38\"").string == "𝔸");
}

// ---------------------------------------------------------------------------
// The document

BOOST_AUTO_TEST_CASE(top_level) {
  const JsonNode doc = parse_json(describe_text(kSpec, {{"common.toml", kCommon}}));
  BOOST_TEST_REQUIRE(doc.members.size() == 2u);
  BOOST_TEST(doc.members[0].first == "format_version");
  BOOST_TEST(doc.members[0].second.number == 1);
  const JsonNode& ns = doc.at("namespaces")[0];
  BOOST_TEST(ns.at("name").string == "demo");
  BOOST_TEST(ns.at("cpp_namespace").string == "opgen::demo");
  BOOST_TEST(ns.at("source").string == "spec.toml");
  BOOST_TEST(ns.at("summary").string == "A demo.");
  BOOST_TEST(ns.at("doc").is(Kind::null));
  BOOST_TEST(strings_of(ns.at("includes")) == std::vector<std::string>{"common.toml"});
  BOOST_TEST(strings_of(ns.at("files")) ==
             (std::vector<std::string>{"spec.toml", "common.toml"}));
  std::vector<std::string> ops;
  for (const JsonNode& op : ns.at("ops").items) ops.push_back(op.at("name").string);
  BOOST_TEST(ops == (std::vector<std::string>{"scale", "pad", "total"}));
}

// Same input, same bytes.
BOOST_AUTO_TEST_CASE(deterministic) {
  BOOST_TEST(describe_text(kSpec, {{"common.toml", kCommon}}) ==
             describe_text(kSpec, {{"common.toml", kCommon}}));
}

// A counted arg: its count as written and as bounds, its default as text
// and as an array.
BOOST_AUTO_TEST_CASE(counted_arg_default) {
  const JsonNode width = demo().at("ops").named("pad").at("args").named("width");
  BOOST_TEST(width.at("type").string == "int");
  BOOST_TEST(width.at("cpp_type").string == "Span<std::int64_t>");
  BOOST_TEST(width.at("count").at("text").string == "2");
  BOOST_TEST(width.at("count").at("min").number == 2);
  BOOST_TEST(width.at("count").at("max").number == 2);
  BOOST_TEST(width.at("optional").boolean);
  BOOST_TEST(width.at("default").at("text").string == "[1, 3]");
  BOOST_TEST(numbers_of(width.at("default").at("value")) == (std::vector<double>{1, 3}),
             boost::test_tools::per_element());
  BOOST_TEST(width.at("default").at("location").at("line").number == 25);
}

// An integer default of a float arg is a float value; the text is as written.
BOOST_AUTO_TEST_CASE(float_default) {
  const std::string text = describe_text(kSpec, {{"common.toml", kCommon}});
  BOOST_TEST(text.find("\"text\": \"2\",\n") != std::string::npos);
  BOOST_TEST(text.find("\"value\": 2.0,\n") != std::string::npos);
  const JsonNode factor = parse_json(text).at("namespaces")[0].at("ops").named("scale").at("args")[0];
  BOOST_TEST(factor.at("default").at("value").number == 2.0);
  BOOST_TEST(factor.at("cpp_type").string == "double");
}

// An op-local enum and a shared one.
BOOST_AUTO_TEST_CASE(enums) {
  const JsonNode ns = demo();
  const JsonNode& pad = ns.at("ops").named("pad");
  const JsonNode& mode = pad.at("args").named("mode").at("enum");
  BOOST_TEST(mode.at("name").is(Kind::null));
  BOOST_TEST(!mode.at("shared").boolean);
  BOOST_TEST(mode.at("cpp_type").string == "PadMode");
  BOOST_TEST(strings_of(mode.at("values")) ==
             (std::vector<std::string>{"same", "valid", "delete"}));
  BOOST_TEST(strings_of(mode.at("cpp_values")) ==
             (std::vector<std::string>{"same", "valid", "delete_"}));
  BOOST_TEST(pad.at("args").named("mode").at("default").at("value").string == "same");

  const JsonNode& round = pad.at("args").named("round").at("enum");
  BOOST_TEST(round.at("name").string == "Rounding");
  BOOST_TEST(round.at("shared").boolean);
  BOOST_TEST(round.at("doc").string == "How a conversion rounds.");
  BOOST_TEST(round.at("location").at("file").string == "common.toml");

  const JsonNode& shared = ns.at("enums").named("Rounding");
  BOOST_TEST(strings_of(shared.at("values")) ==
             (std::vector<std::string>{"nearest", "down", "up"}));
  BOOST_TEST(shared.at("location").at("line").number == 8);
  BOOST_TEST(pad.at("args").named("width").at("enum").is(Kind::null));
}

// Entries a mixin provides point into the mixin's file and name it.
BOOST_AUTO_TEST_CASE(mixin_locations) {
  const JsonNode scale = demo().at("ops").named("scale");
  const JsonNode& x = scale.at("inputs").named("x");
  BOOST_TEST(x.at("from_mixin").string == "unary");
  BOOST_TEST(x.at("location").at("file").string == "common.toml");
  BOOST_TEST(x.at("location").at("line").number == 5);
  BOOST_TEST(x.at("location").at("col").number == 11);
  const JsonNode& y = scale.at("outputs").named("y");
  BOOST_TEST(y.at("shape").at("location").at("file").string == "common.toml");
  // The op's own entries are in the op's file.
  const JsonNode& factor = scale.at("args").named("factor");
  BOOST_TEST(factor.at("from_mixin").is(Kind::null));
  BOOST_TEST(factor.at("location").at("file").string == "spec.toml");
  BOOST_TEST(factor.at("location").at("line").number == 10);
  BOOST_TEST(scale.at("location").at("line").number == 5);
  BOOST_TEST(scale.at("kind").string == "pointwise");
}

BOOST_AUTO_TEST_CASE(op_fields) {
  const JsonNode ns = demo();
  const JsonNode& scale = ns.at("ops").named("scale");
  BOOST_TEST(scale.at("summary").string == "Scales scale in demo.");  // doc tokens replaced
  BOOST_TEST(scale.at("qualified_name").string == "demo.scale");
  BOOST_TEST(scale.at("cpp_qualified_name").string == "opgen::demo::scale");
  BOOST_TEST(scale.at("kernel").string == "Scale");
  BOOST_TEST(strings_of(scale.at("dtypes")) == (std::vector<std::string>{"float32", "float64"}));
  BOOST_TEST(!scale.at("dtypes_given").boolean);
  BOOST_TEST(scale.at("dispatch_input").string == "x");
  BOOST_TEST(scale.at("formula").at("source").string == "factor * x");
  BOOST_TEST(scale.at("formula").at("location").at("col").number == 12);
  const JsonNode& c = scale.at("constraints")[0];
  BOOST_TEST(c.at("check").string == "factor  !=  0");      // as written
  BOOST_TEST(c.at("normalized").string == "factor != 0");  // as parsed
  BOOST_TEST(c.at("message").string == "factor must not be zero");
  BOOST_TEST(!c.at("backend").boolean);
  BOOST_TEST(c.at("prose").string.find("factor") != std::string::npos);
  BOOST_TEST(c.at("location").at("line").number == 11);

  const JsonNode& pad = ns.at("ops").named("pad");
  BOOST_TEST(pad.at("kind").string == "custom");
  BOOST_TEST(pad.at("notes").string == "Reference page only.");
  BOOST_TEST(pad.at("formula").is(Kind::null));
  BOOST_TEST(pad.at("aliases")[0].at("qualified_name").string == "demo.padding");
  BOOST_TEST(pad.at("aliases")[1].at("qualified_name").string == "other.pad");
  const JsonNode& fill = pad.at("inputs").named("fill");
  BOOST_TEST(fill.at("optional").boolean);
  BOOST_TEST(!pad.at("inputs").named("x").at("optional").boolean);
  BOOST_TEST(pad.at("outputs")[0].at("shape").at("rule").string == "custom");
  BOOST_TEST(pad.at("configs")[0].at("name").string == "WindowConfig");
  BOOST_TEST(pad.at("configs")[0].at("cpp_param").string == "windowConfig");
  BOOST_TEST(pad.at("cpp_result_type").string == "Tensor");
  BOOST_TEST(pad.at("out_variant").boolean);
  BOOST_TEST(pad.at("inplace").is(Kind::null));
}

// The overloads the header declares, with the parameters each takes.
BOOST_AUTO_TEST_CASE(overloads) {
  const JsonNode pad = demo().at("ops").named("pad");
  const JsonNode& overloads = pad.at("overloads");
  BOOST_TEST_REQUIRE(overloads.items.size() >= 2u);
  const JsonNode& value = overloads[0];
  BOOST_TEST(value.at("variant").string == "value");
  BOOST_TEST(strings_of(value.at("params")) ==
             (std::vector<std::string>{"x", "fill", "mode", "width", "round"}));
  BOOST_TEST(strings_of(value.at("configs")) == std::vector<std::string>{"WindowConfig"});
  BOOST_TEST(value.at("cpp_declaration").string.rfind("Tensor pad(const Tensor& x", 0) == 0);
  const JsonNode& out = overloads.items.back();
  BOOST_TEST(out.at("variant").string == "out");
  BOOST_TEST(strings_of(out.at("outputs")) == std::vector<std::string>{"y"});
  BOOST_TEST(out.at("cpp_declaration").string.rfind("void pad(", 0) == 0);
}

BOOST_AUTO_TEST_CASE(rules) {
  const JsonNode total = demo().at("ops").named("total");
  const JsonNode& shape = total.at("outputs")[0].at("shape");
  BOOST_TEST(shape.at("rule").string == "reduce");
  BOOST_TEST(strings_of(shape.at("tensors")) == std::vector<std::string>{"x"});
  BOOST_TEST(numbers_of(shape.at("operands").at("dims").at("value")) ==
                 (std::vector<double>{0, 1}),
             boost::test_tools::per_element());
  BOOST_TEST(!shape.at("operands").at("keep_dims").at("value").boolean);
  BOOST_TEST(shape.at("operands").at("keep_dims").at("value").is(Kind::boolean));
  const JsonNode& dtype = total.at("outputs")[0].at("dtype");
  BOOST_TEST(dtype.at("rule").string == "same");
  BOOST_TEST(dtype.at("dtype").is(Kind::null));
  BOOST_TEST(strings_of(total.at("dtypes")) ==
             (std::vector<std::string>{"float32", "float64", "int32", "int64"}));
}

BOOST_AUTO_TEST_CASE(configs) {
  const JsonNode cfg = demo().at("configs").named("WindowConfig");
  BOOST_TEST(cfg.at("doc").string == "Window geometry.");
  BOOST_TEST(cfg.at("cpp_type").string == "WindowConfig");
  const JsonNode& size = cfg.at("fields").named("size");
  BOOST_TEST(size.at("role").string == "field");
  BOOST_TEST(size.at("cpp_type").string == "std::vector<std::int64_t>");
  BOOST_TEST(numbers_of(size.at("default").at("value")) == (std::vector<double>{2, 2}),
             boost::test_tools::per_element());
  const JsonNode& rounding = cfg.at("fields").named("rounding");
  BOOST_TEST(rounding.at("enum").at("name").string == "Rounding");
  BOOST_TEST(rounding.at("cpp_type").string == "Rounding");
  const JsonNode& c = cfg.at("constraints")[0];
  BOOST_TEST(c.at("check").string == "size[0] > 0 && size[1] > 0");
  BOOST_TEST(c.at("message").string == "window sizes must be positive");
  BOOST_TEST(cfg.at("location").at("file").string == "common.toml");
}

// Doc text with everything JSON must escape comes back unchanged.
BOOST_AUTO_TEST_CASE(tricky_doc_text) {
  const std::string spec = R"spec(namespace = "demo"
[[op]]
name = "neg"
kind = "pointwise"
summary = "Negation."
doc = "He said \"hi\" \\ C:\\path\nnext line\ttab */ {{x}} | é ≥ 𝔸"
input = [ { name = "x", type = "float", doc = "Input." } ]
output = [ { name = "y", type = "float", shape = "same(x)", dtype = "same(x)", doc = "Result." } ]
)spec";
  // (Control characters other than tab and line feed are errors: bad-character.)
  const std::string want = "He said \"hi\" \\ C:\\path\nnext line\ttab */ {{x}} | é ≥ 𝔸";
  const std::string text = describe_text(spec);
  BOOST_TEST(text.find(R"("doc": "He said \"hi\" \\ C:\\path\nnext line\ttab */ {{x}} | é ≥ 𝔸")") !=
             std::string::npos);
  BOOST_TEST(parse_json(text).at("namespaces")[0].at("ops")[0].at("doc").string == want);
}

BOOST_AUTO_TEST_CASE(errors_give_no_model) {
  MemoryFiles fs;
  fs.files["spec.toml"] = "namespace = \"demo\"\n[[op]]\nname = \"neg\"\n";
  std::unique_ptr<CheckedSpec> spec = load_checked_spec("spec.toml", fs.options());
  BOOST_TEST(!spec->ok);
  BOOST_TEST(spec->diags.has_errors());
}

// ---------------------------------------------------------------------------
// The command line

namespace {

struct Run {
  int status = -1;
  std::string out;  // stdout only
  std::string err;
};

Run run_opgen(const std::string& args) {
  const char* exe = std::getenv("OPGEN_EXE");
  BOOST_TEST_REQUIRE(exe != nullptr, "OPGEN_EXE is not set");
  const std::filesystem::path err_file = std::filesystem::temp_directory_path() /
                                         ("opgen-describe-" + std::to_string(::getpid()) + ".err");
  Run r;
  FILE* p = ::popen((std::string(exe) + " " + args + " 2>" + err_file.string()).c_str(), "r");
  BOOST_TEST_REQUIRE(p != nullptr);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.err = read_file(err_file.string());
  std::filesystem::remove(err_file);
  return r;
}

}  // namespace

BOOST_AUTO_TEST_CASE(cli_builtin_specs) {
  const std::string root = source_root();
  const Run r = run_opgen("describe --json --root " + root + " " + root + "/opdefs/math.toml " +
                          root + "/opdefs/nn.toml");
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  const JsonNode doc = parse_json(r.out);
  BOOST_TEST(doc.at("format_version").number == 1);
  const JsonNode& math = doc.at("namespaces")[0];
  BOOST_TEST(math.at("name").string == "math");
  BOOST_TEST(math.at("source").string == "opdefs/math.toml");
  BOOST_TEST(doc.at("namespaces")[1].at("name").string == "nn");
  const JsonNode& sum = math.at("ops").named("sum");
  BOOST_TEST(sum.at("kind").string == "reduction");
  BOOST_TEST(sum.at("outputs")[0].at("shape").at("operands").at("dims").at("arg").string == "dims");
  BOOST_TEST(sum.at("inputs")[0].at("location").at("file").string == "opdefs/common.toml");
  // Every op of every namespace has the same keys.
  for (const JsonNode& ns : doc.at("namespaces").items) {
    for (const JsonNode& op : ns.at("ops").items) {
      BOOST_TEST(op.members.size() == math.at("ops")[0].members.size());
    }
  }
}

BOOST_AUTO_TEST_CASE(cli_errors) {
  const std::string root = source_root();
  const Run bad = run_opgen("describe --json " + root + "/tests/bad_specs/unknown_kind.toml");
  BOOST_TEST(bad.status == 1);
  BOOST_TEST(bad.out.empty());
  BOOST_TEST(bad.err.find("unknown kind 'pointwize'") != std::string::npos);
  BOOST_TEST(run_opgen("describe " + root + "/opdefs/math.toml").status == 2);  // no --json
  BOOST_TEST(run_opgen("describe --json").status == 2);
  BOOST_TEST(run_opgen("check --json " + root + "/opdefs/math.toml").status == 2);
  BOOST_TEST(run_opgen("describe --json /nonexistent/spec.toml").status == 2);
}

BOOST_AUTO_TEST_SUITE_END()
