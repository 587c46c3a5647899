// Stage 2, resolve: mixins, names across includes, defaults of the model.

#include <boost/test/unit_test.hpp>

#include "memory_files.hpp"
#include "resolve.hpp"

using namespace opgen::gen;
using opgen::gen::testing::MemoryFiles;

namespace {

struct Resolved {
  Diagnostics diags;
  std::optional<SpecSet> set;
  Namespace ns;
};

// Loads and resolves "spec.toml" (plus extra files).
std::unique_ptr<Resolved> resolve_text(const std::string& text,
                                       std::map<std::string, std::string> more = {}) {
  auto r = std::make_unique<Resolved>();
  MemoryFiles fs;
  fs.files = std::move(more);
  fs.files["spec.toml"] = text;
  r->set = load_spec_set("spec.toml", fs.options(), r->diags);
  if (r->set) r->ns = resolve(*r->set, r->diags);
  return r;
}

std::vector<std::string> names(const std::vector<Param>& ps) {
  std::vector<std::string> out;
  for (const Param& p : ps) out.push_back(p.name.value + ":" + p.type.value);
  return out;
}

const char* kMixins = R"spec(
[[mixin]]
name = "base"
kind = "pointwise"
doc = "Base doc."
input = [ { name = "x", type = "float" }, { name = "y", type = "float" } ]
arg = [ { name = "a", type = "int" } ]
constraint = [ { check = "a > 0" } ]

[[mixin]]
name = "derived"
use = ["base"]
doc = "Derived doc."
input = [ { name = "x", type = "int" } ]
)spec";

}  // namespace

BOOST_AUTO_TEST_SUITE(resolve)

// Nested mixins apply in order; a later entry with the same name replaces
// the earlier one where it stood; docs add up, mixins' first.
BOOST_AUTO_TEST_CASE(nested_mixins_replace_in_place) {
  auto r = resolve_text(std::string("namespace = \"m\"\n") + kMixins + R"spec(
[[op]]
name = "f"
use = ["derived"]
doc = "Own doc."
arg = [ { name = "b", type = "bool" } ]
)spec");
  BOOST_TEST(r->diags.lines().empty());
  const Op& op = r->ns.ops.at(0);
  const std::vector<std::string> inputs = {"x:int", "y:float"};
  BOOST_TEST(names(op.inputs) == inputs, boost::test_tools::per_element());
  const std::vector<std::string> args = {"a:int", "b:bool"};
  BOOST_TEST(names(op.args) == args, boost::test_tools::per_element());
  BOOST_REQUIRE_EQUAL(op.doc.size(), 3u);
  BOOST_TEST(op.doc[0].text == "Base doc.");
  BOOST_TEST(op.doc[2].text == "Own doc.");
  BOOST_TEST(op.constraints.size() == 1u);
  BOOST_TEST(op.constraints[0].from_mixin == "base");
  BOOST_TEST(op.inputs[1].from_mixin == "base");
  BOOST_TEST((op.kind == OpKind::pointwise));
}

// skip drops parts of a mixin.
BOOST_AUTO_TEST_CASE(skip) {
  auto r = resolve_text(std::string("namespace = \"m\"\n") + kMixins + R"spec(
[[op]]
name = "f"
use = [ { mixin = "base", skip = ["doc", "constraint", "arg"] } ]
)spec");
  BOOST_TEST(r->diags.lines() ==
             std::vector<std::string>{"spec.toml:12:9: warning: mixin 'derived' is not used by any op"},
             boost::test_tools::per_element());
  const Op& op = r->ns.ops.at(0);
  BOOST_TEST(op.doc.empty());
  BOOST_TEST(op.constraints.empty());
  BOOST_TEST(op.args.empty());
  BOOST_TEST(op.inputs.size() == 2u);
}

BOOST_AUTO_TEST_CASE(bad_skip) {
  auto r = resolve_text(std::string("namespace = \"m\"\n") + kMixins + R"spec(
[[op]]
name = "f"
use = [ "derived", { mixin = "base", skip = ["docs"] } ]
)spec");
  BOOST_REQUIRE(!r->diags.lines().empty());
  BOOST_TEST(r->diags.lines()[0].find("cannot skip 'docs'; did you mean 'doc'?") !=
             std::string::npos);
}

