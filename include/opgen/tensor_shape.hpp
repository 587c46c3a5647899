// Tensor shapes: a short list of non-negative dimension sizes, kept inline.
// (Not opgen/shape.hpp: that is the generated header of the `shape` namespace,
// which includes this one through tensor.hpp.)
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace opgen {

/// Highest rank a tensor may have. Shapes live inline in the tensor (no heap
/// allocation per call), so the bound is fixed; a larger rank is an
/// `opgen::Error`.
inline constexpr int kMaxRank = 8;

/// The dimension sizes of a tensor, outermost first (row-major).
///
/// Constructible from a braced list, a `std::vector<int64_t>` or a span, so
/// `Tensor::empty({2, 3}, DType::float32)` reads naturally. Every constructor
/// checks rank <= kMaxRank and sizes >= 0, and throws `opgen::Error`
/// otherwise.
class Shape {
 public:
  using value_type = std::int64_t;
  using const_iterator = const std::int64_t*;

  /// The shape of a scalar (rank 0, one element).
  // A loop, not `dims_{}`, and not constexpr: g++'s generic x86 tuning
  // clears a block of 33 to 8192 bytes with `rep stosq` (a constant
  // initialiser is one such block: a null Tensor is all zeros), whose
  // start-up took a fifth of a call on a one-element tensor (every result
  // starts as a null Tensor, and every move leaves one behind); the loop
  // becomes four 16-byte stores.
  Shape() noexcept {
    for (std::int64_t& d : dims_) d = 0;
  }
  Shape(std::initializer_list<std::int64_t> dims);
  Shape(std::span<const std::int64_t> dims);
  Shape(const std::vector<std::int64_t>& dims)
      : Shape(std::span<const std::int64_t>(dims)) {}

  /// Number of dimensions.
  int rank() const noexcept { return rank_; }
  /// Same as rank(), for generic code.
  std::size_t size() const noexcept { return static_cast<std::size_t>(rank_); }
  bool empty() const noexcept { return rank_ == 0; }

  /// Size of dimension `i`, 0 <= i < rank() (unchecked).
  std::int64_t operator[](int i) const noexcept { return dims_[static_cast<std::size_t>(i)]; }
  std::int64_t& operator[](int i) noexcept { return dims_[static_cast<std::size_t>(i)]; }

  const std::int64_t* begin() const noexcept { return dims_.data(); }
  const std::int64_t* end() const noexcept { return dims_.data() + rank_; }
  const std::int64_t* data() const noexcept { return dims_.data(); }

  /// The sizes as a span, for functions that take one.
  std::span<const std::int64_t> dims() const noexcept { return {dims_.data(), size()}; }
  std::vector<std::int64_t> to_vector() const { return {begin(), end()}; }

  /// Product of the sizes (1 for a scalar). Throws `opgen::Error` when it
  /// does not fit in int64_t.
  std::int64_t length() const;

  /// Appends a dimension; throws `opgen::Error` beyond kMaxRank.
  void push_back(std::int64_t d);

  /// "[2, 3]"; "[]" for a scalar.
  std::string to_string() const;

  /// Same rank and sizes. Inline: every op compares shapes.
  friend bool operator==(const Shape& a, const Shape& b) noexcept {
    if (a.rank_ != b.rank_) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a.dims_[i] != b.dims_[i]) return false;
    }
    return true;
  }

 private:
  std::array<std::int64_t, kMaxRank> dims_;  // zero past rank_ (see Shape())
  int rank_ = 0;
};

}  // namespace opgen
