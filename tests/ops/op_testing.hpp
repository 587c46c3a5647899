// Helpers of the generated-API tests: tensors from lists, comparisons
// against independently computed values, and expected errors.
#pragma once

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "opgen/opgen.hpp"

namespace opgen::testing {

/// Elements of any tensor as doubles (bool as 0/1).
inline std::vector<double> values(const Tensor& t) {
  std::vector<double> out;
  switch (t.dtype()) {
    case DType::float32:
      for (float v : t.to_vector<float>()) out.push_back(v);
      break;
    case DType::float64:
      return t.to_vector<double>();
    case DType::int32:
      for (std::int32_t v : t.to_vector<std::int32_t>()) out.push_back(v);
      break;
    case DType::int64:
      for (std::int64_t v : t.to_vector<std::int64_t>()) out.push_back(static_cast<double>(v));
      break;
    case DType::bool_:
      for (bool v : t.to_vector<bool>()) out.push_back(v ? 1 : 0);
      break;
  }
  return out;
}

/// Checks dtype, shape and every element (relative tolerance `tol`; NaN
/// matches NaN).
inline void check_tensor(const Tensor& t, DType dtype, const Shape& shape,
                         const std::vector<double>& want, double tol = 0) {
  BOOST_TEST_REQUIRE(t.defined());
  BOOST_TEST((t.dtype() == dtype), "dtype " << dtype_name(t.dtype()) << " != " << dtype_name(dtype));
  BOOST_TEST((t.shape() == shape), "shape " << t.shape().to_string() << " != " << shape.to_string());
  const std::vector<double> got = values(t);
  BOOST_TEST_REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    BOOST_TEST_INFO("element " << i);
    if (std::isnan(want[i])) {
      BOOST_TEST(std::isnan(got[i]));
    } else if (tol == 0 || std::isinf(want[i])) {
      BOOST_TEST(got[i] == want[i]);
    } else {
      BOOST_TEST(std::abs(got[i] - want[i]) <= tol * std::max(1.0, std::abs(want[i])));
    }
  }
}

/// Runs `f` and checks it throws opgen::Error whose message contains every
/// one of `parts` (the op name first, by convention).
inline void check_error(const std::function<void()>& f, const std::vector<std::string>& parts) {
  try {
    f();
  } catch (const Error& e) {
    const std::string what = e.what();
    for (const std::string& p : parts) {
      BOOST_TEST(what.find(p) != std::string::npos, "'" << what << "' lacks '" << p << "'");
    }
    return;
  }
  BOOST_ERROR("no opgen::Error thrown (expected one mentioning '" << parts.front() << "')");
}

}  // namespace opgen::testing
