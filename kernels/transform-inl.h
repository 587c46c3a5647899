// Per-target loops shared by the kernels: partial loads and stores for the
// remainder of an array, and the unary/binary elementwise loops built on them.
// Included once per SIMD target by each kernel .cpp (foreach_target.h), hence
// the include guard that toggles with HWY_TARGET_TOGGLE.

#if defined(OPGEN_KERNELS_TRANSFORM_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef OPGEN_KERNELS_TRANSFORM_INL_H_
#undef OPGEN_KERNELS_TRANSFORM_INL_H_
#else
#define OPGEN_KERNELS_TRANSFORM_INL_H_
#endif

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/cpu.hpp"

#ifndef OPGEN_LIGHT_UNARY_FLOAT
// Name##F32 and Name##F64, the float kernels of a unary op whose loop does
// little besides its loads and stores: LightUnaryTransform of Name##Op.
// clang-format off
#define OPGEN_LIGHT_UNARY_FLOAT(Name)                                        \
  void Name##F32(const float* x, float* out, size_t n) {                     \
    LightUnaryTransform(x, out, n, Name##Op());                              \
  }                                                                          \
  void Name##F64(const double* x, double* out, size_t n) {                   \
    LightUnaryTransform(x, out, n, Name##Op());                              \
  }
// clang-format on
#endif

#ifndef OPGEN_FORM_ATTR
// The attributes of a lambda given to FastFormOp: compiled for the current
// target (HWY_ATTR, which clang needs on lambdas) and always inlined, as
// HWY_INLINE functions are; GCC inlines a plain lambda's call operator into
// the loops of UnaryTransform only sometimes.
#define OPGEN_FORM_ATTR HWY_ATTR __attribute__((always_inline))
#endif

HWY_BEFORE_NAMESPACE();
namespace opgen::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Returns a vector whose lanes [0, count) are p[0, count) and whose other lanes
// are `fill`; count < Lanes(d). Never touches memory at or past p + count:
// Highway 1.0.3 has no LoadN, and its MaskedLoad reads the whole vector on
// SSSE3/SSE4/AVX2 (HWY_MEM_OPS_MIGHT_FAULT), which may fault at the end of a
// page. There we go through an aligned stack copy; AVX-512 (and SVE) have true
// fault-suppressing masked loads.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE hn::Vec<D> LoadPartial(D d, const T* p, size_t count, hn::Vec<D> fill) {
#if HWY_MEM_OPS_MIGHT_FAULT
  HWY_ALIGN T lanes[hn::MaxLanes(D())];
  hn::Store(fill, d, lanes);
  std::memcpy(lanes, p, count * sizeof(T));
  return hn::Load(d, lanes);
#else
  const auto mask = hn::FirstN(d, count);
  return hn::IfThenElse(mask, hn::MaskedLoad(mask, d, p), fill);
#endif
}

// Stores lanes [0, count) of v to p[0, count); count < Lanes(d). Emulated
// BlendedStore would read-modify-write memory past the end (a data race with
// whoever owns it), so the same split as LoadPartial applies.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void StorePartial(D d, hn::Vec<D> v, size_t count, T* p) {
#if HWY_MEM_OPS_MIGHT_FAULT
  HWY_ALIGN T lanes[hn::MaxLanes(D())];
  hn::Store(v, d, lanes);
  std::memcpy(p, lanes, count * sizeof(T));
#else
  hn::BlendedStore(v, hn::FirstN(d, count), d, p);
#endif
}

// Unused lanes of a partial vector hold 1: every op maps it to a finite value
// without raising floating-point exceptions or producing denormals (a zero
// would make Log return -inf and integer/float Div divide by zero).
template <class D>
HWY_INLINE hn::Vec<D> PaddingLanes(D d) {
  return hn::Set(d, hn::TFromD<D>{1});
}

