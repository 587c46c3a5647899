// Argmax/Argmin, All/Any, Var/Std, Dot and Cumsum (see statistics.hpp),
// compiled once per SIMD target by foreach_target.h and dispatched at run
// time.
#include "kernels/statistics.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/statistics.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "kernels/transform-inl.h"

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The column kernels below (inner > 1) take column passes (transform-inl.h)
// from rows of this many bytes, as the reductions do.
inline constexpr size_t kStatisticsPassBytes = 1024;

// body(i, v, load) for each vector of the columns [c0, c1): i its first
// column, v its offset in the block's state, load(k) row k's lanes (whole
// vectors, then a partial one padded with zeros), so that the loops over
// rows in body hold no test of their own.
template <class D, class Body, typename T = hn::TFromD<D>>
HWY_INLINE void ForEachColumnVector(D d, const T* HWY_RESTRICT x, size_t inner, size_t c0,
                                    size_t c1, const Body& body) {
  const size_t N = hn::Lanes(d);
  size_t i = c0;
  for (; i + N <= c1; i += N) {
    body(i, i - c0, [&, i](size_t k) HWY_ATTR { return hn::LoadU(d, x + k * inner + i); });
  }
  if (i < c1) {
    body(i, i - c0, [&, i](size_t k) HWY_ATTR {
      return LoadPartial(d, x + k * inner + i, c1 - i, hn::Zero(d));
    });
  }
}

// ----- Argmax / Argmin

// Whether v should replace the best value so far: strictly better (so the
// first index wins a tie), or the first NaN.
template <bool kMax, class D, class V>
HWY_INLINE hn::Mask<D> Better(D, V v, V best) {
  const auto strict = kMax ? hn::Gt(v, best) : hn::Lt(v, best);
  if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
    return hn::Or(strict, hn::AndNot(hn::IsNaN(best), hn::IsNaN(v)));
  } else {
    return strict;
  }
}

template <bool kMax, typename T>
HWY_INLINE bool BetterScalar(T v, T best) {
  if constexpr (hwy::IsFloat<T>()) {
    if (std::isnan(v)) return !std::isnan(best);
  }
  return kMax ? v > best : v < best;
}

// The scalar loop: short rows, and rows too long for 32-bit index lanes.
template <bool kMax, typename T>
HWY_INLINE std::int64_t ArgScalar(const T* HWY_RESTRICT x, size_t n, size_t stride) {
  if (n == 0) return -1;
  size_t best = 0;
  for (size_t k = 1; k < n; ++k) {
    if (BetterScalar<kMax>(x[k * stride], x[best * stride])) best = k;
  }
  return static_cast<std::int64_t>(best);
}

// inner == 1. Two (value, index) vector pairs run in parallel (a compare and
// two blends form each one's dependency chain); lanes are merged at the end
// with the lower index winning ties. Index lanes have T's width, so float32
// rows use int32 indices and fall back to the scalar loop past 2^31.
template <bool kMax, class D, typename T = hn::TFromD<D>>
HWY_INLINE std::int64_t ArgRow(D d, const T* HWY_RESTRICT row, size_t n) {
  using TI = hwy::MakeSigned<T>;
  const size_t N = hn::Lanes(d);
  if (n < 2 * N || n > static_cast<size_t>(std::numeric_limits<TI>::max())) {
    return ArgScalar<kMax>(row, n, 1);
  }
  const hn::Rebind<TI, D> di;
  auto b0 = hn::LoadU(d, row);
  auto b1 = hn::LoadU(d, row + N);
  auto i0 = hn::Iota(di, 0);
  auto i1 = hn::Iota(di, static_cast<TI>(N));
  const auto step = hn::Set(di, static_cast<TI>(N));
  auto c0 = i0, c1 = i1;
  size_t k = 2 * N;
  for (; k + 2 * N <= n; k += 2 * N) {
    c0 = hn::Add(c0, hn::Add(step, step));
    c1 = hn::Add(c1, hn::Add(step, step));
    const auto v0 = hn::LoadU(d, row + k);
    const auto v1 = hn::LoadU(d, row + k + N);
    const auto m0 = Better<kMax>(d, v0, b0);
    const auto m1 = Better<kMax>(d, v1, b1);
    b0 = hn::IfThenElse(m0, v0, b0);
    b1 = hn::IfThenElse(m1, v1, b1);
    i0 = hn::IfThenElse(hn::RebindMask(di, m0), c0, i0);
    i1 = hn::IfThenElse(hn::RebindMask(di, m1), c1, i1);
  }
  // At most two more vectors, the last one partial.
  for (; k < n; k += N) {
    const size_t rest = n - k < N ? n - k : N;
    c0 = hn::Iota(di, static_cast<TI>(k));
    const auto v = rest == N ? hn::LoadU(d, row + k) : LoadPartial(d, row + k, rest, b0);
    const auto m = hn::And(Better<kMax>(d, v, b0), hn::FirstN(d, rest));
    b0 = hn::IfThenElse(m, v, b0);
    i0 = hn::IfThenElse(hn::RebindMask(di, m), c0, i0);
  }
  HWY_ALIGN T values[2 * hn::MaxLanes(D())];
  HWY_ALIGN TI indices[2 * hn::MaxLanes(D())];
  hn::Store(b0, d, values);
  hn::Store(b1, d, values + N);
  hn::Store(i0, di, indices);
  hn::Store(i1, di, indices + N);
  size_t best = 0;
  for (size_t j = 1; j < 2 * N; ++j) {
    const T v = values[j];
    const T b = values[best];
    const bool tie = v == b || (hwy::IsFloat<T>() && std::isnan(v) && std::isnan(b));
    if (BetterScalar<kMax>(v, b) || (tie && indices[j] < indices[best])) best = j;
  }
  return static_cast<std::int64_t>(indices[best]);
}

template <bool kMax, class V>
HWY_INLINE V Best(V a, V b) {
  return kMax ? hn::Max(a, b) : hn::Min(a, b);
}

