// Matrix product kernels (see matmul.hpp), compiled once per SIMD target by
// foreach_target.h and dispatched at run time.
//
// The float kernels follow the GotoBLAS/BLIS layout: b is packed a block of
// kc rows × nc columns at a time into panels nr columns wide (nr = 2 or 3
// vectors), or read in place as such panels when it is row-major with rows
// of whole vectors under 4 KiB (see GemmFloat); a strip of mr rows × kc of
// a is read in place when a is row-major or transposed (but float32 columns
// a multiple of 4 KiB apart) and otherwise packed so that one k step reads
// mr consecutive values; and a register tile of mr × nr accumulators runs
// over k. The a strip (mr·kc elements) stays in L1 while the b block (kc·nc,
// about 512 KiB) streams from L2; packing makes the loads of b contiguous
// whatever its strides (transposes cost only in packing), and zero padding
// lets tiles always run whole vectors (a b read in place has whole vectors
// already).
#include "kernels/matmul.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/matmul.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The register tile: kRows × kVecs accumulators, plus kVecs b vectors and
// one broadcast a value, must fit the register file without spilling.
// SSE2..AVX2, and the emulated targets, have 16 vector registers: 6 × 2
// (15 in use). AVX-512, NEON on AArch64, SVE and RVV have 32: 8 × 3 (28 in
// use), which needs 11 loads per 24 FMAs, within the two load ports.
#if (HWY_ARCH_X86 && HWY_TARGET > HWY_AVX3) || HWY_ARCH_ARM_V7 || HWY_TARGET == HWY_SCALAR || \
    HWY_TARGET == HWY_EMU128
constexpr size_t kRows = 6;
constexpr size_t kVecs = 2;
#else
constexpr size_t kRows = 8;
constexpr size_t kVecs = 3;
#endif

// kc: depth of one packed block (the a strip, kRows·kc, stays in L1).
// The b block is kc × about kBlockBytes / (kc·sizeof(T)) columns: half of
// a 1 MiB L2, so that it stays there while the a strips and the c tiles
// pass through. Measured with bench/matmul_bench and ops_bench on a Zen 5
// core (1 MiB 8-way L2), float32: 1 MiB blocks ran 1024 at 155-159 GFLOP/s,
// 512 KiB at 178-180 (ops_bench: 168-175 against 180-182, oneDNN 175-179);
// 256 to 640 KiB all came within the noise of 512 KiB, as did kc of 128 to
// 512; float64 was level or faster. An earlier measurement on another
// AVX-512 core had favoured 1 MiB by 4-8% at n = 512 and 1024.
constexpr size_t kDepth = 256;
constexpr size_t kBlockBytes = 512 * 1024;

template <typename T>
size_t PanelWidth() {
  return kVecs * hn::Lanes(hn::ScalableTag<T>());
}

// Columns of one packed b block: a whole number of panels.
template <typename T>
size_t BlockColumns() {
  const size_t nr = PanelWidth<T>();
  return std::max<size_t>(1, kBlockBytes / (kDepth * sizeof(T)) / nr) * nr;
}

// The last block of columns may be up to 1/8 wider than the others rather
// than leave a sliver (n = 1024 float32 would otherwise end with a block of
// 16 columns, a second packing of a for 1.6% of the work).
template <typename T>
size_t MaxBlockColumns() {
  const size_t wide = BlockColumns<T>() + BlockColumns<T>() / 8 + PanelWidth<T>();
  return (wide + 63) / 64 * 64;
}

template <typename T>
size_t WorkspaceElements() {
  return kDepth * MaxBlockColumns<T>() + 2 * kDepth * kRows;
}

size_t WorkspaceBytes(size_t element_size) {
  // The b block first; the a strip after it starts 64-byte aligned because
  // kDepth · MaxBlockColumns is a multiple of 64 elements.
  return element_size == 4 ? WorkspaceElements<float>() * 4 : WorkspaceElements<double>() * 8;
}