// The sum of v's lanes as a scalar: GetLane(SumOfLanes(d, v)), added in
// the same order (the same bits). Highway's AVX-512 SumOfLanes ends by
// broadcasting the sum to every lane, and GCC keeps that broadcast on the
// chain to the result even where only lane 0 is read: a few cycles at the
// end of every row sum, which a 1K float32 sum (about 13 ns) notices.
template <class D, class V = hn::Vec<D>>
HWY_INLINE hn::TFromD<D> SumLanes(D d, V v) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  using T = hn::TFromD<D>;
  if constexpr (hn::MaxLanes(D()) * sizeof(T) == 64) {
    if constexpr (hwy::IsSame<T, float>()) return _mm512_reduce_add_ps(v.raw);
    if constexpr (hwy::IsSame<T, double>()) return _mm512_reduce_add_pd(v.raw);
    if constexpr (hwy::IsSame<T, int32_t>()) return _mm512_reduce_add_epi32(v.raw);
    if constexpr (hwy::IsSame<T, int64_t>()) return _mm512_reduce_add_epi64(v.raw);
  }
#endif
  return hn::GetLane(hn::SumOfLanes(d, v));
}

// Keeps a loaded vector in a register: without this, GCC folds every use
// of it into its own memory operand and reads the row twice, and the
// loads, not the arithmetic, then set the speed (the row scans of max,
// argmax and friends).
template <class V>
HWY_INLINE void InRegister(V& v) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_SSSE3 && (HWY_COMPILER_GCC || HWY_COMPILER_CLANG)
  asm("" : "+v"(v.raw));
#else
  (void)v;
#endif
}

// A vector of ones for AddOnFma, kept in a register so that the compiler
// cannot fold fma(a, 1, b) back into a + b.
template <class D>
HWY_INLINE hn::Vec<D> FmaOne(D d) {
  auto one = hn::Set(d, hn::TFromD<D>{1});
  InRegister(one);
  return one;
}

// a + b on the multiply-add units: fma(a, 1, b) rounds exactly as a + b
// (a * 1 is exact), bit for bit. Where adders and multiply-adders are
// separate pipes (AMD Zen: two of each, one 512-bit operation per cycle on
// each pair), a loop with more additions than multiplies runs faster when
// some of its additions go this way; where every pipe does both (Intel,
// Arm) it costs nothing. `one` comes from FmaOne.
template <class V>
HWY_INLINE V AddOnFma(V a, V b, V one) {
  return hn::MulAdd(a, one, b);
}

// Arrays of at least StreamBytes() output bytes (cpu.hpp: 16 MiB unless a
// test lowers it) are written with streaming (non-temporal) stores: far
// larger than the last-level cache, they would only evict useful lines, and
// skipping the read-for-ownership of each output line cuts the memory
// traffic of a binary op from 16 to 12 bytes per float (~1.3x at 16M
// floats). Below it streaming stores are several times slower.

// How far ahead of the loads the streaming loops below prefetch. With
// streaming stores nothing of the output stays in the caches, and the
// hardware prefetchers alone leave the loads waiting on memory: on a Sapphire
// Rapids class Xeon, prefetching 2 KiB ahead took 16M-float exp from 8.0 to
// 5.0 ms, log from 9.5-13.7 to 6.0-6.8 and changed nothing for ops already at
// the bandwidth limit (relu, abs), nor at 1M floats (in the L3 cache).
inline constexpr size_t kPrefetchBytes = 2048;
// The same distance in elements of T.
template <typename T>
inline constexpr size_t kPrefetchAhead = kPrefetchBytes / sizeof(T);

// Prefetches the cache lines of the `vectors` vectors of d at p, one
// prefetch per 64 bytes. The caller keeps p inside the array (a prefetch
// cannot fault, but the pointer arithmetic must stay defined).
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void PrefetchVectors(D d, const T* p, size_t vectors) {
  constexpr size_t kLine = 64 / sizeof(T);
  const size_t span = vectors * hn::Lanes(d);
  for (size_t k = 0; k < span; k += kLine) hwy::Prefetch(p + k);
}

// Prefetches the cache lines of the four vectors at p + kPrefetchAhead<T>.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void PrefetchFourAhead(D d, const T* p) {
  PrefetchVectors(d, p + kPrefetchAhead<T>, 4);
}