// inner == 1, float rows of n >= Lanes(d) elements, in blocks of 64
// vectors or n / 64 elements, whichever is more (the last block takes the
// remainder): each block's best value by
// plain Max/Min, one op per vector, and the block whose best is strictly
// better than every earlier one's is remembered; at the end its first
// element equal to the best value is the answer, as in the scalar loop
// (equal zeros of either sign tie). Plain Max/Min drop NaN, so a check
// x * y + check per pair of vectors, NaN once an element is NaN or infinite
// (or float32 products overflow, past 1.8e19), sends such rows to ArgRow.
// Blocks grow with n because each one ends the inner loop (its exit branch
// and the horizontal compare): 16M float32 argmax took 1.48-1.56 ms in
// blocks of 64 vectors against 1.18-1.24 in 64 blocks (Zen 5, through the
// API, sum 1.03-1.10); the final pass reads one block again, under 1/32
// of the row.
template <bool kMax, class D, typename T = hn::TFromD<D>>
HWY_INLINE std::int64_t ArgRowFloat(D d, const T* HWY_RESTRICT row, size_t n) {
  const size_t N = hn::Lanes(d);
  const size_t block = HWY_MAX(64 * N, n / (256 * N) * (4 * N));
  const size_t blocks = n / block > 0 ? n / block : 1;
  auto c0 = hn::Zero(d), c1 = c0;
  T best = row[0];
  auto best_v = hn::Set(d, best);
  size_t best_start = 0;
  size_t best_end = n;
  for (size_t b = 0; b < blocks; ++b) {
    const size_t start = b * block;
    const size_t end = b + 1 == blocks ? n : start + block;
    auto m0 = hn::LoadU(d, row + start), m1 = m0, m2 = m0, m3 = m0;
    size_t k = start;
    for (; k + 4 * N <= end; k += 4 * N) {
      auto v0 = hn::LoadU(d, row + k);
      auto v1 = hn::LoadU(d, row + k + N);
      auto v2 = hn::LoadU(d, row + k + 2 * N);
      auto v3 = hn::LoadU(d, row + k + 3 * N);
      InRegister(v0);
      InRegister(v1);
      InRegister(v2);
      InRegister(v3);
      m0 = Best<kMax>(m0, v0);
      m1 = Best<kMax>(m1, v1);
      m2 = Best<kMax>(m2, v2);
      m3 = Best<kMax>(m3, v3);
      c0 = hn::MulAdd(v0, v1, c0);
      c1 = hn::MulAdd(v2, v3, c1);
    }
    for (; k + N <= end; k += N) {
      const auto v = hn::LoadU(d, row + k);
      m0 = Best<kMax>(m0, v);
      c0 = hn::Add(c0, v);
    }
    if (k < end) {  // overlaps this block's earlier elements only
      const auto v = hn::LoadU(d, row + end - N);
      m1 = Best<kMax>(m1, v);
      c1 = hn::Add(c1, v);
    }
    const auto m = Best<kMax>(Best<kMax>(m0, m1), Best<kMax>(m2, m3));
    if (b == 0 || !hn::AllFalse(d, kMax ? hn::Gt(m, best_v) : hn::Lt(m, best_v))) {
      best = hn::GetLane(kMax ? hn::MaxOfLanes(d, m) : hn::MinOfLanes(d, m));
      best_v = hn::Set(d, best);
      best_start = start;
      best_end = end;
    }
  }
  if (!hn::AllFalse(d, hn::IsNaN(hn::Add(c0, c1)))) return ArgRow<kMax>(d, row, n);
  size_t k = best_start;
  for (; k + N <= best_end; k += N) {
    const intptr_t j = hn::FindFirstTrue(d, hn::Eq(hn::LoadU(d, row + k), best_v));
    if (j >= 0) return static_cast<std::int64_t>(k + static_cast<size_t>(j));
  }
  for (; k < best_end && row[k] != best; ++k) {
  }
  return static_cast<std::int64_t>(k);
}

// ArgColumns of long rows in column passes, each column's best value and
// its row parked on the stack between passes; the same steps per lane.
template <bool kMax, class D, typename T = hn::TFromD<D>>
HWY_INLINE void ArgColumnPasses(D d, const T* HWY_RESTRICT x, std::int64_t* HWY_RESTRICT out,
                                size_t n, size_t inner) {
  using TI = hwy::MakeSigned<T>;
  const hn::Rebind<TI, D> di;
  HWY_ALIGN T bests[kColumnBlockBytes / sizeof(T)];
  HWY_ALIGN TI indices[kColumnBlockBytes / sizeof(T)];
  ForEachColumnBlock<T>(inner, [&](size_t c0, size_t c1) HWY_ATTR {
    ForEachRowPass(n, [&](size_t k0, size_t k1) HWY_ATTR {
      ForEachColumnVector(d, x, inner, c0, c1, [&](size_t, size_t v, const auto& load) HWY_ATTR {
        auto best = k0 == 0 ? load(0) : hn::Load(d, bests + v);
        auto index = k0 == 0 ? hn::Zero(di) : hn::Load(di, indices + v);
        for (size_t k = k0 == 0 ? 1 : k0; k < k1; ++k) {
          const auto x_k = load(k);
          const auto m = Better<kMax>(d, x_k, best);
          best = hn::IfThenElse(m, x_k, best);
          index = hn::IfThenElse(hn::RebindMask(di, m), hn::Set(di, static_cast<TI>(k)), index);
        }
        hn::Store(best, d, bests + v);
        hn::Store(index, di, indices + v);
      });
    });
    for (size_t j = 0; j < c1 - c0; ++j) out[c0 + j] = indices[j];
  });
}

// inner > 1: N columns at a time, rows streaming past; each lane keeps the
// first best row, exactly as the scalar loop.
template <bool kMax, class D, typename T = hn::TFromD<D>>
HWY_INLINE void ArgColumns(D d, const T* HWY_RESTRICT x, std::int64_t* HWY_RESTRICT out, size_t n,
                           size_t inner) {
  using TI = hwy::MakeSigned<T>;
  const size_t N = hn::Lanes(d);
  if (n == 0 || n > static_cast<size_t>(std::numeric_limits<TI>::max())) {
    for (size_t i = 0; i < inner; ++i) out[i] = ArgScalar<kMax>(x + i, n, inner);
    return;
  }
  if (TakesColumnPasses(d, n, inner, kStatisticsPassBytes)) {
    ArgColumnPasses<kMax>(d, x, out, n, inner);
    return;
  }
  const hn::Rebind<TI, D> di;
  HWY_ALIGN TI indices[hn::MaxLanes(D())];
  for (size_t i = 0; i < inner; i += N) {
    const size_t rest = inner - i < N ? inner - i : N;
    const auto load = [&](size_t k) {
      const T* p = x + k * inner + i;
      return rest == N ? hn::LoadU(d, p) : LoadPartial(d, p, rest, hn::Zero(d));
    };
    auto best = load(0);
    auto index = hn::Zero(di);
    for (size_t k = 1; k < n; ++k) {
      const auto v = load(k);
      const auto m = Better<kMax>(d, v, best);
      best = hn::IfThenElse(m, v, best);
      index = hn::IfThenElse(hn::RebindMask(di, m), hn::Set(di, static_cast<TI>(k)), index);
    }
    hn::Store(index, di, indices);
    for (size_t j = 0; j < rest; ++j) out[i + j] = indices[j];
  }
}