// dst[p·ld + j] = src[j·stride + p·step] for p < kc, j < cols: columns of
// b, contiguous along k when step == 1 (a transposed b), written as rows of
// a panel (and Transpose's copies). In blocks of 16 k steps, so that the 16 panel rows written stay
// in L1 while each column's run of 16 is read whole; within them, with
// step == 1, 4 × 4 (float) or 2 × 2 (double) blocks are transposed in
// 128-bit vectors, a load and a store per 4 (2) elements instead of per
// element. Zen 5, float32, trans_b against none: n = 64 169 against 173
// GFLOP/s (element by element, column after column: 134), n = 256 201
// against 203 (185), n = 1024 197-198 against 199-201 (194). The edges, and
// other strides, go element by element.
template <typename T>
void TransposeInto(const T* src, ptrdiff_t stride, ptrdiff_t step, size_t kc, size_t cols,
                   T* HWY_RESTRICT dst, size_t ld) {
  const auto at = [&](size_t j, size_t p) {
    return src[static_cast<ptrdiff_t>(j) * stride + static_cast<ptrdiff_t>(p) * step];
  };
  for (size_t p0 = 0; p0 < kc; p0 += 16) {
    const size_t p1 = std::min(kc, p0 + 16);
    size_t j = 0;
#if HWY_TARGET != HWY_SCALAR
    const hn::Full128<T> d;
    constexpr size_t L = 16 / sizeof(T);
    if (step == 1) {
      for (; j + L <= cols; j += L) {
        const T* c0 = src + static_cast<ptrdiff_t>(j) * stride;
        const T* c1 = c0 + stride;
        size_t p = p0;
        for (; p + L <= p1; p += L) {
          T* out = dst + p * ld + j;
          const auto r0 = hn::LoadU(d, c0 + p);
          const auto r1 = hn::LoadU(d, c1 + p);
          if constexpr (L == 4) {
            const auto r2 = hn::LoadU(d, c1 + stride + p);
            const auto r3 = hn::LoadU(d, c1 + 2 * stride + p);
            const auto t0 = hn::InterleaveLower(d, r0, r1);  // r0[0] r1[0] r0[1] r1[1]
            const auto t1 = hn::InterleaveLower(d, r2, r3);
            const auto t2 = hn::InterleaveUpper(d, r0, r1);  // r0[2] r1[2] r0[3] r1[3]
            const auto t3 = hn::InterleaveUpper(d, r2, r3);
            hn::StoreU(hn::ConcatLowerLower(d, t1, t0), d, out);
            hn::StoreU(hn::ConcatUpperUpper(d, t1, t0), d, out + ld);
            hn::StoreU(hn::ConcatLowerLower(d, t3, t2), d, out + 2 * ld);
            hn::StoreU(hn::ConcatUpperUpper(d, t3, t2), d, out + 3 * ld);
          } else {
            hn::StoreU(hn::InterleaveLower(d, r0, r1), d, out);
            hn::StoreU(hn::InterleaveUpper(d, r0, r1), d, out + ld);
          }
        }
        for (; p < p1; ++p) {
          for (size_t i = 0; i < L; ++i) dst[p * ld + j + i] = at(j + i, p);
        }
      }
    }
#endif
    for (; j < cols; ++j) {
      for (size_t p = p0; p < p1; ++p) dst[p * ld + j] = at(j, p);
    }
  }
}

// Packs rows [p0, p0 + kc) × columns [j0, j0 + nc) of b into panels of nr
// columns: panel q holds b(p0 + p, j0 + q·nr + j) at [q·kc·nr + p·nr + j],
// zero where j0 + q·nr + j >= j0 + nc.
template <typename T>
void PackB(const T* b, ptrdiff_t b_row, ptrdiff_t b_col, size_t p0, size_t kc, size_t j0, size_t nc,
           size_t nr, T* HWY_RESTRICT out) {
  for (size_t q = 0; q * nr < nc; ++q) {
    T* panel = out + q * kc * nr;
    const size_t width = std::min(nr, nc - q * nr);
    const T* src =
        b + static_cast<ptrdiff_t>(p0) * b_row + static_cast<ptrdiff_t>(j0 + q * nr) * b_col;
    if (b_col == 1 && width == nr) {
      // A whole panel row is kVecs vectors: copied inline, not by memcpy
      // (one call per 2-3 vectors took 8.6% of n = 256 float32).
      const hn::ScalableTag<T> d;
      const size_t N = hn::Lanes(d);
      for (size_t p = 0; p < kc; ++p) {
        const T* row = src + static_cast<ptrdiff_t>(p) * b_row;
        T* dst = panel + p * nr;
        for (size_t v = 0; v < kVecs; ++v) hn::StoreU(hn::LoadU(d, row + v * N), d, dst + v * N);
      }
    } else if (b_col == 1) {
      for (size_t p = 0; p < kc; ++p) {
        std::memcpy(panel + p * nr, src + static_cast<ptrdiff_t>(p) * b_row, width * sizeof(T));
        std::fill(panel + p * nr + width, panel + (p + 1) * nr, T(0));
      }
    } else {
      TransposeInto(src, b_col, b_row, kc, width, panel, nr);
      if (width < nr) {
        for (size_t p = 0; p < kc; ++p)
          std::fill(panel + p * nr + width, panel + (p + 1) * nr, T(0));
      }
    }
  }
}