// Kernels that vectorise along inner (reductions, softmax, var, argmax,
// all/any over a leading dim) hold a few vectors of columns in registers
// while the rows pass. Walking one group of columns down all n rows reads
// each row's few hundred bytes on another page when rows are 4 KiB or
// more, where the hardware prefetchers stop, and rows 4 KiB apart share L1
// sets; so long rows are walked kColumnBlockBytes of columns at a time, in
// passes of kColumnPassRows rows, each column's state parked in the L1
// cache between passes (measurements at ReduceColumns, reduce.cpp).
inline constexpr size_t kColumnPassRows = 8;
inline constexpr size_t kColumnBlockBytes = 4096;

// Whether an (n, inner) block takes those passes: rows of `min_row_bytes`
// or more, 4 passes or more (up to 31 rows the prefetchers follow each row
// through the columns), and 4 vectors of d within a block.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE bool TakesColumnPasses(D d, size_t n, size_t inner, size_t min_row_bytes) {
  return inner * sizeof(T) >= min_row_bytes && n >= 4 * kColumnPassRows &&
         4 * hn::Lanes(d) * sizeof(T) <= kColumnBlockBytes;
}

// block(c0, c1) for each block of columns [c0, c1) of an (n, inner) block
// of T, kColumnBlockBytes wide (the last one ragged).
template <typename T, class Block>
HWY_INLINE void ForEachColumnBlock(size_t inner, const Block& block) {
  constexpr size_t kWidth = kColumnBlockBytes / sizeof(T);
  for (size_t c0 = 0; c0 < inner; c0 += kWidth)
    block(c0, inner - c0 <= kWidth ? inner : c0 + kWidth);
}

// pass(k0, k1) for each pass of kColumnPassRows rows [k0, k1) of n >= 1.
template <class Pass>
HWY_INLINE void ForEachRowPass(size_t n, const Pass& pass) {
  for (size_t k0 = 0; k0 < n; k0 += kColumnPassRows) {
    pass(k0, n - k0 <= kColumnPassRows ? n : k0 + kColumnPassRows);
  }
}

// Inputs of at least this many bytes in rows prefetch the next row while
// a row's last pass over it runs from the L1 cache with load ports to
// spare (softmax's exp pass, var's pass 2): the pass that first reads the
// next row would otherwise start it (a new page, where the hardware
// prefetchers stop) on misses. Kernel alone, rows of 1024, medians over 4
// output placements: 1M floats softmax 190-201 -> 170-177 us, log_softmax
// 208-212 -> 185-195; 64K and 256K floats (in the L2 cache) unchanged.
inline constexpr size_t kPrefetchRowsBytes = size_t{1} << 20;

// Rows of more than kLongRowBytes are read from memory rather than from the
// caches, and Zen 4 (the CPU of NarrowStores) reads them faster in 256-bit
// vectors: (ops_bench, 16M float32, interleaved pairs) sum, prod,
// reduce_max and norm2 took 2.0-2.4 ms that way against 2.5-2.9 in 512-bit
// vectors, argmax and argmin 2.1-2.4 against 2.6-2.7; at 4M (in L3) the
// two measured alike. Zen 5 reads them faster in 512-bit vectors (sum,
// prod, reduce_max 1.3-1.7 ms against 1.9-2.7, ABBA rounds; norm2 and
// argmax within the rounds' noise). Loops that also write (elementwise
// ops) measured alike either way on Zen 4.
inline constexpr size_t kLongRowBytes = size_t{16} << 20;

// body(d) with the tag for rows of n elements of T: ScalableTag<T>, or on
// AVX-512 CPUs with NarrowStores past kLongRowBytes a 256-bit CappedTag.
template <typename T, class Body>
HWY_INLINE void WithRowTag(size_t n, const Body& body) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  if (n * sizeof(T) > kLongRowBytes && NarrowStores()) {
    return body(hn::CappedTag<T, 32 / sizeof(T)>());
  }