template <bool kMax, typename T>
HWY_INLINE void Arg(const T* HWY_RESTRICT x, std::int64_t* HWY_RESTRICT out, size_t outer, size_t n,
                    size_t inner) {
  if (inner != 1) {
    const hn::ScalableTag<T> d;
    for (size_t o = 0; o < outer; ++o) {
      ArgColumns<kMax>(d, x + o * n * inner, out + o * inner, n, inner);
    }
    return;
  }
  WithRowTag<T>(n, [&](auto d) HWY_ATTR {
    for (size_t o = 0; o < outer; ++o) {
      if constexpr (hwy::IsFloat<T>()) {
        if (n >= hn::Lanes(d)) {
          out[o] = ArgRowFloat<kMax>(d, x + o * n, n);
          continue;
        }
      }
      out[o] = ArgRow<kMax>(d, x + o * n, n);
    }
  });
}

// ----- All / Any

// kAll: true unless some element is zero; otherwise (Any) false unless some
// element is nonzero. Rows stop at the first element that decides them.
// "Nonzero" is Not(Eq(v, 0)), never Ne: Highway's float Ne is unordered
// (true for NaN) on SSE/AVX2 but ordered (false for NaN) on AVX-512.
template <bool kAll, class D, typename T = hn::TFromD<D>>
HWY_INLINE bool DecideRow(D d, const T* HWY_RESTRICT row, size_t n) {
  const size_t N = hn::Lanes(d);
  const auto zero = hn::Zero(d);
  // The value that decides nothing pads the partial vector.
  const auto neutral = kAll ? hn::Set(d, T{1}) : zero;
  size_t k = 0;
  for (; k + 2 * N <= n; k += 2 * N) {
    const auto v0 = hn::LoadU(d, row + k);
    const auto v1 = hn::LoadU(d, row + k + N);
    const auto m = kAll ? hn::Or(hn::Eq(v0, zero), hn::Eq(v1, zero))
                        : hn::Or(hn::Not(hn::Eq(v0, zero)), hn::Not(hn::Eq(v1, zero)));
    if (!hn::AllFalse(d, m)) return !kAll;
  }
  for (; k < n; k += N) {
    const size_t rest = n - k < N ? n - k : N;
    const auto v = rest == N ? hn::LoadU(d, row + k) : LoadPartial(d, row + k, rest, neutral);
    const auto m = kAll ? hn::Eq(v, zero) : hn::Not(hn::Eq(v, zero));
    if (!hn::AllFalse(d, m)) return !kAll;
  }
  return kAll;
}

// DecideColumns of long rows in column passes, each column's decided flag
// parked on the stack between passes.
template <bool kAll, class D, typename T = hn::TFromD<D>>
HWY_INLINE void DecideColumnPasses(D d, const T* HWY_RESTRICT x, bool* HWY_RESTRICT out, size_t n,
                                   size_t inner) {
  const auto zero = hn::Zero(d);
  HWY_ALIGN T decided[kColumnBlockBytes / sizeof(T)];
  ForEachColumnBlock<T>(inner, [&](size_t c0, size_t c1) HWY_ATTR {
    ForEachRowPass(n, [&](size_t k0, size_t k1) HWY_ATTR {
      ForEachColumnVector(d, x, inner, c0, c1, [&](size_t, size_t v, const auto& load) HWY_ATTR {
        auto flags = k0 == 0 ? zero : hn::Load(d, decided + v);
        for (size_t k = k0; k < k1; ++k) {
          const auto x_k = load(k);
          const auto m = kAll ? hn::Eq(x_k, zero) : hn::Not(hn::Eq(x_k, zero));
          flags = hn::Or(flags, hn::VecFromMask(d, m));
        }
        hn::Store(flags, d, decided + v);
      });
    });
    for (size_t j = 0; j < c1 - c0; ++j) out[c0 + j] = (decided[j] != T{0}) != kAll;
  });
}

template <bool kAll, class D, typename T = hn::TFromD<D>>
HWY_INLINE void DecideColumns(D d, const T* HWY_RESTRICT x, bool* HWY_RESTRICT out, size_t n,
                              size_t inner) {
  const size_t N = hn::Lanes(d);
  const auto zero = hn::Zero(d);
  if (TakesColumnPasses(d, n, inner, kStatisticsPassBytes)) {
    DecideColumnPasses<kAll>(d, x, out, n, inner);
    return;
  }
  HWY_ALIGN T lanes[hn::MaxLanes(D())];
  for (size_t i = 0; i < inner; i += N) {
    const size_t rest = inner - i < N ? inner - i : N;
    // All-ones lanes where the column is decided (a zero for All, a
    // nonzero for Any).
    auto decided = hn::VecFromMask(d, hn::Ne(zero, zero));
    for (size_t k = 0; k < n; ++k) {
      const T* p = x + k * inner + i;
      const auto v = rest == N ? hn::LoadU(d, p) : LoadPartial(d, p, rest, zero);
      const auto m = kAll ? hn::Eq(v, zero) : hn::Not(hn::Eq(v, zero));
      decided = hn::Or(decided, hn::VecFromMask(d, m));
    }
    hn::Store(decided, d, lanes);
    for (size_t j = 0; j < rest; ++j) out[i + j] = (lanes[j] != T{0}) != kAll;
  }
}

template <bool kAll, typename T>
HWY_INLINE void Decide(const T* HWY_RESTRICT x, bool* HWY_RESTRICT out, size_t outer, size_t n,
                       size_t inner) {
  const hn::ScalableTag<T> d;
  for (size_t o = 0; o < outer; ++o) {
    if (inner == 1) {
      out[o] = DecideRow<kAll>(d, x + o * n, n);
    } else {
      DecideColumns<kAll>(d, x + o * n * inner, out + o * inner, n, inner);
    }
  }
}

// ----- Var / Std

// sum((x - mean)^2) - (sum(x - mean))^2 / n, in A: the second term
// corrects the rounding of the mean (Chan, Golub and LeVeque's corrected
// two-pass algorithm).
template <typename A>
HWY_INLINE A CorrectedSquares(A squares, A deviations, A count) {
  return squares - deviations * deviations / count;
}

// CorrectedSquares divided by n - ddof.
template <typename T>
HWY_INLINE T Finish(T squares, T deviations, size_t n, std::int64_t ddof) {
  const T divisor = static_cast<T>(static_cast<std::int64_t>(n) - ddof);
  if (!(divisor > 0)) return std::numeric_limits<T>::quiet_NaN();
  const T variance = CorrectedSquares(squares, deviations, static_cast<T>(n)) / divisor;
  return variance < 0 ? T{0} : variance;  // only -0 or a rounding below 0
}

