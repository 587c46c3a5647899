// Shape: construction checks, element counts, text.
#include "opgen/tensor_shape.hpp"

#include <boost/test/unit_test.hpp>

#include "error_text.hpp"

using opgen::Shape;
using opgen::testing::error_text;

BOOST_AUTO_TEST_SUITE(shape)

// A default shape is a scalar: rank 0, one element.
BOOST_AUTO_TEST_CASE(scalar) {
  const Shape s;
  BOOST_TEST(s.rank() == 0);
  BOOST_TEST(s.empty());
  BOOST_TEST(s.length() == 1);
  BOOST_TEST(s.to_string() == "[]");
}

BOOST_AUTO_TEST_CASE(construction_forms_agree) {
  const std::vector<std::int64_t> v = {2, 3, 4};
  const Shape a{2, 3, 4};
  const Shape b(v);
  const Shape c(std::span<const std::int64_t>(v.data(), v.size()));
  BOOST_TEST((a == b));
  BOOST_TEST((b == c));
  BOOST_TEST(a.rank() == 3);
  BOOST_TEST(a[1] == 3);
  BOOST_TEST(a.length() == 24);
  BOOST_TEST(a.to_string() == "[2, 3, 4]");
  BOOST_TEST((a.to_vector() == v));
  BOOST_TEST(!(a == Shape{2, 3}));
  BOOST_TEST(!(a == Shape{2, 3, 5}));
}

// Zero-size dimensions are valid: the shape has no elements.
BOOST_AUTO_TEST_CASE(zero_size) {
  BOOST_TEST(Shape({0}).length() == 0);
  BOOST_TEST(Shape({3, 0, 2}).length() == 0);
  // Even when the other sizes together would overflow.
  BOOST_TEST(Shape({std::int64_t{1} << 40, 0, std::int64_t{1} << 40}).length() == 0);
}

BOOST_AUTO_TEST_CASE(rank_limit) {
  const Shape eight{1, 1, 1, 1, 1, 1, 1, 2};
  BOOST_TEST(eight.rank() == opgen::kMaxRank);
  BOOST_TEST(error_text([] {
               Shape({1, 1, 1, 1, 1, 1, 1, 1, 1});
             }) == "shape [1, 1, 1, 1, 1, 1, 1, 1, 1] has rank 9, more than the maximum rank 8");
  Shape s = eight;
  BOOST_TEST(error_text([&] { s.push_back(1); }) ==
             "cannot add a dimension to shape [1, 1, 1, 1, 1, 1, 1, 2]: the maximum rank is 8");
}

BOOST_AUTO_TEST_CASE(negative_sizes) {
  BOOST_TEST(error_text([] {
               Shape({2, -1});
             }) == "shape [2, -1] has a negative size at dimension 1");
  Shape s{2};
  BOOST_TEST(error_text([&] { s.push_back(-3); }) ==
             "cannot add the negative size -3 to shape [2]");
  s.push_back(5);
  BOOST_TEST((s == Shape{2, 5}));
}

BOOST_AUTO_TEST_CASE(overflowing_length) {
  const Shape s{std::int64_t{1} << 32, std::int64_t{1} << 31};  // 2^63
  BOOST_TEST(error_text([&] { (void)s.length(); }) ==
             "shape [4294967296, 2147483648] has more elements than fit in int64");
  const Shape fits{std::int64_t{1} << 31, std::int64_t{1} << 31};  // 2^62
  BOOST_TEST(fits.length() == std::int64_t{1} << 62);
}

BOOST_AUTO_TEST_SUITE_END()
