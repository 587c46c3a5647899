// Activation kernels of nn (float32 and float64): out[i] = f(x[i]) with f
// the op's formula (opdefs/nn.toml). Accuracy per function is the maximum
// error the kernel tests allow against a long double evaluation of the
// formula, on every SIMD target (measured maximum in parentheses); an ulp is
// the spacing of the element type at the exact result. NaN gives NaN; the
// limits at +-inf are the formula's. Pointers may alias exactly (out == x);
// n may be 0.
#pragma once

#include <cstddef>

namespace opgen::kernels {

// clang-format off
#define OPGEN_ACTIVATION(Name)                                       \
  void Name(const float* x, float* out, std::size_t n);              \
  void Name(const double* x, double* out, std::size_t n);
// clang-format on

/// min(max(x, 0), 6) by comparisons (-0 and NaN pass through). Exact.
OPGEN_ACTIVATION(Relu6)
/// 1.0507... x for x > 0, else 1.7581... (e^x - 1). <= 3 ulp (1.95; AVX-512
/// float64 0.51).
OPGEN_ACTIVATION(Selu)
/// x sigmoid(x) = x / (1 + e^-x). <= 4 ulp (3.0), min_normal absolute for
/// results below the normal range; silu(-inf) = 0.
OPGEN_ACTIVATION(Silu)
/// ln(1 + e^x), as max(x, 0) + ln(1 + e^-|x|). <= 3 ulp (2.5; AVX-512
/// float64 1.44).
OPGEN_ACTIVATION(Softplus)
/// x / (1 + |x|). <= 2 ulp (1.5); +-1 at +-inf.
OPGEN_ACTIVATION(Softsign)
/// 0 for x <= -3, 1 for x >= 3, else (x + 3) / 6. <= 2 ulp (1.0).
OPGEN_ACTIVATION(HardSigmoid)
/// 0 for x <= -3, x for x >= 3, else x (x + 3) / 6. <= 2 ulp (1.8).
OPGEN_ACTIVATION(HardSwish)
/// x tanh(softplus(x)), as x n / (n + 2) with n = e^x (e^x + 2) (no tanh,
/// no log). <= 6 ulp (4.0), min_normal absolute for results below the
/// normal range; mish(-inf) = 0.
OPGEN_ACTIVATION(Mish)

#undef OPGEN_ACTIVATION

/// x for x > 0, else alpha (e^x - 1); alpha is first rounded to the element
/// type. <= 3 ulp of max(|result|, alpha min_normal) (2.4; float32 1.24;
/// AVX-512 float64 0.51).
void Elu(const float* x, float* out, std::size_t n, double alpha);
void Elu(const double* x, double* out, std::size_t n, double alpha);

}  // namespace opgen::kernels