// Packs rows [i0, i0 + rows) × columns [p0, p0 + kc) of a as
// out[p·kRows + r] = a(i0 + r, p0 + p), zero for r >= rows.
template <typename T>
void PackA(const T* a, ptrdiff_t a_row, ptrdiff_t a_col, size_t i0, size_t rows, size_t p0,
           size_t kc, T* HWY_RESTRICT out) {
  const T* src = a + static_cast<ptrdiff_t>(i0) * a_row + static_cast<ptrdiff_t>(p0) * a_col;
  if (rows < kRows) std::fill(out, out + kc * kRows, T(0));
  if (a_col == 1) {
    for (size_t r = 0; r < rows; ++r) {
      const T* row = src + static_cast<ptrdiff_t>(r) * a_row;
      for (size_t p = 0; p < kc; ++p) out[p * kRows + r] = row[p];
    }
  } else {
    for (size_t p = 0; p < kc; ++p) {
      const T* col = src + static_cast<ptrdiff_t>(p) * a_col;
      for (size_t r = 0; r < rows; ++r) out[p * kRows + r] = col[static_cast<ptrdiff_t>(r) * a_row];
    }
  }
}

// Packs the two strips of rows [i0, i0 + 2·kRows) of a transposed a
// (a_row == 1) as PackA would, the second kc·kRows after the first: each
// k step's 2·kRows values are read together (a whole 64-byte line for
// float32 on AVX-512) instead of half a line per strip.
template <typename T>
void PackStripPair(const T* a, ptrdiff_t a_col, size_t i0, size_t p0, size_t kc,
                   T* HWY_RESTRICT out) {
  for (size_t p = 0; p < kc; ++p) {
    const T* src = a + static_cast<ptrdiff_t>(p0 + p) * a_col + static_cast<ptrdiff_t>(i0);
    std::memcpy(out + p * kRows, src, kRows * sizeof(T));
    std::memcpy(out + (kc + p) * kRows, src + kRows, kRows * sizeof(T));
  }
}

// The register tile, written out row by row: Highway vectors may be sizeless
// (SVE, RVV), so they cannot live in arrays. Unused rows and vectors are
// removed by `if constexpr`.
// clang-format off
#define OPGEN_TILE_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define OPGEN_TILE_DECLARE(r) \
  V c##r##0 = zero, c##r##1 = zero, c##r##2 = zero; \
  (void)c##r##0, (void)c##r##1, (void)c##r##2;
#define OPGEN_TILE_STEP(r)                                          \
  if constexpr (kRows > r) {                                        \
    const V a##r = hn::Set(d, kAdjacentRows ? ap[r] : ap[r * lda]); \
    c##r##0 = hn::MulAdd(a##r, b0, c##r##0);                        \
    if constexpr (kUse > 1) c##r##1 = hn::MulAdd(a##r, b1, c##r##1); \
    if constexpr (kUse > 2) c##r##2 = hn::MulAdd(a##r, b2, c##r##2); \
  }
