// Counted parameters beyond tensors and numbers: string, dtype and enum args
// with a count, counted config fields of every type, and counted outputs.
// Each case states the rule it checks; the expected text is written by hand.

#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "diagnostics.hpp"
#include "expr.hpp"
#include "memory_files.hpp"

using namespace opgen::gen;
using namespace opgen::gen::testing;

namespace {

const EnumInfo kRounding{"Rounding", "Rounding", {"nearest", "down", "up"}, {"nearest", "down", "up"}};

Symbol symbol(std::string name, TypeKind kind, const EnumInfo* en = nullptr) {
  Symbol s;
  s.cpp = name;
  s.name = std::move(name);
  s.type = Type{kind, en};
  return s;
}

// Parses and checks `text` against counted string, dtype and enum args.
struct Checked {
  Diagnostics diags;
  Scope scope;
  LocatedText source;
  ExprPtr expr;
  Type type;

  explicit Checked(std::string text) {
    scope.symbols = {symbol("names", TypeKind::string_list),
                     symbol("kinds", TypeKind::dtype_list),
                     symbol("modes", TypeKind::enum_list, &kRounding),
                     symbol("mode", TypeKind::enum_, &kRounding),
                     symbol("n", TypeKind::int_)};
    source = LocatedText{std::move(text), SourceLoc{diags.intern("spec.toml"), 3, 10}, {}};
    expr = parse_expression(source, diags);
    if (expr) type = check_expression(*expr, scope, ExprMode::constraint, diags);
  }

  std::string errors() const {
    std::string out;
    for (const std::string& l : diags.lines()) out += (out.empty() ? "" : "\n") + l;
    return out;
  }

