// Random kernels (see random.hpp), compiled once per SIMD target by
// foreach_target.h and dispatched at run time. Built with -ffp-contract=off
// (kernels/meson.build): a fused multiply-add on targets that have one would
// round differently from the mul + add of the others, and the streams must be
// bit-identical on every target.
//
// Speed: Philox runs on 64-bit lanes holding one 32-bit counter word each,
// so one MulEven gives the whole 32x32 -> 64-bit product and its low half is
// already in place; per 16 blocks and round that is 4 multiplies, 4 shifts
// and 4 three-way xors (1.9 vector operations per word over 10 rounds, plus
// one permute per 16 words to pack the low halves). 32-bit lanes would need
// MulEven + MulOdd (an extra shift) and two blends or a MulLow for the same
// products: more operations, not fewer. Four vectors of blocks are in
// flight (each round is a multiply -> shift -> xor chain) with the round
// keys read from a per-call table. Uniform and RandomWords take the words
// from those registers (RunRows); the long transforms read them from a
// buffer of one unit of blocks. On Zen 4 (512-bit operations at two per
// cycle) the words alone cost about 1.1 cycles each, against a bound of
// 0.94 from the operation count.
#include "kernels/random.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/philox.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/random.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr std::size_t kGroupWords = philox::kGroupWords;
constexpr std::size_t kBatchGroups = 4;  // groups per Philox call (64 blocks)

// The state of several vectors in flight lives in arrays of vectors, which
// sizeless (SVE, RVV) vector types cannot form: those targets, and the
// scalar one, compute one vector at a time through the word buffer.
#undef OPGEN_PHILOX_ARRAYS
#if HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE
#define OPGEN_PHILOX_ARRAYS 0
#else
#define OPGEN_PHILOX_ARRAYS 1
#endif

#if OPGEN_PHILOX_ARRAYS
// Independent vectors of blocks in flight: each round is a chain of
// multiply (3-5 cycles), shift and xor, so one vector alone leaves the
// multiplier idle most of the time. 4 x 4 state vectors fit in 32
// registers; targets with 16 (SSE, AVX2) take 2.
#if HWY_ARCH_X86 && HWY_TARGET > HWY_AVX3
constexpr std::size_t kInFlight = 2;
#else
constexpr std::size_t kInFlight = 4;
#endif

// Round keys of a seed, one row of N equal 64-bit lanes per round and
// key word (the low halves count; the upper halves are garbage like the
// state's): computed once per call, read from L1 by the rounds (memory
// operands of the xors), so that the registers hold the state.
template <class D64>
struct RoundKeys {
  HWY_ALIGN std::uint64_t k[philox::kRounds][2][hn::MaxLanes(D64())];
  RoundKeys(D64 d64, std::uint64_t seed) {
    auto k0 = static_cast<std::uint32_t>(seed), k1 = static_cast<std::uint32_t>(seed >> 32);
    for (int r = 0; r < philox::kRounds; ++r) {
      hn::Store(hn::Set(d64, k0), d64, k[r][0]);
      hn::Store(hn::Set(d64, k1), d64, k[r][1]);
      k0 += philox::kW0;
      k1 += philox::kW1;
    }
  }
};

// Blocks block0 + v N (v < kInFlight, N lanes of d64; block0 = the block
// numbers of lanes 0 .. N - 1), one counter word per 64-bit lane: c[k][v]
// holds word k of those blocks in the low halves of its lanes. The upper
// halves hold garbage: MulEven reads only the lower 32 bits, and the caller
// keeps only them.
template <class D64, class V = hn::Vec<D64>>
HWY_INLINE void PhiloxVectors(D64 d64, V block0, const RoundKeys<D64>& keys, V (&c)[4][kInFlight]) {
  const hn::Repartition<std::uint32_t, D64> d32;
  const std::size_t N = hn::Lanes(d64);
  const auto m0 = hn::BitCast(d32, hn::Set(d64, philox::kM0));
  const auto m1 = hn::BitCast(d32, hn::Set(d64, philox::kM1));
  for (std::size_t v = 0; v < kInFlight; ++v) {
    const auto b = hn::Add(block0, hn::Set(d64, v * N));
    c[0][v] = b;
    c[1][v] = hn::ShiftRight<32>(b);
    c[2][v] = hn::Zero(d64);
    c[3][v] = hn::Zero(d64);
  }
  for (int r = 0; r < philox::kRounds; ++r) {
    const auto key0 = hn::Load(d64, keys.k[r][0]);
    const auto key1 = hn::Load(d64, keys.k[r][1]);
    for (std::size_t v = 0; v < kInFlight; ++v) {
      const auto p0 = hn::MulEven(hn::BitCast(d32, c[0][v]), m0);
      const auto p1 = hn::MulEven(hn::BitCast(d32, c[2][v]), m1);
      c[0][v] = hn::Xor3(hn::ShiftRight<32>(p1), c[1][v], key0);
      c[1][v] = p1;
      c[2][v] = hn::Xor3(hn::ShiftRight<32>(p0), c[3][v], key1);
      c[3][v] = p0;
    }
  }
}
#endif

