// The parameter type of counted inputs and args.
#pragma once

#include <array>
#include <initializer_list>
#include <span>
#include <vector>

namespace opgen {

/// A read-only view of a counted parameter's values: a `std::span<const T>`
/// that can also be built from a braced list, so generated functions accept
/// `math::sum(x, {0, 1})` as well as a vector, an array or a span.
///
/// Like any view, it does not own its elements: a braced list lives until the
/// end of the full expression that contains the call, which is all a call needs.
template <class T>
class Span : public std::span<const T> {
 public:
  using std::span<const T>::span;
  constexpr Span() noexcept = default;
  constexpr Span(std::span<const T> s) noexcept : std::span<const T>(s) {}
  constexpr Span(std::initializer_list<T> values) noexcept
      : std::span<const T>(values.begin(), values.size()) {}
  Span(const std::vector<T>& values) noexcept
      : std::span<const T>(values.data(), values.size()) {}
  template <std::size_t N>
  constexpr Span(const std::array<T, N>& values) noexcept
      : std::span<const T>(values.data(), N) {}
};

}  // namespace opgen
