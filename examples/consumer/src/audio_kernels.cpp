#include "audio_kernels.hpp"

#include <cmath>
#include <cstdint>

namespace consumer::audio::kernels {

namespace {
template <class T>
void soft_clip(const T* x, T* y, std::size_t n, double limit) {
  for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<T>(limit * std::tanh(x[i] / limit));
}
}  // namespace

void SoftClip(const float* x, float* y, std::size_t n, double limit) { soft_clip(x, y, n, limit); }
void SoftClip(const double* x, double* y, std::size_t n, double limit) { soft_clip(x, y, n, limit); }

void Gain(const opgen::Tensor& x, double db, opgen::Tensor& y) {
  const float factor = static_cast<float>(std::pow(10.0, db / 20));
  const float* in = x.data<float>();
  float* out = y.data<float>();
  for (std::int64_t i = 0; i < x.length(); ++i) out[i] = in[i] * factor;
}

}  // namespace consumer::audio::kernels
