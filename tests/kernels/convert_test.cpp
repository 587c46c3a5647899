// Conversion kernels (kernels/convert.hpp) against the scalar conversion of
// shape.cast (runtime/cast.cpp), on every SIMD target: exact, bit for bit
// (a NaN result only needs to be a NaN).
//
// | function        | reference                                         |
// |-----------------|---------------------------------------------------|
// | float32 -> float64, int32 -> float64, int32 -> int64 | exact widening |
// | float64 -> float32, int32 -> float32 | round to nearest, overflow inf |
// | float32 -> int32 | truncate toward zero, saturate, NaN -> 0          |
#include "kernels/convert.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "tests/kernels/digest.hpp"
#include "tests/kernels/inputs.hpp"
#include "tests/kernels/streamed_rows.hpp"
#include "tests/kernels/targets.hpp"

namespace opgen::kernel_tests {
namespace {

namespace k = opgen::kernels;

template <typename T>
std::string TypeName() {
  if constexpr (std::is_same_v<T, float>) return "float32";
  if constexpr (std::is_same_v<T, double>) return "float64";
  if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  return "int64";
}

// shape.cast's conversion, written out: NaN -> 0, out of range saturates,
// float -> int truncates; C++'s own conversion otherwise.
template <typename To, typename From>
To Reference(From v) {
  if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    constexpr auto kLo = static_cast<From>(std::numeric_limits<To>::min());
    if (std::isnan(v)) return 0;
    if (v < kLo) return std::numeric_limits<To>::min();
    if (v >= -kLo) return std::numeric_limits<To>::max();
  }
  return static_cast<To>(v);
}

// Specials, values at the edges of the target type (float32's largest
// finite values and its rounding halfway points for float64 inputs; 2^31
// and its neighbours for int32 results; int32s past 2^24, which float32
// rounds), then random values of every magnitude.
template <typename From>
std::vector<From> Values(std::uint64_t seed) {
  Random random(seed);
  std::vector<From> v;
  if constexpr (std::is_floating_point_v<From>) {
    v = FloatSpecials<From>();
    for (const double e : {2147483648.0,
                           -2147483648.0,
                           2147483520.0,
                           -2147483520.0,
                           2147483647.0,
                           -2147483649.0,
                           0.49999997,
                           -0.99999994,
                           1.5,
                           -2.5,
                           3.4028234663852886e38,
                           3.4028235677973366e38,
                           3.5e38,
                           -3.5e38,
                           1e-40,
                           1e-46,
                           1.0000000596046448,
                           1.0000000596046450,
                           16777217.0,
                           -16777219.0}) {
      v.push_back(static_cast<From>(e));
    }
    while (v.size() < 600) {
      const double m = random.LogUniform(-60, 70);
      v.push_back(static_cast<From>(m));
    }
  } else {
    v = IntSpecials<From>();
    for (const From e : {From{16777217}, From{-16777217}, From{16777219}, From{33554435},
                         From{2147483583}, From{-2147483583}}) {
      v.push_back(e);
    }
    while (v.size() < 600) v.push_back(random.Int<From>());
  }
  return v;
}

// With `streamed`, outputs of 256 bytes or more take the streaming stores
// (after a head that aligns them) that outputs of StreamBytes() take.
template <typename From, typename To>
void CheckConvert(std::uint64_t seed, bool streamed) {
  const std::vector<From> values = Values<From>(seed);
  const std::string name =
      "Convert<" + TypeName<From>() + " -> " + TypeName<To>() + ">" + (streamed ? " streamed" : "");
  ForEachTarget([&](std::int64_t) {
    const StreamFrom stream(streamed ? 256 : 0);
    ResultHash hash;
    std::size_t bad = 0;
    // Every length to 70, then doubling, ending with all the values.
    for (std::size_t n = 0; n <= values.size();
         n = n < 70 ? n + 1 : (n == values.size() ? n + 1 : std::min(n * 2 + 13, values.size()))) {
      for (const std::size_t offset : {0, 1, 3}) {
        const std::size_t count = std::min(n, values.size() - offset);
        const From* x = values.data() + offset;
        std::vector<To> out(count + 1, To{7});
        k::Convert(x, out.data(), count);
        for (std::size_t i = 0; i < count; ++i) {
          const To want = Reference<To>(x[i]);
          const To got = out[i];
          bool same = std::memcmp(&want, &got, sizeof(To)) == 0;
          if constexpr (std::is_floating_point_v<To>) {
            if (std::isnan(want)) same = std::isnan(got);
          }
          if (!std::is_floating_point_v<To> || !std::isnan(got)) hash.Add(got);
          if (!same && bad++ < 5) {
            BOOST_ERROR(name << ": x = " << x[i] << " gave " << got << ", expected " << want);
          }
        }
        if (out[count] != To{7}) {
          BOOST_ERROR(name << ": wrote past the end (n " << count << ")");
        }
      }
    }
    BOOST_TEST(bad == 0u, name);
    RecordDigest(name, 0, hash, 0);
  });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(convert)

BOOST_AUTO_TEST_CASE(widening_is_exact) {
  for (const bool streamed : {false, true}) {
    CheckConvert<float, double>(1, streamed);
    CheckConvert<std::int32_t, double>(2, streamed);
    CheckConvert<std::int32_t, std::int64_t>(3, streamed);
  }
}

BOOST_AUTO_TEST_CASE(narrowing_rounds_to_nearest) {
  for (const bool streamed : {false, true}) {
    CheckConvert<double, float>(4, streamed);
    CheckConvert<std::int32_t, float>(5, streamed);
  }
}

BOOST_AUTO_TEST_CASE(float_to_int_truncates_and_saturates) {
  for (const bool streamed : {false, true}) CheckConvert<float, std::int32_t>(6, streamed);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace opgen::kernel_tests