// Writes the words of groups group0 .. group0 + groups - 1 to w (64 each;
// w has room for kBatchGroups groups, and may get words of groups past the
// last one asked for).
HWY_INLINE void PhiloxGroups(std::uint64_t seed, std::uint64_t group0, std::size_t groups,
                             std::uint32_t* HWY_RESTRICT w) {
#if HWY_TARGET == HWY_SCALAR
  // One lane: no 32-bit view of a 64-bit lane; the scalar code is the same
  // function.
  for (std::size_t g = 0; g < groups; ++g) {
    for (std::uint64_t l = 0; l < 16; ++l) {
      const std::uint64_t b = (group0 + g) * 16 + l;
      const philox::Block c = philox::Encrypt(
          {static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32), 0, 0},
          static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
      for (std::size_t k = 0; k < 4; ++k) w[g * kGroupWords + 16 * k + l] = c[k];
    }
  }
#elif !OPGEN_PHILOX_ARRAYS
  // One vector of blocks at a time (see PhiloxVectors for the layout).
  const hn::CappedTag<std::uint64_t, 16> d64;
  const hn::Repartition<std::uint32_t, decltype(d64)> d32;
  const hn::Rebind<std::uint32_t, decltype(d64)> d32h;
  const std::size_t N = hn::Lanes(d64);
  const auto m0 = hn::BitCast(d32, hn::Set(d64, philox::kM0));
  const auto m1 = hn::BitCast(d32, hn::Set(d64, philox::kM1));
  const auto k0 = static_cast<std::uint32_t>(seed);
  const auto k1 = static_cast<std::uint32_t>(seed >> 32);
  for (std::size_t g = 0; g < groups; ++g) {
    for (std::size_t s = 0; s < 16; s += N) {
      const auto b = hn::Iota(d64, (group0 + g) * 16 + s);
      auto c0 = b;
      auto c1 = hn::ShiftRight<32>(b);
      auto c2 = hn::Zero(d64);
      auto c3 = hn::Zero(d64);
      std::uint32_t r0 = k0, r1 = k1;
      for (int r = 0; r < philox::kRounds; ++r) {
        const auto p0 = hn::MulEven(hn::BitCast(d32, c0), m0);
        const auto p1 = hn::MulEven(hn::BitCast(d32, c2), m1);
        c0 = hn::Xor3(hn::ShiftRight<32>(p1), c1, hn::Set(d64, r0));
        c1 = p1;
        c2 = hn::Xor3(hn::ShiftRight<32>(p0), c3, hn::Set(d64, r1));
        c3 = p0;
        r0 += philox::kW0;
        r1 += philox::kW1;
      }
      std::uint32_t* row = w + g * kGroupWords + s;
      hn::StoreU(hn::TruncateTo(d32h, c0), d32h, row);
      hn::StoreU(hn::TruncateTo(d32h, c1), d32h, row + 16);
      hn::StoreU(hn::TruncateTo(d32h, c2), d32h, row + 32);
      hn::StoreU(hn::TruncateTo(d32h, c3), d32h, row + 48);
    }
  }
#else
  const hn::CappedTag<std::uint64_t, 16> d64;
  const hn::Repartition<std::uint32_t, decltype(d64)> d32;
  const hn::Rebind<std::uint32_t, decltype(d64)> d32h;
  const std::size_t N = hn::Lanes(d64);
  const std::size_t unit = kInFlight * N;  // blocks per PhiloxVectors
  using V = hn::Vec<decltype(d64)>;
  const RoundKeys<std::remove_const_t<decltype(d64)>> keys(d64, seed);
  auto blocks = hn::Iota(d64, group0 * 16);
  for (std::size_t b = 0; b < groups * 16; b += unit) {
    V c[4][kInFlight];
    PhiloxVectors(d64, blocks, keys, c);
    blocks = hn::Add(blocks, hn::Set(d64, unit));
    for (std::size_t v = 0; v < kInFlight; ++v) {
      const std::size_t blk = b + v * N;  // first block of vector v, in the batch
      std::uint32_t* row = w + blk / 16 * kGroupWords + blk % 16;
      if (2 * N <= 16 && v % 2 == 0) {
        // Two vectors of adjacent blocks as one vector of 32-bit words
        // (one two-table permute instead of two truncations).
        for (std::size_t k = 0; k < 4; ++k) {
          hn::StoreU(hn::ConcatEven(d32, hn::BitCast(d32, c[k][v + 1]), hn::BitCast(d32, c[k][v])),
                     d32, row + 16 * k);
        }
      } else if (2 * N > 16) {
        for (std::size_t k = 0; k < 4; ++k)
          hn::StoreU(hn::TruncateTo(d32h, c[k][v]), d32h, row + 16 * k);
      }
    }
  }
#endif
}

// Runs transform(words, x, dst) once per group covering stream elements
// [first, first + n) (kPerGroup elements per group of 64 words). Whole
// groups write straight to out; the partial ones at either end go through
// a buffer, so a chunked call writes exactly what one big call would.
template <std::size_t kPerGroup, typename TX, typename T, class Transform>
HWY_INLINE void RunStream(std::uint64_t seed, std::uint64_t first, const TX* x, T* out,
                          std::size_t n, const Transform& transform) {
  HWY_ALIGN std::uint32_t words[kBatchGroups * kGroupWords];
  HWY_ALIGN T tmp[kPerGroup];
  HWY_ALIGN TX xtmp[kPerGroup];
  const std::uint64_t end = first + n;
  std::uint64_t e = first;
  while (e < end) {
    const std::uint64_t g0 = e / kPerGroup;
    const std::uint64_t left = (end - g0 * kPerGroup + kPerGroup - 1) / kPerGroup;
    const std::size_t groups = static_cast<std::size_t>(std::min<std::uint64_t>(kBatchGroups, left));
    PhiloxGroups(seed, g0, groups, words);
    for (std::size_t i = 0; i < groups; ++i) {
      const std::uint64_t start = (g0 + i) * kPerGroup;
      const std::size_t lo = static_cast<std::size_t>(std::max(e, start) - start);
      const std::size_t hi = static_cast<std::size_t>(std::min<std::uint64_t>(end - start, kPerGroup));
      const std::uint32_t* w = words + i * kGroupWords;
      if (lo == 0 && hi == kPerGroup) {
        transform(w, x == nullptr ? nullptr : x + (start - first), out + (start - first));
      } else {
        if (x != nullptr) {
          std::fill(xtmp, xtmp + kPerGroup, TX{});
          std::copy(x + (start + lo - first), x + (start + hi - first), xtmp + lo);
        }
        transform(w, x == nullptr ? nullptr : xtmp, tmp);
        std::copy(tmp + lo, tmp + hi, out + (start + lo - first));
      }
    }
    e = std::min(end, (g0 + groups) * kPerGroup);
  }
}

