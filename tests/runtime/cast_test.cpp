// cast(): the 25 dtype pairs, with saturation, NaN and bool rules.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "opgen/detail/checks.hpp"

using opgen::DType;
using opgen::Tensor;
namespace d = opgen::detail;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::int32_t kI32Max = std::numeric_limits<std::int32_t>::max();
constexpr std::int32_t kI32Min = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kI64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kI64Min = std::numeric_limits<std::int64_t>::min();

template <class To>
std::vector<To> cast_values(const Tensor& x) {
  return d::cast(x, opgen::dtype_of<To>).template to_vector<To>();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cast)

// Casting to the same dtype returns the tensor itself, not a copy.
BOOST_AUTO_TEST_CASE(same_dtype_is_identity) {
  for (DType t : {DType::float32, DType::float64, DType::int32, DType::int64, DType::bool_}) {
    const Tensor x = Tensor::zeros({3}, t);
    BOOST_TEST(d::cast(x, t).shares_storage(x));
  }
  BOOST_TEST(!d::cast(Tensor(), DType::int32).defined());
}

BOOST_AUTO_TEST_CASE(shape_is_kept) {
  const Tensor x = Tensor::zeros({2, 0, 3}, DType::float32);
  const Tensor y = d::cast(x, DType::int64);
  BOOST_TEST(y.description() == "int64[2, 0, 3]");
}

// float -> int truncates toward zero, saturates out of range, maps NaN to 0.
BOOST_AUTO_TEST_CASE(float_to_int) {
  const Tensor x = Tensor::from<double>(
      {1.9, -1.9, 3e9, -3e9, 1e300, -kInf, std::nan(""), 0.0, 2147483647.5, -2147483648.7});
  BOOST_TEST(
      cast_values<std::int32_t>(x) == (std::vector<std::int32_t>{1, -1, kI32Max, kI32Min, kI32Max,
                                                                 kI32Min, 0, 0, kI32Max, kI32Min}),
      boost::test_tools::per_element());
  BOOST_TEST(cast_values<std::int64_t>(x) ==
                 (std::vector<std::int64_t>{1, -1, 3000000000, -3000000000, kI64Max, kI64Min, 0, 0,
                                            2147483647, -2147483648}),
             boost::test_tools::per_element());
  const Tensor f = Tensor::from<float>({2.5f, -2.5f, 1e20f, -1e20f, std::nanf(""), 9.3e18f});
  BOOST_TEST(cast_values<std::int32_t>(f) ==
                 (std::vector<std::int32_t>{2, -2, kI32Max, kI32Min, 0, kI32Max}),
             boost::test_tools::per_element());
  BOOST_TEST(cast_values<std::int64_t>(f) ==
                 (std::vector<std::int64_t>{2, -2, kI64Max, kI64Min, 0, kI64Max}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(int_to_int_saturates) {
  const Tensor x = Tensor::from<std::int64_t>({5, -5, kI64Max, kI64Min, 2147483648, -2147483649});
  BOOST_TEST(cast_values<std::int32_t>(x) ==
                 (std::vector<std::int32_t>{5, -5, kI32Max, kI32Min, kI32Max, kI32Min}),
             boost::test_tools::per_element());
  const Tensor y = Tensor::from<std::int32_t>({kI32Min, 7});
  BOOST_TEST(cast_values<std::int64_t>(y) == (std::vector<std::int64_t>{kI32Min, 7}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(to_float) {
  const Tensor i = Tensor::from<std::int64_t>({3, -7, (std::int64_t{1} << 53) + 1});
  BOOST_TEST(cast_values<double>(i) == (std::vector<double>{3, -7, 9007199254740992.0}),
             boost::test_tools::per_element());
  BOOST_TEST(cast_values<float>(i) == (std::vector<float>{3, -7, 9007199254740992.0f}),
             boost::test_tools::per_element());
  const Tensor i32 = Tensor::from<std::int32_t>({16777217, -1});
  BOOST_TEST(cast_values<float>(i32) == (std::vector<float>{16777216.0f, -1.0f}),
             boost::test_tools::per_element());
  BOOST_TEST(cast_values<double>(i32) == (std::vector<double>{16777217.0, -1.0}),
             boost::test_tools::per_element());
  const Tensor dbl = Tensor::from<double>({0.1, 1e300, -1e300});
  const std::vector<float> f = cast_values<float>(dbl);
  BOOST_TEST(f[0] == 0.1f);
  BOOST_TEST(std::isinf(f[1]));
  BOOST_TEST(f[2] < 0);
  const Tensor flt = Tensor::from<float>({0.1f, -2.0f});
  BOOST_TEST(cast_values<double>(flt) == (std::vector<double>{double{0.1f}, -2.0}),
             boost::test_tools::per_element());
}

// x -> bool is x != 0 (NaN is true); bool -> anything is 0 or 1.
BOOST_AUTO_TEST_CASE(bool_conversions) {
  auto bools = [](const Tensor& t) {
    std::vector<int> v;
    for (bool b : cast_values<bool>(t)) v.push_back(b ? 1 : 0);
    return v;
  };
  const std::vector<int> expected = {0, 1, 1, 1};
  BOOST_TEST(bools(Tensor::from<float>({0.0f, -0.5f, std::nanf(""), 3.0f})) == expected,
             boost::test_tools::per_element());
  BOOST_TEST(bools(Tensor::from<double>({-0.0, 1e-300, -kInf, 2.0})) == expected,
             boost::test_tools::per_element());
  BOOST_TEST(bools(Tensor::from<std::int32_t>({0, -1, kI32Min, 2})) == expected,
             boost::test_tools::per_element());
  BOOST_TEST(bools(Tensor::from<std::int64_t>({0, kI64Max, 1, -9})) == expected,
             boost::test_tools::per_element());

  const Tensor b = Tensor::from<bool>({true, false, true});
  BOOST_TEST(cast_values<float>(b) == (std::vector<float>{1, 0, 1}),
             boost::test_tools::per_element());
  BOOST_TEST(cast_values<double>(b) == (std::vector<double>{1, 0, 1}),
             boost::test_tools::per_element());
  BOOST_TEST(cast_values<std::int32_t>(b) == (std::vector<std::int32_t>{1, 0, 1}),
             boost::test_tools::per_element());
  BOOST_TEST(cast_values<std::int64_t>(b) == (std::vector<std::int64_t>{1, 0, 1}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