// Scalar keys: the last one wins; the op's own come last.
BOOST_AUTO_TEST_CASE(last_scalar_wins) {
  auto r = resolve_text(R"spec(namespace = "m"
[[mixin]]
name = "a"
kind = "pointwise"
summary = "From a."
[[op]]
name = "f"
use = ["a"]
kind = "custom"
)spec");
  BOOST_TEST((r->ns.ops.at(0).kind == OpKind::custom));
  BOOST_TEST(r->ns.ops.at(0).summary->text == "From a.");
}

// Mixins from included files are visible; unknown ones get a suggestion.
BOOST_AUTO_TEST_CASE(mixins_through_includes) {
  auto r = resolve_text("namespace = \"m\"\ninclude = [\"common.toml\"]\n"
                        "[[op]]\nname = \"f\"\nuse = [\"bsae\", \"base\"]\n",
                        {{"common.toml", kMixins}});
  const std::vector<std::string> want = {
      "spec.toml:5:9: error: unknown mixin 'bsae'; did you mean 'base'?"};
  BOOST_TEST(r->diags.lines() == want, boost::test_tools::per_element());
}

// A mixin defined twice across files: the note points at the first.
BOOST_AUTO_TEST_CASE(duplicate_mixin_across_files) {
  auto r = resolve_text(std::string("namespace = \"m\"\ninclude = [\"common.toml\"]\n") + kMixins,
                        {{"common.toml", kMixins}});
  BOOST_TEST(r->diags.error_count() >= 2u);
  bool note = false;
  for (const std::string& l : r->diags.lines()) {
    note |= l.find("note: mixin 'base' first defined here") != std::string::npos;
  }
  BOOST_TEST(note);
}

// Mixin cycles are errors, not infinite loops.
BOOST_AUTO_TEST_CASE(mixin_cycle) {
  auto r = resolve_text(R"spec(namespace = "m"
[[mixin]]
name = "a"
use = ["b"]
[[mixin]]
name = "b"
use = ["a"]
[[op]]
name = "f"
use = ["a"]
kind = "custom"
)spec");
  const std::vector<std::string> want = {"spec.toml:7:9: error: mixin cycle: a -> b -> a"};
  BOOST_TEST(r->diags.lines() == want, boost::test_tools::per_element());
}

// Defaults of the model: cpp_name, kernel family, C++ namespace.
BOOST_AUTO_TEST_CASE(defaults) {
  auto r = resolve_text(R"spec(namespace = "nn"
[[op]]
name = "leaky_relu"
kind = "pointwise"
[[op]]
name = "and"
cpp_name = "bitwise_and"
kernel = "bit_and"
kind = "pointwise"
)spec");
  BOOST_TEST(r->ns.cpp_namespace == "opgen::nn");
  BOOST_TEST(r->ns.ops[0].cpp_name == "leaky_relu");
  BOOST_TEST(r->ns.ops[0].kernel == "LeakyRelu");
  BOOST_TEST(r->ns.ops[1].cpp_name == "bitwise_and");
  BOOST_TEST(r->ns.ops[1].kernel == "BitAnd");
  BOOST_TEST(pascal_case("reduce_max") == "ReduceMax");
  BOOST_TEST(pascal_case("Softmax") == "Softmax");
}

// A config used by no op is an error; an unknown config name too, and the
// config it suggests is not also reported as unused.
BOOST_AUTO_TEST_CASE(configs) {
  auto r = resolve_text(R"spec(namespace = "m"
[[config]]
name = "Unused"
[[config]]
name = "Pooling"
[[op]]
name = "f"
kind = "custom"
config = ["Poolng"]
)spec");
  const std::vector<std::string> want = {
      "spec.toml:3:9: error: config 'Unused' is not used by any op (add it to an op's 'config' or "
      "remove it)",
      "spec.toml:9:12: error: unknown config 'Poolng'; did you mean 'Pooling'?"};
  BOOST_TEST(r->diags.lines() == want, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