#else
  (void)n;
#endif
  body(hn::ScalableTag<T>());
}

// The output sizes at which a loop that does little besides its loads and
// stores (add, abs, round) runs faster in 256-bit vectors on CPUs with
// NarrowStores: below kWideStoreBytes (in the L1 cache, where a 512-bit
// loop's loads also wait far longer on older stores whose addresses match
// theirs in the low 12 bits; how often depends on where the buffers lie)
// and from kNarrowStoreBytes (past the L2 cache, where a 512-bit store takes
// two cycles of the store path) up to StreamBytes(). Zen 4, 1K floats: the
// best of three runs for each of 24 buffer placements in one process, add
// 46.4 ns median and 162 ns at worst in 512-bit vectors, 44.6 and 57 in
// 256-bit; round 48.7 and 176, 45.5 and 73; abs, relu 35.2-35.5 either
// way, 153 and 57 at worst; in ops_bench (medians of 12 processes) add, sub
// and mul 8-10 % and round 6 % less time. Between the two sizes, in the L2
// cache, 512-bit vectors measured 1-3 % faster (64K floats).
inline constexpr size_t kWideStoreBytes = size_t{128} << 10;
inline constexpr size_t kNarrowStoreBytes = size_t{1} << 20;

// body(d) for such a loop over n elements of T: ScalableTag<T>, or on
// AVX-512 CPUs with NarrowStores a 256-bit CappedTag at the sizes above,
// below kWideStoreBytes only if kNarrowInL1 (streamed arrays keep whole
// vectors: bound by memory, they measured alike). Loops with a few
// operations per vector set kNarrowInL1 false, as their 1K arrays took
// longer in 256-bit vectors (ops_bench, medians of 12 processes: maximum
// and minimum 3-7 %, leaky_relu 4 %); ops whose arithmetic sets the speed
// keep 512-bit vectors throughout (1K selu, softplus and mish took
// 1.35-1.75x as long in 256-bit ones, hard_sigmoid and hard_swish 1.1x), and
// so does sign (6 % slower at 1M in 256-bit vectors).
template <typename T, bool kNarrowInL1 = true, class Body>
HWY_INLINE void WithStoreTag(size_t n, const Body& body) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  const size_t bytes = n * sizeof(T);
  const bool narrow = (kNarrowInL1 && bytes < kWideStoreBytes) ||
                      (bytes >= kNarrowStoreBytes && bytes < StreamBytes());
  if (narrow && NarrowStores()) return body(hn::CappedTag<T, 32 / sizeof(T)>());
#else
  (void)n;
#endif
  body(hn::ScalableTag<T>());
}

// Whether Stream may store vectors of D: Highway 1.0.3's x86 Stream of a
// vector narrower than 16 bytes (float32 pow's half vectors on SSE4) stores
// the whole 16-byte register, past the vector's end, and needs 16-byte
// alignment. Such vectors take ordinary stores.
template <class D>
inline constexpr bool kCanStream = hn::MaxLanes(D()) * sizeof(hn::TFromD<D>) >= 16;

// How many elements to process with partial vectors before out + i is
// aligned to a whole vector (0 when it is; n when it never gets there).
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE size_t HeadToAlign(D d, const T* out, size_t n) {
  const size_t bytes = hn::Lanes(d) * sizeof(T);
  const size_t mis = reinterpret_cast<uintptr_t>(out) % bytes;
  if (mis % sizeof(T) != 0) return n;
  const size_t head = mis == 0 ? 0 : (bytes - mis) / sizeof(T);
  return head < n ? head : n;
}

// A functor for UnaryTransform may also offer Fast(d, v), a cheaper form
// valid where every lane of InRange(d, v) is true; operator() stays valid
// everywhere.
template <class Func, class D>
concept HasFastForm = requires(const Func& f, D d, hn::Vec<D> v) {
  f.Fast(d, v);
  f.InRange(d, v);
};

