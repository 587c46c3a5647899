// Denormals (opgen/denormals.hpp): ops leave the caller's floating-point
// modes alone and compute denormals exactly; FlushDenormals flushes them
// for its scope only, and nests.
#include <boost/test/unit_test.hpp>
#include <cfenv>
#include <cmath>
#include <limits>
#include <opgen/opgen.hpp>

using opgen::DType;
using opgen::Shape;
using opgen::Tensor;

namespace {

// 1e-38f * 0.5f: a float32 denormal (the smallest normal is ~1.18e-38).
float product_of_tiny() {
  const Tensor tiny = Tensor::from<float>({1e-38f, 1e-38f, 1e-38f, 1e-38f, 1e-38f});
  const Tensor half = Tensor::from<float>({0.5f, 0.5f, 0.5f, 0.5f, 0.5f});
  return opgen::math::mul(tiny, half).data<float>()[4];
}

// x + 0 for a denormal x: x itself, or 0 when denormal inputs count as zero.
double sum_with_denormal_input() {
  const double d = std::numeric_limits<double>::denorm_min() * 12345;
  const Tensor x = Tensor::from<double>({d, d, d});
  const Tensor zero = Tensor::from<double>({0.0, 0.0, 0.0});
  return opgen::math::add(x, zero).data<double>()[2];
}

}  // namespace

BOOST_AUTO_TEST_SUITE(denormals)

BOOST_AUTO_TEST_CASE(ops_keep_denormals_and_the_callers_modes) {
  const int rounding = std::fegetround();
  const bool flushed = opgen::denormals_flushed();
  const float p = product_of_tiny();
  BOOST_TEST(p != 0.0f);
  BOOST_TEST(std::fpclassify(p) == FP_SUBNORMAL);
  BOOST_TEST(sum_with_denormal_input() != 0.0);
  // A few more kinds of kernels, then the modes must be as before.
  const Tensor x = Tensor::from<float>({-1e-39f, 3.0f, 1e-40f});
  (void)opgen::math::exp(x);
  (void)opgen::math::sum(x, {});
  BOOST_TEST(std::fegetround() == rounding);
  BOOST_TEST(opgen::denormals_flushed() == flushed);
  BOOST_TEST(!flushed);
}

BOOST_AUTO_TEST_CASE(flush_denormals_guard) {
  if (!opgen::FlushDenormals::supported()) {
    opgen::FlushDenormals none;  // must do nothing
    BOOST_TEST(!opgen::denormals_flushed());
    BOOST_TEST(product_of_tiny() != 0.0f);
    return;
  }
  BOOST_TEST(!opgen::denormals_flushed());
  {
    opgen::FlushDenormals ftz;
    BOOST_TEST(opgen::denormals_flushed());
    BOOST_TEST(product_of_tiny() == 0.0f);
#if defined(__x86_64__) || defined(__i386__)
    // DAZ: a denormal input counts as zero (Arm's FZ flushes inputs too).
    BOOST_TEST(sum_with_denormal_input() == 0.0);
#endif
    {
      opgen::FlushDenormals nested;
      BOOST_TEST(product_of_tiny() == 0.0f);
    }
    // The inner guard restored the outer one's mode, not the default.
    BOOST_TEST(opgen::denormals_flushed());
    BOOST_TEST(product_of_tiny() == 0.0f);
  }
  BOOST_TEST(!opgen::denormals_flushed());
  BOOST_TEST(product_of_tiny() != 0.0f);
  BOOST_TEST(sum_with_denormal_input() != 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