// The two passes over n >= 1 contiguous elements: their mean in T and the
// sums of the deviations from it and of their squares. Accumulators break
// the dependency chains: eight in pass 1 (four on rows of fewer than eight
// vectors), whose one addition per vector is otherwise bound by the adds'
// latency on rows in the L1 cache (1K float32 var: 83.5 ns with four, 78.8
// with eight, fastest of 3000 batches of 50 calls, three runs alternated,
// an Emerald Rapids Xeon), and four in pass 2, whose three
// operations per vector keep the FP ports busy with four. The partial
// vector is padded with the mean (pass 2), so it adds zeros. Pass 2 reads
// the row from the L1 cache and leaves the load ports room to prefetch the
// next row, `ahead` (n elements, or nullptr), as far as the row goes.
//
// With kMayDropDeviations, pass 2 first sums the squares alone (two
// operations per vector on eight chains instead of three), and keeps that
// when the deviation sum cannot matter: the uncorrected sum exceeds the
// corrected one by n (m - mu)^2, m the float mean and mu the exact one, and
// |m - mu| <= h eps mean|x| with h the summation depth of pass 1 (below
// n / 4N + 16) and mean|x|^2 <= var + mu^2 (Cauchy-Schwarz), so with
// h^2 eps (var + m^2) <= var / 16 the term is under eps var / 16: a
// sixteenth of an ulp of the result. Rows whose mean is large against
// their spread (|m| above about 20 sigma at n = 1024 in 16-lane vectors,
// 5 sigma at n = 8192) fail the test and take the corrected pass 2 as
// well. 1K float32 var: 1 + 2 operations per vector instead of 1 + 3;
// against Eigen's expression (ops_bench --paired_out, medians of 21
// alternating rounds, twice) var 0.88 -> 1.05, std 0.84 -> 1.02.
template <bool kMayDropDeviations = false, class D, typename T = hn::TFromD<D>>
HWY_INLINE void TwoPass(D d, const T* HWY_RESTRICT row, size_t n, T& mean_out, T& squares,
                        T& deviations, const T* ahead = nullptr) {
  const size_t N = hn::Lanes(d);
  const T inv_n = T{1} / static_cast<T>(n);
  auto s0 = hn::Zero(d), s1 = s0, s2 = s0, s3 = s0;
  size_t k = 0;
  if (n >= 8 * N) {
    auto s4 = s0, s5 = s0, s6 = s0, s7 = s0;
    for (; k + 8 * N <= n; k += 8 * N) {
      s0 = hn::Add(s0, hn::LoadU(d, row + k));
      s1 = hn::Add(s1, hn::LoadU(d, row + k + N));
      s2 = hn::Add(s2, hn::LoadU(d, row + k + 2 * N));
      s3 = hn::Add(s3, hn::LoadU(d, row + k + 3 * N));
      s4 = hn::Add(s4, hn::LoadU(d, row + k + 4 * N));
      s5 = hn::Add(s5, hn::LoadU(d, row + k + 5 * N));
      s6 = hn::Add(s6, hn::LoadU(d, row + k + 6 * N));
      s7 = hn::Add(s7, hn::LoadU(d, row + k + 7 * N));
    }
    s0 = hn::Add(s0, s4);
    s1 = hn::Add(s1, s5);
    s2 = hn::Add(s2, s6);
    s3 = hn::Add(s3, s7);
  }
  for (; k + 4 * N <= n; k += 4 * N) {
    s0 = hn::Add(s0, hn::LoadU(d, row + k));
    s1 = hn::Add(s1, hn::LoadU(d, row + k + N));
    s2 = hn::Add(s2, hn::LoadU(d, row + k + 2 * N));
    s3 = hn::Add(s3, hn::LoadU(d, row + k + 3 * N));
  }
  for (; k + N <= n; k += N) s0 = hn::Add(s0, hn::LoadU(d, row + k));
  if (k < n) s1 = hn::Add(s1, LoadPartial(d, row + k, n - k, hn::Zero(d)));
  // SumOfLanes leaves the sum in every lane: the mean vector is one
  // multiply away, by 1 / n (computed while pass 1 runs), where a division
  // and a broadcast stood on the chain into pass 2. The mean's rounding
  // is what the deviation sum corrects, so an ulp more of it costs nothing.
  const auto mean =
      hn::Mul(hn::SumOfLanes(d, hn::Add(hn::Add(s0, s1), hn::Add(s2, s3))), hn::Set(d, inv_n));
  const T mean_scalar = hn::GetLane(mean);

  mean_out = mean_scalar;
  if constexpr (kMayDropDeviations) {
    auto q0 = hn::Zero(d), q1 = q0, q2 = q0, q3 = q0, q4 = q0, q5 = q0, q6 = q0, q7 = q0;
    k = 0;
    for (; k + 8 * N <= n; k += 8 * N) {
      const auto d0 = hn::Sub(hn::LoadU(d, row + k), mean);
      const auto d1 = hn::Sub(hn::LoadU(d, row + k + N), mean);
      const auto d2 = hn::Sub(hn::LoadU(d, row + k + 2 * N), mean);
      const auto d3 = hn::Sub(hn::LoadU(d, row + k + 3 * N), mean);
      const auto d4 = hn::Sub(hn::LoadU(d, row + k + 4 * N), mean);
      const auto d5 = hn::Sub(hn::LoadU(d, row + k + 5 * N), mean);
      const auto d6 = hn::Sub(hn::LoadU(d, row + k + 6 * N), mean);
      const auto d7 = hn::Sub(hn::LoadU(d, row + k + 7 * N), mean);
      if (ahead != nullptr) PrefetchVectors(d, ahead + k, 8);
      q0 = hn::MulAdd(d0, d0, q0);
      q1 = hn::MulAdd(d1, d1, q1);
      q2 = hn::MulAdd(d2, d2, q2);
      q3 = hn::MulAdd(d3, d3, q3);
      q4 = hn::MulAdd(d4, d4, q4);
      q5 = hn::MulAdd(d5, d5, q5);
      q6 = hn::MulAdd(d6, d6, q6);
      q7 = hn::MulAdd(d7, d7, q7);
    }
    for (; k + N <= n; k += N) {
      const auto dv = hn::Sub(hn::LoadU(d, row + k), mean);
      if (ahead != nullptr) PrefetchVectors(d, ahead + k, 1);
      q0 = hn::MulAdd(dv, dv, q0);
    }
    if (k < n) {
      if (ahead != nullptr) PrefetchVectors(d, ahead + k, 1);
      const auto dv = hn::Sub(LoadPartial(d, row + k, n - k, mean), mean);
      q1 = hn::MulAdd(dv, dv, q1);
    }
    const T sum_squares = SumLanes(d, hn::Add(hn::Add(hn::Add(q0, q1), hn::Add(q2, q3)),
                                              hn::Add(hn::Add(q4, q5), hn::Add(q6, q7))));
    const T h = static_cast<T>(n / (4 * N) + 16);
    const T var = sum_squares * inv_n;  // about m: var + (m - mu)^2
    // False for NaN; an overflowed sum of squares (inf) takes the corrected
    // pass too, whose result it then is (inf - inf: NaN) as before.
    if (std::isfinite(sum_squares) &&
        h * h * std::numeric_limits<T>::epsilon() * (var + mean_scalar * mean_scalar) <=
            var * static_cast<T>(1.0 / 16)) {
      squares = sum_squares;
      deviations = 0;
      return;
    }
  }

  auto q0 = hn::Zero(d), q1 = q0, q2 = q0, q3 = q0;
  auto e0 = hn::Zero(d), e1 = e0;
  // Six additions to four multiply-adds per four vectors: two of the
  // subtractions go to the multiply-add units (AddOnFma).
  const auto one = FmaOne(d);
  const auto neg_mean = hn::Neg(mean);
  k = 0;
  for (; k + 4 * N <= n; k += 4 * N) {
    const auto d0 = hn::Sub(hn::LoadU(d, row + k), mean);
    const auto d1 = hn::Sub(hn::LoadU(d, row + k + N), mean);
    const auto d2 = AddOnFma(hn::LoadU(d, row + k + 2 * N), neg_mean, one);
    const auto d3 = AddOnFma(hn::LoadU(d, row + k + 3 * N), neg_mean, one);
    if (ahead != nullptr) PrefetchVectors(d, ahead + k, 4);
    q0 = hn::MulAdd(d0, d0, q0);
    q1 = hn::MulAdd(d1, d1, q1);
    q2 = hn::MulAdd(d2, d2, q2);
    q3 = hn::MulAdd(d3, d3, q3);
    e0 = hn::Add(e0, hn::Add(d0, d1));
    e1 = hn::Add(e1, hn::Add(d2, d3));
  }
  for (; k < n; k += N) {
    const size_t rest = n - k < N ? n - k : N;
    const auto v = rest == N ? hn::LoadU(d, row + k) : LoadPartial(d, row + k, rest, mean);
    const auto dv = hn::Sub(v, mean);
    q0 = hn::MulAdd(dv, dv, q0);
    e0 = hn::Add(e0, dv);
  }
  squares = SumLanes(d, hn::Add(hn::Add(q0, q1), hn::Add(q2, q3)));
  deviations = SumLanes(d, hn::Add(e0, e1));
}