#if OPGEN_PHILOX_ARRAYS
// Row k of the words of vectors v and v + 1 of PhiloxVectors (adjacent
// blocks) as one vector of 2 N 32-bit words.
template <class V64, class D32 = hn::Repartition<std::uint32_t, hn::DFromV<V64>>>
HWY_INLINE hn::Vec<D32> RowWords(const V64 (&c)[4][kInFlight], std::size_t k, std::size_t v) {
  const D32 d32;
  return hn::ConcatEven(d32, hn::BitCast(d32, c[k][v + 1]), hn::BitCast(d32, c[k][v]));
}
// The 64-bit values of vector v of PhiloxVectors from rows k (low halves)
// and k + 1 (high halves): philox::StreamWord64 of those blocks.
template <class V64>
HWY_INLINE V64 RowValues(const V64 (&c)[4][kInFlight], std::size_t k, std::size_t v) {
  const hn::DFromV<V64> d64;
  return hn::Or(hn::ShiftLeft<32>(c[k + 1][v]), hn::And(c[k][v], hn::Set(d64, 0xFFFFFFFFu)));
}
#endif

// RunStream with a fast path: the units of blocks whose groups lie inside
// [first, first + n) go straight from the Philox registers to
// rows(i, c, v) instead of through the word buffer: c is the PhiloxVectors
// state, v and v + 1 two of its vectors of adjacent blocks (2 N <= 16, so
// both in one group), i the index (relative to first) of the element at
// the group offset of v's first block in row 0 of that group. The rest
// (partial units and groups at either end) goes through RunStream with
// transform, which computes the same function of the words: how a range is
// split changes no number.
template <std::size_t kPerGroup, typename TX, typename T, class Transform, class Rows>
HWY_INLINE void RunRows(std::uint64_t seed, std::uint64_t first, const TX* x, T* out, std::size_t n,
                        const Transform& transform, const Rows& rows) {
#if !OPGEN_PHILOX_ARRAYS
  (void)rows;
  RunStream<kPerGroup>(seed, first, x, out, n, transform);
#else
  const hn::CappedTag<std::uint64_t, 16> d64;
  const std::size_t N = hn::Lanes(d64);
  const std::size_t unit = kInFlight * N;  // blocks per PhiloxVectors
  const std::uint64_t end = first + n;
  const std::uint64_t g0 = (first + kPerGroup - 1) / kPerGroup;  // first whole group
  const std::uint64_t g1 = end / kPerGroup;
  const std::uint64_t units = g1 > g0 ? (g1 - g0) * 16 / unit : 0;
  if (2 * N > 16 || units == 0) {
    RunStream<kPerGroup>(seed, first, x, out, n, transform);
    return;
  }
  const std::uint64_t mid0 = g0 * kPerGroup, mid1 = mid0 + units * unit / 16 * kPerGroup;
  RunStream<kPerGroup>(seed, first, x, out, static_cast<std::size_t>(mid0 - first), transform);
  const RoundKeys<std::remove_const_t<decltype(d64)>> keys(d64, seed);
  auto blocks = hn::Iota(d64, g0 * 16);
  if constexpr (std::is_null_pointer_v<Rows>) {
    // Long transforms: their constants and chains need the registers that
    // the state would hold, so the words go through a buffer of one unit
    // (or one group, if a unit is smaller), transformed a group at a time.
    const hn::Repartition<std::uint32_t, decltype(d64)> d32;
    constexpr std::size_t kMaxUnit = kInFlight * hn::MaxLanes(decltype(d64)());
    HWY_ALIGN std::uint32_t words[(kMaxUnit > 16 ? kMaxUnit : 16) * 4];
    const std::size_t step = std::max<std::size_t>(unit, 16);  // blocks
    for (std::uint64_t b0 = 0; b0 < units * unit; b0 += step) {
      for (std::size_t b = 0; b < step; b += unit) {
        hn::Vec<decltype(d64)> c[4][kInFlight];
        PhiloxVectors(d64, blocks, keys, c);
        blocks = hn::Add(blocks, hn::Set(d64, unit));
        for (std::size_t v = 0; v < kInFlight; v += 2) {
          std::uint32_t* row = words + (b + v * N) / 16 * kGroupWords + (b + v * N) % 16;
          for (std::size_t k = 0; k < 4; ++k) hn::StoreU(RowWords(c, k, v), d32, row + 16 * k);
        }
      }
      for (std::size_t g = 0; g < step / 16; ++g) {
        const auto i = static_cast<std::size_t>((g0 + b0 / 16 + g) * kPerGroup - first);
        transform(words + g * kGroupWords, x == nullptr ? nullptr : x + i, out + i);
      }
    }
  } else {
    for (std::uint64_t u = 0; u < units; ++u) {
      hn::Vec<decltype(d64)> c[4][kInFlight];
      PhiloxVectors(d64, blocks, keys, c);
      blocks = hn::Add(blocks, hn::Set(d64, unit));
      for (std::size_t v = 0; v < kInFlight; v += 2) {
        const std::uint64_t blk = g0 * 16 + u * unit + v * N;
        const auto i = static_cast<std::size_t>(blk / 16 * kPerGroup + blk % 16 - first);
        rows(i, c, v);
      }
    }
  }
  const auto done = static_cast<std::size_t>(mid1 - first);
  RunStream<kPerGroup>(seed, mid1, x == nullptr ? nullptr : x + done, out + done, n - done,
                       transform);
#endif
}

