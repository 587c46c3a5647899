// A user namespace (tests/ops/demo/demo.toml) bound to its own kernels,
// using every feature the generator supports: configs with validate(),
// shared and op-local enums, explicit signatures, out and inplace
// overloads, default_from on inputs and args, optional and counted inputs,
// several outputs, custom shapes, out_variant = false, aliases, counted
// outputs, counted string, dtype and enum args and config fields, and
// registration in the same registry as the built-in namespaces; mixins from
// an include file, nested and applied with skip, doc tokens, an arg
// defaulting to x.rank(), a backend constraint and explicit out signatures.

#include <cmath>

#include "demo.hpp"
#include "op_testing.hpp"

using namespace opgen;
using opgen::testing::check_error;
using opgen::testing::check_tensor;
namespace ops = demo::ops;

BOOST_AUTO_TEST_SUITE(demo)

BOOST_AUTO_TEST_CASE(pointwise_with_default_from_and_inplace) {
  const Tensor x = Tensor::from<float>({1, 2, 3}, {3});
  check_tensor(ops::affine(x, 2, 1), DType::float32, {3}, {3, 5, 7});
  check_tensor(ops::affine(x), DType::float32, {3}, {2, 3, 4});  // a = 1, b = a
  Tensor y = x.clone();
  Tensor& same = ops::affine_inplace(y, 3, 0);
  BOOST_TEST(same.shares_storage(y));
  check_tensor(y, DType::float32, {3}, {3, 6, 9});
  Tensor out;
  ops::affine(x, 0, 5, out);
  check_tensor(out, DType::float32, {3}, {5, 5, 5});
}

