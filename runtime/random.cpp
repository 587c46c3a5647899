// The Tensor-level adapters of the random namespace (`custom`-kind ops):
// the wrapper has checked the arguments and allocated y with its shape and
// dtype; these pick the pointer kernel for y's dtype. Element i of y is
// element offset + i of the seed's stream (kernels/random.hpp).
#include <cstdint>

#include "builtin_kernels.hpp"
#include "opgen/detail/checks.hpp"

namespace opgen::kernels {

namespace {

// Calls fill(pointer, count) with y's elements typed by its dtype, among the
// dtypes the op allows (the wrapper has checked them).
template <class Fill>
void Typed(Tensor& y, const char* op, Fill&& fill) {
  const auto n = static_cast<std::size_t>(y.length());
  switch (y.dtype()) {
    case DType::float32:
      return fill(y.data<float>(), n);
    case DType::float64:
      return fill(y.data<double>(), n);
    case DType::int32:
      return fill(y.data<std::int32_t>(), n);
    case DType::int64:
      return fill(y.data<std::int64_t>(), n);
    case DType::bool_:
      return fill(y.data<bool>(), n);
  }
  detail::require_supported(op, y.dtype(), {});  // unreachable: throws
}

// Float-only kernels: a non-float dtype never reaches here (checked by the
// wrapper), so the integer branches do nothing.
template <class T>
constexpr bool kFloat = std::is_same_v<T, float> || std::is_same_v<T, double>;

}  // namespace

void Uniform(Span<std::int64_t>, std::int64_t seed, double low, double high, DType,
             std::int64_t offset, Tensor& y) {
  Typed(y, "random.uniform", [&](auto* p, std::size_t n) {
    if constexpr (kFloat<std::remove_pointer_t<decltype(p)>>) {
      Uniform(p, n, static_cast<std::uint64_t>(seed), static_cast<std::uint64_t>(offset), low,
              high);
    }
  });
}

void Normal(Span<std::int64_t>, std::int64_t seed, double mean, double stddev, DType,
            std::int64_t offset, Tensor& y) {
  Typed(y, "random.normal", [&](auto* p, std::size_t n) {
    if constexpr (kFloat<std::remove_pointer_t<decltype(p)>>) {
      Normal(p, n, static_cast<std::uint64_t>(seed), static_cast<std::uint64_t>(offset), mean,
             stddev);
    }
  });
}

void Exponential(Span<std::int64_t>, std::int64_t seed, double lambda, DType,
                 std::int64_t offset, Tensor& y) {
  Typed(y, "random.exponential", [&](auto* p, std::size_t n) {
    if constexpr (kFloat<std::remove_pointer_t<decltype(p)>>) {
      Exponential(p, n, static_cast<std::uint64_t>(seed), static_cast<std::uint64_t>(offset),
                  lambda);
    }
  });
}

void Bernoulli(Span<std::int64_t>, std::int64_t seed, double p, DType, std::int64_t offset,
               Tensor& y) {
  Typed(y, "random.bernoulli", [&](auto* out, std::size_t n) {
    Bernoulli(out, n, static_cast<std::uint64_t>(seed), static_cast<std::uint64_t>(offset), p);
  });
}

void Binomial(Span<std::int64_t>, std::int64_t seed, std::int64_t n_trials, double p, DType,
              std::int64_t offset, Tensor& y) {
  Typed(y, "random.binomial", [&](auto* out, std::size_t n) {
    if constexpr (!std::is_same_v<std::remove_pointer_t<decltype(out)>, bool>) {
      Binomial(out, n, static_cast<std::uint64_t>(seed), static_cast<std::uint64_t>(offset),
               n_trials, p);
    }
  });
}

}  // namespace opgen::kernels