// A functor for UnaryTransform with a float32 fast form, made of three
// stateless callables (d, v) -> ...: FullForm, valid everywhere; FastForm,
// valid where every lane of InRangeForm is true. operator() takes the fast
// form for a float32 vector wholly in range when kFastAlone (FullForm does
// no check of its own), FullForm otherwise. The callables are lambdas
// declared OPGEN_FORM_ATTR, so that they inline as HWY_INLINE functions do
// (variable templates of them where a form takes template arguments, as
// for UnaryTransformDivider).
//
// How ApplyFour shares each four vectors between a FastFormOp's full form,
// when that is a unit that works beside the FMA units (the divider: vdivps,
// vsqrtps), and its fast form, FMA-unit work of the same result, so that
// both kinds of unit are busy. How many of four take the full form depends
// on the CPU (FastDivider, read once per kernel call):
//   kNone: none (every vector in range takes the fast form);
//   kDivision (a full form of one division): one, or three on CPUs whose
//     divider nearly keeps up with the FMA units (Zen 4, 1K softsign and
//     reciprocal: 107-110 ns all four divided, 91-96 two, 80-89 three);
//   kSqrtDivision (a square root and a division): none, or one with
//     FastDivider (Zen 4, 1K rsqrt: 125 ns none, 111 one, 213 three).
enum class DividerShare { kNone, kDivision, kSqrtDivision };

// A functor for UnaryTransform with a float32 fast form, made of three
// stateless callables (d, v) -> ...: FullForm, valid everywhere; FastForm,
// valid where every lane of InRangeForm is true. operator() takes the fast
// form for a float32 vector wholly in range when kFastAlone (FullForm does
// no check of its own) and no more than one vector in four takes the full
// form, FullForm otherwise. The callables are lambdas declared
// OPGEN_FORM_ATTR, so that they inline as HWY_INLINE functions do
// (variable templates of them where a form takes template arguments, as
// for UnaryTransformDivider). kShare: see DividerShare.
template <class FullForm, class FastForm, class InRangeForm, bool kFastAlone = true,
          DividerShare kShare = DividerShare::kNone>
struct FastFormOp {
  static constexpr bool kSplitFour = kShare != DividerShare::kNone;
  // The vectors of four that take the full form: 0, 1 or 3.
  const int full_of_four = kShare == DividerShare::kDivision       ? (FastDivider() ? 3 : 1)
                           : kShare == DividerShare::kSqrtDivision ? (FastDivider() ? 1 : 0)
                                                                   : 0;
  template <class D, class V>
  HWY_INLINE V Full(D d, V v) const {
    return FullForm()(d, v);
  }
  template <class D, class V>
  HWY_INLINE V operator()(D d, V v) const {
    if constexpr (kFastAlone && sizeof(hn::TFromD<D>) == 4) {
      if (HWY_LIKELY(full_of_four <= 1 && hn::AllTrue(d, InRange(d, v)))) return Fast(d, v);
    }
    return FullForm()(d, v);
  }
  template <class D, class V, HWY_IF_LANE_SIZE(hn::TFromD<D>, 4)>
  HWY_INLINE V Fast(D d, V v) const {
    return FastForm()(d, v);
  }
  template <class D, class V, HWY_IF_LANE_SIZE(hn::TFromD<D>, 4)>
  HWY_INLINE auto InRange(D d, V v) const {
    return InRangeForm()(d, v);
  }
};

// Whether a functor asks ApplyFour to split each four vectors between its
// full and its fast form (FastFormOp's kShare).
template <class Func>
concept SplitsFour = requires {
  requires Func::kSplitFour;
};

