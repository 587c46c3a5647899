// The tensor type: a dtype, a shape and shared, 64-byte aligned storage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "opgen/dtype.hpp"
#include "opgen/tensor_shape.hpp"

namespace opgen {

class Tensor;

namespace detail {
struct Storage;
// Out of line so that tensor.hpp does not pull in <atomic> or allocation code.
Storage* storage_allocate(std::size_t bytes);
void storage_retain(Storage* s) noexcept;
void storage_release(Storage* s) noexcept;
void* storage_data(Storage* s) noexcept;
/// Bytes of the storage header the data follows (runtime/tensor.cpp), so
/// that raw_data() is an inline addition.
inline constexpr std::size_t kStorageHeaderBytes = 64;
inline void* storage_data_inline(Storage* s) noexcept {
  return reinterpret_cast<std::byte*>(s) + kStorageHeaderBytes;
}
[[noreturn]] void throw_dtype_mismatch(DType want, DType have);
[[noreturn]] void throw_null_tensor(const char* what);
[[noreturn]] void throw_length_mismatch(std::size_t values, const Shape& shape);
[[noreturn]] void throw_not_one_element(const Shape& shape);
/// `out = Tensor::empty(shape, dtype)` without the temporary and its move
/// (the generated wrappers' direct path allocates its output so).
void assign_empty(Tensor& out, const Shape& shape, DType dtype);
}  // namespace detail

/// A dense, row-major (C order) array of one dtype.
///
/// A Tensor is a handle: copies share storage (like std::shared_ptr), and
/// the storage is freed with the last handle. Data is 64-byte aligned.
/// A default-constructed Tensor is null: it stands for an absent optional
/// input, and passing it where a tensor is required is an `opgen::Error`.
class Tensor {
 public:
  /// A null tensor (no dtype, no shape, no storage).
  Tensor() noexcept = default;
  Tensor(const Tensor& other) noexcept;
  // Moves are inline: every op that returns a tensor moves it at least once.
  Tensor(Tensor&& other) noexcept
      : storage_(other.storage_), shape_(other.shape_), length_(other.length_),
        dtype_(other.dtype_) {
    other.storage_ = nullptr;
    other.shape_ = Shape();
    other.length_ = 0;
  }
  Tensor& operator=(const Tensor& other) noexcept;
  Tensor& operator=(Tensor&& other) noexcept {
    if (this != &other) {
      if (storage_ != nullptr) detail::storage_release(storage_);
      storage_ = other.storage_;
      shape_ = other.shape_;
      length_ = other.length_;
      dtype_ = other.dtype_;
      other.storage_ = nullptr;
      other.shape_ = Shape();
      other.length_ = 0;
    }
    return *this;
  }
  ~Tensor() {
    if (storage_ != nullptr) detail::storage_release(storage_);
  }

  /// A tensor of the given shape and dtype with uninitialised contents.
  static Tensor empty(const Shape& shape, DType dtype);
  /// A tensor of the given shape and dtype filled with zeros (false).
  static Tensor zeros(const Shape& shape, DType dtype);

  /// A tensor holding a copy of `values` (row-major) with the given shape;
  /// `values.size()` must equal the shape's element count.
  template <class T>
  static Tensor from(std::span<const T> values, const Shape& shape);
  template <class T>
  static Tensor from(std::initializer_list<T> values, const Shape& shape) {
    return from<T>(std::span<const T>(values.begin(), values.size()), shape);
  }
  template <class T>
  static Tensor from(const std::vector<T>& values, const Shape& shape) {
    return from<T>(std::span<const T>(values.data(), values.size()), shape);
  }
  /// A one-dimensional tensor holding a copy of `values`.
  template <class T>
  static Tensor from(std::initializer_list<T> values) {
    return from<T>(values, Shape{static_cast<std::int64_t>(values.size())});
  }
  /// A rank-0 tensor holding one value.
  template <class T>
  static Tensor scalar(T value) {
    return from<T>(std::span<const T>(&value, 1), Shape{});
  }
  /// A tensor of the given shape with every element equal to `value`.
  template <class T>
  static Tensor full(const Shape& shape, T value);