  std::string cpp() const {
    BOOST_REQUIRE_MESSAGE(expr && !diags.has_errors(), source.text + ": " + errors());
    return to_cpp(*expr, CppContext{});
  }
};

// The op "f" with the given TOML tables appended (input x is float).
std::string op_spec(const std::string& tables) {
  return "namespace = \"m\"\n[[op]]\nname = \"f\"\nkind = \"custom\"\nsummary = \"F.\"\n"
         "input = [ { name = \"x\", type = \"float\", doc = \"x.\" } ]\n" +
         tables;
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

bool contains(const std::string& text, const std::string& part) {
  const bool found = text.find(part) != std::string::npos;
  if (!found) BOOST_TEST_MESSAGE("missing: " + part);
  return found;
}

// The text with each line break and the indentation after it as one space
// (none after an opening parenthesis), so that a declaration broken over
// lines reads as on one.
std::string joined(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') {
      out += text[i];
      continue;
    }
    while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
    if (!out.empty() && out.back() != '(') out += ' ';
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(counted)

// ---------------------------------------------------------------------------
// The expression language

// len(p) and p[i] work on counted string, dtype and enum args; an element
// has the element type (an enum list's element keeps its enum).
BOOST_AUTO_TEST_CASE(length_and_elements) {
  BOOST_TEST(type_name(Checked("names").type) == "string list");
  BOOST_TEST(type_name(Checked("kinds").type) == "dtype list");
  BOOST_TEST(type_name(Checked("modes").type) == "enum Rounding list");
  BOOST_TEST(type_name(Checked("len(names) + len(kinds) + len(modes)").type) == "int");
  BOOST_TEST(type_name(Checked("names[n]").type) == "string");
  BOOST_TEST(type_name(Checked("kinds[0]").type) == "dtype");
  const Checked e("modes[1]");
  BOOST_TEST(type_name(e.type) == "enum Rounding");
  BOOST_TEST(e.type.enum_info == &kRounding);
}

// An element compares with a literal of its type: a string, a dtype name,
// or one of the enum's value names (which becomes the enumerator in C++).
BOOST_AUTO_TEST_CASE(element_comparisons) {
  BOOST_TEST(Checked("names[0] != \"bad\"").cpp() ==
             "detail::element(kOp, \"names\", names, 0) != \"bad\"");
  BOOST_TEST(Checked("kinds[0] == float32").cpp() ==
             "detail::element(kOp, \"kinds\", kinds, 0) == DType::float32");
  BOOST_TEST(Checked("modes[1] == \"up\"").cpp() ==
             "detail::element(kOp, \"modes\", modes, 1) == Rounding::up");
  BOOST_TEST(Checked("modes[0] != mode").cpp() ==
             "detail::element(kOp, \"modes\", modes, 0) != mode");
  BOOST_TEST(Checked("len(modes) > 1").cpp() == "static_cast<std::int64_t>(modes.size()) > 1");
}

// The element of a list is checked like a single value of its type.
BOOST_AUTO_TEST_CASE(element_comparison_errors) {
  BOOST_TEST(Checked("modes[0] == \"upp\"").errors() ==
             "spec.toml:3:22: error: 'upp' is not a value of enum Rounding; did you mean 'up'?");
  BOOST_TEST(Checked("kinds[0] == \"float32\"").errors() ==
             "spec.toml:3:22: error: dtype names are written without quotes: float32");
  BOOST_TEST(Checked("names[0] == 1").errors() ==
             "spec.toml:3:19: error: '==' cannot compare string with int");
}

// A whole list where one value is expected is a type error.
BOOST_AUTO_TEST_CASE(list_as_value) {
  BOOST_TEST(Checked("modes == \"up\"").errors() ==
             "spec.toml:3:10: error: 'modes' is a counted parameter (enum Rounding list); use "
             "modes[i] or len(modes)");
  BOOST_TEST(Checked("kinds != float32").errors() ==
             "spec.toml:3:10: error: 'kinds' is a counted parameter (dtype list); use kinds[i] "
             "or len(kinds)");
}

// An unquoted enum value gets the hint even when only a counted enum arg has
// that value.
BOOST_AUTO_TEST_CASE(unquoted_value_of_a_counted_enum) {
  Checked e("modes[0] == down");
  BOOST_TEST(e.errors().find("values of enum Rounding are strings") != std::string::npos);
}

// ---------------------------------------------------------------------------
// The checker

// String, dtype and enum args take a count; their defaults are arrays of
// their literals, each item checked.
BOOST_AUTO_TEST_CASE(counted_arg_types_are_accepted) {
  BOOST_TEST(join(diagnose(op_spec(R"spec(arg = [
  { name = "names", type = "string", count = ">=1", default = ["a", "b"], doc = "n." },
  { name = "kinds", type = "dtype", count = 2, default = ["float32", "int64"], doc = "k." },
  { name = "modes", type = "enum", values = ["same", "valid"], count = "<=2", default = ["valid"], doc = "m." },
]
output = [ { name = "y", type = "float", shape = "same(x)", dtype = "same(x)", doc = "y." } ]
constraint = [ { check = "names[0] != \"\" && kinds[1] != bool && modes[0] == \"valid\"" } ]
)spec"))) == "");
}

BOOST_AUTO_TEST_CASE(counted_arg_defaults_are_checked) {
  BOOST_TEST(join(diagnose(op_spec(R"spec(arg = [
  { name = "kinds", type = "dtype", count = ">=1", default = ["float32", "flaot64"], doc = "k." },
  { name = "modes", type = "enum", values = ["same", "valid"], count = ">=1", default = ["sme"], doc = "m." },
  { name = "names", type = "string", count = 2, default = ["a"], doc = "n." },
]
output = [ { name = "y", type = "float", shape = "same(x)", dtype = "same(x)", doc = "y." } ]
)spec"))) == "spec.toml:8:74: error: unknown dtype 'flaot64'; did you mean 'float64'?\n"
          "spec.toml:9:90: error: 'sme' is not a value of 'modes'; did you mean 'same'?\n"
          "spec.toml:10:59: error: default of 'names' has 1 values; its count is 2");
}

// A dtype rule takes one dtype: from() of a counted dtype arg is an error.
BOOST_AUTO_TEST_CASE(dtype_rule_from_counted_arg) {
  BOOST_TEST(join(diagnose(op_spec(R"spec(arg = [ { name = "to", type = "dtype", count = 2, doc = "t." } ]
output = [ { name = "y", type = "any", shape = "same(x)", dtype = "from(to)", doc = "y." } ]
)spec"))) == "spec.toml:8:73: error: from() takes a single dtype arg; 'to' has a count");
}

// Config fields of every type take a count; bool ones included.
BOOST_AUTO_TEST_CASE(counted_config_fields_are_accepted) {
  BOOST_TEST(join(diagnose(op_spec(R"spec(config = ["C"]
output = [ { name = "y", type = "float", shape = "same(x)", dtype = "same(x)", doc = "y." } ]

[[config]]
name = "C"
arg = [
  { name = "flags", type = "bool", count = 2, default = [true, false], doc = "f." },
  { name = "names", type = "string", count = ">=0", default = [], doc = "n." },
  { name = "kinds", type = "dtype", count = ">=1", default = ["bool"], doc = "k." },
  { name = "modes", type = "enum", enum = "E", count = "<=3", default = ["a"], doc = "m." },
]
constraint = [ { check = "flags[0] || len(names) == 0 || kinds[0] == bool || modes[0] == \"b\"" } ]

[[enum]]
name = "E"
values = ["a", "b"]
)spec"))) == "");
}

// A counted output with a range count needs a custom shape rule: only the
// shape function knows how many tensors there are.
BOOST_AUTO_TEST_CASE(ranged_output_needs_custom_shape) {
  BOOST_TEST(join(diagnose(op_spec(R"spec(output = [
  { name = "ys", type = "float", count = ">=1", shape = "same(x)", dtype = "same(x)", doc = "y." },
  { name = "zs", type = "float", count = 3, shape = "same(x)", dtype = "same(x)", doc = "z." },
]
)spec"))) == "spec.toml:8:58: error: output 'ys' takes >=1 tensors, so only shape = \"custom\" can "
          "say how many (the shape function returns one Shape per tensor); 'same(x)' needs an "
          "exact count");
}

// Calls by name return all outputs in one list: one output at most may
// have a count that is not exact.
BOOST_AUTO_TEST_CASE(one_ranged_output_at_most) {
  BOOST_TEST(join(diagnose(op_spec(R"spec(output = [
  { name = "ys", type = "float", count = ">=1", shape = "custom", dtype = "same(x)", doc = "y." },
  { name = "zs", type = "float", count = "1..2", shape = "scalar()", dtype = "same(x)", doc = "z." },
]
)spec"))) ==
             "spec.toml:9:42: error: outputs 'ys' and 'zs' both have a count that is not exact; "
             "calls by name return all outputs in one list, so only one may\n"
             "spec.toml:9:59: error: output 'zs' takes 1..2 tensors, so only shape = \"custom\" "
             "can say how many (the shape function returns one Shape per tensor); 'scalar()' "
             "needs an exact count");
}

// The one shape function of an op cannot serve a counted output and
// another output at once.
BOOST_AUTO_TEST_CASE(counted_custom_output_owns_the_shape_function) {
  BOOST_TEST(join(diagnose(op_spec(R"spec(output = [
  { name = "ys", type = "float", count = 2, shape = "custom", dtype = "same(x)", doc = "y." },
  { name = "z", type = "float", shape = "custom", dtype = "same(x)", doc = "z." },
]
)spec"))) == "spec.toml:8:54: error: the custom shape function of 'f' returns one Shape per tensor "
          "of counted output 'ys', so it cannot also give the shape of output 'z'; give that "
          "output another shape rule");
}

// Pointwise ops, reductions and inplace overloads work on one output tensor.
BOOST_AUTO_TEST_CASE(counted_output_where_one_tensor_is_needed) {
  const std::string pointwise = R"spec(namespace = "m"
[[op]]
name = "f"
kind = "pointwise"
summary = "F."
input = [ { name = "x", type = "float", doc = "x." } ]
output = [ { name = "y", type = "float", count = 2, shape = "same(x)", dtype = "same(x)", doc = "y." } ]
)spec";
  BOOST_TEST(join(diagnose(pointwise)) ==
             "spec.toml:7:50: error: a pointwise op has one output tensor; 'y' has a count");
  const std::string inplace = op_spec(R"spec(inplace = { output = "y", input = "x" }
output = [ { name = "y", type = "float", count = 2, shape = "same(x)", dtype = "same(x)", doc = "y." } ]
)spec");
  BOOST_TEST(join(diagnose(inplace)) ==
             "spec.toml:7:23: error: inplace output 'y' has a count; only a single tensor output "
             "can be written in place");
}

// ---------------------------------------------------------------------------
// The emitted C++

struct Emitted {
  Diagnostics diags;
  std::string header, source, reference;

  explicit Emitted(const std::string& spec) {
    PipelineResult r = generate(spec, diags);
    BOOST_REQUIRE_MESSAGE(r.files, join(diags.lines()));
    header = r.files->header;
    source = r.files->source;
    reference = r.files->reference;
  }
};

const char* const kSplit = R"spec(namespace = "m"
[[op]]
name = "split"
kind = "custom"
summary = "Splits."
input = [ { name = "x", type = "float", doc = "x." } ]
arg = [ { name = "modes", type = "enum", values = ["even", "odd"], count = ">=1", default = ["even"], doc = "m." },
        { name = "names", type = "string", count = ">=0", default = ["a", "b"], doc = "n." },
        { name = "kinds", type = "dtype", count = "1..2", default = ["float32"], doc = "k." } ]
output = [ { name = "parts", type = "float", count = ">=1", shape = "custom", dtype = "same(x)", doc = "p." },
           { name = "pair", type = "float", count = 2, shape = "same(x)", dtype = "same(x)", doc = "q." } ]
)spec";

// Counted args are spans of their C++ type, with braced literal defaults;
// counted outputs are std::span<Tensor> in out overloads and vectors in the
// result struct.
BOOST_AUTO_TEST_CASE(declarations) {
  const Emitted e(kSplit);
  BOOST_TEST(contains(e.header, "struct SplitResult {"));
  BOOST_TEST(contains(e.header, "  std::vector<Tensor> parts;\n"));
  BOOST_TEST(contains(e.header, "  std::vector<Tensor> pair;\n"));
  // Long declarations are broken after commas (wrap_declaration); joined
  // again here.
  BOOST_TEST(
      contains(joined(e.header),
               "SplitResult split(const Tensor& x, Span<SplitModes> modes = {SplitModes::even}, "
               "Span<std::string> names = {\"a\", \"b\"}, Span<DType> kinds = "
               "{DType::float32});"));
  BOOST_TEST(
      contains(joined(e.header),
               "void split(const Tensor& x, Span<SplitModes> modes, Span<std::string> names, "
               "Span<DType> kinds, std::span<Tensor> parts, std::span<Tensor> pair);"));
  BOOST_TEST(contains(e.header, "#include <span>\n"));
  BOOST_TEST(contains(e.header, "#include <string>\n"));
  BOOST_TEST(contains(e.header, "#include <vector>\n"));
  BOOST_TEST(contains(e.header, "@return .parts p. At least 1 tensor. Shape: one per tensor"));
}

// The checks and the preparation of counted outputs.
BOOST_AUTO_TEST_CASE(implementation) {
  const Emitted e(kSplit);
  BOOST_TEST(contains(e.source, "constexpr std::vector<Shape> (*split_shape)(const Tensor&, "
                                "Span<SplitModes>, Span<std::string>, Span<DType>) = "
                                "kernels::SplitShape;"));
  BOOST_TEST(contains(e.source, "constexpr void (*split)(const Tensor&, Span<SplitModes>, "
                                "Span<std::string>, Span<DType>, std::span<Tensor>, "
                                "std::span<Tensor>) = kernels::Split;"));
  BOOST_TEST(contains(e.source, "detail::require_enum_values(kOp, \"modes\", \"SplitModes\", modes, 2);"));
  BOOST_TEST(contains(e.source, "detail::require_count(kOp, \"kinds\", kinds.size(), 1, 2);"));
  BOOST_TEST(contains(e.source, "detail::prepare_outputs(kOp, \"parts\", parts, "
                                "kernel_table::split_shape(x, modes, names, kinds), x.dtype(), 1, -1);"));
  BOOST_TEST(contains(e.source, "detail::prepare_outputs(kOp, \"pair\", pair, "
                                "std::vector<Shape>(2, x.shape()), x.dtype(), 2, 2);"));
  BOOST_TEST(contains(e.source, "kernel_table::split(x, modes, names, kinds, parts.tensors(), "
                                "pair.tensors());"));
  BOOST_TEST(contains(e.source, "impl::split(x, modes, names, kinds, detail::OutputList(result.parts), "
                                "detail::OutputList(result.pair));"));
}

// Calls by name: counted args from vectors (enum lists by value names),
// defaults from static arrays, outputs flattened in spec order.
BOOST_AUTO_TEST_CASE(call_by_name) {
  const Emitted e(kSplit);
  BOOST_TEST(contains(e.source, "static constexpr SplitModes modes_default[] = {SplitModes::even};"));
  BOOST_TEST(contains(e.source, "call.get_enums<SplitModes>(\"modes\", {\"even\", \"odd\"})"));
  BOOST_TEST(contains(e.source, "static const std::string names_default[] = {\"a\", \"b\"};"));
  BOOST_TEST(contains(e.source, "call.has(\"names\") ? call.get_strings(\"names\")"));
  BOOST_TEST(contains(e.source, "static constexpr DType kinds_default[] = {DType::float32};"));
  BOOST_TEST(contains(e.source, "call.has(\"kinds\") ? call.get_dtypes(\"kinds\")"));
  BOOST_TEST(contains(e.source, "  std::vector<Tensor> out;\n"
                                "  out.insert(out.end(), parts.begin(), parts.end());\n"
                                "  out.insert(out.end(), pair.begin(), pair.end());\n"
                                "  return out;\n"));
  BOOST_TEST(contains(e.source, "{\"parts\", ParamKind::output, \"float\", \">=1\", false"));
  BOOST_TEST(contains(e.source, "{\"modes\", ParamKind::arg, \"enum\", \">=1\", true, \"[\\\"even\\\"]\", "
                                "{\"even\", \"odd\"}"));
}

// `opgen list` shows counts of outputs as of inputs and args.
BOOST_AUTO_TEST_CASE(op_line) {
  Diagnostics d;
  const PipelineResult r = generate(kSplit, d);
  BOOST_REQUIRE(r.op_lines.size() == 1u);
  BOOST_TEST(r.op_lines[0] ==
             "m.split(x, modes[>=1]?, names[>=0]?, kinds[1..2]?) -> parts[>=1], pair[2]");
}

// The reference page lists a counted output with its count.
BOOST_AUTO_TEST_CASE(reference_rows) {
  const Emitted e(kSplit);
  BOOST_TEST(contains(e.reference, "| parts | outputs | the dtype of x [>=1] |"));
  BOOST_TEST(contains(e.reference, "| names | arg | string [>=0] | [\"a\", \"b\"] |"));
}

// Config structs: counted bool fields are std::vector<bool>, read by
// element() in validate(); enum fields (counted or not) are set by name.
BOOST_AUTO_TEST_CASE(config_fields) {
  const Emitted e(op_spec(R"spec(config = ["C"]
output = [ { name = "y", type = "float", shape = "same(x)", dtype = "same(x)", doc = "y." } ]

[[config]]
name = "C"
arg = [
  { name = "flags", type = "bool", count = 2, default = [true, false], doc = "f." },
  { name = "modes", type = "enum", enum = "E", count = "<=3", default = ["a"], doc = "m." },
  { name = "mode", type = "enum", enum = "E", default = "b", doc = "m." },
]
constraint = [ { check = "flags[1] || modes[0] == \"b\"" } ]

[[enum]]
name = "E"
values = ["a", "b"]
)spec"));
  BOOST_TEST(contains(e.header, "  std::vector<bool> flags = {true, false};\n"));
  BOOST_TEST(contains(e.header, "  std::vector<E> modes = {E::a};\n"));
  BOOST_TEST(contains(e.source, "if (!(detail::element(op, \"flags\", flags, 1) || "
                                "detail::element(op, \"modes\", Span<E>(modes), 0) == E::b)) {"));
  BOOST_TEST(contains(e.source, "if (call.has(\"C.modes\")) c.modes = [&] { const auto v = "
                                "call.get_enums<E>(\"C.modes\", {\"a\", \"b\"}); return "
                                "std::vector<E>(v.begin(), v.end()); }();"));
  BOOST_TEST(contains(e.source, "if (call.has(\"C.mode\")) c.mode = "
                                "static_cast<E>(call.get_enum(\"C.mode\", {\"a\", \"b\"}));"));
}

BOOST_AUTO_TEST_SUITE_END()
