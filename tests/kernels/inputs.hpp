// Test inputs for the kernels: guarded unaligned buffers, special values per
// element type, and reproducible random values.
#pragma once

#include <hwy/aligned_allocator.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace opgen::kernel_tests {

// Every length 0..kMaxN is tested: the widest target (AVX-512) holds 16
// float32, so this covers 3 vectors + 1 and also the 4-vector unrolled loop
// followed by a whole vector and a partial one (6 * 16 - 1 = 95).
inline constexpr std::size_t kMaxN = 100;
// Arrays start 0..kOffsets-1 elements past a 64-byte boundary.
inline constexpr std::size_t kOffsets = 4;

// n elements starting `offset` elements past an aligned address, surrounded
// by guard bytes that a kernel writing out of bounds would change.
template <typename T>
class Window {
 public:
  Window(std::size_t n, std::size_t offset)
      : n_(n), size_(2 * kGuard + kOffsets + n), mem_(hwy::AllocateAligned<T>(size_)) {
    std::memset(static_cast<void*>(mem_.get()), kFill, size_ * sizeof(T));
    data_ = mem_.get() + kGuard + offset;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return n_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

  bool GuardsIntact() const {
    const auto* bytes = reinterpret_cast<const unsigned char*>(mem_.get());
    const auto* begin = reinterpret_cast<const unsigned char*>(data_);
    const auto* end = reinterpret_cast<const unsigned char*>(data_ + n_);
    const auto* stop = bytes + size_ * sizeof(T);
    const auto intact = [](unsigned char b) { return b == kFill; };
    return std::all_of(bytes, begin, intact) && std::all_of(end, stop, intact);
  }

 private:
  static constexpr std::size_t kGuard = 64;  // elements: 256+ bytes, keeps 64-byte alignment
  static constexpr unsigned char kFill = 0xA5;
  std::size_t n_;
  std::size_t size_;
  hwy::AlignedFreeUniquePtr<T[]> mem_;
  T* data_;
};

// Arrays that end exactly where an inaccessible page begins: a kernel that
// reads or writes even one element past the end crashes the test (the
// guard bytes of Window only catch writes). Linux/POSIX.
template <typename T>
class PageEndArray {
 public:
  explicit PageEndArray(std::size_t capacity) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    usable_ = (capacity * sizeof(T) + page - 1) / page * page;
    size_ = usable_ + page;
    void* mem = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) throw std::runtime_error("mmap failed");
    mem_ = static_cast<unsigned char*>(mem);
    if (mprotect(mem_ + usable_, page, PROT_NONE) != 0) throw std::runtime_error("mprotect failed");
  }
  PageEndArray(const PageEndArray&) = delete;
  PageEndArray& operator=(const PageEndArray&) = delete;
  ~PageEndArray() { munmap(mem_, size_); }

  // n elements ending at the inaccessible page.
  T* Place(std::size_t n) { return reinterpret_cast<T*>(mem_ + usable_) - n; }

 private:
  unsigned char* mem_;
  std::size_t usable_;
  std::size_t size_;
};

// NaN, infinities, signed zeros, denormals, the extremes of the range and a
// few ordinary numbers.
template <typename T>
std::vector<T> FloatSpecials() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {
      L::quiet_NaN(),  -L::quiet_NaN(),  L::infinity(), -L::infinity(), T{0},     -T{0},
      L::denorm_min(), -L::denorm_min(), L::min() / 3,  -L::min() / 3,  L::min(), -L::min(),
      L::max(),        -L::max(),        L::epsilon(),  -L::epsilon(),  T{1},     T{-1},
      T{0.5},          T{-0.5},          T{2},          T{-2},          T{3},     T{-3},
      T{0.1},          T{-7.75},         T{1e-30},      T{-1e30}};
  return v;
}

// Zero, small numbers, the extremes and their neighbours, and counts around
// the shift widths.
template <typename T>
std::vector<T> IntSpecials() {
  using L = std::numeric_limits<T>;
  constexpr T kBits = sizeof(T) * 8;
  return {T{0},     T{1},     T{-1},        T{2},         T{-2},     T{3},  T{-7},
          L::min(), L::max(), L::min() + 1, L::max() - 1, kBits - 1, kBits, kBits + 1,
          -kBits,   T{1000},  T{-999},      T{0x5A5A5},   T{-123456}};
}

