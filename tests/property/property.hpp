// Property tests: the runner behind the generated <ns>_property_test.cpp
// files (gen/emit_property_tests.cpp). Each pointwise op with a formula is
// called by name on random tensors, for several seeds, on every SIMD target
// this machine supports, and every element is compared with the op's
// generated scalar reference function.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "opgen/registry.hpp"
#include "opgen/tensor.hpp"
#include "tests/kernels/targets.hpp"

namespace opgen::property {

/// Seeds of the random inputs: each test runs once per seed and target.
inline constexpr std::uint64_t kSeeds[] = {1, 2, 3};
/// Elements per input: not a multiple of any vector width, so every
/// target's remainder path runs too.
inline constexpr std::int64_t kLength = 1013;

/// exact: bit-identical (any NaN matches any NaN). close: within 64 units
/// of T's epsilon, relative to the expected value or absolute below 1;
/// infinities and NaN must match.
enum class Accuracy { exact, close };

/// One element of every input: the arguments of a reference call.
class Row {
 public:
  Row(const std::vector<Tensor>& inputs, std::int64_t i) : inputs_(inputs), i_(i) {}
  template <class U>
  U get(std::size_t k) const {
    return inputs_[k].data<U>()[i_];
  }
  std::string describe() const;

 private:
  const std::vector<Tensor>& inputs_;
  std::int64_t i_;
};

/// Random inputs of `dtype` for `seed`: specials (NaN, infinities, signed
/// zeros, extremes) and random values; moderate values only for `close`
/// ops, whose approximations are meant for the finite range.
Tensor random_tensor(DType dtype, std::uint64_t seed, Accuracy accuracy);

/// Calls body(seed) for every seed on every SIMD target.
void ForEachTargetAndSeed(const std::function<void(std::uint64_t)>& body);

/// The error of `got` against `want`: 0 when equal, +inf when they differ
/// in kind (NaN, infinity, sign of zero for exact), else the scaled error.
template <class R>
double element_error(R got, R want, Accuracy accuracy) {
  if constexpr (std::is_floating_point_v<R>) {
    if (std::isnan(want) || std::isnan(got)) {
      return std::isnan(want) && std::isnan(got) ? 0 : std::numeric_limits<double>::infinity();
    }
    if (std::isinf(want) || std::isinf(got) || accuracy == Accuracy::exact) {
      const bool same = got == want && std::signbit(got) == std::signbit(want);
      return same ? 0 : std::numeric_limits<double>::infinity();
    }
    const long double diff = std::fabs(static_cast<long double>(got) - static_cast<long double>(want));
    const long double scale = std::max<long double>(std::fabs(static_cast<long double>(want)), 1);
    return static_cast<double>(diff / scale / std::numeric_limits<R>::epsilon());
  } else {
    (void)accuracy;
    return got == want ? 0 : std::numeric_limits<double>::infinity();
  }
}

/// The tolerance of element_error for `close` (in units of epsilon).
inline constexpr double kCloseEpsilons = 64;

/// Calls op `op` by name with one random tensor per dtype of `inputs` and
/// `args`, and compares each element of its one output (element type R)
/// with reference(row).
template <class R, class Reference>
void Pointwise(const char* op, std::uint64_t seed, std::initializer_list<DType> inputs,
               const Args& args, Accuracy accuracy, Reference&& reference) {
  std::vector<Tensor> tensors;
  std::uint64_t k = 0;
  for (DType d : inputs) tensors.push_back(random_tensor(d, seed * 16 + k++, accuracy));
  const std::vector<Tensor> out = registry().call(op, tensors, args);
  BOOST_TEST_REQUIRE(out.size() == 1u);
  BOOST_TEST_REQUIRE((out[0].dtype() == dtype_of<R>), op << ": output dtype " << dtype_name(out[0].dtype()));
  BOOST_TEST_REQUIRE(out[0].length() == kLength);
  const R* got = out[0].data<R>();
  const double tolerance = accuracy == Accuracy::exact ? 0 : kCloseEpsilons;
  int failures = 0;
  double worst = 0;
  for (std::int64_t i = 0; i < kLength; ++i) {
    const Row row(tensors, i);
    const R want = static_cast<R>(reference(row));
    const double error = element_error<R>(got[i], want, accuracy);
    worst = std::max(worst, error);
    if (error > tolerance && ++failures <= 5) {
      std::ostringstream g, w;
      g.precision(std::numeric_limits<double>::max_digits10);
      w.precision(std::numeric_limits<double>::max_digits10);
      g << +got[i];
      w << +want;
      BOOST_ERROR(op << " " << dtype_name(dtype_of<R>) << " seed " << seed << " [" << i << "] "
                     << row.describe() << ": got " << g.str() << ", reference " << w.str()
                     << " (error " << error << " > " << tolerance << ")");
    }
  }
  BOOST_TEST(failures == 0, op << ": " << failures << " of " << kLength << " elements differ");
  BOOST_TEST_MESSAGE(op << " seed " << seed << ": max error " << worst);
}

}  // namespace opgen::property
