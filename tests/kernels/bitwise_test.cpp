// Bitwise kernels against scalar references, on every SIMD target. All of
// them are exact: bit-identical to the reference, hence on every target. The
// references are the functions generated from the ops' formulas
// (opgen/bitwise_reference.hpp; shifts follow opgen/formula.hpp).
//
// | function   | int32 / int64 | reference                                  |
// |------------|---------------|--------------------------------------------|
// | And Or Xor | exact         | x & y, x | y, x ^ y                        |
// | Not        | exact         | ~x                                         |
// | LeftShift  | exact         | x << y; count < 0 or >= bits gives 0        |
// | RightShift | exact         | x >> y; count < 0 or >= bits: sign fill     |
#include "kernels/bitwise.hpp"

#include <boost/test/unit_test.hpp>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "opgen/bitwise_reference.hpp"
#include "tests/kernels/errors.hpp"
#include "tests/kernels/inputs.hpp"
#include "tests/kernels/sweep.hpp"
#include "tests/kernels/targets.hpp"

namespace opgen::kernel_tests {
namespace {

namespace k = opgen::kernels;
namespace bitwise = opgen::bitwise::reference;

template <typename T>
std::string Name(const char* op) {
  return std::string(op) + (sizeof(T) == 4 ? "<int32>" : "<int64>");
}

template <typename T>
std::vector<T> Values(std::uint64_t seed) {
  Random random(seed);
  return Pool<T>(IntSpecials<T>(), 60, [&] { return random.Int<T>(); });
}

// Shift counts: in range, at and just past the width, negative, extreme.
template <typename T>
std::vector<T> Counts(std::uint64_t seed) {
  constexpr T kBits = sizeof(T) * 8;
  Random random(seed);
  std::vector<T> counts = {T{0},
                           T{1},
                           T{5},
                           kBits - 1,
                           kBits,
                           kBits + 1,
                           2 * kBits,
                           T{-1},
                           T{-2},
                           -kBits,
                           T{100},
                           T{-100},
                           std::numeric_limits<T>::min(),
                           std::numeric_limits<T>::max()};
  return Pool<T>(counts, 60, [&] {
    return random.Uniform(0, 1) < 0.8 ? random.IntIn<T>(-3, kBits + 3) : random.Int<T>();
  });
}

template <typename T, class Kernel, class Reference>
void ExpectBinary(const char* op, const std::vector<T>& ys, Kernel&& kernel,
                  Reference&& reference) {
  Report report(Name<T>(op), 0);
  SweepBinary(report, Values<T>(1), ys, kernel, reference, Exact());
  CheckAllPairs(report, IntSpecials<T>(), ys, kernel, reference, Exact());
  report.Finish();
}

template <typename T>
void CheckLogic() {
  ExpectBinary<T>(
      "And", Values<T>(2),
      [](const T* x, const T* y, T* out, std::size_t n) { k::And(x, y, out, n); },
      [](T x, T y) -> long double { return bitwise::bitwise_and(x, y); });
  ExpectBinary<T>(
      "Or", Values<T>(3),
      [](const T* x, const T* y, T* out, std::size_t n) { k::Or(x, y, out, n); },
      [](T x, T y) -> long double { return bitwise::bitwise_or(x, y); });
  ExpectBinary<T>(
      "Xor", Values<T>(4),
      [](const T* x, const T* y, T* out, std::size_t n) { k::Xor(x, y, out, n); },
      [](T x, T y) -> long double { return bitwise::bitwise_xor(x, y); });
  Report report(Name<T>("Not"), 0);
  SweepUnary(
      report, Values<T>(5), [](const T* x, T* out, std::size_t n) { k::Not(x, out, n); },
      [](T x) -> long double { return bitwise::bitwise_not(x); }, Exact());
  report.Finish();
}

template <typename T>
void CheckShifts() {
  ExpectBinary<T>(
      "LeftShift", Counts<T>(6),
      [](const T* x, const T* y, T* out, std::size_t n) { k::LeftShift(x, y, out, n); },
      [](T x, T count) -> long double { return bitwise::left_shift(x, count); });
  ExpectBinary<T>(
      "RightShift", Counts<T>(7),
      [](const T* x, const T* y, T* out, std::size_t n) { k::RightShift(x, y, out, n); },
      [](T x, T count) -> long double { return bitwise::right_shift(x, count); });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bitwise)

BOOST_AUTO_TEST_CASE(and_or_xor_not_are_exact) {
  ForEachTarget([](std::int64_t) {
    CheckLogic<std::int32_t>();
    CheckLogic<std::int64_t>();
  });
}

BOOST_AUTO_TEST_CASE(shifts_handle_any_count) {
  ForEachTarget([](std::int64_t) {
    CheckShifts<std::int32_t>();
    CheckShifts<std::int64_t>();
  });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace opgen::kernel_tests