// Reproducible pseudo-random numbers (fixed seed per caller).
class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}

  double Uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(engine_);
  }

  // A random sign times about 2^e, e uniform in [min_exp, max_exp):
  // magnitudes spread over many binades. Built with ldexp (exact) from the
  // integer part of e and a mantissa from its fraction, not with std::exp2,
  // whose last bit differs between C libraries: the inputs must be the same
  // on every architecture for the cross-architecture digests to compare.
  double LogUniform(double min_exp, double max_exp) {
    const double e = Uniform(min_exp, max_exp);
    const double whole = std::floor(e);
    const double m = std::ldexp(1.0 + (e - whole), static_cast<int>(whole));
    return (engine_() & 1) ? -m : m;
  }

  template <typename T>
  T Int() {
    return static_cast<T>(engine_());
  }

  template <typename T>
  T IntIn(T lo, T hi) {
    return std::uniform_int_distribution<T>(lo, hi)(engine_);
  }

 private:
  std::mt19937_64 engine_;
};

// Copies to x[0, count) the values generate(T* values) writes there for
// `key` (which holds whatever the values depend on, count among them),
// generating them only the first time the run asks for that key (a cache
// per call site): every target, and every op sharing a data set, reads the
// same inputs, and generating them (std::mt19937_64 through
// std::uniform_real_distribution) took a third to a half of some suites'
// time, more under qemu (docs/arm.md).
template <typename T, typename Key, class Generate>
void FillOnce(T* x, std::size_t count, const Key& key, Generate&& generate) {
  static std::map<Key, std::unique_ptr<T[]>> cache;
  const auto [it, added] = cache.try_emplace(key);
  if (added) {
    it->second = std::make_unique<T[]>(count);
    generate(it->second.get());
  }
  std::copy(it->second.get(), it->second.get() + count, x);
}

// What compute() returns for the `count` values at x under `key` (which
// names the reference and whatever it depends on besides x: the op, its
// arguments, the shape the values take), computed only the first time the
// run asks for that key with those values (a cache per call site). Every
// target checks the same inputs against the same references, and
// references in long double (software quadruple precision on aarch64) took
// more than the kernels they check, most of some suites' time under qemu.
// The values themselves are part of the key, so a reference is never
// shared by inputs that differ in any bit.
template <typename R, typename T, typename Key, class Compute>
const R& ReferenceOnce(const Key& key, const T* x, std::size_t count, Compute&& compute) {
  static std::map<std::pair<Key, std::string>, R> cache;
  std::string values(count * sizeof(T), '\0');
  if (count != 0) std::memcpy(values.data(), x, values.size());
  auto lookup = std::pair(key, std::move(values));
  auto it = cache.find(lookup);
  if (it == cache.end()) it = cache.emplace(std::move(lookup), compute()).first;
  return it->second;
}

// specials followed by `count` values from gen().
template <typename T, class Gen>
std::vector<T> Pool(std::vector<T> specials, std::size_t count, Gen&& gen) {
  for (std::size_t i = 0; i < count; ++i) specials.push_back(static_cast<T>(gen()));
  return specials;
}

// The sweep pool of a float kernel: FloatSpecials, `extra`, then `count`
// values from gen().
template <typename T, class Gen>
std::vector<T> Inputs(std::vector<T> extra, std::size_t count, Gen&& gen) {
  std::vector<T> specials = FloatSpecials<T>();
  specials.insert(specials.end(), extra.begin(), extra.end());
  return Pool<T>(specials, count, gen);
}

// The edges of the sixteenths of [0.69921875, 1.3984375) that float64
// log, log2 and pow look their tables up by (kernels/math-inl.h
// LnTableF64; they start 2^48 bit patterns apart), each with the double
// just below it: 34 values.
inline std::vector<double> LogTableEdges() {
  std::uint64_t base;
  const double start = 0.69921875;
  std::memcpy(&base, &start, sizeof base);
  std::vector<double> edges;
  for (std::uint64_t j = 0; j <= 16; ++j) {
    const std::uint64_t b = base + (j << 48);
    double edge;
    std::memcpy(&edge, &b, sizeof edge);
    edges.push_back(edge);
    edges.push_back(std::nextafter(edge, 0.0));
  }
  return edges;
}

}  // namespace opgen::kernel_tests
