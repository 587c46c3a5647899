// The registry, with hand-written namespaces standing in for generated ones.
// The registry is process-wide and may already hold the built-in
// namespaces, so these tests use their own namespace names and never assume
// the registry holds nothing else.
#include "opgen/registry.hpp"

#include <algorithm>
#include <atomic>
#include <boost/test/unit_test.hpp>
#include <thread>

#include "error_text.hpp"
#include "opgen/detail/call.hpp"
#include "opgen/detail/checks.hpp"

using opgen::Args;
using opgen::DType;
using opgen::NamespaceInfo;
using opgen::OpInfo;
using opgen::Tensor;
using opgen::testing::error_text;
namespace d = opgen::detail;

namespace {

// What a generated invoker does: unpack, then call the typed function (here
// inlined): y = factor * x, for float64 x.
std::vector<Tensor> invoke_frobnicate(std::span<const Tensor> inputs, const Args& args) {
  const d::CallArgs c("rt_demo.frobnicate", inputs, args, {{"x", 1, 1}}, {"factor"});
  const Tensor& x = c.tensor(0);
  const double factor = c.has("factor") ? c.get_float("factor") : 2.0;
  d::require_type("rt_demo.frobnicate", "x", x, d::TypeClass::float64);
  Tensor y = Tensor::empty(x.shape(), DType::float64);
  for (std::int64_t i = 0; i < x.length(); ++i) y.data<double>()[i] = factor * x.data<double>()[i];
  return {y};
}

// z = sum of every input (a counted input), elementwise; shapes must match.
std::vector<Tensor> invoke_total(std::span<const Tensor> inputs, const Args& args) {
  const d::CallArgs c("rt_demo.total", inputs, args, {{"xs", 1, -1}}, {});
  const opgen::Span<Tensor> xs = c.tensors(0);
  Tensor z = Tensor::zeros(xs[0].shape(), DType::float64);
  for (const Tensor& x : xs) {
    for (std::int64_t i = 0; i < x.length(); ++i) z.data<double>()[i] += x.data<double>()[i];
  }
  return {z};
}

OpInfo op(std::string name, std::vector<std::string> aliases, opgen::OpInvoker invoke) {
  OpInfo info;
  info.name = std::move(name);
  info.aliases = std::move(aliases);
  info.kind = "custom";
  info.source = "tests/rt_demo.toml:1";
  info.invoke = invoke;
  return info;
}

NamespaceInfo make_demo() {
  NamespaceInfo ns;
  ns.name = "rt_demo";
  ns.source = "tests/rt_demo.toml";
  // Deliberately out of order: the registry sorts.
  ns.ops.push_back(op("rt_demo.total", {"rt_demo.sum_all"}, invoke_total));
  ns.ops.push_back(op("rt_demo.frobnicate", {"rt_demo.frob", "rt_alias.frob"}, invoke_frobnicate));
  ns.ops.push_back(op("rt_demo.no_invoker", {}, nullptr));
  return ns;
}

// Another spec of the same namespace name.
NamespaceInfo make_demo_again() {
  NamespaceInfo ns = make_demo();
  ns.source = "other/rt_demo.toml";
  return ns;
}

// A namespace whose alias takes a name rt_demo already has.
NamespaceInfo make_clashing() {
  NamespaceInfo ns;
  ns.name = "rt_clash";
  ns.source = "tests/rt_clash.toml";
  ns.ops.push_back(op("rt_clash.fine", {}, nullptr));
  ns.ops.push_back(op("rt_clash.frob", {"rt_demo.frob"}, nullptr));
  return ns;
}

// A namespace that names one op twice.
NamespaceInfo make_twice() {
  NamespaceInfo ns;
  ns.name = "rt_twice";
  ns.source = "tests/rt_twice.toml";
  ns.ops.push_back(op("rt_twice.a", {"rt_twice.b"}, nullptr));
  ns.ops.push_back(op("rt_twice.b", {}, nullptr));
  return ns;
}

NamespaceInfo make_auto() {
  NamespaceInfo ns;
  ns.name = "rt_auto";
  ns.source = "tests/rt_auto.toml";
  ns.ops.push_back(op("rt_auto.op", {}, nullptr));
  return ns;
}

// As a generated source registers its namespace: during static initialisation.
const d::AutoRegister kAutoRegister(&make_auto);

void add_demo() { opgen::registry().add(&make_demo); }

std::size_t count_of(std::string_view name) {
  const auto& ops = opgen::registry().list();
  return static_cast<std::size_t>(
      std::count_if(ops.begin(), ops.end(), [&](const OpInfo& o) { return o.name == name; }));
}

bool has_problem(std::string_view text) {
  const std::vector<std::string> problems = opgen::registry().problems();
  return std::find(problems.begin(), problems.end(), text) != problems.end();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(registry)

BOOST_AUTO_TEST_CASE(list_is_sorted_by_name) {
  add_demo();
  const auto& ops = opgen::registry().list();
  BOOST_TEST(std::is_sorted(ops.begin(), ops.end(),
                            [](const OpInfo& a, const OpInfo& b) { return a.name < b.name; }));
  const auto first = std::find_if(ops.begin(), ops.end(),
                                  [](const OpInfo& o) { return o.name.starts_with("rt_demo."); });
  BOOST_REQUIRE(first != ops.end());
  BOOST_TEST(first->name == "rt_demo.frobnicate");
  BOOST_TEST((first + 1)->name == "rt_demo.no_invoker");
  BOOST_TEST((first + 2)->name == "rt_demo.total");
}

BOOST_AUTO_TEST_CASE(find_by_name_and_alias) {
  add_demo();
  const OpInfo* by_name = opgen::registry().find("rt_demo.frobnicate");
  BOOST_REQUIRE(by_name != nullptr);
  BOOST_TEST(by_name->source == "tests/rt_demo.toml:1");
  BOOST_TEST(opgen::registry().find("rt_demo.frob") == by_name);
  BOOST_TEST(opgen::registry().find("rt_alias.frob") == by_name);  // another namespace's name
  BOOST_TEST(opgen::registry().find("rt_demo.nope") == nullptr);
  BOOST_TEST(opgen::registry().find("") == nullptr);
}

BOOST_AUTO_TEST_CASE(namespaces_are_sorted) {
  add_demo();
  const std::vector<std::string> names = opgen::registry().namespaces();
  BOOST_TEST(std::is_sorted(names.begin(), names.end()));
  BOOST_TEST(std::count(names.begin(), names.end(), "rt_demo") == 1);
}

BOOST_AUTO_TEST_CASE(call_by_name) {
  add_demo();
  const Tensor x = Tensor::from<double>({1, 2, 3});
  std::vector<Tensor> outs = opgen::registry().call("rt_demo.frobnicate", {x});
  BOOST_REQUIRE(outs.size() == 1u);
  BOOST_TEST(outs[0].to_vector<double>() == (std::vector<double>{2, 4, 6}),
             boost::test_tools::per_element());
  outs = opgen::registry().call("rt_demo.frob", {x}, {{"factor", -1}});  // an int for a float
  BOOST_TEST(outs[0].to_vector<double>() == (std::vector<double>{-1, -2, -3}),
             boost::test_tools::per_element());
  outs = opgen::registry().call("rt_demo.sum_all", {x, x, x});
  BOOST_TEST(outs[0].to_vector<double>() == (std::vector<double>{3, 6, 9}),
             boost::test_tools::per_element());
}

// Everything the invoker or the wrapper rejects arrives as opgen::Error.
BOOST_AUTO_TEST_CASE(call_errors) {
  add_demo();
  const Tensor x = Tensor::from<double>({1});
  BOOST_TEST(error_text([&] {
               opgen::registry().call("rt_demo.frobnicate", {x, x});
             }) == "rt_demo.frobnicate: expects 1 input (x), got 2");
  BOOST_TEST(error_text([&] {
               opgen::registry().call("rt_demo.frobnicate", {x}, {{"facter", 1.0}});
             }) == "rt_demo.frobnicate: unknown arg 'facter'; did you mean 'factor'?");
  BOOST_TEST(error_text([&] {
               opgen::registry().call("rt_demo.frobnicate", {x}, {{"factor", "big"}});
             }) == "rt_demo.frobnicate: arg factor must be float, got string");
  BOOST_TEST(error_text([] {
               opgen::registry().call("rt_demo.frobnicate", {Tensor::from<float>({1})});
             }) == "rt_demo.frobnicate: x must be a float64 tensor, got float32");
  BOOST_TEST(error_text([&] { opgen::registry().call("rt_demo.total", {}); }) ==
             "rt_demo.total: expects at least 1 input (xs[>=1]), got 0");
  BOOST_TEST(error_text([&] { opgen::registry().call("rt_demo.no_invoker", {x}); }) ==
             "rt_demo.no_invoker: cannot be called by name (its namespace registered no invoker)");
}

BOOST_AUTO_TEST_CASE(unknown_op_suggests) {
  add_demo();
  BOOST_TEST(error_text([] { opgen::registry().call("rt_demo.frobnicat", {}); }) ==
             "unknown op 'rt_demo.frobnicat'; did you mean 'rt_demo.frobnicate'?");
  BOOST_TEST(error_text([] { opgen::registry().call("rt_demo.totl", {}); }) ==
             "unknown op 'rt_demo.totl'; did you mean 'rt_demo.total'?");
  // Without a namespace the op's own name is matched, exactly or nearly.
  BOOST_TEST(error_text([] { opgen::registry().call("frobnicate", {}); }) ==
             "unknown op 'frobnicate'; did you mean 'rt_demo.frobnicate'?");
  BOOST_TEST(error_text([] { opgen::registry().call("frobnicat", {}); }) ==
             "unknown op 'frobnicat'; did you mean 'rt_demo.frobnicate'?");
  BOOST_TEST(error_text([] { opgen::registry().call("zzz_nothing_like_it.qqq", {}); }) ==
             "unknown op 'zzz_nothing_like_it.qqq'");
}

// The same function added again is ignored, silently.
BOOST_AUTO_TEST_CASE(duplicate_registration_ignored) {
  add_demo();
  const std::size_t problems = opgen::registry().problems().size();
  const std::size_t ops = opgen::registry().list().size();
  add_demo();
  opgen::registry().add(&make_demo);
  BOOST_TEST(opgen::registry().list().size() == ops);
  BOOST_TEST(opgen::registry().problems().size() == problems);
  BOOST_TEST(count_of("rt_demo.frobnicate") == 1u);
}

// A clash keeps the whole second namespace out and is recorded.
BOOST_AUTO_TEST_CASE(clashes_recorded) {
  add_demo();
  opgen::registry().add(&make_demo_again);
  BOOST_TEST(has_problem(
      "namespace 'rt_demo' from other/rt_demo.toml is already registered from tests/rt_demo.toml"));
  BOOST_TEST(count_of("rt_demo.frobnicate") == 1u);

  opgen::registry().add(&make_clashing);
  BOOST_TEST(has_problem(
      "alias 'rt_demo.frob' of op 'rt_clash.frob' from tests/rt_clash.toml is already taken by "
      "op 'rt_demo.frobnicate' from tests/rt_demo.toml:1; namespace 'rt_clash' not added"));
  BOOST_TEST(opgen::registry().find("rt_clash.fine") == nullptr);
  const std::vector<std::string> names = opgen::registry().namespaces();
  BOOST_TEST(std::count(names.begin(), names.end(), "rt_clash") == 0);
  BOOST_TEST(opgen::registry().find("rt_demo.frob")->name == "rt_demo.frobnicate");

  opgen::registry().add(&make_twice);
  BOOST_TEST(
      has_problem("op 'rt_twice.b' is used twice in tests/rt_twice.toml; namespace "
                  "'rt_twice' not added"));
  BOOST_TEST(opgen::registry().find("rt_twice.a") == nullptr);
}

// A generated source's static AutoRegister lists its namespace without any call.
BOOST_AUTO_TEST_CASE(static_registration) {
  BOOST_TEST(opgen::registry().find("rt_auto.op") != nullptr);
  const std::vector<std::string> names = opgen::registry().namespaces();
  BOOST_TEST(std::count(names.begin(), names.end(), "rt_auto") == 1);
}

// Lookups from several threads while the registry is in use.
BOOST_AUTO_TEST_CASE(concurrent_lookups) {
  add_demo();
  std::atomic<int> found{0};
  auto lookups = [&] {
    for (int i = 0; i < 2000; ++i) {
      if (opgen::registry().find("rt_demo.frob") != nullptr) ++found;
      (void)opgen::registry().problems();
      (void)opgen::registry().namespaces();
    }
  };
  std::thread a(lookups);
  std::thread b(lookups);
  a.join();
  b.join();
  BOOST_TEST(found.load() == 4000);
}

BOOST_AUTO_TEST_CASE(arg_value_type_names) {
  BOOST_TEST(opgen::ArgValue(1).type_name() == "int");
  BOOST_TEST(opgen::ArgValue(std::int64_t{1}).type_name() == "int");
  BOOST_TEST(opgen::ArgValue(1.5).type_name() == "float");
  BOOST_TEST(opgen::ArgValue(1.5f).type_name() == "float");
  BOOST_TEST(opgen::ArgValue(true).type_name() == "bool");
  BOOST_TEST(opgen::ArgValue("same").type_name() == "string");
  BOOST_TEST(opgen::ArgValue(DType::int32).type_name() == "dtype");
  BOOST_TEST(opgen::ArgValue(std::vector<std::int64_t>{1}).type_name() == "int[]");
  BOOST_TEST(opgen::ArgValue(std::vector<double>{1}).type_name() == "float[]");
  BOOST_TEST(opgen::ArgValue(std::vector<bool>{true}).type_name() == "bool[]");
  BOOST_TEST(opgen::ArgValue(std::vector<std::string>{"a"}).type_name() == "string[]");
  BOOST_TEST(opgen::ArgValue(std::vector<DType>{DType::int32}).type_name() == "dtype[]");
}

BOOST_AUTO_TEST_SUITE_END()
