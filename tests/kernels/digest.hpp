// Digests of kernel results, to show that exact results are bit-identical on
// every SIMD target of every architecture (x86 and aarch64, docs/arm.md).
//
// Every Report (sweep.hpp) hashes the results it is given; so does
// RecordResults for checks without a Report (the random streams). Each
// (name, target) pair gets one digest: the count of results, a 64-bit hash
// of their bits (every NaN hashed as one value, since exact checks accept
// any NaN), and the largest error seen. At the end of the run:
//
//   - the results of every exact check (tolerance 0) must hash the same on
//     every target the run visited;
//   - with `-- --digests=FILE` the digests are written to FILE, one line per
//     (name, target);
//   - with `-- --compare=FILE` (a file written by another build, e.g. the
//     native x86 build when this one runs on aarch64 under qemu) every exact
//     check of either file must be in both with the same hash. Checks with a
//     tolerance are only compared by their error, which each run already
//     holds to the tolerance; the largest errors of both are printed
//     (--log_level=message).
//
// A failure in these end-of-run checks makes the run fail.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace opgen::kernel_tests {

// FNV-1a over the bits of each result; floating-point NaNs hash as one
// canonical value (their sign and payload differ between x86 and Arm).
class ResultHash {
 public:
  template <typename T>
  void Add(T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(v)) v = std::numeric_limits<T>::quiet_NaN();
    }
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    for (const unsigned char b : bytes) hash_ = (hash_ ^ b) * 0x100000001B3ull;
    ++count_;
  }

  std::uint64_t hash() const { return hash_; }
  std::size_t count() const { return count_; }

 private:
  std::uint64_t hash_ = 0xCBF29CE484222325ull;
  std::size_t count_ = 0;
};

// The target ForEachTarget is running (hwy::TargetName), "" outside it.
void SetDigestTarget(std::string target);

// Adds the results of one check on the current target. `tolerance` 0 marks
// an exact check. Several records under one name on one target combine.
void RecordDigest(const std::string& name, double tolerance, const ResultHash& hash,
                  double max_error);

// All of `results` as one exact check.
template <typename T>
void RecordResults(const std::string& name, const std::vector<T>& results) {
  ResultHash hash;
  for (const T& v : results) hash.Add(v);
  RecordDigest(name, 0, hash, 0);
}

}  // namespace opgen::kernel_tests