// Four vectors of func at x: with a fast form, one range check for all four
// (one branch per four vectors), recomputed with operator() if it fails;
// with SplitsFour, the first full_of_four vectors by the full form and one
// check for the others.
template <class D, class Func, typename T = hn::TFromD<D>>
HWY_INLINE void ApplyFour(D d, const T* x, const Func& func, hn::Vec<D>& v0, hn::Vec<D>& v1,
                          hn::Vec<D>& v2, hn::Vec<D>& v3) {
  const size_t N = hn::Lanes(d);
  const auto x0 = hn::LoadU(d, x);
  const auto x1 = hn::LoadU(d, x + N);
  const auto x2 = hn::LoadU(d, x + 2 * N);
  const auto x3 = hn::LoadU(d, x + 3 * N);
  if constexpr (HasFastForm<Func, D> && SplitsFour<Func>) {
    if (func.full_of_four == 3) {
      v0 = func.Full(d, x0);
      v1 = func.Full(d, x1);
      v2 = func.Full(d, x2);
      v3 = HWY_LIKELY(hn::AllTrue(d, func.InRange(d, x3))) ? func.Fast(d, x3) : func.Full(d, x3);
      return;
    }
    if (func.full_of_four == 1) {
      v0 = func.Full(d, x0);
      const auto ok =
          hn::And(func.InRange(d, x1), hn::And(func.InRange(d, x2), func.InRange(d, x3)));
      if (HWY_LIKELY(hn::AllTrue(d, ok))) {
        v1 = func.Fast(d, x1);
        v2 = func.Fast(d, x2);
        v3 = func.Fast(d, x3);
      } else {
        v1 = func.Full(d, x1);
        v2 = func.Full(d, x2);
        v3 = func.Full(d, x3);
      }
      return;
    }
  }
  if constexpr (HasFastForm<Func, D>) {
    const auto ok = hn::And(hn::And(func.InRange(d, x0), func.InRange(d, x1)),
                            hn::And(func.InRange(d, x2), func.InRange(d, x3)));
    if (HWY_LIKELY(hn::AllTrue(d, ok))) {
      v0 = func.Fast(d, x0);
      v1 = func.Fast(d, x1);
      v2 = func.Fast(d, x2);
      v3 = func.Fast(d, x3);
      return;
    }
  }
  v0 = func(d, x0);
  v1 = func(d, x1);
  v2 = func(d, x2);
  v3 = func(d, x3);
}

// Whether a row kernel streams the stores of its output rows: an output of
// at least StreamBytes() in all, whose every row starts on a whole vector
// (out aligned, rows a whole number of vectors long) so that each row's
// stores align without a head of partial vectors. Such a kernel passes
// kRowOfStream to UnaryTransform (or streams its own stores) and calls
// hwy::FlushStream() once at its end.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE bool StreamRows(D d, const T* out, size_t rows, size_t n) {
  const size_t bytes = hn::Lanes(d) * sizeof(T);
  return kCanStream<D> && rows * n * sizeof(T) >= StreamBytes() &&
         reinterpret_cast<uintptr_t>(out) % bytes == 0 && (n * sizeof(T)) % bytes == 0;
}

// How UnaryTransform stores: kAuto streams arrays of at least StreamBytes()
// (and flushes); kRowOfStream streams whatever n, without the flush, for a
// row of a larger output that its kernel streams (StreamRows).
enum class Stores { kAuto, kRowOfStream };

// Whether a functor asks UnaryTransform to store each vector before it
// loads the next (kStoreEachVector), in the loop of arrays it does not
// stream. For ops whose vector is used twice (square's v * v), so that its
// load cannot fold into the operation: four loads, four multiplies and then
// four stores took 64K float32 square 2.47-2.59 us on Zen 5 (medians over
// 64 buffer placements in interleaved rounds, up to 2.79), storing each
// product at once 2.39-2.46 (up to 2.57). Ops whose loads fold (abs, relu,
// floor) gained nothing so, and 1K relu lost 0.6 ns.
template <class Func>
concept StoresEachVector = requires {
  requires Func::kStoreEachVector;
};