// Elements per block of a long row: 32 KiB, an L1 data cache.
template <typename T>
inline constexpr size_t kVarBlock = 32768 / sizeof(T);

// inner == 1. A float32 row longer than kVarBlock elements is taken block
// by block, so that memory is read once (the second pass finds the block in
// cache) rather than the whole row twice, the blocks' means and sums of
// squared deviations (each corrected by CorrectedSquares in float64)
// merged in float64 by Chan, Golub and LeVeque's pairwise update, exact
// enough to add no error of note. float64 rows, whose merge would round
// like their data (twice the error on shifted data, measured), and short
// rows take the two passes directly; `ahead` is TwoPass's, for those.
// A block's second pass prefetches the next block (TwoPass's `ahead`), so
// that its first pass finds it in the L1 cache: float32 var and std ran
// 1.15-1.19x as fast at 1M and 16M and 1.24x at 64K (Zen 5, ops_bench A/B over
// 6 processes; 16M through the API 1.58 -> 1.33 ms, sum 1.15).
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE T VarRow(D d, const T* HWY_RESTRICT row, size_t n, std::int64_t ddof, const T* ahead) {
  if (n == 0) return std::numeric_limits<T>::quiet_NaN();
  T mean, squares, deviations;
  if (n <= kVarBlock<T>) {
    TwoPass<true>(d, row, n, mean, squares, deviations, ahead);
    return Finish(squares, deviations, n, ddof);
  }
  if (!std::is_same_v<T, float>) {
    // Long float64 rows: the corrected passes alone (the uncorrected sum
    // would be a third pass over memory for a row that needs the correction).
    TwoPass(d, row, n, mean, squares, deviations, ahead);
    return Finish(squares, deviations, n, ddof);
  }
  double count = 0, total_mean = 0, total_m2 = 0;
  for (size_t k = 0; k < n; k += kVarBlock<T>) {
    const size_t len = n - k < kVarBlock<T> ? n - k : kVarBlock<T>;
    const T* next = k + 2 * kVarBlock<T> <= n ? row + k + kVarBlock<T> : nullptr;
    TwoPass(d, row + k, len, mean, squares, deviations, next);
    const double nb = static_cast<double>(len);
    const double dev = static_cast<double>(deviations);
    const double block_mean = static_cast<double>(mean) + dev / nb;
    const double block_m2 = CorrectedSquares(static_cast<double>(squares), dev, nb);
    const double merged = count + nb;
    const double delta = block_mean - total_mean;
    total_mean += delta * (nb / merged);
    total_m2 += block_m2 + delta * delta * (count * nb / merged);
    count = merged;
  }
  const double divisor = static_cast<double>(static_cast<std::int64_t>(n) - ddof);
  if (!(divisor > 0)) return std::numeric_limits<T>::quiet_NaN();
  const double variance = total_m2 / divisor;
  return variance < 0 ? T{0} : static_cast<T>(variance);  // NaN stays
}

// VarColumns of long rows in column passes: each pass's sums parked on the
// stack, the same steps per lane.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void VarColumnPasses(D d, const T* HWY_RESTRICT x, T* HWY_RESTRICT out, size_t n,
                                size_t inner, std::int64_t ddof) {
  HWY_ALIGN T means[kColumnBlockBytes / sizeof(T)];
  HWY_ALIGN T squares[kColumnBlockBytes / sizeof(T)];
  HWY_ALIGN T deviations[kColumnBlockBytes / sizeof(T)];
  ForEachColumnBlock<T>(inner, [&](size_t c0, size_t c1) HWY_ATTR {
    ForEachRowPass(n, [&](size_t k0, size_t k1) HWY_ATTR {
      ForEachColumnVector(d, x, inner, c0, c1, [&](size_t, size_t v, const auto& load) HWY_ATTR {
        auto sum = k0 == 0 ? hn::Zero(d) : hn::Load(d, means + v);
        for (size_t k = k0; k < k1; ++k) sum = hn::Add(sum, load(k));
        hn::Store(sum, d, means + v);
      });
    });
    for (size_t v = 0; v < c1 - c0; v += hn::Lanes(d)) {
      hn::Store(hn::Div(hn::Load(d, means + v), hn::Set(d, static_cast<T>(n))), d, means + v);
    }
    ForEachRowPass(n, [&](size_t k0, size_t k1) HWY_ATTR {
      ForEachColumnVector(d, x, inner, c0, c1, [&](size_t, size_t v, const auto& load) HWY_ATTR {
        const auto mean = hn::Load(d, means + v);
        auto q = k0 == 0 ? hn::Zero(d) : hn::Load(d, squares + v);
        auto e = k0 == 0 ? hn::Zero(d) : hn::Load(d, deviations + v);
        for (size_t k = k0; k < k1; ++k) {
          const auto dv = hn::Sub(load(k), mean);
          q = hn::MulAdd(dv, dv, q);
          e = hn::Add(e, dv);
        }
        hn::Store(q, d, squares + v);
        hn::Store(e, d, deviations + v);
      });
    });
    for (size_t j = 0; j < c1 - c0; ++j) out[c0 + j] = Finish(squares[j], deviations[j], n, ddof);
  });
}

