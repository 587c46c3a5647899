// Bitwise kernels on int32 and int64 (two's complement). Exact; identical on
// every SIMD target. Pointers may alias exactly (out == x); n may be 0.
#pragma once

#include <cstddef>
#include <cstdint>

namespace opgen::kernels {

/// out[i] = x[i] & y[i], x[i] | y[i], x[i] ^ y[i].
void And(const std::int32_t* x, const std::int32_t* y, std::int32_t* out, std::size_t n);
void And(const std::int64_t* x, const std::int64_t* y, std::int64_t* out, std::size_t n);
void Or(const std::int32_t* x, const std::int32_t* y, std::int32_t* out, std::size_t n);
void Or(const std::int64_t* x, const std::int64_t* y, std::int64_t* out, std::size_t n);
void Xor(const std::int32_t* x, const std::int32_t* y, std::int32_t* out, std::size_t n);
void Xor(const std::int64_t* x, const std::int64_t* y, std::int64_t* out, std::size_t n);

/// out[i] = ~x[i].
void Not(const std::int32_t* x, std::int32_t* out, std::size_t n);
void Not(const std::int64_t* x, std::int64_t* out, std::size_t n);

/// out[i] = x[i] << y[i]; a shift count outside [0, bits) gives 0.
void LeftShift(const std::int32_t* x, const std::int32_t* y, std::int32_t* out, std::size_t n);
void LeftShift(const std::int64_t* x, const std::int64_t* y, std::int64_t* out, std::size_t n);

/// out[i] = x[i] >> y[i], arithmetic (the sign is copied in); a shift count
/// outside [0, bits) gives the sign fill (0 or -1).
void RightShift(const std::int32_t* x, const std::int32_t* y, std::int32_t* out, std::size_t n);
void RightShift(const std::int64_t* x, const std::int64_t* y, std::int64_t* out, std::size_t n);

}  // namespace opgen::kernels