// ---------------------------------------------------------------------------
// Transforms, without fused multiply-add and in a fixed order.

// c[0] + z (c[1] + z (... + z c[k])), coefficients given highest last.
template <std::size_t K, class D>
HWY_INLINE hn::Vec<D> Poly(D d, hn::Vec<D> z, const double* c) {
  using T = hn::TFromD<D>;
  auto acc = hn::Set(d, static_cast<T>(c[K - 1]));
  for (std::size_t k = K - 1; k-- > 0;) acc = hn::Add(hn::Mul(acc, z), hn::Set(d, static_cast<T>(c[k])));
  return acc;
}

// 2 / (2k + 1), the series of ln m = 2 atanh(s), s = (m - 1) / (m + 1).
constexpr double kLogSeries[] = {2.0,        2.0 / 3,  2.0 / 5,  2.0 / 7,  2.0 / 9,  2.0 / 11,
                                 2.0 / 13,   2.0 / 15, 2.0 / 17, 2.0 / 19, 2.0 / 21, 2.0 / 23};

template <typename T>
struct LogConsts;
template <>
struct LogConsts<float> {
  static constexpr std::int32_t kSqrtHalf = 0x3F3504F3;  // bits of sqrt(1/2)
  static constexpr int kMantissa = 23;
  static constexpr std::int32_t kMask = 0x7FFFFF;
  static constexpr float kLn2Hi = 0.693145751953125f;  // 16 bits: k ln2_hi exact
  static constexpr float kLn2Lo = 1.42860682030941723212e-06f;
  static constexpr std::size_t kTerms = 6;  // truncation < 2e-9 relative
};
template <>
struct LogConsts<double> {
  static constexpr std::int64_t kSqrtHalf = 0x3FE6A09E667F3BCDLL;
  static constexpr int kMantissa = 52;
  static constexpr std::int64_t kMask = 0xFFFFFFFFFFFFFLL;
  static constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 32 bits
  static constexpr double kLn2Lo = 1.90821492927058770002e-10;
  static constexpr std::size_t kTerms = 12;  // truncation < 1e-18 relative
};

// ln x for positive normal x (the uniforms here are >= 2^-53): x = 2^k m with
// m in [sqrt(1/2), sqrt(2)), ln x = k ln 2 + 2 atanh((m - 1) / (m + 1)).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V LogPositive(D d, V x) {
  using T = hn::TFromD<D>;
  using C = LogConsts<T>;
  const hn::RebindToSigned<D> di;
  const auto ix = hn::Sub(hn::BitCast(di, x), hn::Set(di, C::kSqrtHalf));
  const auto k = hn::ConvertTo(d, hn::ShiftRight<C::kMantissa>(ix));
  const V m = hn::BitCast(d, hn::Add(hn::And(ix, hn::Set(di, C::kMask)), hn::Set(di, C::kSqrtHalf)));
  // fdlibm's arrangement: ln(1 + f) = f - (f^2/2 - s (f^2/2 + R)), with
  // R = 2 s^2/3 + 2 s^4/5 + ..., keeps the large term f exact.
  const V f = hn::Sub(m, hn::Set(d, T{1}));
  const V s = hn::Div(f, hn::Add(hn::Set(d, T{2}), f));
  const V z = hn::Mul(s, s);
  const V r = hn::Mul(z, Poly<C::kTerms - 1>(d, z, kLogSeries + 1));
  const V hfsq = hn::Mul(hn::Set(d, T{0.5}), hn::Mul(f, f));
  const V tail = hn::Add(hn::Mul(s, hn::Add(hfsq, r)), hn::Mul(k, hn::Set(d, C::kLn2Lo)));
  return hn::Add(hn::Mul(k, hn::Set(d, C::kLn2Hi)), hn::Sub(f, hn::Sub(hfsq, tail)));
}

// (2 pi)^k / k! with the signs of the sine (odd k) and cosine (even k)
// series, for polynomials in f of sin(2 pi f), cos(2 pi f), |f| <= 1/8.
constexpr double TrigCoefficient(int k) {
  double c = 1;
  for (int i = 1; i <= k; ++i) c *= 6.283185307179586476925286766559 / i;
  return (k / 2) % 2 == 1 ? -c : c;
}
template <std::size_t K>
struct TrigSeries {
  double sin[K], cos[K];  // in powers of f^2: sin = f * P(f^2), cos = Q(f^2)
  constexpr TrigSeries() : sin(), cos() {
    for (std::size_t i = 0; i < K; ++i) {
      sin[i] = TrigCoefficient(static_cast<int>(2 * i + 1));
      cos[i] = TrigCoefficient(static_cast<int>(2 * i));
    }
  }
};
// Terms up to f^11 / f^10 (float: truncation < 2e-10) and f^19 / f^18
// (double: < 1e-19).
template <typename T>
constexpr std::size_t kTrigTerms = sizeof(T) == 4 ? 6 : 10;

