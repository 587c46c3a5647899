// A user namespace (tests/ops/demo/demo.toml) bound to its own kernels,
// using every feature the generator supports: configs with validate(),
// shared and op-local enums, explicit signatures, out and inplace
// overloads, default_from on inputs and args, optional and counted inputs,
// several outputs, custom shapes, out_variant = false, aliases, and
// registration in the same registry as the built-in namespaces.

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
  check_error([&] { ops::blend(x, Tensor(), 2); }, {"demo.blend: t must lie in [0, 1]", "t = 2"});
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

BOOST_AUTO_TEST_SUITE_END()
