// Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers:
// as easy as 1, 2, 3", SC 2011), scalar, and the word stream the random
// kernels are defined by. Plain constexpr C++: the scalar half of the random
// kernels (binomial) and the tests' reference use it; the SIMD kernels in
// random.cpp compute the same words many blocks at a time.
#pragma once

#include <array>
#include <cstdint>

namespace opgen::kernels::philox {

inline constexpr std::uint32_t kM0 = 0xD2511F53u;  // multiplies counter word 0
inline constexpr std::uint32_t kM1 = 0xCD9E8D57u;  // multiplies counter word 2
inline constexpr std::uint32_t kW0 = 0x9E3779B9u;  // key schedule (golden ratio)
inline constexpr std::uint32_t kW1 = 0xBB67AE85u;  // key schedule (sqrt(3) - 1)
inline constexpr int kRounds = 10;

using Block = std::array<std::uint32_t, 4>;

/// One Philox4x32-10 block: the counter `c` encrypted under the key (k0, k1).
constexpr Block Encrypt(Block c, std::uint32_t k0, std::uint32_t k1) {
  for (int r = 0; r < kRounds; ++r) {
    const std::uint64_t p0 = std::uint64_t{kM0} * c[0];
    const std::uint64_t p1 = std::uint64_t{kM1} * c[2];
    c = {static_cast<std::uint32_t>(p1 >> 32) ^ c[1] ^ k0, static_cast<std::uint32_t>(p1),
         static_cast<std::uint32_t>(p0 >> 32) ^ c[3] ^ k1, static_cast<std::uint32_t>(p0)};
    k0 += kW0;
    k1 += kW1;
  }
  return c;
}

/// Words per group: 16 blocks side by side, so that a 16-lane vector holds
/// one word of each block and every SIMD width (1 to 16 lanes) computes the
/// same stream.
inline constexpr std::uint64_t kGroupWords = 64;

/// Word j of the stream of `seed`: word k = (j mod 64) / 16 of block
/// b = 16 floor(j / 64) + j mod 16, the block being Philox4x32-10 of the
/// counter (b mod 2^32, b / 2^32, 0, 0) under the key (seed mod 2^32,
/// seed / 2^32). A pure function of (seed, j): the basis of every random op.
constexpr std::uint32_t StreamWord(std::uint64_t seed, std::uint64_t j) {
  const std::uint64_t b = 16 * (j / kGroupWords) + j % 16;
  const Block w = Encrypt({static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32), 0, 0},
                          static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
  return w[(j % kGroupWords) / 16];
}

/// The 64-bit values of the stream (float64 uniform and exponential): value
/// v = 16 q + l (l < 16) joins words 32 q + l (low half) and 32 q + 16 + l
/// (high half).
constexpr std::uint64_t StreamWord64(std::uint64_t seed, std::uint64_t v) {
  const std::uint64_t q = v / 16, l = v % 16;
  return StreamWord(seed, 32 * q + l) | std::uint64_t{StreamWord(seed, 32 * q + 16 + l)} << 32;
}

}  // namespace opgen::kernels::philox