// sin(2 pi u) and cos(2 pi u) for u in [0, 1]: u = q / 4 + f with q the
// nearest quarter and |f| <= 1/8, exact (u is a multiple of 2^-24 or
// 2^-53), so there is no rounding of pi in the reduction.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void SinCos2Pi(D d, V u, V& sin_out, V& cos_out) {
  using T = hn::TFromD<D>;
  static constexpr TrigSeries<kTrigTerms<T>> kSeries;
  const V q = hn::Round(hn::Mul(u, hn::Set(d, T{4})));
  const V f = hn::Sub(u, hn::Mul(q, hn::Set(d, T{0.25})));
  const V z = hn::Mul(f, f);
  constexpr std::size_t K = kTrigTerms<T>;
  const V s = hn::Mul(f, Poly<K>(d, z, kSeries.sin));
  const V c = Poly<K>(d, z, kSeries.cos);
  const auto q1 = hn::Eq(q, hn::Set(d, T{1}));
  const auto q2 = hn::Eq(q, hn::Set(d, T{2}));
  const auto q3 = hn::Eq(q, hn::Set(d, T{3}));
  const auto swap = hn::Or(q1, q3);
  const V sv = hn::IfThenElse(swap, c, s);
  const V cv = hn::IfThenElse(swap, s, c);
  sin_out = hn::IfThenElse(hn::Or(q2, q3), hn::Neg(sv), sv);
  cos_out = hn::IfThenElse(hn::Or(q1, q2), hn::Neg(cv), cv);
}

// Uniforms from words: 24 bits for float, 53 for double (from 64-bit values
// v, lanes l of rows lo and hi). `open0` adds one step: (0, 1] instead of
// [0, 1).
template <class D, class VU>
HWY_INLINE hn::Vec<D> UnitFloatBits(D d, VU words, bool open0) {
  const hn::RebindToSigned<D> di;
  const hn::RebindToUnsigned<D> du;
  auto bits = hn::ShiftRight<8>(words);
  if (open0) bits = hn::Add(bits, hn::Set(du, 1u));
  return hn::Mul(hn::ConvertTo(d, hn::BitCast(di, bits)), hn::Set(d, 1.0f / 16777216.0f));
}
template <class D, class VU>
HWY_INLINE hn::Vec<D> UnitDoubleBits(D d, VU v, bool open0) {
  const hn::RebindToSigned<D> di;
  const hn::RebindToUnsigned<D> du;
  auto bits = hn::ShiftRight<11>(v);
  if (open0) bits = hn::Add(bits, hn::Set(du, std::uint64_t{1}));
  return hn::Mul(hn::ConvertTo(d, hn::BitCast(di, bits)), hn::Set(d, 1.0 / 9007199254740992.0));
}
template <class D>
HWY_INLINE hn::Vec<D> UnitFloat(D d, const std::uint32_t* w, bool open0) {
  return UnitFloatBits(d, hn::LoadU(hn::RebindToUnsigned<D>(), w), open0);
}
template <class D>
HWY_INLINE hn::Vec<D> UnitDouble(D d, const std::uint32_t* lo, const std::uint32_t* hi,
                                 bool open0) {
  const hn::RebindToUnsigned<D> du;
  const hn::Rebind<std::uint32_t, D> d32;
  const auto v = hn::Or(hn::PromoteTo(du, hn::LoadU(d32, lo)),
                        hn::ShiftLeft<32>(hn::PromoteTo(du, hn::LoadU(d32, hi))));
  return UnitDoubleBits(d, v, open0);
}

#if OPGEN_PHILOX_ARRAYS
// The unit uniforms of RunRows' fast path: float (one 32-bit word each)
// from row k of vectors v, v + 1 (2 N lanes); double (one 64-bit value
// each) from rows k, k + 1 of vector v (N lanes).
template <class D, class V64>
HWY_INLINE hn::Vec<D> RowUnit(D d, const V64 (&c)[4][kInFlight], std::size_t k, std::size_t v,
                              bool open0) {
  if constexpr (sizeof(hn::TFromD<D>) == 4) {
    return UnitFloatBits(d, RowWords(c, k, v), open0);
  } else {
    return UnitDoubleBits(d, RowValues(c, k, v), open0);
  }
}
#endif

// Elements per group and the unit uniform of element e of a group (rows of
// 16 words; see philox::StreamWord64 for the 64-bit values).
template <typename T>
constexpr std::size_t kPerGroup = sizeof(T) == 4 ? 64 : 32;
template <class D>
HWY_INLINE hn::Vec<D> Unit(D d, const std::uint32_t* w, std::size_t e, bool open0) {
  if constexpr (sizeof(hn::TFromD<D>) == 4) {
    return UnitFloat(d, w + e, open0);
  } else {
    const std::size_t h = e / 16, l = e % 16;
    return UnitDouble(d, w + 32 * h + l, w + 32 * h + 16 + l, open0);
  }
}

#if OPGEN_PHILOX_ARRAYS
// fn(o, u) for the unit uniforms u of RunRows' rows(i, c, v), o the offset
// of their elements from i: 64 float elements (4 rows of 2 N words) or 32
// double elements (2 row pairs of 2 vectors of N values).
template <class D, class V64, class Fn>
HWY_INLINE void ForEachRowUnit(D d, const V64 (&c)[4][kInFlight], std::size_t v, bool open0,
                               const Fn& fn) {
  if constexpr (sizeof(hn::TFromD<D>) == 4) {
    for (std::size_t k = 0; k < 4; ++k) fn(16 * k, RowUnit(d, c, k, v, open0));
  } else {
    const std::size_t N = hn::Lanes(d);
    for (std::size_t q = 0; q < 2; ++q) {
      for (std::size_t h = 0; h < 2; ++h) fn(16 * q + h * N, RowUnit(d, c, 2 * q, v + h, open0));
    }
  }
}
#endif

