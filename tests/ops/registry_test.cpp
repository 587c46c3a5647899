// Calling the generated ops by name through the registry.

#include "op_testing.hpp"

using namespace opgen;
using opgen::testing::check_error;
using opgen::testing::check_tensor;

BOOST_AUTO_TEST_SUITE(registry)

BOOST_AUTO_TEST_CASE(lists_every_builtin_op) {
  std::vector<std::string> names;
  for (const OpInfo& op : opgen::registry().list()) names.push_back(op.name);
  BOOST_TEST(std::is_sorted(names.begin(), names.end()));
  for (const char* n : {"math.add", "math.sum", "nn.softmax", "bitwise.and", "bitwise.right_shift"}) {
    BOOST_TEST((std::find(names.begin(), names.end(), n) != names.end()), n);
  }
  BOOST_TEST(names.size() >= 31u);  // math 20, nn 5, bitwise 6
  const OpInfo* add = opgen::registry().find("math.add");
  BOOST_TEST_REQUIRE(add != nullptr);
  BOOST_TEST(add->summary == "Adds two tensors element by element.");
  BOOST_TEST(add->cpp_name == "opgen::math::add");
  BOOST_TEST(add->params.size() == 3u);
  BOOST_TEST(add->dtypes.size() == 4u);
  BOOST_TEST(opgen::registry().problems().empty());
}

BOOST_AUTO_TEST_CASE(calls_by_name_and_alias) {
  const Tensor a = Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  check_tensor(opgen::registry().call("math.add", {a, a}).at(0), DType::float32, {2, 3},
               {2, 4, 6, 8, 10, 12});
  check_tensor(opgen::registry().call("math.sum", {a}, {{"dims", std::vector<std::int64_t>{1}}}).at(0),
               DType::float32, {2}, {6, 15});
  check_tensor(opgen::registry().call("math.sum", {a}, {{"dims", std::vector<std::int64_t>{}},
                                                        {"keep_dims", true}}).at(0),
               DType::float32, {1, 1}, {21});
  check_tensor(opgen::registry().call("nn.leakyRelu", {Tensor::from<float>({-1}, {1})}, {{"alpha", 1}}).at(0),
               DType::float32, {1}, {-1});
  check_tensor(opgen::registry().call("nn.tanh", {Tensor::from<double>({0}, {1})}).at(0),
               DType::float64, {1}, {0});
}

BOOST_AUTO_TEST_CASE(bad_calls_by_name) {
  const Tensor a = Tensor::from<float>({1}, {1});
  check_error([&] { opgen::registry().call("math.ad", {a, a}); }, {"math.ad", "did you mean 'math.add'"});
  check_error([&] { opgen::registry().call("math.add", {a}); }, {"math.add", "2 inputs"});
  check_error([&] { opgen::registry().call("math.sum", {a}); }, {"math.sum", "dims"});
  check_error([&] { opgen::registry().call("math.sum", {a}, {{"dims", 1.5}}); }, {"math.sum", "dims"});
  check_error([&] { opgen::registry().call("nn.leaky_relu", {a}, {{"alpha", -1}}); },
              {"nn.leaky_relu: alpha must be non-negative"});
  check_error([&] { opgen::registry().call("math.add", {a, Tensor()}); }, {"math.add", "y"});
}

BOOST_AUTO_TEST_SUITE_END()