BOOST_AUTO_TEST_CASE(included_nested_mixins_skip_and_explicit_signatures) {
  const Tensor x = Tensor::from<float>({1, 2, 3, 4}, {2, 2});
  check_tensor(ops::shift(x), DType::float32, {2, 2}, {3, 4, 5, 6});  // offset 1 x rank 2
  check_tensor(ops::shift(x, 0.5, 4), DType::float32, {2, 2}, {3, 4, 5, 6});
  Tensor y = Tensor::empty({2, 2}, DType::float32);
  ops::shift(x, -1, 1, y);
  check_tensor(y, DType::float32, {2, 2}, {0, 1, 2, 3});
  check_error([&] { ops::shift(x, 1, -1); },
              {"demo.shift: rank must not be negative", "rank = -1"});
  // The mixin's constraint was skipped: a large tensor passes.
  BOOST_TEST(ops::shift(Tensor::zeros({1000001}, DType::float64)).length() == 1000001);
  // The backend constraint is documented, not checked by the wrapper.
  BOOST_TEST(std::isnan(ops::shift(x, std::nan(""), 1).data<float>()[0]));
  const OpInfo* op = registry().find("demo.shift");
  BOOST_REQUIRE(op != nullptr);
  BOOST_TEST(op->cpp_name == "demo::ops::shift");
  BOOST_TEST(op->doc.find("Called as `demo::ops::shift`") != std::string::npos);
  BOOST_TEST(op->doc.find("%") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(configs_enums_and_several_outputs) {
  const Tensor x = Tensor::from<float>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  ops::PoolResult r = ops::pool(x);
  check_tensor(r.y, DType::float32, {1, 1}, {1 + 2 + 4 + 5});
  check_tensor(r.count, DType::int64, {}, {1});
  ops::WindowConfig c;
  c.size = {1, 3};
  c.scale = 2;
  r = ops::pool(x, Tensor::full<float>({3, 3}, 0.5f), ops::PoolEdge::keep, c);
  check_tensor(r.y, DType::float32, {3, 1}, {6, 15, 24});
  BOOST_TEST(ops::to_string(ops::PoolEdge::keep) == "keep");
  BOOST_TEST(ops::to_string(ops::Rounding::up) == "up");
  c.size = {0, 1};
  check_error([&] { ops::pool(x, Tensor(), ops::PoolEdge::drop, c); },
              {"demo.pool: WindowConfig: window sizes must be positive", "size[0] = 0"});
  check_error([&] { ops::pool(Tensor::from<float>({1}, {1})); },
              {"demo.pool: x must be a matrix", "x.rank() = 1"});
  check_error([&] { ops::pool(x, Tensor::zeros({2, 2}, DType::float32)); },
              {"demo.pool: mask must have the shape of x"});
  check_error([&] { ops::pool(Tensor::from<double>({1}, {1, 1})); }, {"demo.pool", "float32"});
  check_error([&] { ops::pool(x, Tensor(), static_cast<ops::PoolEdge>(7)); },
              {"demo.pool", "edge is not a PoolEdge value"});
}

BOOST_AUTO_TEST_CASE(counted_inputs_and_signatures) {
  const Tensor a = Tensor::from<double>({1, 2}, {2});
  const Tensor b = Tensor::from<double>({3, 6}, {2});
  check_tensor(ops::mix({a, b}), DType::float64, {2}, {2, 4});
  check_tensor(ops::mix({a, b}, {1, -1}), DType::float64, {2}, {-2, -4});
  check_error([&] { ops::mix({a, b}, {1}); }, {"demo.mix: give one weight per tensor, or none",
                                              "len(weights) = 1", "len(xs) = 2"});
  check_error([&] { ops::mix({}); }, {"demo.mix", "xs"});
  check_error([&] { ops::mix({a, Tensor::from<float>({1, 2}, {2})}); },
              {"demo.mix: all tensors must have one dtype and shape"});
}

BOOST_AUTO_TEST_CASE(dtype_args_strings_and_out_variant) {
  const Tensor x = Tensor::from<double>({1.5, -1.5}, {2});
  check_tensor(ops::convert(x), DType::float64, {2}, {2, -2});
  check_tensor(ops::convert(x, DType::int32, ops::Rounding::down, "a"), DType::int32, {2}, {1, -2});
  check_error([&] { ops::convert(x, DType::int32, ops::Rounding::up, "forbidden"); },
              {"demo.convert: that label is forbidden"});
  // blend: b defaults to a; no out overload (out_variant = false).
  check_tensor(ops::blend(x), DType::float64, {2}, {1.5, -1.5});
  check_tensor(ops::blend(x, Tensor::from<double>({0}, {1}), 0.5), DType::float64, {2}, {0.75, -0.75});
  // Shapes that broadcast both ways: {2, 1} and {1, 3} give {2, 3}.
  check_tensor(ops::blend(Tensor::from<double>({0, 10}, {2, 1}), Tensor::from<double>({2, 4, 6}, {1, 3}), 0.5),
               DType::float64, {2, 3}, {1, 2, 3, 6, 7, 8});
  check_error([&] { ops::blend(x, Tensor(), 2); }, {"demo.blend: t must lie in [0, 1]", "t = 2"});
  check_error([&] { ops::blend(x, Tensor::from<float>({1}, {1})); },
              {"demo.blend: a and b must have the same dtype", "a = float64[2]", "b = float32[1]"});
}

BOOST_AUTO_TEST_CASE(reductions_and_shape_args) {
  const Tensor x = Tensor::from<float>({1, 2, 3, 4}, {2, 2});
  check_tensor(ops::row_sums(x), DType::float32, {}, {10});
  check_tensor(ops::row_sums(x, {1}, 2), DType::float32, {2}, {6, 14});
  check_tensor(ops::fill(x), DType::float32, {2, 2}, {0, 0, 0, 0});
  check_tensor(ops::fill(x, {3}, 7), DType::float32, {3}, {7, 7, 7});
  check_error([&] { ops::fill(x, {-1}, 0); }, {"demo.fill", "shape"});
}

BOOST_AUTO_TEST_CASE(registered_with_the_builtins) {
  const OpInfo* pool = opgen::registry().find("demo.pool");
  BOOST_TEST_REQUIRE(pool != nullptr);
  BOOST_TEST(pool->cpp_name == "demo::ops::pool");
  BOOST_TEST(opgen::registry().find("math.add") != nullptr);
  BOOST_TEST(opgen::registry().find("demo.cast_to") == opgen::registry().find("demo.convert"));
  BOOST_TEST(opgen::registry().find("math.convert_demo") == opgen::registry().find("demo.convert"));
  const Tensor x = Tensor::from<float>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  const std::vector<Tensor> out = opgen::registry().call(
      "demo.pool", {x}, {{"WindowConfig.size", std::vector<std::int64_t>{3, 3}}, {"edge", "keep"}});
  BOOST_TEST_REQUIRE(out.size() == 2u);
  check_tensor(out[0], DType::float32, {1, 1}, {45});
  check_tensor(opgen::registry().call("demo.convert", {Tensor::from<double>({2.5}, {1})},
                                      {{"to", DType::int64}, {"rounding", "up"}}).at(0),
               DType::int64, {1}, {3});
  check_error([&] { opgen::registry().call("demo.pool", {x}, {{"edge", "kep"}}); },
              {"demo.pool", "kep"});
}

// A counted output whose number of tensors the shape function decides:
// returned as a vector, written into the caller's tensors by the out
// overload, and checked against its count.
BOOST_AUTO_TEST_CASE(counted_output_from_a_shape_function) {
  const Tensor x = Tensor::from<float>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {5, 2});
  std::vector<Tensor> parts = ops::split(x);  // 2 sections: 3 rows, then 2
  BOOST_TEST_REQUIRE(parts.size() == 2u);
  check_tensor(parts[0], DType::float32, {3, 2}, {0, 1, 2, 3, 4, 5});
  check_tensor(parts[1], DType::float32, {2, 2}, {6, 7, 8, 9});
  parts = ops::split(x, 3);
  BOOST_TEST_REQUIRE(parts.size() == 3u);
  check_tensor(parts[2], DType::float32, {1, 2}, {8, 9});

  // Out overload: null tensors are allocated, given ones written in place.
  std::vector<Tensor> out(2);
  out[1] = Tensor::zeros({2, 2}, DType::float32);
  const Tensor given = out[1];
  ops::split(x, 2, out);
  check_tensor(out[0], DType::float32, {3, 2}, {0, 1, 2, 3, 4, 5});
  check_tensor(given, DType::float32, {2, 2}, {6, 7, 8, 9});
  BOOST_TEST(out[1].shares_storage(given));

  std::vector<Tensor> three(3);
  check_error([&] { ops::split(x, 2, three); },
              {"demo.split", "out parts must hold 2 tensors, got 3"});
  std::vector<Tensor> wrong = {Tensor::zeros({2, 2}, DType::float32), Tensor()};
  check_error([&] { ops::split(x, 2, wrong); }, {"demo.split", "out parts[0] must be float32[3, 2]"});
  check_error([&] { ops::split(x, 0); },
              {"demo.split", "parts: the shape function gave 0 tensors; the count of parts is >=1"});
  check_error([&] { ops::split(Tensor::scalar<float>(1)); },
              {"demo.split: x must have a dimension to split"});

  const std::vector<Tensor> by_name = opgen::registry().call("demo.split", {x}, {{"sections", 5}});
  BOOST_TEST_REQUIRE(by_name.size() == 5u);
  check_tensor(by_name[4], DType::float32, {1, 2}, {8, 9});
}

// A counted output with an exact count and an ordinary shape rule: a vector
// member of the result struct; calls by name return it flattened.
BOOST_AUTO_TEST_CASE(counted_output_with_an_exact_count) {
  const Tensor x = Tensor::from<double>({1, -2}, {2});
  const ops::DuplicateResult r = ops::duplicate(x);
  BOOST_TEST_REQUIRE(r.copies.size() == 2u);
  check_tensor(r.copies[0], DType::float64, {2}, {1, -2});
  check_tensor(r.copies[1], DType::float64, {2}, {1, -2});
  BOOST_TEST(!r.copies[0].shares_storage(r.copies[1]));
  check_tensor(r.sum, DType::float64, {2}, {2, -4});
  std::vector<Tensor> one(1);
  Tensor sum;
  check_error([&] { ops::duplicate(x, one, sum); },
              {"demo.duplicate", "out copies must hold 2 tensors, got 1"});
  std::vector<Tensor> two(2);
  ops::duplicate(x, two, sum);
  check_tensor(two[1], DType::float64, {2}, {1, -2});
  check_tensor(sum, DType::float64, {2}, {2, -4});

  const std::vector<Tensor> out = opgen::registry().call("demo.duplicate", {x});
  BOOST_TEST_REQUIRE(out.size() == 3u);  // copies[0], copies[1], sum
  check_tensor(out[1], DType::float64, {2}, {1, -2});
  check_tensor(out[2], DType::float64, {2}, {2, -4});
}

// A counted enum arg: braced lists of values, a literal default, each value
// range-checked, elements in constraints, value names by name.
BOOST_AUTO_TEST_CASE(counted_enum_args) {
  using ops::Rounding;
  const Tensor x = Tensor::from<float>({1.5f, -1.25f}, {2});
  std::vector<Tensor> ys = ops::round_modes(x);  // nearest, down
  BOOST_TEST_REQUIRE(ys.size() == 2u);
  check_tensor(ys[0], DType::float32, {2}, {2, -1});
  check_tensor(ys[1], DType::float32, {2}, {1, -2});
  ys = ops::round_modes(x, {Rounding::up});
  BOOST_TEST_REQUIRE(ys.size() == 1u);
  check_tensor(ys[0], DType::float32, {2}, {2, -1});
  const std::vector<Rounding> modes = {Rounding::down, Rounding::up, Rounding::nearest};
  BOOST_TEST(ops::round_modes(x, modes).size() == 3u);

  check_error([&] { ops::round_modes(x, {Rounding::up, Rounding::up}); },
              {"demo.round_modes: the first two modes must differ"});
  check_error([&] { ops::round_modes(x, {Rounding::up, static_cast<Rounding>(7)}); },
              {"demo.round_modes: modes[1] is not a Rounding value", "modes[1] = 7"});
  check_error([&] { ops::round_modes(x, {}); },
              {"demo.round_modes", "modes must have between 1 and 3 values, got 0"});

  const std::vector<Tensor> out = opgen::registry().call(
      "demo.round_modes", {x}, {{"modes", std::vector<std::string>{"up", "down"}}});
  BOOST_TEST_REQUIRE(out.size() == 2u);
  check_tensor(out[0], DType::float32, {2}, {2, -1});
  check_tensor(out[1], DType::float32, {2}, {1, -2});
  check_error([&] {
    opgen::registry().call("demo.round_modes", {x},
                           {{"modes", std::vector<std::string>{"up", "dwn"}}});
  }, {"demo.round_modes", "arg modes[1] must be one of 'nearest', 'down', 'up', got 'dwn'",
      "did you mean 'down'"});
  check_error([&] { opgen::registry().call("demo.round_modes", {x}, {{"modes", "up"}}); },
              {"demo.round_modes", "arg modes must be string[], got string"});
}

// A counted string arg with a default of literals.
BOOST_AUTO_TEST_CASE(counted_string_args) {
  const Tensor a = Tensor::from<float>({1, 2}, {2});
  const Tensor b = Tensor::from<float>({3, 4}, {2});
  check_tensor(ops::pick({a, b}), DType::float32, {2}, {1, 2});  // names first, second
  check_tensor(ops::pick({a, b}, {"p", "q"}, "q"), DType::float32, {2}, {3, 4});
  const std::vector<std::string> names = {"left", "right"};
  check_tensor(ops::pick({a, b}, names, "right"), DType::float32, {2}, {3, 4});
  check_error([&] { ops::pick({a, b}, {"p"}, "p"); },
              {"demo.pick: give one name per tensor", "len(names) = 1", "len(xs) = 2"});
  check_error([&] { ops::pick({a, b}, {"", "q"}, "q"); },
              {"demo.pick: the first name must not be empty", "names[0] = \"\""});
  check_error([&] { ops::pick({a, b}, {}, "q"); }, {"demo.pick", "names must have at least 1 value"});
  check_error([&] { ops::pick({a, b}, {"p", "q"}, "z"); }, {"demo.pick: no tensor is named 'z'"});
  check_tensor(opgen::registry().call("demo.pick", {a, b},
                                      {{"names", std::vector<std::string>{"u", "v"}}, {"key", "v"}})
                   .at(0),
               DType::float32, {2}, {3, 4});
}

// A counted dtype arg, compared with a dtype literal in a constraint.
BOOST_AUTO_TEST_CASE(counted_dtype_args) {
  const std::vector<Tensor> xs = {Tensor::zeros({1}, DType::float32),
                                  Tensor::zeros({1}, DType::int32),
                                  Tensor::zeros({2}, DType::float64)};
  check_tensor(ops::count_dtypes(xs), DType::int64, {}, {2});  // float32, float64
  check_tensor(ops::count_dtypes(xs, {DType::int32}), DType::int64, {}, {1});
  check_error([&] { ops::count_dtypes(xs, {DType::bool_, DType::int32}); },
              {"demo.count_dtypes: bool cannot come first", "kinds[0] = bool"});
  check_tensor(
      opgen::registry()
          .call("demo.count_dtypes", xs, {{"kinds", std::vector<DType>{DType::int32, DType::float32}}})
          .at(0),
      DType::int64, {}, {2});
  check_error([&] {
    opgen::registry().call("demo.count_dtypes", xs, {{"kinds", std::vector<std::int64_t>{1}}});
  }, {"demo.count_dtypes", "arg kinds must be dtype[], got int[]"});
}

// Config fields with counts: bool (a std::vector<bool>), string, enum and
// dtype, read by the config's own constraints and settable by name.
BOOST_AUTO_TEST_CASE(counted_config_fields) {
  using ops::Rounding;
  const Tensor x = Tensor::from<float>({1, 2, 3, 4}, {2, 2});
  check_tensor(ops::flip(x), DType::float32, {2, 2}, {2, 1, 4, 3});  // columns by default
  ops::FlipConfig c;
  c.flip = {true, true};
  check_tensor(ops::flip(x, c), DType::float32, {2, 2}, {4, 3, 2, 1});
  c.flip = {true};
  check_error([&] { ops::flip(x, c); },
              {"demo.flip", "FlipConfig.flip must have exactly 2 values, got 1"});
  c = {};
  c.labels = {"bad", "good"};
  check_error([&] { ops::flip(x, c); },
              {"demo.flip: FlipConfig: the first label must not be bad", "labels[0] = \"bad\""});
  c = {};
  c.modes = {Rounding::up};
  check_error([&] { ops::flip(x, c); }, {"demo.flip: FlipConfig: modes must not start with up"});
  c = {};
  c.accept = {DType::int32, DType::float32};
  check_error([&] { ops::flip(x, c); },
              {"demo.flip: FlipConfig: the first accepted dtype must be a float",
               "accept[0] = int32"});
  c = {};
  c.flip = {false, false};
  c.labels = {"x"};
  check_error([&] { ops::flip(x, c); },
              {"demo.flip: FlipConfig: labels need a flip", "flip[0] = false", "flip[1] = false"});
  c = {};
  c.labels = {"a", "b", "c"};
  check_error([&] { ops::flip(x, c); }, {"demo.flip: at most one label per row",
                                         "len(FlipConfig.labels) = 3", "x.size(0) = 2"});

  auto call = [&](const opgen::Args& args) { return opgen::registry().call("demo.flip", {x}, args); };
  check_tensor(call({{"FlipConfig.flip", std::vector<bool>{true, false}}}).at(0), DType::float32,
               {2, 2}, {3, 4, 1, 2});
  check_error([&] { call({{"FlipConfig.labels", std::vector<std::string>{"bad"}}}); },
              {"demo.flip: FlipConfig: the first label must not be bad"});
  check_error([&] { call({{"FlipConfig.modes", std::vector<std::string>{"up"}}}); },
              {"demo.flip: FlipConfig: modes must not start with up"});
  check_error([&] { call({{"FlipConfig.accept", std::vector<DType>{DType::int64}}}); },
              {"demo.flip: FlipConfig: the first accepted dtype must be a float"});
  // A single enum field by name (it used to be ignored).
  check_error([&] { call({{"FlipConfig.rounding", "up"}}); },
              {"demo.flip: FlipConfig: rounding must not be up"});
}

// The registry describes counted outputs and args with their count text.
BOOST_AUTO_TEST_CASE(registry_describes_counts) {
  const OpInfo* split = opgen::registry().find("demo.split");
  BOOST_TEST_REQUIRE(split != nullptr);
  const ParamInfo& parts = split->params.back();
  BOOST_TEST(parts.name == "parts");
  BOOST_TEST((parts.kind == opgen::ParamKind::output));
  BOOST_TEST(parts.count == ">=1");
  const OpInfo* round = opgen::registry().find("demo.round_modes");
  BOOST_TEST_REQUIRE(round != nullptr);
  BOOST_TEST_REQUIRE(round->params.size() == 3u);
  const ParamInfo& modes = round->params[1];
  BOOST_TEST(modes.count == "1..3");
  BOOST_TEST(modes.type == "enum");
  BOOST_TEST(modes.default_value == "[\"nearest\", \"down\"]");
  BOOST_TEST(modes.values == (std::vector<std::string>{"nearest", "down", "up"}),
             boost::test_tools::per_element());
  BOOST_TEST(round->params[2].count == "1..3");
  const OpInfo* pick = opgen::registry().find("demo.pick");
  BOOST_TEST_REQUIRE(pick != nullptr);
  BOOST_TEST(pick->params[1].count == ">=1");
  BOOST_TEST(pick->params[1].default_value == "[\"first\", \"second\"]");
}

BOOST_AUTO_TEST_SUITE_END()
