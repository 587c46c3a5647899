#include "tone_kernels.hpp"

#include <cmath>
#include <cstdint>

namespace tonemap::kernels {

namespace {
template <class T>
void gamma(const T* x, T* y, std::size_t n, double g) {
  for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<T>(std::pow(x[i], 1 / g));
}
}  // namespace

void Gamma(const float* x, float* y, std::size_t n, double g) { gamma(x, y, n, g); }
void Gamma(const double* x, double* y, std::size_t n, double g) { gamma(x, y, n, g); }

void Exposure(const opgen::Tensor& x, double stops, opgen::Tensor& y) {
  const float factor = static_cast<float>(std::exp2(stops));
  const float* in = x.data<float>();
  float* out = y.data<float>();
  for (std::int64_t i = 0; i < x.length(); ++i) out[i] = in[i] * factor;
}

}  // namespace tonemap::kernels
