// Definitions of the driver templates declared in drivers.hpp (included at
// its end), and the non-template planning they share, defined in
// runtime/drivers.cpp.
//
// Cost model: a pointwise call on tensors of equal shapes must cost little
// more than the kernel itself (KERNEL-FACTS.md: a whole call ~tens of ns), so
// that path makes one kernel call and touches nothing else. Broadcasting
// first plans the iteration (collapsing dimensions that are contiguous for
// every operand, so that runs are as long as possible), then calls the kernel
// once per contiguous run; an operand repeated along a run is read from a
// small stack buffer holding copies of its value.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "opgen/detail/checks.hpp"
#include "opgen/detail/parallel.hpp"
#include "opgen/span.hpp"
#include "opgen/tensor.hpp"
#include "opgen/tensor_shape.hpp"

namespace opgen::detail {

// ---------------------------------------------------------------------------
// Planning (runtime/drivers.cpp)

/// Most operands of a pointwise kernel: three inputs and the output.
inline constexpr int kMaxOperands = 4;

/// The iteration space of a broadcast pointwise call: dimensions of the
/// output, with size-1 dimensions dropped and adjacent dimensions merged
/// wherever every operand is contiguous across them. The last dimension is
/// the run the kernel sees; along it every operand has stride 1, or 0 when
/// it is repeated.
struct RunPlan {
  int rank = 0;      // >= 1 once planned
  int operands = 0;  // the inputs, then the output
  // The arrays are left uninitialised (~300 bytes to zero on every
  // broadcasting call): planning writes every entry below rank and operands.
  std::array<std::int64_t, kMaxRank> sizes;
  /// Element strides of each operand along each dimension (0: broadcast).
  std::array<std::array<std::int64_t, kMaxRank>, kMaxOperands> strides;
};

/// Plans the runs of `inputs` broadcast against `out` (their broadcast
/// shape, contiguous). The output is operand `inputs.size()`.
void plan_runs(const Shape& out, std::initializer_list<const Shape*> inputs,
               RunPlan& plan) noexcept;

/// Plans the one-dimensional case where every input holds either one
/// element (stride 0) or as many as the output (stride 1).
void plan_flat_runs(std::int64_t length, std::initializer_list<const Tensor*> inputs,
                    RunPlan& plan) noexcept;

/// How a reduction runs: the kernel's (outer, n, inner) and, when the
/// reduced dimensions are not one block, the transposed copy of x (kept
/// dimensions first, reduced last) the kernel runs on instead, with inner = 1.
struct ReducePlan {
  std::size_t outer = 1;
  std::size_t n = 1;
  std::size_t inner = 1;
  bool transpose = false;
  /// The copy's dimensions (collapsed) and x's element strides along them,
  /// written below rank by planning (uninitialised otherwise: zeroing them
  /// cost more than the kernel of a small sum).
  int rank = 0;
  std::array<std::int64_t, kMaxRank> sizes;
  std::array<std::int64_t, kMaxRank> strides;
};

/// Plans the reduction of a tensor of shape `x` over `dims` (validated;
/// negative counts from the end; empty means every dimension).
void plan_reduce(const Shape& x, Span<std::int64_t> dims, ReducePlan& plan) noexcept;

/// dst[i] = *value for i < n, elements of `element_size` bytes (1, 4 or
/// 8), in SIMD vectors of the CPU's best target (the buffer of a repeated
/// operand: [1024, 1] + [1024, 1024] float32 spent a third of its time
/// filling it with the generated code's baseline stores).
void repeat_value(const void* value, std::size_t n, void* dst, std::size_t element_size) noexcept;

/// Writes the transposed copy that `plan` describes: `plan.sizes` in
/// row-major order into dst, read from src through `plan.strides`.
void transpose_copy(const void* src, void* dst, std::size_t element_size,
                    const ReducePlan& plan) noexcept;

// ---------------------------------------------------------------------------
// Run iteration

/// Calls body(offsets, n) once per run of `plan`, in row-major order:
/// offsets[k] is operand k's element offset of the run's first element.
template <class Body>
void for_each_run(const RunPlan& plan, Body&& body) {
  const auto outer = static_cast<std::size_t>(plan.rank - 1);
  const auto operands = static_cast<std::size_t>(plan.operands);
  const auto n = static_cast<std::size_t>(plan.sizes[outer]);
  std::array<std::int64_t, kMaxOperands> offsets{};
  std::array<std::int64_t, kMaxRank> index{};
  for (;;) {
    body(offsets.data(), n);
    // Odometer over the outer dimensions, innermost first.
    std::size_t d = outer;
    for (; d > 0; --d) {
      const std::size_t u = d - 1;
      if (++index[u] < plan.sizes[u]) {
        for (std::size_t k = 0; k < operands; ++k) offsets[k] += plan.strides[k][u];
        break;
      }
      index[u] = 0;
      for (std::size_t k = 0; k < operands; ++k) {
        offsets[k] -= plan.strides[k][u] * (plan.sizes[u] - 1);
      }
    }
    if (d == 0) return;
  }
}

/// One input of a pointwise kernel as the run loop sees it: a pointer that
/// advances along the run, or, when the input is repeated along runs
/// (stride 0), a buffer of copies of its current value.
template <class T>
class RunInput {
 public:
  RunInput(const T* base, const RunPlan& plan, int operand) noexcept
      : base_(base),
        operand_(static_cast<std::size_t>(operand)),
        repeated_(plan.strides[operand_][static_cast<std::size_t>(plan.rank - 1)] == 0) {}

