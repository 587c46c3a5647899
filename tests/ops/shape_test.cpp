// The generated shape namespace: results on small tensors of several dtypes,
// negative dims, out tensors that are the input, and every error.

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "op_testing.hpp"

using namespace opgen;
using opgen::testing::check_error;
using opgen::testing::check_tensor;
using opgen::testing::values;

namespace {

using Ints = std::vector<std::int64_t>;

// 0, 1, 2, ... in the given shape, as float32.
Tensor iota(const Shape& shape) {
  std::vector<float> v(static_cast<std::size_t>(shape.length()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  return Tensor::from<float>(v, shape);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shape)

BOOST_AUTO_TEST_CASE(reshape_squeeze_unsqueeze) {
  const Tensor x = iota({2, 3});
  check_tensor(opgen::shape::reshape(x, Ints{3, 2}), DType::float32, {3, 2}, {0, 1, 2, 3, 4, 5});
  check_tensor(opgen::shape::reshape(x, Ints{-1}), DType::float32, {6}, {0, 1, 2, 3, 4, 5});
  check_tensor(opgen::shape::reshape(x, Ints{1, -1, 2}), DType::float32, {1, 3, 2},
               {0, 1, 2, 3, 4, 5});
  check_error([&] { opgen::shape::reshape(x, Ints{4, 2}); }, {"shape.reshape", "holds 8 elements"});
  check_error([&] { opgen::shape::reshape(x, Ints{-1, -1}); }, {"shape.reshape", "at most one -1"});
  check_error([&] { opgen::shape::reshape(x, Ints{4, -1}); }, {"shape.reshape", "cannot infer"});
  const Tensor s = iota({1, 3, 1});
  check_tensor(opgen::shape::squeeze(s), DType::float32, {3}, {0, 1, 2});
  check_tensor(opgen::shape::squeeze(s, Ints{-1}), DType::float32, {1, 3}, {0, 1, 2});
  check_error([&] { opgen::shape::squeeze(s, Ints{1}); }, {"shape.squeeze", "has size 3, not 1"});
  check_tensor(opgen::shape::unsqueeze(x, 0), DType::float32, {1, 2, 3}, {0, 1, 2, 3, 4, 5});
  check_tensor(opgen::shape::unsqueeze(x, -1), DType::float32, {2, 3, 1}, {0, 1, 2, 3, 4, 5});
  check_tensor(opgen::shape::unsqueeze(Tensor::scalar(std::int32_t{5}), 0), DType::int32, {1}, {5});
  check_error([&] { opgen::shape::unsqueeze(x, 3); }, {"shape.unsqueeze", "out of range"});
}

BOOST_AUTO_TEST_CASE(concat_stack_split) {
  const Tensor a = iota({2, 2});
  const Tensor b = Tensor::from<float>({10, 11}, {2, 1});
  check_tensor(opgen::shape::concat(std::vector<Tensor>{a, b}, 1), DType::float32, {2, 3},
               {0, 1, 10, 2, 3, 11});
  check_tensor(opgen::shape::concat(std::vector<Tensor>{a, a}), DType::float32, {4, 2},
               {0, 1, 2, 3, 0, 1, 2, 3});
  // Into an out that shares the input's storage (the only such call is an
  // identity, out shapes being exact): join reads from a copy, and the
  // result stays whole.
  Tensor same = a;
  opgen::shape::concat(std::vector<Tensor>{a}, 0, same);
  BOOST_TEST(same.shares_storage(a));
  check_tensor(same, DType::float32, {2, 2}, {0, 1, 2, 3});
  check_error(
      [&] {
        opgen::shape::concat(std::vector<Tensor>{a, b});
      },
      {"shape.concat", "except along dim 0"});
  check_error(
      [&] {
        opgen::shape::concat(std::vector<Tensor>{a, Tensor::from<double>({1, 2}, {1, 2})});
      },
      {"shape.concat", "same dtype"});
  check_tensor(opgen::shape::stack(std::vector<Tensor>{a, a}, -1), DType::float32, {2, 2, 2},
               {0, 0, 1, 1, 2, 2, 3, 3});
  check_tensor(opgen::shape::stack(std::vector<Tensor>{a, a}), DType::float32, {2, 2, 2},
               {0, 1, 2, 3, 0, 1, 2, 3});
  check_error(
      [&] {
        opgen::shape::stack(std::vector<Tensor>{a, b});
      },
      {"shape.stack", "must have the shape"});
  const Tensor x = iota({2, 5});
  const std::vector<Tensor> parts = opgen::shape::split(x, Ints{2, 0, 3}, 1);
  BOOST_TEST_REQUIRE(parts.size() == 3u);
  check_tensor(parts[0], DType::float32, {2, 2}, {0, 1, 5, 6});
  check_tensor(parts[1], DType::float32, {2, 0}, {});
  check_tensor(parts[2], DType::float32, {2, 3}, {2, 3, 4, 7, 8, 9});
  check_error([&] { opgen::shape::split(x, Ints{2, 2}, 1); }, {"shape.split", "add up to 4"});
  check_error([&] { opgen::shape::split(x, Ints{-1, 6}, 1); }, {"shape.split", "non-negative"});
}

BOOST_AUTO_TEST_CASE(slice) {
  const Tensor x = Tensor::from<std::int64_t>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {2, 5});
  check_tensor(opgen::shape::slice(x, 1, 1, 4), DType::int64, {2, 3}, {1, 2, 3, 6, 7, 8});
  check_tensor(opgen::shape::slice(x, -1, 0, std::numeric_limits<std::int64_t>::max(), 2),
               DType::int64, {2, 3}, {0, 2, 4, 5, 7, 9});
  check_tensor(opgen::shape::slice(x, 1, -2), DType::int64, {2, 2}, {3, 4, 8, 9});
  check_tensor(opgen::shape::slice(x, 0, 1, 100), DType::int64, {1, 5}, {5, 6, 7, 8, 9});
  check_tensor(opgen::shape::slice(x, 1, 4, 2), DType::int64, {2, 0}, {});
  // A step past the dimension takes the first element (no overflow in the count).
  check_tensor(opgen::shape::slice(x, 1, 1, 5, std::numeric_limits<std::int64_t>::max()),
               DType::int64, {2, 1}, {1, 6});
  check_error([&] { opgen::shape::slice(x, 1, 0, 5, 0); },
              {"shape.slice", "step must be positive"});
  check_error([&] { opgen::shape::slice(x, 2); }, {"shape.slice", "out of range"});
}

BOOST_AUTO_TEST_CASE(cast) {
  const Tensor x = Tensor::from<double>({-1.5, 0, 2.7, 1e20}, {4});
  check_tensor(opgen::shape::cast(x, DType::int32), DType::int32, {4},
               {-1, 0, 2, static_cast<double>(std::numeric_limits<std::int32_t>::max())});
  check_tensor(opgen::shape::cast(x, DType::bool_), DType::bool_, {4}, {1, 0, 1, 1});
  check_tensor(opgen::shape::cast(x, DType::float64), DType::float64, {4}, {-1.5, 0, 2.7, 1e20});
  Tensor out = Tensor::empty({4}, DType::float32);
  opgen::shape::cast(x, DType::float32, out);
  check_tensor(out, DType::float32, {4},
               {-1.5, 0, static_cast<float>(2.7), static_cast<float>(1e20)});
  check_error([&] { opgen::shape::cast(x, DType::int64, out); }, {"shape.cast", "out y"});
}

BOOST_AUTO_TEST_CASE(broadcast_to_tile_flip) {
  const Tensor x = Tensor::from<std::int32_t>({1, 2, 3}, {3});
  check_tensor(opgen::shape::broadcast_to(x, Ints{2, 3}), DType::int32, {2, 3}, {1, 2, 3, 1, 2, 3});
  check_tensor(opgen::shape::broadcast_to(Tensor::from<float>({4, 5}, {2, 1}), Ints{2, 3}),
               DType::float32, {2, 3}, {4, 4, 4, 5, 5, 5});
  check_error(
      [&] {
        opgen::shape::broadcast_to(x, Ints{2, 2});
      },
      {"shape.broadcast_to", "cannot be broadcast"});
  check_tensor(opgen::shape::tile(x, Ints{2}), DType::int32, {6}, {1, 2, 3, 1, 2, 3});
  check_tensor(opgen::shape::tile(x, Ints{2, 1}), DType::int32, {2, 3}, {1, 2, 3, 1, 2, 3});
  const Tensor m = iota({2, 2});
  check_tensor(opgen::shape::tile(m, Ints{1, 2}), DType::float32, {2, 4}, {0, 1, 0, 1, 2, 3, 2, 3});
  check_tensor(opgen::shape::tile(m, Ints{0}), DType::float32, {2, 0}, {});
  check_error([&] { opgen::shape::tile(m, Ints{-1}); }, {"shape.tile", "non-negative"});
  const Tensor f = iota({2, 3});
  check_tensor(opgen::shape::flip(f), DType::float32, {2, 3}, {5, 4, 3, 2, 1, 0});
  check_tensor(opgen::shape::flip(f, Ints{1}), DType::float32, {2, 3}, {2, 1, 0, 5, 4, 3});
  check_tensor(opgen::shape::flip(f, Ints{-2}), DType::float32, {2, 3}, {3, 4, 5, 0, 1, 2});
  // In place: the out tensor is x.
  Tensor g = f.clone();
  opgen::shape::flip(g, Ints{}, g);
  check_tensor(g, DType::float32, {2, 3}, {5, 4, 3, 2, 1, 0});
  check_tensor(opgen::shape::flip(Tensor::from<bool>({true, false, false})), DType::bool_, {3},
               {0, 0, 1});
}

BOOST_AUTO_TEST_CASE(gather) {
  const Tensor x = iota({3, 2});
  check_tensor(opgen::shape::gather(x, Tensor::from<std::int64_t>({2, 0, -1})), DType::float32,
               {3, 2}, {4, 5, 0, 1, 4, 5});
  check_tensor(opgen::shape::gather(x, Tensor::from<std::int32_t>({1, 1, 0, 1}, {2, 2}), 1),
               DType::float32, {3, 2, 2}, {1, 1, 0, 1, 3, 3, 2, 3, 5, 5, 4, 5});
  check_tensor(opgen::shape::gather(x, Tensor::scalar(std::int64_t{1})), DType::float32, {2},
               {2, 3});
  check_error([&] { opgen::shape::gather(x, Tensor::from<std::int64_t>({3})); },
              {"shape.gather", "out of range"});
  check_error([&] { opgen::shape::gather(x, Tensor::from<float>({0})); },
              {"shape.gather", "indices"});
}

// Every dtype (elements of 1, 4 and 8 bytes) through each op that moves
// elements: the same elements land in the same places as for float64, whose
// results the cases above check. Distinct numbers for the numeric dtypes, an
// irregular 0/1 pattern for bool.
BOOST_AUTO_TEST_CASE(every_dtype_moves_the_same_elements) {
  std::vector<double> numbers(12), bits(12);
  for (std::size_t i = 0; i < 12; ++i) {
    numbers[i] = static_cast<double>(i) - 5;
    bits[i] = (0x9B5u >> i) & 1u;
  }
  const Tensor index = Tensor::from<std::int64_t>({2, 0, 2});
  using Op = Tensor (*)(const Tensor&, const Tensor&);
  const std::vector<std::pair<const char*, Op>> ops = {
      {"reshape",
       [](const Tensor& x, const Tensor&) {
         return opgen::shape::reshape(x, Ints{3, 4});
       }},
      {"concat",
       [](const Tensor& x, const Tensor&) {
         return opgen::shape::concat(std::vector<Tensor>{x, x}, 1);
       }},
      {"stack",
       [](const Tensor& x, const Tensor&) {
         return opgen::shape::stack(std::vector<Tensor>{x, x}, -1);
       }},
      {"split",
       [](const Tensor& x, const Tensor&) {
         return opgen::shape::split(x, Ints{1, 2}, 1).at(1);
       }},
      {"slice", [](const Tensor& x, const Tensor&) { return opgen::shape::slice(x, 1, 0, 3, 2); }},
      {"squeeze",
       [](const Tensor& x, const Tensor&) {
         return opgen::shape::squeeze(opgen::shape::reshape(x, Ints{2, 1, 6}));
       }},
      {"unsqueeze", [](const Tensor& x, const Tensor&) { return opgen::shape::unsqueeze(x, 1); }},
      {"broadcast_to",
       [](const Tensor& x, const Tensor&) {
         return opgen::shape::broadcast_to(opgen::shape::slice(x, 1, 1, 2), Ints{2, 4, 2});
       }},
      {"tile",
       [](const Tensor& x, const Tensor&) {
         return opgen::shape::tile(x, Ints{1, 2, 1});
       }},
      {"flip",
       [](const Tensor& x, const Tensor&) {
         return opgen::shape::flip(x, Ints{0, 2});
       }},
      {"gather", [](const Tensor& x, const Tensor& i) { return opgen::shape::gather(x, i, 1); }},
  };
  for (const DType dtype :
       {DType::float32, DType::float64, DType::int32, DType::int64, DType::bool_}) {
    const std::vector<double>& v = dtype == DType::bool_ ? bits : numbers;
    const Tensor want_x = Tensor::from<double>(v, {2, 3, 2});
    const Tensor x = opgen::shape::cast(want_x, dtype);
    BOOST_TEST_REQUIRE(values(x) == v, boost::test_tools::per_element());
    for (const auto& [name, op] : ops) {
      BOOST_TEST_CONTEXT("shape." << name << " on " << dtype_name(dtype)) {
        const Tensor want = op(want_x, index);
        check_tensor(op(x, index), dtype, want.shape(), values(want));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(by_name) {
  const std::vector<Tensor> out =
      opgen::registry().call("shape.reshape", {iota({2, 3})}, {{"shape", Ints{3, 2}}});
  check_tensor(out.at(0), DType::float32, {3, 2}, {0, 1, 2, 3, 4, 5});
  const std::vector<Tensor> parts =
      opgen::registry().call("shape.split", {iota({4})}, {{"sizes", Ints{1, 3}}});
  BOOST_TEST(parts.size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