// out[i] = func(d, x[i]) for i < n. Four vectors per iteration give the
// out-of-order core independent work to hide the latency of long ops (exp,
// div) and halve the loop overhead of short ones; one vector at a time and
// then one partial vector finish the array. out may equal x: every element is
// read before it is written and no element is read twice.
template <class D, class Func, typename T = hn::TFromD<D>>
HWY_INLINE void UnaryTransform(D d, const T* x, T* out, size_t n, const Func& func,
                               Stores stores = Stores::kAuto) {
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  const bool row_of_stream = stores == Stores::kRowOfStream;
  if (kCanStream<D> && (row_of_stream || n * sizeof(T) >= StreamBytes())) {
    // Same results as below, only the stores differ (see StreamBytes).
    for (const size_t head = HeadToAlign(d, out, n); i < head;) {
      const size_t count = head - i < N ? head - i : N;
      StorePartial(d, func(d, LoadPartial(d, x + i, count, PaddingLanes(d))), count, out + i);
      i += count;
    }
    const auto four = [&] {
      hn::Vec<D> v0, v1, v2, v3;
      ApplyFour(d, x + i, func, v0, v1, v2, v3);
      hn::Stream(v0, d, out + i);
      hn::Stream(v1, d, out + i + N);
      hn::Stream(v2, d, out + i + 2 * N);
      hn::Stream(v3, d, out + i + 3 * N);
    };
    // Prefetch while the lines ahead are inside x (see kPrefetchBytes).
    for (; i + 4 * N + kPrefetchAhead<T> <= n; i += 4 * N) {
      PrefetchFourAhead(d, x + i);
      four();
    }
    for (; i + 4 * N <= n; i += 4 * N) four();
    if (!row_of_stream) hwy::FlushStream();
  }
  if (StoresEachVector<Func> && n >= 4 * N) {
    for (; i <= n - 4 * N; i += 4 * N) {
      hn::StoreU(func(d, hn::LoadU(d, x + i)), d, out + i);
      hn::StoreU(func(d, hn::LoadU(d, x + i + N)), d, out + i + N);
      hn::StoreU(func(d, hn::LoadU(d, x + i + 2 * N)), d, out + i + 2 * N);
      hn::StoreU(func(d, hn::LoadU(d, x + i + 3 * N)), d, out + i + 3 * N);
    }
  } else if (n >= 4 * N) {
    for (; i <= n - 4 * N; i += 4 * N) {
      hn::Vec<D> v0, v1, v2, v3;
      ApplyFour(d, x + i, func, v0, v1, v2, v3);
      hn::StoreU(v0, d, out + i);
      hn::StoreU(v1, d, out + i + N);
      hn::StoreU(v2, d, out + i + 2 * N);
      hn::StoreU(v3, d, out + i + 3 * N);
    }
  }
  for (; i + N <= n; i += N) {
    hn::StoreU(func(d, hn::LoadU(d, x + i)), d, out + i);
  }
  if (i < n) {
    const size_t rest = n - i;
    StorePartial(d, func(d, LoadPartial(d, x + i, rest, PaddingLanes(d))), rest, out + i);
  }
}

// UnaryTransform with Op<kDivide>, kDivide telling the op to divide rather
// than refine a reciprocal estimate (math-inl.h's Reciprocal): true for
// float32 on AVX-512 CPUs with FastDivider (read once per call), false
// elsewhere, where Reciprocal divides anyway.
template <template <bool> class Op, class D, typename T = hn::TFromD<D>>
HWY_INLINE void UnaryTransformDivider(D d, const T* x, T* out, size_t n) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  if constexpr (sizeof(T) == 4) {
    if (FastDivider()) return UnaryTransform(d, x, out, n, Op<true>());
  }
#endif
  UnaryTransform(d, x, out, n, Op<false>());
}

// The float32 and float64 kernels Name##F32 and Name##F64 of an op template
// Name##Op<kDivide>, through UnaryTransformDivider.
#ifndef OPGEN_UNARY_DIVIDER_KERNELS
// clang-format off
#define OPGEN_UNARY_DIVIDER_KERNELS(Name)                                    \
  void Name##F32(const float* x, float* out, size_t n) {                     \
    UnaryTransformDivider<Name##Op>(hn::ScalableTag<float>(), x, out, n);    \
  }                                                                          \
  void Name##F64(const double* x, double* out, size_t n) {                   \
    UnaryTransformDivider<Name##Op>(hn::ScalableTag<double>(), x, out, n);   \
  }