  bool repeated() const noexcept { return repeated_; }

  /// Positions the input at the run whose offsets are given; `chunk` is the
  /// most elements one kernel call will read.
  void start_run(const std::int64_t* offsets, std::size_t chunk) noexcept {
    const T* p = base_ + offsets[operand_];
    if (!repeated_) {
      current_ = p;
    } else if (p != filled_from_ || chunk > filled_) {
      // Refill only when the repeated value changes: a [N, 1] operand
      // against [N, M] refills per row, a [1] operand never.
      repeat_value(p, chunk, buffer_.data(), sizeof(T));
      filled_from_ = p;
      filled_ = chunk;
      current_ = buffer_.data();
    }
  }

  /// The kernel's pointer for the chunk starting `i` elements into the run.
  const T* at(std::size_t i) const noexcept { return repeated_ ? current_ : current_ + i; }

 private:
  const T* base_;
  std::size_t operand_;
  bool repeated_;
  const T* current_ = nullptr;
  const T* filled_from_ = nullptr;
  std::size_t filled_ = 0;
  std::array<T, kBroadcastChunk> buffer_;  // uninitialised until first filled
};

/// Runs call(input pointers..., out pointer, n) over every run of `plan`,
/// splitting runs into kBroadcastChunk pieces when an input is repeated.
template <class Out, class Call, class... T>
void run_pointwise(const RunPlan& plan, Out* out, Call&& call, RunInput<T>&... inputs) {
  const bool any_repeated = (inputs.repeated() || ...);
  const auto out_operand = static_cast<std::size_t>(plan.operands - 1);
  for_each_run(plan, [&](const std::int64_t* offsets, std::size_t n) {
    const std::size_t chunk = any_repeated ? std::min(n, kBroadcastChunk) : n;
    (inputs.start_run(offsets, chunk), ...);
    Out* o = out + offsets[out_operand];
    for (std::size_t i = 0; i < n; i += chunk) {
      call(inputs.at(i)..., o + i, std::min(chunk, n - i));
    }
  });
}

// Element pointers without data<T>()'s dtype check: the wrapper has
// established the dtypes, and the check would cost on every call.
template <class T>
const T* elements(const Tensor& t) noexcept {
  return static_cast<const T*>(t.raw_data());
}
template <class T>
T* elements(Tensor& t) noexcept {
  return static_cast<T*>(t.raw_data());
}

// ---------------------------------------------------------------------------
// Drivers

/// Elements per piece boundary of a parallel pointwise call: 64 elements
/// keep every boundary on a 64-byte line of the output (no line written by
/// two threads) and on a whole SIMD vector.
inline constexpr std::size_t kParallelGrain = 64;

/// The grain of a parallel pointwise call writing n elements of T: pieces
/// of an output past 16 MiB stay at least that large, the size from which
/// the kernels write with streaming stores (kernels/transform-inl.h), which
/// save a third of the memory traffic of a binary op.
template <class T>
constexpr std::size_t parallel_grain(std::size_t n) noexcept {
  constexpr std::size_t stream = (std::size_t{16} << 20) / sizeof(T);
  return n >= stream ? stream : kParallelGrain;
}

// The parallel path of unary, out of line: the single-threaded call below
// stays small enough to be inlined into the generated wrapper (no call
// through the PLT to this template on every op call).
template <class In, class Out, class... A>
void unary_parallel(const Tensor& x, Tensor& out,
                    void (*kernel)(const In*, Out*, std::size_t, A...),
                    std::type_identity_t<A>... args) {
  // The same kernel over consecutive pieces on the pool (opgen/threads.hpp):
  // every element is computed exactly as on one thread.
  const auto n = static_cast<std::size_t>(x.length());
  const In* xp = elements<In>(x);
  Out* op = elements<Out>(out);
  parallel_for(n, parallel_grain<Out>(n), [&](std::size_t begin, std::size_t end) {
    kernel(xp + begin, op + begin, end - begin, args...);
  });
}

template <class In, class Out, class... A>
inline void unary(const Tensor& x, Tensor& out, void (*kernel)(const In*, Out*, std::size_t, A...),
                  std::type_identity_t<A>... args) {
  const auto n = static_cast<std::size_t>(x.length());
  if (n == 0) return;
  if (parallel_wanted(n)) [[unlikely]] {
    unary_parallel<In, Out, A...>(x, out, kernel, args...);
    return;
  }
  kernel(elements<In>(x), elements<Out>(out), n, args...);
}

// The broadcasting paths, out of line so that the equal-shape path stays a
// small function without the stack buffers.
template <class In, class Out, class... A>
void binary_broadcast(const Tensor& x, const Tensor& y, Tensor& out,
                      void (*kernel)(const In*, const In*, Out*, std::size_t, A...),
                      std::type_identity_t<A>... args) {
  const std::int64_t length = out.length();
  RunPlan plan;
  if ((x.length() == 1 || x.length() == length) && (y.length() == 1 || y.length() == length)) {
    plan_flat_runs(length, {&x, &y}, plan);
  } else {
    plan_runs(out.shape(), {&x.shape(), &y.shape()}, plan);
  }
  RunInput<In> xs(elements<In>(x), plan, 0);
  RunInput<In> ys(elements<In>(y), plan, 1);
  run_pointwise(
      plan, elements<Out>(out),
      [&](const In* a, const In* b, Out* o, std::size_t n) { kernel(a, b, o, n, args...); }, xs,
      ys);
}

// Equal shapes past the parallel threshold, out of line like the
// broadcasting paths.
template <class In, class Out, class... A>
void binary_parallel(const Tensor& x, const Tensor& y, Tensor& out,
                     void (*kernel)(const In*, const In*, Out*, std::size_t, A...),
                     std::type_identity_t<A>... args) {
  const auto n = static_cast<std::size_t>(out.length());
  const In* xp = elements<In>(x);
  const In* yp = elements<In>(y);
  Out* op = elements<Out>(out);
  parallel_for(n, parallel_grain<Out>(n), [&](std::size_t begin, std::size_t end) {
    kernel(xp + begin, yp + begin, op + begin, end - begin, args...);
  });
}

template <class In, class Out, class... A>
inline void binary(const Tensor& x, const Tensor& y, Tensor& out,
                   void (*kernel)(const In*, const In*, Out*, std::size_t, A...),
                   std::type_identity_t<A>... args) {
  const std::int64_t length = out.length();
  if (length == 0) return;
  // Equal element counts mean equal row-major layouts (a broadcast operand
  // that is not empty has fewer elements than the output), which also
  // covers x, y and out exactly aliasing one another.
  if (x.length() == length && y.length() == length) [[likely]] {
    const auto n = static_cast<std::size_t>(length);
    if (parallel_wanted(n)) [[unlikely]] {
      binary_parallel<In, Out, A...>(x, y, out, kernel, args...);
      return;
    }
    kernel(elements<In>(x), elements<In>(y), elements<Out>(out), n, args...);
    return;
  }
  binary_broadcast<In, Out, A...>(x, y, out, kernel, args...);
}

template <class In0, class In1, class Out, class... A>
void ternary_broadcast(const Tensor& x, const Tensor& y, const Tensor& z, Tensor& out,
                       void (*kernel)(const In0*, const In1*, const In1*, Out*, std::size_t, A...),
                       std::type_identity_t<A>... args) {
  const std::int64_t length = out.length();
  auto flat = [length](const Tensor& t) { return t.length() == 1 || t.length() == length; };
  RunPlan plan;
  if (flat(x) && flat(y) && flat(z)) {
    plan_flat_runs(length, {&x, &y, &z}, plan);
  } else {
    plan_runs(out.shape(), {&x.shape(), &y.shape(), &z.shape()}, plan);
  }
  RunInput<In0> xs(elements<In0>(x), plan, 0);
  RunInput<In1> ys(elements<In1>(y), plan, 1);
  RunInput<In1> zs(elements<In1>(z), plan, 2);
  run_pointwise(
      plan, elements<Out>(out),
      [&](const In0* a, const In1* b, const In1* c, Out* o, std::size_t n) {
        kernel(a, b, c, o, n, args...);
      },
      xs, ys, zs);
}

template <class In0, class In1, class Out, class... A>
void ternary_parallel(const Tensor& x, const Tensor& y, const Tensor& z, Tensor& out,
                      void (*kernel)(const In0*, const In1*, const In1*, Out*, std::size_t, A...),
                      std::type_identity_t<A>... args) {
  const auto n = static_cast<std::size_t>(out.length());
  const In0* xp = elements<In0>(x);
  const In1* yp = elements<In1>(y);
  const In1* zp = elements<In1>(z);
  Out* op = elements<Out>(out);
  parallel_for(n, parallel_grain<Out>(n), [&](std::size_t begin, std::size_t end) {
    kernel(xp + begin, yp + begin, zp + begin, op + begin, end - begin, args...);
  });
}

template <class In0, class In1, class Out, class... A>
inline void ternary(const Tensor& x, const Tensor& y, const Tensor& z, Tensor& out,
                    void (*kernel)(const In0*, const In1*, const In1*, Out*, std::size_t, A...),
                    std::type_identity_t<A>... args) {
  const std::int64_t length = out.length();
  if (length == 0) return;
  if (x.length() == length && y.length() == length && z.length() == length) [[likely]] {
    const auto n = static_cast<std::size_t>(length);
    if (parallel_wanted(n)) [[unlikely]] {
      ternary_parallel<In0, In1, Out, A...>(x, y, z, out, kernel, args...);
      return;
    }
    kernel(elements<In0>(x), elements<In1>(y), elements<In1>(z), elements<Out>(out), n, args...);
    return;
  }
  ternary_broadcast<In0, In1, Out, A...>(x, y, z, out, kernel, args...);
}

// The kernel over `outer` blocks of (n, inner). Past the parallel threshold
// the blocks are split between threads: each output depends on its own
// block only, so each is computed exactly as on one thread. (A reduction
// to a single block, such as a sum of every element, stays on one thread:
// splitting it would change its order of summation.)
template <class In, class Out, class... A>
void reduce_blocks(const In* x, Out* out, std::size_t outer, std::size_t n, std::size_t inner,
                   void (*kernel)(const In*, Out*, std::size_t, std::size_t, std::size_t, A...),
                   std::type_identity_t<A>... args) {
  if (outer > 1 && parallel_wanted(outer * n * inner)) {
    const std::size_t block = n * inner;
    parallel_for(outer, 1, [&](std::size_t begin, std::size_t end) {
      kernel(x + begin * block, out + begin * inner, end - begin, n, inner, args...);
    });
    return;
  }
  kernel(x, out, outer, n, inner, args...);
}

// A reduction whose dimensions need planning, out of line.
template <class In, class Out, class... A>
void reduce_planned(const Tensor& x, Span<std::int64_t> dims, Tensor& out,
                    void (*kernel)(const In*, Out*, std::size_t, std::size_t, std::size_t, A...),
                    std::type_identity_t<A>... args) {
  ReducePlan plan;
  plan_reduce(x.shape(), dims, plan);
  if (plan.outer == 0 || plan.inner == 0) return;  // the output is empty
  if (!plan.transpose) {
    reduce_blocks(elements<In>(x), elements<Out>(out), plan.outer, plan.n, plan.inner, kernel,
                  args...);
    return;
  }
  // The reduced dimensions are scattered: gather them last into a copy
  // (one allocation; a kernel reading strided runs would cost more).
  Tensor copy = Tensor::empty(Shape{x.length()}, x.dtype());
  transpose_copy(x.raw_data(), copy.raw_data(), sizeof(In), plan);
  reduce_blocks(elements<In>(copy), elements<Out>(out), plan.outer, plan.n, std::size_t{1}, kernel,
                args...);
}

template <class In, class Out, class... A>
inline void reduce(const Tensor& x, Span<std::int64_t> dims, Tensor& out,
                   void (*kernel)(const In*, Out*, std::size_t, std::size_t, std::size_t, A...),
                   std::type_identity_t<A>... args) {
  if (reduces_everything(x, dims)) {
    // Every element into one result: plan_reduce would give (1, length, 1),
    // so run the kernel on that directly, without planning. One block, on
    // one thread (as reduce_blocks runs a single block).
    kernel(elements<In>(x), elements<Out>(out), std::size_t{1},
           static_cast<std::size_t>(x.length()), std::size_t{1}, args...);
    return;
  }
  reduce_planned<In, Out, A...>(x, dims, out, kernel, args...);
}

template <class T, class... A>
void along_axis(const Tensor& x, std::int64_t dim, Tensor& out,
                void (*kernel)(const T*, T*, std::size_t, std::size_t, std::size_t, A...),
                std::type_identity_t<A>... args) {
  // A scalar is one block of one element (dim is 0 then).
  std::size_t outer = 1;
  std::size_t n = 1;
  std::size_t inner = 1;
  const Shape& s = x.shape();
  for (int i = 0; i < s.rank(); ++i) {
    const auto d = static_cast<std::size_t>(s[i]);
    if (i < dim) {
      outer *= d;
    } else if (i == dim) {
      n = d;
    } else {
      inner *= d;
    }
  }
  if (outer == 0 || n == 0 || inner == 0) return;
  if (outer > 1 && parallel_wanted(outer * n * inner)) {
    // Whole blocks per piece: each block is computed as on one thread.
    const T* xp = elements<T>(x);
    T* op = elements<T>(out);
    const std::size_t block = n * inner;
    parallel_for(outer, 1, [&](std::size_t begin, std::size_t end) {
      kernel(xp + begin * block, op + begin * block, end - begin, n, inner, args...);
    });
    return;
  }
  kernel(elements<T>(x), elements<T>(out), outer, n, inner, args...);
}

}  // namespace opgen::detail