template <typename T>
void UniformT(T* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double low,
              double high) {
  const hn::CappedTag<T, 16> d;
  const std::size_t N = hn::Lanes(d);
  const auto lo = hn::Set(d, static_cast<T>(low));
  const auto scale = hn::Set(d, static_cast<T>(high - low));
  // [0, 1) (or [-0, 1)): low + 1 u is u itself, bit for bit (u >= +0).
  const bool unit_range = static_cast<T>(low) == 0 && static_cast<T>(high - low) == 1;
  RunRows<kPerGroup<T>>(
      seed, first, static_cast<const T*>(nullptr), out, n,
      [&](const std::uint32_t* w, const T*, T* dst) {
        for (std::size_t e = 0; e < kPerGroup<T>; e += N) {
          hn::StoreU(hn::Add(lo, hn::Mul(scale, Unit(d, w, e, false))), d, dst + e);
        }
      },
      [&](std::size_t i, const auto& c, std::size_t v) {
        if (unit_range) {
          ForEachRowUnit(d, c, v, false, [&](std::size_t o, hn::Vec<decltype(d)> u) {
            hn::StoreU(u, d, out + i + o);
          });
        } else {
          ForEachRowUnit(d, c, v, false, [&](std::size_t o, hn::Vec<decltype(d)> u) {
            hn::StoreU(hn::Add(lo, hn::Mul(scale, u)), d, out + i + o);
          });
        }
      });
}

template <typename T>
void NormalT(T* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double mean,
             double stddev) {
  const hn::CappedTag<T, 16> d;
  using V = hn::Vec<decltype(d)>;
  const std::size_t N = hn::Lanes(d);
  const auto mu = hn::Set(d, static_cast<T>(mean));
  const auto sigma = hn::Set(d, static_cast<T>(stddev));
  const auto minus2 = hn::Set(d, T{-2});
  const auto box_muller = [&](V u1, V u2, T* dst_cos, T* dst_sin) {
    const auto r = hn::Sqrt(hn::Mul(minus2, LogPositive(d, u1)));
    V s, c;
    SinCos2Pi(d, u2, s, c);
    hn::StoreU(hn::Add(mu, hn::Mul(sigma, hn::Mul(r, c))), d, dst_cos);
    hn::StoreU(hn::Add(mu, hn::Mul(sigma, hn::Mul(r, s))), d, dst_sin);
  };
  // Pairs (u1, u2) of unit values 16 apart, within each 32 (values, not
  // words: for double, Unit reads 64-bit values).
  RunRows<kPerGroup<T>>(
      seed, first, static_cast<const T*>(nullptr), out, n,
      [&](const std::uint32_t* w, const T*, T* dst) {
        for (std::size_t h = 0; h < kPerGroup<T>; h += 32) {
          for (std::size_t l = 0; l < 16; l += N) {
            box_muller(Unit(d, w, h + l, true), Unit(d, w, h + 16 + l, false), dst + h + l,
                       dst + h + 16 + l);
          }
        }
      },
      nullptr);
}

template <typename T>
void ExponentialImpl(T* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double lambda) {
  const hn::CappedTag<T, 16> d;
  const std::size_t N = hn::Lanes(d);
  const auto rate = hn::Set(d, static_cast<T>(lambda));
  RunRows<kPerGroup<T>>(
      seed, first, static_cast<const T*>(nullptr), out, n,
      [&](const std::uint32_t* w, const T*, T* dst) {
        for (std::size_t e = 0; e < kPerGroup<T>; e += N) {
          hn::StoreU(hn::Div(hn::Neg(LogPositive(d, Unit(d, w, e, true))), rate), d, dst + e);
        }
      },
      nullptr);
}

// Bernoulli threshold: element e is 1 when W[e] < t, t = ceil(p 2^32).
inline std::uint64_t Threshold(double p) {
  if (!(p > 0)) return 0;
  if (p >= 1) return std::uint64_t{1} << 32;
  return static_cast<std::uint64_t>(std::ceil(p * 4294967296.0));
}

// 0/1 as int32 lanes of di: W[e .. e + N) < t (t < 2^32), compared as
// signed after flipping the sign bits (x86 has no unsigned compare).
template <class DI>
HWY_INLINE hn::Vec<DI> Below(DI di, const std::uint32_t* w, std::uint32_t t) {
  const hn::RebindToUnsigned<DI> du;
  const auto flip = hn::Set(du, 0x80000000u);
  const auto v = hn::BitCast(di, hn::Xor(hn::LoadU(du, w), flip));
  const auto lim = hn::BitCast(di, hn::Set(du, t ^ 0x80000000u));
  return hn::IfThenElseZero(hn::Lt(v, lim), hn::Set(di, 1));
}

// One 32-bit word per element, whatever the output type: the int32 lanes
// have the output's lane count.
template <typename T>
using WordTag = hn::Rebind<std::int32_t, hn::CappedTag<T, 16>>;

template <class D, class DI>
HWY_INLINE void StoreCount(D d, DI, hn::Vec<DI> v, hn::TFromD<D>* p) {
  using T = hn::TFromD<D>;
  if constexpr (sizeof(T) == 4 && hwy::IsFloat<T>()) {
    hn::StoreU(hn::ConvertTo(d, v), d, p);
  } else if constexpr (sizeof(T) == 4) {
    hn::StoreU(hn::BitCast(d, v), d, p);
  } else if constexpr (sizeof(T) == 8) {
    hn::StoreU(hn::PromoteTo(d, v), d, p);
  } else {
    hn::StoreU(hn::DemoteTo(d, v), d, p);
  }
}

template <typename T>
void BernoulliImpl(T* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double p) {
  using TL = std::conditional_t<sizeof(T) == 1, std::uint8_t, T>;  // bool lanes are bytes
  const WordTag<std::conditional_t<sizeof(T) == 1, std::int32_t, T>> di;
  const hn::Rebind<TL, decltype(di)> d;
  const std::size_t N = hn::Lanes(di);
  const std::uint64_t t = Threshold(p);
  if (t >> 32 != 0) {
    std::fill(out, out + n, T{1});
    return;
  }
  RunRows<64>(
      seed, first, static_cast<const T*>(nullptr), out, n,
      [&](const std::uint32_t* w, const T*, T* dst) {
        for (std::size_t e = 0; e < 64; e += N) {
          StoreCount(d, di, Below(di, w + e, static_cast<std::uint32_t>(t)),
                     reinterpret_cast<TL*>(dst + e));
        }
      },
      nullptr);
}