#define OPGEN_TILE_STORE(r)                                                   \
  if constexpr (kRows > r) {                                                  \
    T* row = out + r * ld;                                                    \
    if (accumulate) {                                                         \
      hn::StoreU(hn::Add(hn::LoadU(d, row), c##r##0), d, row);                \
      if constexpr (kUse > 1) hn::StoreU(hn::Add(hn::LoadU(d, row + N), c##r##1), d, row + N); \
      if constexpr (kUse > 2) hn::StoreU(hn::Add(hn::LoadU(d, row + 2 * N), c##r##2), d, row + 2 * N); \
    } else {                                                                  \
      hn::StoreU(c##r##0, d, row);                                            \
      if constexpr (kUse > 1) hn::StoreU(c##r##1, d, row + N);                \
      if constexpr (kUse > 2) hn::StoreU(c##r##2, d, row + 2 * N);            \
    }                                                                         \
  }
// clang-format on

// c(rows × cols) (+)= a strip · b panel over kc, with the first kUse
// vectors of the panel, whose k steps lie ldb apart (kVecs·N in a packed
// panel, b's row stride in place): the last panel of a block, when narrow,
// runs a narrower tile instead of multiplying zero padding (at n = 256 with
// 48-column panels that padding was 11% of the work), and a b read in
// place, whose columns are a whole number of vectors, is then read only
// within its rows. A full tile is stored in place; an edge tile goes
// through a buffer on the stack.
//
// kAdjacentRows: a strip's rows are adjacent, row r at ap[r], and its k
// steps lda apart: a packed strip (lda = kRows) or a transposed a read in
// place (lda: its column stride). Otherwise ap points into a row-major a,
// row r at ap[r·lda] and k steps adjacent (see GemmFloat).
template <size_t kUse, bool kAdjacentRows, class D, typename T = hn::TFromD<D>>
HWY_NOINLINE void Tile(D d, size_t kc, const T* HWY_RESTRICT ap, size_t lda,
                       const T* HWY_RESTRICT bp, size_t ldb, T* HWY_RESTRICT c, size_t ldc,
                       size_t rows, size_t cols, bool accumulate) {
  using V = hn::Vec<D>;
  const size_t N = hn::Lanes(d);
  const V zero = hn::Zero(d);
  HWY_DASSERT(ldb == kVecs * N || cols == kUse * N);
  OPGEN_TILE_ROWS(OPGEN_TILE_DECLARE)
  for (size_t p = 0; p < kc; ++p) {
    const V b0 = hn::LoadU(d, bp);
    const V b1 = kUse > 1 ? hn::LoadU(d, bp + N) : zero;
    const V b2 = kUse > 2 ? hn::LoadU(d, bp + 2 * N) : zero;
    OPGEN_TILE_ROWS(OPGEN_TILE_STEP)
    ap += kAdjacentRows ? lda : 1;
    bp += ldb;
  }
  const bool full = rows == kRows && cols == kUse * N;
  if (full) {
    T* out = c;
    const size_t ld = ldc;
    OPGEN_TILE_ROWS(OPGEN_TILE_STORE)
    return;
  }
  HWY_ALIGN T buffer[kRows * kUse * HWY_MAX_BYTES / sizeof(T)];
  {
    T* out = buffer;
    const size_t ld = kUse * N;
    const bool keep = accumulate;
    accumulate = false;
    OPGEN_TILE_ROWS(OPGEN_TILE_STORE)
    accumulate = keep;
  }
  for (size_t r = 0; r < rows; ++r) {
    T* dst = c + r * ldc;
    const T* src = buffer + r * kUse * N;
    if (accumulate) {
      for (size_t j = 0; j < cols; ++j) dst[j] += src[j];
    } else {
      std::copy(src, src + cols, dst);
    }
  }
}

#undef OPGEN_TILE_STORE
#undef OPGEN_TILE_STEP
#undef OPGEN_TILE_DECLARE
#undef OPGEN_TILE_ROWS

template <typename T>
void GemmFloat(const T* a, ptrdiff_t a_row, ptrdiff_t a_col, const T* b, ptrdiff_t b_row,
               ptrdiff_t b_col, T* c, size_t ldc, size_t m, size_t n, size_t k, void* workspace) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (size_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, T(0));
    return;
  }
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  const size_t nr = PanelWidth<T>();
  const size_t block_columns = BlockColumns<T>();
  T* bp = static_cast<T*>(workspace);
  T* ap = bp + kDepth * MaxBlockColumns<T>();
  // A row-major b whose rows are whole vectors and under 4 KiB is read
  // in place, panel by panel, kc rows b_row apart: its panels' loads
  // are then as fast as the packed ones' and the packing (a copy of
  // the block) is saved. Zen 5, float32, packed against in place:
  // n = 64 196 against 216 GFLOP/s, 256 257 against 272, 512 262
  // against 269, 768 265 against 271, 256 x 1024 x 256 261 against
  // 275; float64 n = 64 110 against 122, 256 128 against 136. Rows of
  // 4 KiB or more put a panel's k steps in a few L1 sets, and the
  // pages it walks multiply: float32 n = 1024 in place ran 234 against
  // 259, so those are packed.
  const bool b_direct = b_col == 1 && n % N == 0 && static_cast<size_t>(b_row) * sizeof(T) < 4096;
  const size_t ldb = b_direct ? static_cast<size_t>(b_row) : nr;
  for (size_t j0 = 0; j0 < n;) {
    const size_t nc = n - j0 <= block_columns + block_columns / 8 ? n - j0 : block_columns;
    for (size_t p0 = 0; p0 < k; p0 += kDepth) {
      const size_t kc = std::min(kDepth, k - p0);
      const bool accumulate = p0 > 0;
      if (!b_direct) PackB(b, b_row, b_col, p0, kc, j0, nc, nr, bp);
      for (size_t i0 = 0; i0 < m; i0 += kRows) {
        const size_t rows = std::min(kRows, m - i0);
        // A row-major a is read in place: packing its strips cost a third
        // of the time at n = 64 and 5-10% from n = 256 to 2048 (measured on
        // an AVX-512 core, float32 and float64; rows 4 KiB apart did not
        // suffer from sharing L1 sets). So is a transposed a, whose strips
        // hold each k step's kRows values side by side as a packed one
        // does (Zen 5, float32, trans_a against none: n = 64 172 against
        // 173 GFLOP/s, packed 129; n = 256 198 against 201-202, packed
        // 186; n = 768 207 against 206, packed 198; n = 1024 184-185
        // either way, against 200-202). Other strides, and a last strip
        // of fewer than kRows rows, are packed (zero padded).
        const bool direct = a_col == 1 && rows == kRows;
        const bool adjacent = a_row == 1 && rows == kRows;
        // A float32 transposed a whose columns lie a multiple of 4 KiB
        // apart puts every k step of a strip in one L1 set, and the strip
        // is read again for each panel: such strips are packed, two at a
        // time (PackStripPair: a whole line per k step; PackA, half a
        // line, did no better than reading in place). Zen 5, n = 1024,
        // alternating runs: aT·bT 172.7-184.4 against 162.4-173.1 GFLOP/s,
        // aT·b 175.3-187.8 against 167.7-171.0 (faster in each pair).
        // float64 strips of 8 already fill a line: pairing them ran 2-6 %
        // slower at 512.
        const bool first_of_pair = i0 % (2 * kRows) == 0;
        const bool aliased = sizeof(T) == 4 && adjacent &&
                             (static_cast<size_t>(a_col) * sizeof(T)) % 4096 == 0 &&
                             (!first_of_pair || i0 + 2 * kRows <= m);
        const T* strip = ap;
        size_t lda = static_cast<size_t>(a_row);
        if (direct) {
          strip = a + static_cast<ptrdiff_t>(i0) * a_row + static_cast<ptrdiff_t>(p0);
        } else if (aliased) {
          if (first_of_pair) PackStripPair(a, a_col, i0, p0, kc, ap);
          strip = first_of_pair ? ap : ap + kc * kRows;
          lda = kRows;
        } else if (adjacent) {
          strip = a + static_cast<ptrdiff_t>(i0) + static_cast<ptrdiff_t>(p0) * a_col;
          lda = static_cast<size_t>(a_col);
        } else {
          PackA(a, a_row, a_col, i0, rows, p0, kc, ap);
          lda = kRows;
        }
        for (size_t q = 0; q * nr < nc; ++q) {
          const size_t cols = std::min(nr, nc - q * nr);
          const T* panel =
              b_direct ? b + static_cast<ptrdiff_t>(p0) * b_row + (j0 + q * nr) : bp + q * kc * nr;
          T* out = c + i0 * ldc + j0 + q * nr;
          if (direct) {
            if (cols <= N) {
              Tile<1, false>(d, kc, strip, lda, panel, ldb, out, ldc, rows, cols, accumulate);
            } else if (kVecs > 2 && cols <= 2 * N) {
              Tile<2, false>(d, kc, strip, lda, panel, ldb, out, ldc, rows, cols, accumulate);
            } else {
              Tile<kVecs, false>(d, kc, strip, lda, panel, ldb, out, ldc, rows, cols, accumulate);
            }
          } else if (cols <= N) {
            Tile<1, true>(d, kc, strip, lda, panel, ldb, out, ldc, rows, cols, accumulate);
          } else if (kVecs > 2 && cols <= 2 * N) {
            Tile<2, true>(d, kc, strip, lda, panel, ldb, out, ldc, rows, cols, accumulate);
          } else {
            Tile<kVecs, true>(d, kc, strip, lda, panel, ldb, out, ldc, rows, cols, accumulate);
          }
        }
      }
    }
    j0 += nc;
  }
}

void GemmF32(const float* a, ptrdiff_t a_row, ptrdiff_t a_col, const float* b, ptrdiff_t b_row,
             ptrdiff_t b_col, float* c, size_t ldc, size_t m, size_t n, size_t k, void* workspace) {
  GemmFloat(a, a_row, a_col, b, b_row, b_col, c, ldc, m, n, k, workspace);
}

void GemmF64(const double* a, ptrdiff_t a_row, ptrdiff_t a_col, const double* b, ptrdiff_t b_row,
             ptrdiff_t b_col, double* c, size_t ldc, size_t m, size_t n, size_t k,
             void* workspace) {
  GemmFloat(a, a_row, a_col, b, b_row, b_col, c, ldc, m, n, k, workspace);
}

// Transpose's copies. A large one (over 256 KiB) whose dst rows lie a page
// or more apart goes in tiles of kTileRows dst rows by kTileColumns: in one
// sweep of 16 dst rows along a whole source row, those 16 rows' lines
// share an L1 set (12 ways on Zen 4 and 5) and evict each other before
// their 64 bytes are written. Zen 5, linalg.transpose in ns per element
// (whole sweep against tiles): float32 1024 x 1024 1.22 against 0.41,
// 4096 x 256 1.20 against 0.38, 2048 x 2048 1.40 against 0.83; float64
// 1024 x 1024 2.38 against 0.75, 512 x 1024 2.0 against 0.46. Rows under a
// page apart measured alike or better as one sweep (float64 256 x 4096:
// 0.22 against 0.78 in tiles).
inline constexpr size_t kTileColumns = 256;
template <typename T>
inline constexpr size_t kTileRows = sizeof(T) == 4 ? 12 : 8;

template <typename T>
void TransposeCopy(const T* src, ptrdiff_t stride, size_t rows, size_t cols, T* dst, size_t ld) {
  if (ld * sizeof(T) < 4096 || rows * cols * sizeof(T) <= (size_t{256} << 10)) {
    return TransposeInto(src, stride, 1, rows, cols, dst, ld);
  }
  for (size_t j0 = 0; j0 < cols; j0 += kTileColumns) {
    const size_t jc = std::min(kTileColumns, cols - j0);
    for (size_t p0 = 0; p0 < rows; p0 += kTileRows<T>) {
      TransposeInto(src + static_cast<ptrdiff_t>(j0) * stride + static_cast<ptrdiff_t>(p0), stride,
                    1, std::min(kTileRows<T>, rows - p0), jc, dst + p0 * ld + j0, ld);
    }
  }
}

// Transpose's element sizes: 4 and 8 bytes as unsigned integers, whose
// loads and stores copy bits whatever they encode.
void Transpose32(const uint32_t* src, ptrdiff_t stride, size_t rows, size_t cols, uint32_t* dst,
                 size_t ld) {
  TransposeCopy(src, stride, rows, cols, dst, ld);
}
void Transpose64(const uint64_t* src, ptrdiff_t stride, size_t rows, size_t cols, uint64_t* dst,
                 size_t ld) {
  TransposeCopy(src, stride, rows, cols, dst, ld);
}

// dst[i] = src[n - 1 - i]: whole vectors from src's end, each reversed in
// its lanes, four at a time; the rest (fewer than one vector) one by one.
template <typename T>
HWY_INLINE void ReverseInto(const T* HWY_RESTRICT src, size_t n, T* HWY_RESTRICT dst) {
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + 4 * N <= n; i += 4 * N) {
    const T* s = src + (n - i);
    const auto v0 = hn::LoadU(d, s - N);
    const auto v1 = hn::LoadU(d, s - 2 * N);
    const auto v2 = hn::LoadU(d, s - 3 * N);
    const auto v3 = hn::LoadU(d, s - 4 * N);
    hn::StoreU(hn::Reverse(d, v0), d, dst + i);
    hn::StoreU(hn::Reverse(d, v1), d, dst + i + N);
    hn::StoreU(hn::Reverse(d, v2), d, dst + i + 2 * N);
    hn::StoreU(hn::Reverse(d, v3), d, dst + i + 3 * N);
  }
  for (; i + N <= n; i += N)
    hn::StoreU(hn::Reverse(d, hn::LoadU(d, src + (n - i) - N)), d, dst + i);
  for (; i < n; ++i) dst[i] = src[n - 1 - i];
}
void Reverse32(const uint32_t* src, size_t n, uint32_t* dst) { ReverseInto(src, n, dst); }
void Reverse64(const uint64_t* src, size_t n, uint64_t* dst) { ReverseInto(src, n, dst); }

// dst[i] = src[i * stride] for i < n. Strides 2, 3 and 4 de-interleave
// whole vectors from contiguous loads (LoadInterleaved2/3/4, of which only
// the first vector is kept); a vector at i reads src up to (i + N) * stride
// - 1, which stays within the last element the copy reads, (n - 1) *
// stride, while i + N < n. The rest, and other strides, element by
// element.
template <typename T>
HWY_INLINE void StridedInto(const T* HWY_RESTRICT src, ptrdiff_t stride, size_t n,
                            T* HWY_RESTRICT dst) {
  const hn::ScalableTag<T> d;
  using V = hn::Vec<decltype(d)>;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  V v0, v1, v2, v3;
  if (stride == 2) {
    for (; i + N < n; i += N) {
      hn::LoadInterleaved2(d, src + 2 * i, v0, v1);
      hn::StoreU(v0, d, dst + i);
    }
  } else if (stride == 3) {
    for (; i + N < n; i += N) {
      hn::LoadInterleaved3(d, src + 3 * i, v0, v1, v2);
      hn::StoreU(v0, d, dst + i);
    }
  } else if (stride == 4) {
    for (; i + N < n; i += N) {
      hn::LoadInterleaved4(d, src + 4 * i, v0, v1, v2, v3);
      hn::StoreU(v0, d, dst + i);
    }
  }
  for (; i < n; ++i) dst[i] = src[static_cast<ptrdiff_t>(i) * stride];
}
void StridedCopy32(const uint32_t* src, ptrdiff_t stride, size_t n, uint32_t* dst) {
  StridedInto(src, stride, n, dst);
}
void StridedCopy64(const uint64_t* src, ptrdiff_t stride, size_t n, uint64_t* dst) {
  StridedInto(src, stride, n, dst);
}

// dst[i] = value for i < n: whole vectors, four at a time, then elements.
template <typename T>
HWY_INLINE void FillWith(T value, size_t n, T* HWY_RESTRICT dst) {
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  const auto v = hn::Set(d, value);
  size_t i = 0;
  for (; i + 4 * N <= n; i += 4 * N) {
    hn::StoreU(v, d, dst + i);
    hn::StoreU(v, d, dst + i + N);
    hn::StoreU(v, d, dst + i + 2 * N);
    hn::StoreU(v, d, dst + i + 3 * N);
  }
  for (; i + N <= n; i += N) hn::StoreU(v, d, dst + i);
  for (; i < n; ++i) dst[i] = value;
}
void Fill32(uint32_t value, size_t n, uint32_t* dst) { FillWith(value, n, dst); }
void Fill64(uint64_t value, size_t n, uint64_t* dst) { FillWith(value, n, dst); }

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"
namespace opgen::kernels {

HWY_EXPORT(WorkspaceBytes);
HWY_EXPORT(GemmF32);
HWY_EXPORT(GemmF64);
HWY_EXPORT(Transpose32);
HWY_EXPORT(Transpose64);
HWY_EXPORT(Reverse32);
HWY_EXPORT(Reverse64);
HWY_EXPORT(Fill32);
HWY_EXPORT(Fill64);
HWY_EXPORT(StridedCopy32);
HWY_EXPORT(StridedCopy64);

void Fill(std::uint32_t value, std::size_t n, std::uint32_t* dst) {
  OPGEN_DYNAMIC_DISPATCH(Fill32)(value, n, dst);
}
void Fill(std::uint64_t value, std::size_t n, std::uint64_t* dst) {
  OPGEN_DYNAMIC_DISPATCH(Fill64)(value, n, dst);
}

void StridedCopy(const std::uint32_t* src, std::ptrdiff_t stride, std::size_t n,
                 std::uint32_t* dst) {
  OPGEN_DYNAMIC_DISPATCH(StridedCopy32)(src, stride, n, dst);
}
void StridedCopy(const std::uint64_t* src, std::ptrdiff_t stride, std::size_t n,
                 std::uint64_t* dst) {
  OPGEN_DYNAMIC_DISPATCH(StridedCopy64)(src, stride, n, dst);
}

void Reverse(const std::uint32_t* src, std::size_t n, std::uint32_t* dst) {
  OPGEN_DYNAMIC_DISPATCH(Reverse32)(src, n, dst);
}
void Reverse(const std::uint64_t* src, std::size_t n, std::uint64_t* dst) {
  OPGEN_DYNAMIC_DISPATCH(Reverse64)(src, n, dst);
}

void Transpose(const std::uint32_t* src, std::ptrdiff_t stride, std::size_t rows, std::size_t cols,
               std::uint32_t* dst, std::size_t ld) {
  OPGEN_DYNAMIC_DISPATCH(Transpose32)(src, stride, rows, cols, dst, ld);
}
void Transpose(const std::uint64_t* src, std::ptrdiff_t stride, std::size_t rows, std::size_t cols,
               std::uint64_t* dst, std::size_t ld) {
  OPGEN_DYNAMIC_DISPATCH(Transpose64)(src, stride, rows, cols, dst, ld);
}

std::size_t GemmWorkspaceBytes(std::size_t element_size) {
  return OPGEN_DYNAMIC_DISPATCH(WorkspaceBytes)(element_size);
}

void Gemm(const float* a, std::ptrdiff_t a_row, std::ptrdiff_t a_col, const float* b,
          std::ptrdiff_t b_row, std::ptrdiff_t b_col, float* c, std::size_t ldc, std::size_t m,
          std::size_t n, std::size_t k, void* workspace) {
  OPGEN_DYNAMIC_DISPATCH(GemmF32)(a, a_row, a_col, b, b_row, b_col, c, ldc, m, n, k, workspace);
}

void Gemm(const double* a, std::ptrdiff_t a_row, std::ptrdiff_t a_col, const double* b,
          std::ptrdiff_t b_row, std::ptrdiff_t b_col, double* c, std::size_t ldc, std::size_t m,
          std::size_t n, std::size_t k, void* workspace) {
  OPGEN_DYNAMIC_DISPATCH(GemmF64)(a, a_row, a_col, b, b_row, b_col, c, ldc, m, n, k, workspace);
}

namespace {

// Integers: row i of c accumulates a(i, p) · row p of b, so the inner loop
// runs along contiguous rows of b and c (the compiler vectorises it when b
// is row-major). Arithmetic is unsigned so that overflow wraps instead of
// being undefined.
template <typename T>
void GemmInt(const T* a, std::ptrdiff_t a_row, std::ptrdiff_t a_col, const T* b,
             std::ptrdiff_t b_row, std::ptrdiff_t b_col, T* c, std::size_t ldc, std::size_t m,
             std::size_t n, std::size_t k) {
  using U = std::make_unsigned_t<T>;
  for (std::size_t i = 0; i < m; ++i) {
    U* row = reinterpret_cast<U*>(c + i * ldc);
    std::fill(row, row + n, U(0));
    for (std::size_t p = 0; p < k; ++p) {
      const U aip = static_cast<U>(
          a[static_cast<std::ptrdiff_t>(i) * a_row + static_cast<std::ptrdiff_t>(p) * a_col]);
      const T* brow = b + static_cast<std::ptrdiff_t>(p) * b_row;
      for (std::size_t j = 0; j < n; ++j) {
        row[j] += aip * static_cast<U>(brow[static_cast<std::ptrdiff_t>(j) * b_col]);
      }
    }
  }
}

}  // namespace

void Gemm(const std::int32_t* a, std::ptrdiff_t a_row, std::ptrdiff_t a_col, const std::int32_t* b,
          std::ptrdiff_t b_row, std::ptrdiff_t b_col, std::int32_t* c, std::size_t ldc,
          std::size_t m, std::size_t n, std::size_t k, void*) {
  GemmInt(a, a_row, a_col, b, b_row, b_col, c, ldc, m, n, k);
}

void Gemm(const std::int64_t* a, std::ptrdiff_t a_row, std::ptrdiff_t a_col, const std::int64_t* b,
          std::ptrdiff_t b_row, std::ptrdiff_t b_col, std::int64_t* c, std::size_t ldc,
          std::size_t m, std::size_t n, std::size_t k, void*) {
  GemmInt(a, a_row, a_col, b, b_row, b_col, c, ldc, m, n, k);
}

}  // namespace opgen::kernels
#endif  // HWY_ONCE
