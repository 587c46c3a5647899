// Element type conversions of shape.cast between the dtypes whose
// conversion is one vector instruction (or two) on every target, with the
// results of runtime/cast.cpp's scalar conversion bit for bit: widening
// conversions are exact, float64 -> float32 and int32 -> float32 round to
// nearest (overflow -> inf), and float32 -> int32 truncates toward zero,
// saturates out of range and maps NaN to 0. The other pairs of dtypes stay
// scalar (runtime/cast.cpp). n may be 0; x and out must not overlap.
#pragma once

#include <cstddef>
#include <cstdint>

namespace opgen::kernels {

/// out[i] = the conversion of x[i] to out's type.
void Convert(const float* x, double* out, std::size_t n);
void Convert(const double* x, float* out, std::size_t n);
void Convert(const std::int32_t* x, float* out, std::size_t n);
void Convert(const std::int32_t* x, double* out, std::size_t n);
void Convert(const std::int32_t* x, std::int64_t* out, std::size_t n);
void Convert(const float* x, std::int32_t* out, std::size_t n);

}  // namespace opgen::kernels