template <typename T>
void DropoutT(const T* x, T* out, std::size_t n, std::uint64_t seed, std::uint64_t first,
              double p) {
  const WordTag<T> di;
  const hn::Rebind<T, decltype(di)> d;
  const std::size_t N = hn::Lanes(d);
  const std::uint64_t t = Threshold(p);
  if (t >> 32 != 0) {
    std::fill(out, out + n, T{0});
    return;
  }
  const auto scale = hn::Set(d, static_cast<T>(1 / (1 - p)));
  RunRows<64>(
      seed, first, x, out, n,
      [&](const std::uint32_t* w, const T* xs, T* dst) {
        for (std::size_t e = 0; e < 64; e += N) {
          const auto drop = Below(di, w + e, static_cast<std::uint32_t>(t));
          const hn::RebindToSigned<decltype(d)> dsi;
          hn::Vec<decltype(dsi)> wide;
          if constexpr (sizeof(T) == 8) {
            wide = hn::PromoteTo(dsi, drop);
          } else {
            wide = drop;
          }
          const auto keep = hn::RebindMask(d, hn::Eq(wide, hn::Zero(dsi)));
          hn::StoreU(hn::IfThenElseZero(keep, hn::Mul(hn::LoadU(d, xs + e), scale)), d, dst + e);
        }
      },
      nullptr);
}

void RandomWordsImpl(std::uint32_t* out, std::size_t n, std::uint64_t seed, std::uint64_t first) {
  RunRows<kGroupWords>(
      seed, first, static_cast<const std::uint32_t*>(nullptr), out, n,
      [](const std::uint32_t* w, const std::uint32_t*, std::uint32_t* dst) {
        std::memcpy(dst, w, kGroupWords * sizeof(std::uint32_t));
      },
      [&](std::size_t i, const auto& c, std::size_t v) {
        for (std::size_t k = 0; k < 4; ++k) {
          const auto words = RowWords(c, k, v);
          hn::StoreU(words, hn::DFromV<decltype(words)>(), out + i + 16 * k);
        }
      });
}

// clang-format off
#define OPGEN_RANDOM_TARGET(Name, Suffix, T, Arg)                            \
  void Name##Suffix(T* out, std::size_t n, std::uint64_t seed,               \
                    std::uint64_t first, Arg a) {                            \
    Name##Impl(out, n, seed, first, a);                                         \
  }
// clang-format on

void UniformF32(float* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double low,
                double high) {
  UniformT(out, n, seed, first, low, high);
}
void UniformF64(double* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double low,
                double high) {
  UniformT(out, n, seed, first, low, high);
}
void NormalF32(float* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double mean,
               double stddev) {
  NormalT(out, n, seed, first, mean, stddev);
}
void NormalF64(double* out, std::size_t n, std::uint64_t seed, std::uint64_t first, double mean,
               double stddev) {
  NormalT(out, n, seed, first, mean, stddev);
}
OPGEN_RANDOM_TARGET(Exponential, F32, float, double)
OPGEN_RANDOM_TARGET(Exponential, F64, double, double)
OPGEN_RANDOM_TARGET(Bernoulli, Bool, bool, double)
OPGEN_RANDOM_TARGET(Bernoulli, I32, std::int32_t, double)
OPGEN_RANDOM_TARGET(Bernoulli, I64, std::int64_t, double)
OPGEN_RANDOM_TARGET(Bernoulli, F32, float, double)
OPGEN_RANDOM_TARGET(Bernoulli, F64, double, double)
#undef OPGEN_RANDOM_TARGET

