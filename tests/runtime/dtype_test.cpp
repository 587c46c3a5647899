// dtype names, sizes, classes and numpy's promotion rules.
#include "opgen/dtype.hpp"

#include <boost/test/unit_test.hpp>

using opgen::DType;

namespace {

constexpr DType kAll[] = {DType::float32, DType::float64, DType::int32, DType::int64, DType::bool_};

}  // namespace

BOOST_AUTO_TEST_SUITE(dtype)

// Names are the spec spellings; bool_ is "bool".
BOOST_AUTO_TEST_CASE(names_round_trip) {
  BOOST_TEST(opgen::dtype_name(DType::float32) == "float32");
  BOOST_TEST(opgen::dtype_name(DType::float64) == "float64");
  BOOST_TEST(opgen::dtype_name(DType::int32) == "int32");
  BOOST_TEST(opgen::dtype_name(DType::int64) == "int64");
  BOOST_TEST(opgen::dtype_name(DType::bool_) == "bool");
  for (DType t : kAll) BOOST_TEST((opgen::parse_dtype(opgen::dtype_name(t)) == t));
}

// Anything but an exact spec spelling is rejected.
BOOST_AUTO_TEST_CASE(parse_rejects_other_names) {
  for (const char* name : {"", "float", "bool_", "Float32", "int", "float32 ", "double"}) {
    BOOST_TEST(!opgen::parse_dtype(name).has_value(), name);
  }
}

BOOST_AUTO_TEST_CASE(sizes_and_classes) {
  BOOST_TEST(opgen::dtype_size(DType::float32) == 4u);
  BOOST_TEST(opgen::dtype_size(DType::float64) == 8u);
  BOOST_TEST(opgen::dtype_size(DType::int32) == 4u);
  BOOST_TEST(opgen::dtype_size(DType::int64) == 8u);
  BOOST_TEST(opgen::dtype_size(DType::bool_) == 1u);
  BOOST_TEST(opgen::is_float(DType::float32));
  BOOST_TEST(opgen::is_float(DType::float64));
  BOOST_TEST(!opgen::is_float(DType::int32));
  BOOST_TEST(!opgen::is_float(DType::bool_));
  BOOST_TEST(opgen::is_int(DType::int32));
  BOOST_TEST(opgen::is_int(DType::int64));
  BOOST_TEST(!opgen::is_int(DType::bool_));
  BOOST_TEST(!opgen::is_int(DType::float64));
}

// The full promotion table, written out as numpy 1.24 gives it for
// array-array operations (np.result_type).
BOOST_AUTO_TEST_CASE(promotion_table) {
  const DType f32 = DType::float32, f64 = DType::float64, i32 = DType::int32, i64 = DType::int64,
              b = DType::bool_;
  const DType expected[5][5] = {
      //          f32  f64  i32  i64  bool
      /* f32 */ {f32, f64, f64, f64, f32},
      /* f64 */ {f64, f64, f64, f64, f64},
      /* i32 */ {f64, f64, i32, i64, i32},
      /* i64 */ {f64, f64, i64, i64, i64},
      /* bool */ {f32, f64, i32, i64, b},
  };
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) {
      BOOST_TEST((opgen::promote_types(kAll[i], kAll[j]) == expected[i][j]),
                 opgen::dtype_name(kAll[i]) << " + " << opgen::dtype_name(kAll[j]));
    }
  }
}

BOOST_AUTO_TEST_CASE(to_float_and_dtype_of) {
  BOOST_TEST((opgen::to_float_type(DType::float64) == DType::float64));
  BOOST_TEST((opgen::to_float_type(DType::float32) == DType::float32));
  BOOST_TEST((opgen::to_float_type(DType::int64) == DType::float32));
  BOOST_TEST((opgen::to_float_type(DType::bool_) == DType::float32));
  static_assert(opgen::dtype_of<float> == DType::float32);
  static_assert(opgen::dtype_of<double> == DType::float64);
  static_assert(opgen::dtype_of<std::int32_t> == DType::int32);
  static_assert(opgen::dtype_of<std::int64_t> == DType::int64);
  static_assert(opgen::dtype_of<bool> == DType::bool_);
}

BOOST_AUTO_TEST_SUITE_END()