  /// False for a null tensor.
  bool defined() const noexcept { return storage_ != nullptr; }
  explicit operator bool() const noexcept { return defined(); }

  /// Element type. A null tensor reports float32; check defined() first.
  DType dtype() const noexcept { return dtype_; }
  /// Dimension sizes, outermost first.
  const Shape& shape() const noexcept { return shape_; }
  /// Number of dimensions (0 for a scalar).
  int rank() const noexcept { return shape_.rank(); }
  /// Size of dimension `i`; a negative `i` counts from the end (-1 is the
  /// last). Throws `opgen::Error` when `i` is out of range.
  std::int64_t size(std::int64_t i) const;
  /// Number of elements (1 for a scalar, 0 when any dimension is 0).
  std::int64_t length() const noexcept { return length_; }
  /// Bytes of element data.
  std::size_t nbytes() const noexcept {
    return static_cast<std::size_t>(length_) * dtype_size(dtype_);
  }

  /// Pointer to the first element. Throws `opgen::Error` when T does not
  /// match dtype() or the tensor is null.
  template <class T>
  T* data() {
    check_access(dtype_of<T>);
    return static_cast<T*>(raw_data());
  }
  template <class T>
  const T* data() const {
    check_access(dtype_of<T>);
    return static_cast<const T*>(raw_data());
  }
  /// Untyped pointer to the first element (null for a null tensor).
  void* raw_data() noexcept { return storage_ ? detail::storage_data_inline(storage_) : nullptr; }
  const void* raw_data() const noexcept {
    return storage_ ? detail::storage_data_inline(storage_) : nullptr;
  }

  /// Copy of the elements as a vector (T must match dtype()).
  template <class T>
  std::vector<T> to_vector() const {
    const T* p = data<T>();
    return std::vector<T>(p, p + length_);
  }
  /// The only element of a one-element tensor (T must match dtype()).
  template <class T>
  T item() const;

  /// A deep copy with its own storage.
  Tensor clone() const;
  /// True when both tensors use the same storage.
  bool shares_storage(const Tensor& other) const noexcept {
    return storage_ != nullptr && storage_ == other.storage_;
  }
  /// "float32[2, 3]" (or "null"), for messages.
  std::string description() const;

 private:
  friend void detail::assign_empty(Tensor& out, const Shape& shape, DType dtype);
  Tensor(detail::Storage* storage, const Shape& shape, std::int64_t length, DType dtype) noexcept
      : storage_(storage), shape_(shape), length_(length), dtype_(dtype) {}
  void check_access(DType want) const {
    if (storage_ == nullptr) detail::throw_null_tensor("data()");
    if (want != dtype_) detail::throw_dtype_mismatch(want, dtype_);
  }

  detail::Storage* storage_ = nullptr;
  Shape shape_;
  std::int64_t length_ = 0;
  DType dtype_ = DType::float32;
};

template <class T>
Tensor Tensor::from(std::span<const T> values, const Shape& shape) {
  Tensor t = empty(shape, dtype_of<T>);
  if (static_cast<std::int64_t>(values.size()) != t.length_) {
    detail::throw_length_mismatch(values.size(), shape);
  }
  T* p = static_cast<T*>(t.raw_data());
  for (std::size_t i = 0; i < values.size(); ++i) p[i] = values[i];
  return t;
}

template <class T>
Tensor Tensor::full(const Shape& shape, T value) {
  Tensor t = empty(shape, dtype_of<T>);
  T* p = static_cast<T*>(t.raw_data());
  for (std::int64_t i = 0; i < t.length_; ++i) p[i] = value;
  return t;
}

template <class T>
T Tensor::item() const {
  const T* p = data<T>();
  if (length_ != 1) detail::throw_not_one_element(shape_);
  return p[0];
}

}  // namespace opgen
