// The check of a row kernel whose large outputs take streaming stores
// (kernels/transform-inl.h StreamRows): an output past the streaming
// threshold, of rows of kRowLength (every row aligned, so its stores
// stream), against the same rows one call each (outputs of one row,
// ordinary stores), bit for bit, out separate and out == x. Fails if a
// streamed store lands anywhere else. The threshold is lowered to
// kTestStreamBytes for the check (StreamFrom), so the output is 256 KiB,
// not 16 MiB: the loops are the same, and under qemu the 16 MiB outputs
// took most of their suites' time.
#pragma once
#include <hwy/aligned_allocator.h>

#include <boost/test/unit_test.hpp>
#include <cstddef>
#include <cstring>
#include <string>

#include "kernels/cpu.hpp"
#include "tests/kernels/inputs.hpp"

namespace opgen::kernel_tests {

inline constexpr std::size_t kRowLength = 256;

// The streaming threshold of the kernel tests: far past the prefetch
// distance (2 KiB) and many rows long.
inline constexpr std::size_t kTestStreamBytes = std::size_t{256} << 10;

// Outputs of `bytes` or more stream while it lives (kernels/cpu.hpp's
// SetStreamBytesForTest); the default threshold is back after it.
class StreamFrom {
 public:
  explicit StreamFrom(std::size_t bytes) noexcept { kernels::SetStreamBytesForTest(bytes); }
  ~StreamFrom() { kernels::SetStreamBytesForTest(0); }
  StreamFrom(const StreamFrom&) = delete;
  StreamFrom& operator=(const StreamFrom&) = delete;
};

// run(in, out, rows) applies the kernel to `rows` rows of kRowLength; x
// values are uniform in [lo, hi].
template <typename T, class Run>
void RequireStreamedRowsMatch(const std::string& name, double lo, double hi, const Run& run) {
  const StreamFrom stream(kTestStreamBytes);
  const std::size_t rows = kTestStreamBytes / (kRowLength * sizeof(T)) + 3;
  const std::size_t len = rows * kRowLength;
  Random random(61);
  auto x = hwy::AllocateAligned<T>(len);
  auto big = hwy::AllocateAligned<T>(len);
  auto one = hwy::AllocateAligned<T>(len);
  for (std::size_t i = 0; i < len; ++i) x[i] = static_cast<T>(random.Uniform(lo, hi));
  run(x.get(), big.get(), rows);
  for (std::size_t r = 0; r < rows; ++r) {
    run(x.get() + r * kRowLength, one.get() + r * kRowLength, 1);
  }
  BOOST_TEST_INFO(name);
  BOOST_REQUIRE(std::memcmp(big.get(), one.get(), len * sizeof(T)) == 0);
  // In place: each row is read before it is written.
  std::memcpy(big.get(), x.get(), len * sizeof(T));
  run(big.get(), big.get(), rows);
  BOOST_TEST_INFO(name << ", in place");
  BOOST_REQUIRE(std::memcmp(big.get(), one.get(), len * sizeof(T)) == 0);
}

}  // namespace opgen::kernel_tests
