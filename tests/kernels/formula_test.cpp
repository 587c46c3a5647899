// The rules of opgen/formula.hpp, which the generated reference functions
// (the oracles of the other suites) follow: checked here on values whose
// results are known by hand, so that an oracle cannot be wrong in the same
// way as the kernel it judges.
#include "opgen/formula.hpp"

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace opgen::kernel_tests {
namespace {

namespace fx = opgen::formula;

using I32 = std::numeric_limits<std::int32_t>;
using I64 = std::numeric_limits<std::int64_t>;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

constexpr std::int32_t i32(std::int64_t v) { return static_cast<std::int32_t>(v); }

}  // namespace

BOOST_AUTO_TEST_SUITE(formula)

// Integer + - * and unary - wrap around; floats are plain.
BOOST_AUTO_TEST_CASE(integers_wrap) {
  BOOST_TEST(fx::add(I32::max(), i32(1)) == I32::min());
  BOOST_TEST(fx::sub(I32::min(), i32(1)) == I32::max());
  BOOST_TEST(fx::mul(i32(0x10000), i32(0x10000)) == 0);
  BOOST_TEST(fx::mul(I64::max(), std::int64_t{2}) == -2);
  BOOST_TEST(fx::neg(I32::min()) == I32::min());
  BOOST_TEST(fx::abs(I64::min()) == I64::min());
  BOOST_TEST(fx::abs(i32(-5)) == 5);
  BOOST_TEST(fx::add(0.5f, 0.25f) == 0.75f);
  // int32 arithmetic stays int32 (wrapping at 32 bits), int64 at 64.
  static_assert(std::is_same_v<decltype(fx::add(i32(1), i32(1))), std::int32_t>);
  static_assert(std::is_same_v<decltype(fx::add(i32(1), std::int64_t{1})), std::int64_t>);
}

// x / 0 is 0, MIN / -1 is MIN; x % 0 is x, MIN % -1 is 0; truncation.
BOOST_AUTO_TEST_CASE(integer_division_is_total) {
  BOOST_TEST(fx::div(i32(7), i32(0)) == 0);
  BOOST_TEST(fx::div(I32::min(), i32(-1)) == I32::min());
  BOOST_TEST(fx::div(I64::min(), std::int64_t{-1}) == I64::min());
  BOOST_TEST(fx::div(i32(-7), i32(2)) == -3);
  BOOST_TEST(fx::mod(i32(7), i32(0)) == 7);
  BOOST_TEST(fx::mod(I32::min(), i32(-1)) == 0);
  BOOST_TEST(fx::mod(i32(-7), i32(2)) == -1);
  BOOST_TEST(fx::div(1.0, 0.0) == kInf);
}

// A count outside [0, bits) gives 0 (<<) or the sign fill (>>).
BOOST_AUTO_TEST_CASE(shifts_take_any_count) {
  BOOST_TEST(fx::shift_left(i32(1), i32(31)) == I32::min());
  BOOST_TEST(fx::shift_left(i32(1), i32(32)) == 0);
  BOOST_TEST(fx::shift_left(i32(1), i32(-1)) == 0);
  BOOST_TEST(fx::shift_left(std::int64_t{1}, std::int64_t{40}) == std::int64_t{1} << 40);
  BOOST_TEST(fx::shift_left(i32(-1), i32(4)) == -16);
  BOOST_TEST(fx::shift_right(i32(-8), i32(1)) == -4);
  BOOST_TEST(fx::shift_right(i32(-8), i32(32)) == -1);
  BOOST_TEST(fx::shift_right(i32(8), i32(100)) == 0);
  BOOST_TEST(fx::shift_right(i32(8), I32::min()) == 0);
  BOOST_TEST(fx::shift_right(std::int64_t{-1}, std::int64_t{63}) == -1);
}

// IEEE 754-2019 maximum and minimum: NaN wins, -0 < +0, in either order.
BOOST_AUTO_TEST_CASE(min_max_of_floats) {
  BOOST_TEST(std::isnan(fx::max<double>(kNaN, 1.0)));
  BOOST_TEST(std::isnan(fx::max<double>(1.0, kNaN)));
  BOOST_TEST(std::isnan(fx::min<float>(1.0f, std::nanf(""))));
  BOOST_TEST(!std::signbit(fx::max<double>(-0.0, 0.0)));
  BOOST_TEST(!std::signbit(fx::max<double>(0.0, -0.0)));
  BOOST_TEST(std::signbit(fx::min<double>(-0.0, 0.0)));
  BOOST_TEST(std::signbit(fx::min<double>(0.0, -0.0)));
  BOOST_TEST(fx::max<double>(-kInf, 0) == 0);
  BOOST_TEST(fx::min<float>(2.0f, 3) == 2.0f);
  // A float element with an int literal stays a float.
  BOOST_TEST(fx::max<float>(0.25f, 0) == 0.25f);
}

// With integer elements, min and max of an int and a float give the
// nearest integer on the side that keeps the answer right.
BOOST_AUTO_TEST_CASE(min_max_of_an_integer_and_a_float) {
  BOOST_TEST(fx::max<std::int32_t>(i32(1), 1.5) == 2);
  BOOST_TEST(fx::max<std::int32_t>(1.5, i32(1)) == 2);
  BOOST_TEST(fx::max<std::int32_t>(i32(3), 1.5) == 3);
  BOOST_TEST(fx::max<std::int32_t>(i32(-3), -2.5) == -2);
  BOOST_TEST(fx::min<std::int32_t>(i32(1), 0.5) == 0);
  BOOST_TEST(fx::min<std::int32_t>(i32(-1), -1.5) == -2);
  BOOST_TEST(fx::max<std::int32_t>(i32(5), kNaN) == 5);
  BOOST_TEST(fx::min<std::int32_t>(i32(5), kNaN) == 5);
  BOOST_TEST(fx::max<std::int32_t>(i32(0), 1e300) == I32::max());
  BOOST_TEST(fx::min<std::int64_t>(std::int64_t{0}, -1e300) == I64::min());
  BOOST_TEST(fx::min<std::int64_t>(I64::max(), 9.3e18) == I64::max());
  static_assert(std::is_same_v<decltype(fx::max<std::int32_t>(i32(1), 1.5)), std::int32_t>);
  // An int literal with an int64 element: the int64 range.
  BOOST_TEST(fx::max<std::int64_t>(0, 1e10) == 10000000000);
  // The integer clip to [0.4, 0.6]: no integer inside, so hi rounded down.
  for (const std::int32_t x : {-5, 0, 1, 5}) {
    BOOST_TEST(fx::min<std::int32_t>(fx::max<std::int32_t>(x, 0.4), 0.6) == 0);
  }
}

// Float args are rounded to a float element type (overflowing to +-inf),
// left alone for integer ones; results convert to the element type.
BOOST_AUTO_TEST_CASE(args_and_results) {
  BOOST_TEST(fx::arg<float>(1e300) == std::numeric_limits<float>::infinity());
  BOOST_TEST(fx::arg<float>(-1e300) == -std::numeric_limits<float>::infinity());
  // Above FLT_MAX but nearer to it than to 2^128: FLT_MAX.
  BOOST_TEST(fx::arg<float>(0x1.fffffeffp127) == std::numeric_limits<float>::max());
  BOOST_TEST(fx::arg<float>(0x1.ffffffp127) == std::numeric_limits<float>::infinity());
  BOOST_TEST(fx::arg<float>(0.1) == 0.1f);
  BOOST_TEST(fx::arg<long double>(0.1) == static_cast<long double>(0.1));
  BOOST_TEST(fx::arg<std::int32_t>(0.5) == 0.5);
  BOOST_TEST(fx::element<std::int32_t>(1e300) == I32::max());
  BOOST_TEST(fx::element<std::int32_t>(-1e300) == I32::min());
  BOOST_TEST(fx::element<std::int32_t>(kNaN) == 0);
  BOOST_TEST(fx::element<std::int32_t>(-2.7) == -2);
  BOOST_TEST(fx::element<std::int32_t>(std::int64_t{0x100000001}) == 1);
  BOOST_TEST(fx::element<std::int64_t>(9.3e18) == I64::max());
  BOOST_TEST(fx::element<float>(1e300) == std::numeric_limits<float>::infinity());
  BOOST_TEST(std::isnan(fx::element<float>(kNaN)));
  BOOST_TEST(fx::element<double>(0.1L) == 0.1);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace opgen::kernel_tests