// inner > 1: N columns at a time, the same two passes down the rows.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void VarColumns(D d, const T* HWY_RESTRICT x, T* HWY_RESTRICT out, size_t n,
                           size_t inner, std::int64_t ddof) {
  const size_t N = hn::Lanes(d);
  if (TakesColumnPasses(d, n, inner, kStatisticsPassBytes)) {
    VarColumnPasses(d, x, out, n, inner, ddof);
    return;
  }
  HWY_ALIGN T squares[hn::MaxLanes(D())];
  HWY_ALIGN T deviations[hn::MaxLanes(D())];
  for (size_t i = 0; i < inner; i += N) {
    const size_t rest = inner - i < N ? inner - i : N;
    if (n == 0) {
      for (size_t j = 0; j < rest; ++j) out[i + j] = std::numeric_limits<T>::quiet_NaN();
      continue;
    }
    const auto load = [&](size_t k) {
      const T* p = x + k * inner + i;
      return rest == N ? hn::LoadU(d, p) : LoadPartial(d, p, rest, hn::Zero(d));
    };
    auto sum = hn::Zero(d);
    for (size_t k = 0; k < n; ++k) sum = hn::Add(sum, load(k));
    const auto mean = hn::Div(sum, hn::Set(d, static_cast<T>(n)));
    auto q = hn::Zero(d), e = hn::Zero(d);
    for (size_t k = 0; k < n; ++k) {
      const auto dv = hn::Sub(load(k), mean);
      q = hn::MulAdd(dv, dv, q);
      e = hn::Add(e, dv);
    }
    hn::Store(q, d, squares);
    hn::Store(e, d, deviations);
    for (size_t j = 0; j < rest; ++j) out[i + j] = Finish(squares[j], deviations[j], n, ddof);
  }
}

template <bool kSqrt, typename T>
HWY_INLINE void Variance(const T* HWY_RESTRICT x, T* HWY_RESTRICT out, size_t outer, size_t n,
                         size_t inner, std::int64_t ddof) {
  const hn::ScalableTag<T> d;
  // Rows of up to kVarBlock elements (whose pass 2 reads the L1 cache) in
  // an input of kPrefetchRowsBytes or more prefetch the next row, as
  // softmax's do: each starts a new page, where the hardware prefetchers
  // stop.
  const bool prefetch =
      inner == 1 && n <= kVarBlock<T> && outer * n * sizeof(T) >= kPrefetchRowsBytes;
  for (size_t o = 0; o < outer; ++o) {
    if (inner == 1) {
      const T* ahead = prefetch && o + 1 < outer ? x + (o + 1) * n : nullptr;
      out[o] = VarRow(d, x + o * n, n, ddof, ahead);
    } else {
      VarColumns(d, x + o * n * inner, out + o * inner, n, inner, ddof);
    }
  }
  if constexpr (kSqrt) {
    for (size_t j = 0; j < outer * inner; ++j) out[j] = std::sqrt(out[j]);
  }
}

// ----- Dot

// Eight accumulators (four on short rows) hide the latency of the
// multiply-adds; the partial vector is padded with zeros. Integers multiply
// and add with wraparound.
template <typename T>
HWY_INLINE T DotImpl(const T* HWY_RESTRICT x, const T* HWY_RESTRICT y, size_t n) {
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  const auto mul_add = [](auto a, auto b, auto acc) {
    if constexpr (hwy::IsFloat<T>()) {
      return hn::MulAdd(a, b, acc);
    } else {
      return hn::Add(hn::Mul(a, b), acc);
    }
  };
  auto a0 = hn::Zero(d), a1 = a0, a2 = a0, a3 = a0;
  size_t k = 0;
  if (n >= 8 * N) {
    auto a4 = a0, a5 = a0, a6 = a0, a7 = a0;
    for (; k + 8 * N <= n; k += 8 * N) {
      a0 = mul_add(hn::LoadU(d, x + k), hn::LoadU(d, y + k), a0);
      a1 = mul_add(hn::LoadU(d, x + k + N), hn::LoadU(d, y + k + N), a1);
      a2 = mul_add(hn::LoadU(d, x + k + 2 * N), hn::LoadU(d, y + k + 2 * N), a2);
      a3 = mul_add(hn::LoadU(d, x + k + 3 * N), hn::LoadU(d, y + k + 3 * N), a3);
      a4 = mul_add(hn::LoadU(d, x + k + 4 * N), hn::LoadU(d, y + k + 4 * N), a4);
      a5 = mul_add(hn::LoadU(d, x + k + 5 * N), hn::LoadU(d, y + k + 5 * N), a5);
      a6 = mul_add(hn::LoadU(d, x + k + 6 * N), hn::LoadU(d, y + k + 6 * N), a6);
      a7 = mul_add(hn::LoadU(d, x + k + 7 * N), hn::LoadU(d, y + k + 7 * N), a7);
    }
    a0 = hn::Add(a0, a4);
    a1 = hn::Add(a1, a5);
    a2 = hn::Add(a2, a6);
    a3 = hn::Add(a3, a7);
  }
  for (; k + 4 * N <= n; k += 4 * N) {
    a0 = mul_add(hn::LoadU(d, x + k), hn::LoadU(d, y + k), a0);
    a1 = mul_add(hn::LoadU(d, x + k + N), hn::LoadU(d, y + k + N), a1);
    a2 = mul_add(hn::LoadU(d, x + k + 2 * N), hn::LoadU(d, y + k + 2 * N), a2);
    a3 = mul_add(hn::LoadU(d, x + k + 3 * N), hn::LoadU(d, y + k + 3 * N), a3);
  }
  for (; k + N <= n; k += N) a0 = mul_add(hn::LoadU(d, x + k), hn::LoadU(d, y + k), a0);
  if (k < n) {
    const auto zero = hn::Zero(d);
    a1 = mul_add(LoadPartial(d, x + k, n - k, zero), LoadPartial(d, y + k, n - k, zero), a1);
  }
  return SumLanes(d, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3)));
}