void DropoutF32(const float* x, float* out, std::size_t n, std::uint64_t seed,
                std::uint64_t first, double p) {
  DropoutT(x, out, n, seed, first, p);
}
void DropoutF64(const double* x, double* out, std::size_t n, std::uint64_t seed,
                std::uint64_t first, double p) {
  DropoutT(x, out, n, seed, first, p);
}

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"
namespace opgen::kernels {

HWY_EXPORT(RandomWordsImpl);
HWY_EXPORT(UniformF32);
HWY_EXPORT(UniformF64);
HWY_EXPORT(NormalF32);
HWY_EXPORT(NormalF64);
HWY_EXPORT(ExponentialF32);
HWY_EXPORT(ExponentialF64);
HWY_EXPORT(BernoulliBool);
HWY_EXPORT(BernoulliI32);
HWY_EXPORT(BernoulliI64);
HWY_EXPORT(BernoulliF32);
HWY_EXPORT(BernoulliF64);
HWY_EXPORT(DropoutF32);
HWY_EXPORT(DropoutF64);

void RandomWords(std::uint32_t* out, std::size_t n, std::uint64_t seed, std::uint64_t first) {
  OPGEN_DYNAMIC_DISPATCH(RandomWordsImpl)(out, n, seed, first);
}

// clang-format off
#define OPGEN_EXPORT_RANDOM(Name, Suffix, T)                                 \
  void Name(T* out, std::size_t n, std::uint64_t seed, std::uint64_t first,  \
            double a, double b) {                                            \
    OPGEN_DYNAMIC_DISPATCH(Name##Suffix)(out, n, seed, first, a, b);           \
  }
#define OPGEN_EXPORT_RANDOM1(Name, Suffix, T)                                \
  void Name(T* out, std::size_t n, std::uint64_t seed, std::uint64_t first,  \
            double a) {                                                      \
    OPGEN_DYNAMIC_DISPATCH(Name##Suffix)(out, n, seed, first, a);              \
  }
// clang-format on

OPGEN_EXPORT_RANDOM(Uniform, F32, float)
OPGEN_EXPORT_RANDOM(Uniform, F64, double)
OPGEN_EXPORT_RANDOM(Normal, F32, float)
OPGEN_EXPORT_RANDOM(Normal, F64, double)
OPGEN_EXPORT_RANDOM1(Exponential, F32, float)
OPGEN_EXPORT_RANDOM1(Exponential, F64, double)
OPGEN_EXPORT_RANDOM1(Bernoulli, Bool, bool)
OPGEN_EXPORT_RANDOM1(Bernoulli, I32, std::int32_t)
OPGEN_EXPORT_RANDOM1(Bernoulli, I64, std::int64_t)
OPGEN_EXPORT_RANDOM1(Bernoulli, F32, float)
OPGEN_EXPORT_RANDOM1(Bernoulli, F64, double)
#undef OPGEN_EXPORT_RANDOM
#undef OPGEN_EXPORT_RANDOM1

void Dropout(const float* x, float* out, std::size_t n, std::uint64_t seed, std::uint64_t first,
             double p) {
  OPGEN_DYNAMIC_DISPATCH(DropoutF32)(x, out, n, seed, first, p);
}
void Dropout(const double* x, double* out, std::size_t n, std::uint64_t seed,
             std::uint64_t first, double p) {
  OPGEN_DYNAMIC_DISPATCH(DropoutF64)(x, out, n, seed, first, p);
}

// ---------------------------------------------------------------------------
// Binomial: scalar, compiled once (outside the per-target code).

namespace {

// A uniform in [0, 1) from two words (53 bits).
double Unit53(std::uint32_t lo, std::uint32_t hi) {
  return static_cast<double>((std::uint64_t{hi} << 32 | lo) >> 11) * 0x1p-53;
}

// Binomial(n, p) for p <= 1/2 from the blocks of element e.
std::int64_t BinomialCount(std::uint64_t seed, std::uint64_t e, std::int64_t n, double p) {
  const auto k0 = static_cast<std::uint32_t>(seed), k1 = static_cast<std::uint32_t>(seed >> 32);
  const auto e0 = static_cast<std::uint32_t>(e), e1 = static_cast<std::uint32_t>(e >> 32);
  if (n == 0 || p <= 0) return 0;
  const double q = 1 - p;
  if (static_cast<double>(n) * p < 10) {
    // Inversion: walk the CDF from 0 with the pmf recurrence.
    const philox::Block b = philox::Encrypt({0, e0, e1, 1}, k0, k1);
    double u = Unit53(b[0], b[1]);
    const double s = p / q, a = static_cast<double>(n + 1) * s;
    double r = std::pow(q, static_cast<double>(n));
    std::int64_t x = 0;
    while (u > r && x < n) {
      u -= r;
      ++x;
      r *= a / static_cast<double>(x) - s;
    }
    return x;
  }
  // BTRS (Hörmann 1993, "The generation of binomial random variates").
  const double nd = static_cast<double>(n);
  const double spq = std::sqrt(nd * p * q);
  const double b = 1.15 + 2.53 * spq;
  const double a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double c = nd * p + 0.5;
  const double vr = 0.92 - 4.2 / b;
  const double alpha = (2.83 + 5.1 / b) * spq;
  const double lpq = std::log(p / q);
  const double m = std::floor((nd + 1) * p);
  const double h = std::lgamma(m + 1) + std::lgamma(nd - m + 1);
  for (std::uint32_t t = 0;; ++t) {
    const philox::Block blk = philox::Encrypt({t, e0, e1, 1}, k0, k1);
    const double u = Unit53(blk[0], blk[1]) - 0.5;
    double v = Unit53(blk[2], blk[3]);
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2 * a / us + b) * u + c);
    if (k < 0 || k > nd) continue;
    if (us >= 0.07 && v <= vr) return static_cast<std::int64_t>(k);
    v = std::log(v * alpha / (a / (us * us) + b));
    if (v <= h - std::lgamma(k + 1) - std::lgamma(nd - k + 1) + (k - m) * lpq) {
      return static_cast<std::int64_t>(k);
    }
  }
}

template <typename T>
void BinomialT(T* out, std::size_t n, std::uint64_t seed, std::uint64_t first,
               std::int64_t n_trials, double p) {
  const bool flip = p > 0.5;
  const double pp = flip ? 1 - p : p;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t k = BinomialCount(seed, first + i, n_trials, pp);
    out[i] = static_cast<T>(flip ? n_trials - k : k);
  }
}

}  // namespace

void Binomial(std::int32_t* out, std::size_t n, std::uint64_t seed, std::uint64_t first,
              std::int64_t n_trials, double p) {
  BinomialT(out, n, seed, first, n_trials, p);
}
void Binomial(std::int64_t* out, std::size_t n, std::uint64_t seed, std::uint64_t first,
              std::int64_t n_trials, double p) {
  BinomialT(out, n, seed, first, n_trials, p);
}
void Binomial(float* out, std::size_t n, std::uint64_t seed, std::uint64_t first,
              std::int64_t n_trials, double p) {
  BinomialT(out, n, seed, first, n_trials, p);
}
void Binomial(double* out, std::size_t n, std::uint64_t seed, std::uint64_t first,
              std::int64_t n_trials, double p) {
  BinomialT(out, n, seed, first, n_trials, p);
}

}  // namespace opgen::kernels
#endif  // HWY_ONCE
