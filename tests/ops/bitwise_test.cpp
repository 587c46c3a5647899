// The generated bitwise namespace: results and checks.

#include <cstdint>
#include <limits>

#include "op_testing.hpp"

using namespace opgen;
using opgen::testing::check_error;
using opgen::testing::check_tensor;

BOOST_AUTO_TEST_SUITE(bitwise)

BOOST_AUTO_TEST_CASE(logic) {
  const Tensor x = Tensor::from<std::int32_t>({0b1100, 0b1010, -1}, {3});
  const Tensor y = Tensor::from<std::int32_t>({0b1010}, {1});
  check_tensor(opgen::bitwise::bitwise_and(x, y), DType::int32, {3}, {0b1000, 0b1010, 0b1010});
  check_tensor(opgen::bitwise::bitwise_or(x, y), DType::int32, {3}, {0b1110, 0b1010, -1});
  check_tensor(opgen::bitwise::bitwise_xor(x, y), DType::int32, {3}, {0b0110, 0, ~0b1010});
  check_tensor(opgen::bitwise::bitwise_not(x), DType::int32, {3}, {~0b1100, ~0b1010, 0});
}

BOOST_AUTO_TEST_CASE(shifts) {
  const Tensor x = Tensor::from<std::int64_t>({1, -8, 3, 5}, {4});
  const Tensor s = Tensor::from<std::int64_t>({3, 1, 64, -1}, {4});
  check_tensor(opgen::bitwise::left_shift(x, s), DType::int64, {4}, {8, -16, 0, 0});
  check_tensor(opgen::bitwise::right_shift(x, s), DType::int64, {4}, {0, -4, 0, 0});
  check_tensor(opgen::bitwise::right_shift(Tensor::from<std::int64_t>({-8}, {1}), Tensor::from<std::int64_t>({70}, {1})),
               DType::int64, {1}, {-1});
}

BOOST_AUTO_TEST_CASE(checks_reject_bad_calls) {
  const Tensor i32 = Tensor::from<std::int32_t>({1}, {1});
  const Tensor i64 = Tensor::from<std::int64_t>({1}, {1});
  check_error([&] { opgen::bitwise::bitwise_and(i32, i64); },
              {"bitwise.and: x and y must have the same dtype", "x = int32[1]", "y = int64[1]"});
  check_error([] { opgen::bitwise::bitwise_not(Tensor::from<float>({1}, {1})); },
              {"bitwise.not", "x must be an int"});
  check_error([] {
    opgen::bitwise::left_shift(Tensor::from<std::int32_t>({1, 2, 3}, {3}),
                               Tensor::from<std::int32_t>({1, 2}, {2}));
  }, {"bitwise.left_shift: x and y cannot be broadcast together: [3] and [2]"});
}

BOOST_AUTO_TEST_SUITE_END()