// ----- Cumsum

// One contiguous row (inner == 1) in the order statistics.hpp documents:
// groups of 16 bytes (G = 4 float32/int32 or 2 float64/int64 elements),
// each scanned in its own lanes by shifted adds,
//   s = [a, a+b, a+(b+c), (a+b)+(c+d)]   (G = 4; [a, a+b] for G = 2),
// then out = C + s, where C, the running total before the group, is the
// previous group's last output (-0 before the first group: -0 + s = s, so
// a leading -0 stays -0). Every target computes these same additions with
// 16-byte vectors, so every target gives the same bits. The only chain
// from group to group is C's one addition, where the scalar loop has one
// per element. Shifts fill with -0 (0 for integers), the identity of
// addition, and integer lanes wrap.
// `stream`: the row's stores stream (StreamRows; the caller flushes).
template <typename T>
HWY_INLINE void CumsumRow(const T* x, T* out, size_t n, bool stream) {
#if HWY_TARGET == HWY_SCALAR
  (void)stream;
  constexpr size_t G = 16 / sizeof(T);
  using A = std::conditional_t<hwy::IsFloat<T>(), T, hwy::MakeUnsigned<T>>;
  const A fill = hwy::IsFloat<T>() ? static_cast<A>(-0.0) : A{0};
  A carry = fill;
  for (size_t k = 0; k < n; k += G) {
    A s[G];
    for (size_t i = 0; i < G; ++i) s[i] = k + i < n ? static_cast<A>(x[k + i]) : fill;
    for (size_t shift = 1; shift < G; shift *= 2) {
      for (size_t i = G; i-- > shift;) s[i] = static_cast<A>(s[i] + s[i - shift]);
    }
    for (size_t i = 0; i < G && k + i < n; ++i) {
      out[k + i] = static_cast<T>(static_cast<A>(carry + s[i]));
    }
    carry = static_cast<A>(carry + s[G - 1]);
  }
#else
  const hn::Full128<T> d;
  constexpr size_t G = 16 / sizeof(T);
  const auto fill = hwy::IsFloat<T>() ? hn::Set(d, static_cast<T>(-0.0)) : hn::Zero(d);
  const auto scan = [&](hn::Vec<decltype(d)> s) HWY_ATTR {
    s = hn::Add(s, hn::CombineShiftRightBytes<16 - sizeof(T)>(d, s, fill));
    if constexpr (G == 4) s = hn::Add(s, hn::CombineShiftRightBytes<8>(d, s, fill));
    return s;
  };
  auto carry = fill;
  size_t k = 0;
  const auto groups = [&](const auto& store) HWY_ATTR {
    for (; k + G <= n; k += G) {
      const auto s = scan(hn::LoadU(d, x + k));
      store(hn::Add(carry, s), out + k);
      carry = hn::Add(carry, hn::Broadcast<G - 1>(s));
    }
  };
  if (stream) {
    groups([&](hn::Vec<decltype(d)> v, T* p) HWY_ATTR { hn::Stream(v, d, p); });
  } else {
    groups([&](hn::Vec<decltype(d)> v, T* p) HWY_ATTR { hn::StoreU(v, d, p); });
  }
  if (k < n) {
    StorePartial(d, hn::Add(carry, scan(LoadPartial(d, x + k, n - k, fill))), n - k, out + k);
  }
#endif
}

// inner > 1: each output row is the previous output row plus this input
// row, a vectorised add of contiguous rows; every lane adds in row order.
// inner == 1: CumsumRow, whose stores stream for a large output (its
// one addition per group leaves the memory bus idle enough that the reads
// of out before its writes cost: 16M float32 took 1.28x as long with
// ordinary stores, Zen 5, ops_bench A/B over 4 processes).
template <typename T>
HWY_INLINE void CumsumImpl(const T* x, T* out, size_t outer, size_t n, size_t inner) {
  if (inner == 1) {
#if HWY_TARGET == HWY_SCALAR
    const bool stream = false;
#else
    const bool stream = StreamRows(hn::Full128<T>(), out, outer, n);
#endif
    for (size_t o = 0; o < outer; ++o) CumsumRow(x + o * n, out + o * n, n, stream);
    if (stream) hwy::FlushStream();
    return;
  }
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  for (size_t o = 0; o < outer; ++o) {
    const T* block = x + o * n * inner;
    T* dst = out + o * n * inner;
    if (n == 0) continue;
    if (dst != block) {
      for (size_t i = 0; i < inner; ++i) dst[i] = block[i];
    }
    for (size_t k = 1; k < n; ++k) {
      const T* HWY_RESTRICT prev = dst + (k - 1) * inner;
      const T* row = block + k * inner;
      T* now = dst + k * inner;
      size_t i = 0;
      for (; i + N <= inner; i += N) {
        hn::StoreU(hn::Add(hn::LoadU(d, prev + i), hn::LoadU(d, row + i)), d, now + i);
      }
      if (i < inner) {
        const size_t rest = inner - i;
        const auto zero = hn::Zero(d);
        StorePartial(
            d, hn::Add(LoadPartial(d, prev + i, rest, zero), LoadPartial(d, row + i, rest, zero)),
            rest, now + i);
      }
    }
  }
}

// ----- Entry points per target

// clang-format off
#define OPGEN_ARG(Name, Suffix, T, kMax)                                            \
  void Name##Suffix(const T* HWY_RESTRICT x, std::int64_t* HWY_RESTRICT out,        \
                    size_t outer, size_t n, size_t inner) {                         \
    Arg<kMax>(x, out, outer, n, inner);                                             \
  }
#define OPGEN_DECIDE(Name, Suffix, T, S, kAll)                                      \
  void Name##Suffix(const T* HWY_RESTRICT x, bool* HWY_RESTRICT out, size_t outer,  \
                    size_t n, size_t inner) {                                       \
    Decide<kAll>(reinterpret_cast<const S*>(x), out, outer, n, inner);              \
  }
#define OPGEN_VARIANCE(Name, Suffix, T, kSqrt)                                      \
  void Name##Suffix(const T* HWY_RESTRICT x, T* HWY_RESTRICT out, size_t outer,     \
                    size_t n, size_t inner, std::int64_t ddof) {                    \
    Variance<kSqrt>(x, out, outer, n, inner, ddof);                                 \
  }
#define OPGEN_DOT(Suffix, T)                                                        \
  T Dot##Suffix(const T* HWY_RESTRICT x, const T* HWY_RESTRICT y, size_t n) {       \
    return DotImpl(x, y, n);                                                        \
  }
