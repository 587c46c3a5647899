#include "opgen/tensor_shape.hpp"

#include <string>

#include "opgen/error.hpp"

namespace opgen {

namespace {

std::string dims_text(std::span<const std::int64_t> dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

}  // namespace

Shape::Shape(std::initializer_list<std::int64_t> dims)
    : Shape(std::span<const std::int64_t>(dims.begin(), dims.size())) {}

Shape::Shape(std::span<const std::int64_t> dims) : Shape() {
  if (dims.size() > static_cast<std::size_t>(kMaxRank)) {
    throw Error("shape " + dims_text(dims) + " has rank " + std::to_string(dims.size()) +
                ", more than the maximum rank " + std::to_string(kMaxRank));
  }
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      throw Error("shape " + dims_text(dims) + " has a negative size at dimension " +
                  std::to_string(i));
    }
    dims_[i] = dims[i];
  }
  rank_ = static_cast<int>(dims.size());
}

std::int64_t Shape::length() const {
  // A zero anywhere makes the product 0, even if the other sizes would
  // overflow together: such a tensor is valid and simply empty.
  for (int i = 0; i < rank_; ++i) {
    if (dims_[static_cast<std::size_t>(i)] == 0) return 0;
  }
  std::int64_t n = 1;
  for (int i = 0; i < rank_; ++i) {
    if (__builtin_mul_overflow(n, dims_[static_cast<std::size_t>(i)], &n)) {
      throw Error("shape " + to_string() + " has more elements than fit in int64");
    }
  }
  return n;
}

void Shape::push_back(std::int64_t d) {
  if (rank_ == kMaxRank) {
    throw Error("cannot add a dimension to shape " + to_string() + ": the maximum rank is " +
                std::to_string(kMaxRank));
  }
  if (d < 0) {
    throw Error("cannot add the negative size " + std::to_string(d) + " to shape " + to_string());
  }
  dims_[static_cast<std::size_t>(rank_++)] = d;
}

std::string Shape::to_string() const { return dims_text(dims()); }

}  // namespace opgen