// clang-format on
#endif

// out[i] = func(d, x[i], y[i]) for i < n; same structure as UnaryTransform.
// out may equal x or y.
template <class D, class Func, typename T = hn::TFromD<D>>
HWY_INLINE void BinaryTransform(D d, const T* x, const T* y, T* out, size_t n, const Func& func) {
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  if (kCanStream<D> && n * sizeof(T) >= StreamBytes()) {
    for (const size_t head = HeadToAlign(d, out, n); i < head;) {
      const size_t count = head - i < N ? head - i : N;
      const auto vx = LoadPartial(d, x + i, count, PaddingLanes(d));
      const auto vy = LoadPartial(d, y + i, count, PaddingLanes(d));
      StorePartial(d, func(d, vx, vy), count, out + i);
      i += count;
    }
    const auto four = [&] {
      const auto v0 = func(d, hn::LoadU(d, x + i), hn::LoadU(d, y + i));
      const auto v1 = func(d, hn::LoadU(d, x + i + N), hn::LoadU(d, y + i + N));
      const auto v2 = func(d, hn::LoadU(d, x + i + 2 * N), hn::LoadU(d, y + i + 2 * N));
      const auto v3 = func(d, hn::LoadU(d, x + i + 3 * N), hn::LoadU(d, y + i + 3 * N));
      hn::Stream(v0, d, out + i);
      hn::Stream(v1, d, out + i + N);
      hn::Stream(v2, d, out + i + 2 * N);
      hn::Stream(v3, d, out + i + 3 * N);
    };
    for (; i + 4 * N + kPrefetchAhead<T> <= n; i += 4 * N) {
      PrefetchFourAhead(d, x + i);
      PrefetchFourAhead(d, y + i);
      four();
    }
    for (; i + 4 * N <= n; i += 4 * N) four();
    hwy::FlushStream();
  }
  if (n >= 4 * N) {
    for (; i <= n - 4 * N; i += 4 * N) {
      const auto v0 = func(d, hn::LoadU(d, x + i), hn::LoadU(d, y + i));
      const auto v1 = func(d, hn::LoadU(d, x + i + N), hn::LoadU(d, y + i + N));
      const auto v2 = func(d, hn::LoadU(d, x + i + 2 * N), hn::LoadU(d, y + i + 2 * N));
      const auto v3 = func(d, hn::LoadU(d, x + i + 3 * N), hn::LoadU(d, y + i + 3 * N));
      hn::StoreU(v0, d, out + i);
      hn::StoreU(v1, d, out + i + N);
      hn::StoreU(v2, d, out + i + 2 * N);
      hn::StoreU(v3, d, out + i + 3 * N);
    }
  }
  for (; i + N <= n; i += N) {
    hn::StoreU(func(d, hn::LoadU(d, x + i), hn::LoadU(d, y + i)), d, out + i);
  }
  if (i < n) {
    const size_t rest = n - i;
    const auto vx = LoadPartial(d, x + i, rest, PaddingLanes(d));
    const auto vy = LoadPartial(d, y + i, rest, PaddingLanes(d));
    StorePartial(d, func(d, vx, vy), rest, out + i);
  }
}

// UnaryTransform and BinaryTransform in WithStoreTag's vectors, for ops
// whose loop does little besides its loads and stores.
template <bool kNarrowInL1 = true, typename T, class Func>
HWY_INLINE void LightUnaryTransform(const T* x, T* out, size_t n, const Func& func) {
  WithStoreTag<T, kNarrowInL1>(n, [&](auto d) HWY_ATTR { UnaryTransform(d, x, out, n, func); });
}
template <bool kNarrowInL1 = true, typename T, class Func>
HWY_INLINE void LightBinaryTransform(const T* x, const T* y, T* out, size_t n, const Func& func) {
  WithStoreTag<T, kNarrowInL1>(n, [&](auto d) HWY_ATTR { BinaryTransform(d, x, y, out, n, func); });
}

}  // namespace opgen::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // OPGEN_KERNELS_TRANSFORM_INL_H_