#define OPGEN_CUMSUM(Suffix, T)                                                     \
  void Cumsum##Suffix(const T* x, T* out, size_t outer, size_t n, size_t inner) {   \
    CumsumImpl(x, out, outer, n, inner);                                            \
  }
// clang-format on

OPGEN_ARG(Argmax, F32, float, true)
OPGEN_ARG(Argmax, F64, double, true)
OPGEN_ARG(Argmax, I32, int32_t, true)
OPGEN_ARG(Argmax, I64, int64_t, true)
OPGEN_ARG(Argmin, F32, float, false)
OPGEN_ARG(Argmin, F64, double, false)
OPGEN_ARG(Argmin, I32, int32_t, false)
OPGEN_ARG(Argmin, I64, int64_t, false)
// bool is read as its object representation, one byte holding 0 or 1.
OPGEN_DECIDE(All, F32, float, float, true)
OPGEN_DECIDE(All, F64, double, double, true)
OPGEN_DECIDE(All, I32, int32_t, int32_t, true)
OPGEN_DECIDE(All, I64, int64_t, int64_t, true)
OPGEN_DECIDE(All, B, bool, uint8_t, true)
OPGEN_DECIDE(Any, F32, float, float, false)
OPGEN_DECIDE(Any, F64, double, double, false)
OPGEN_DECIDE(Any, I32, int32_t, int32_t, false)
OPGEN_DECIDE(Any, I64, int64_t, int64_t, false)
OPGEN_DECIDE(Any, B, bool, uint8_t, false)
OPGEN_VARIANCE(Var, F32, float, false)
OPGEN_VARIANCE(Var, F64, double, false)
OPGEN_VARIANCE(Std, F32, float, true)
OPGEN_VARIANCE(Std, F64, double, true)
OPGEN_DOT(F32, float)
OPGEN_DOT(F64, double)
OPGEN_DOT(I32, int32_t)
OPGEN_CUMSUM(F32, float)
OPGEN_CUMSUM(F64, double)
OPGEN_CUMSUM(I32, int32_t)
OPGEN_CUMSUM(I64, int64_t)

#undef OPGEN_ARG
#undef OPGEN_DECIDE
#undef OPGEN_VARIANCE
#undef OPGEN_DOT
#undef OPGEN_CUMSUM

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"
namespace opgen::kernels {

// clang-format off
#define OPGEN_EXPORT_REDUCE(Name, Suffix, In, Out)                                 \
  HWY_EXPORT(Name##Suffix);                                                         \
  void Name(const In* x, Out* out, std::size_t outer, std::size_t n,                \
            std::size_t inner) {                                                    \
    OPGEN_DYNAMIC_DISPATCH(Name##Suffix)(x, out, outer, n, inner);                    \
  }
#define OPGEN_EXPORT_VARIANCE(Name, Suffix, T)                                      \
  HWY_EXPORT(Name##Suffix);                                                         \
  void Name(const T* x, T* out, std::size_t outer, std::size_t n, std::size_t inner, \
            std::int64_t ddof) {                                                    \
    OPGEN_DYNAMIC_DISPATCH(Name##Suffix)(x, out, outer, n, inner, ddof);              \
  }
#define OPGEN_EXPORT_DOT(Suffix, T)                                                 \
  HWY_EXPORT(Dot##Suffix);                                                          \
  T Dot(const T* x, const T* y, std::size_t n) {                                    \
    return OPGEN_DYNAMIC_DISPATCH(Dot##Suffix)(x, y, n);                              \
  }
// clang-format on

OPGEN_EXPORT_REDUCE(Argmax, F32, float, std::int64_t)
OPGEN_EXPORT_REDUCE(Argmax, F64, double, std::int64_t)
OPGEN_EXPORT_REDUCE(Argmax, I32, std::int32_t, std::int64_t)
OPGEN_EXPORT_REDUCE(Argmax, I64, std::int64_t, std::int64_t)
OPGEN_EXPORT_REDUCE(Argmin, F32, float, std::int64_t)
OPGEN_EXPORT_REDUCE(Argmin, F64, double, std::int64_t)
OPGEN_EXPORT_REDUCE(Argmin, I32, std::int32_t, std::int64_t)
OPGEN_EXPORT_REDUCE(Argmin, I64, std::int64_t, std::int64_t)
OPGEN_EXPORT_REDUCE(All, F32, float, bool)
OPGEN_EXPORT_REDUCE(All, F64, double, bool)
OPGEN_EXPORT_REDUCE(All, I32, std::int32_t, bool)
OPGEN_EXPORT_REDUCE(All, I64, std::int64_t, bool)
OPGEN_EXPORT_REDUCE(All, B, bool, bool)
OPGEN_EXPORT_REDUCE(Any, F32, float, bool)
OPGEN_EXPORT_REDUCE(Any, F64, double, bool)
OPGEN_EXPORT_REDUCE(Any, I32, std::int32_t, bool)
OPGEN_EXPORT_REDUCE(Any, I64, std::int64_t, bool)
OPGEN_EXPORT_REDUCE(Any, B, bool, bool)
OPGEN_EXPORT_REDUCE(Cumsum, F32, float, float)
OPGEN_EXPORT_REDUCE(Cumsum, F64, double, double)
OPGEN_EXPORT_REDUCE(Cumsum, I32, std::int32_t, std::int32_t)
OPGEN_EXPORT_REDUCE(Cumsum, I64, std::int64_t, std::int64_t)
OPGEN_EXPORT_VARIANCE(Var, F32, float)
OPGEN_EXPORT_VARIANCE(Var, F64, double)
OPGEN_EXPORT_VARIANCE(Std, F32, float)
OPGEN_EXPORT_VARIANCE(Std, F64, double)
OPGEN_EXPORT_DOT(F32, float)
OPGEN_EXPORT_DOT(F64, double)
OPGEN_EXPORT_DOT(I32, std::int32_t)

#undef OPGEN_EXPORT_REDUCE
#undef OPGEN_EXPORT_VARIANCE
#undef OPGEN_EXPORT_DOT

std::int64_t Dot(const std::int64_t* x, const std::int64_t* y, std::size_t n) {
  // Highway 1.0.3 has no 64-bit integer Mul on x86: a scalar loop, with
  // unsigned arithmetic so that overflow wraps without undefined behaviour.
  std::uint64_t sum = 0;
  for (std::size_t k = 0; k < n; ++k) {
    sum += static_cast<std::uint64_t>(x[k]) * static_cast<std::uint64_t>(y[k]);
  }
  return static_cast<std::int64_t>(sum);
}

}  // namespace opgen::kernels
#endif  // HWY_ONCE
