// The non-template part of the drivers: planning broadcast runs and
// reductions, and the transposed copy of scattered reductions. The templates
// (include/opgen/detail/drivers-inl.hpp) only iterate what is planned here.
#include "opgen/detail/drivers.hpp"

#include <algorithm>

#include "strided_copy.hpp"

namespace opgen::detail {

namespace {

using std::size_t;

// Row-major element strides of a shape.
std::array<std::int64_t, kMaxRank> contiguous_strides(const Shape& s) noexcept {
  std::array<std::int64_t, kMaxRank> strides{};
  std::int64_t stride = 1;
  for (int i = s.rank() - 1; i >= 0; --i) {
    strides[static_cast<size_t>(i)] = stride;
    stride *= s[i];
  }
  return strides;
}

}  // namespace

void plan_runs(const Shape& out, std::initializer_list<const Shape*> inputs,
               RunPlan& plan) noexcept {
  const int rank = out.rank();
  const int operands = static_cast<int>(inputs.size()) + 1;
  // Every operand's strides over the output's dimensions: 0 where it is
  // broadcast (size 1, or missing on the left).
  std::array<std::array<std::int64_t, kMaxRank>, kMaxOperands> strides{};
  int k = 0;
  for (const Shape* s : inputs) {
    const std::array<std::int64_t, kMaxRank> own = contiguous_strides(*s);
    const int shift = rank - s->rank();
    for (int i = 0; i < s->rank(); ++i) {
      if ((*s)[i] != 1) {
        strides[static_cast<size_t>(k)][static_cast<size_t>(i + shift)] =
            own[static_cast<size_t>(i)];
      }
    }
    ++k;
  }
  strides[static_cast<size_t>(k)] = contiguous_strides(out);

  plan.operands = operands;
  plan.rank = 0;
  for (int i = 0; i < rank; ++i) {
    const auto u = static_cast<size_t>(i);
    const std::int64_t size = out[i];
    if (size == 1) continue;  // contributes nothing to the iteration
    if (plan.rank > 0) {
      // Merge into the previous dimension when every operand steps over
      // this one exactly as a continuation of it.
      const auto p = static_cast<size_t>(plan.rank - 1);
      bool mergeable = true;
      for (size_t j = 0; j < static_cast<size_t>(operands); ++j) {
        mergeable = mergeable && plan.strides[j][p] == strides[j][u] * size;
      }
      if (mergeable) {
        plan.sizes[p] *= size;
        for (size_t j = 0; j < static_cast<size_t>(operands); ++j)
          plan.strides[j][p] = strides[j][u];
        continue;
      }
    }
    const auto p = static_cast<size_t>(plan.rank++);
    plan.sizes[p] = size;
    for (size_t j = 0; j < static_cast<size_t>(operands); ++j) plan.strides[j][p] = strides[j][u];
  }
  if (plan.rank == 0) {
    // Every dimension has size 1: one run of one element.
    plan.rank = 1;
    plan.sizes[0] = 1;
    for (size_t j = 0; j < static_cast<size_t>(operands); ++j) plan.strides[j][0] = 0;
  }
}

void plan_flat_runs(std::int64_t length, std::initializer_list<const Tensor*> inputs,
                    RunPlan& plan) noexcept {
  plan.rank = 1;
  plan.operands = static_cast<int>(inputs.size()) + 1;
  plan.sizes[0] = length;
  size_t k = 0;
  for (const Tensor* t : inputs) plan.strides[k++][0] = t->length() == length ? 1 : 0;
  plan.strides[k][0] = 1;
}

void plan_reduce(const Shape& x, Span<std::int64_t> dims, ReducePlan& plan) noexcept {
  const int rank = x.rank();
  bool reduced[kMaxRank] = {};
  for (std::int64_t d : dims) {
    const std::int64_t j = d < 0 ? d + rank : d;
    if (j >= 0 && j < rank) reduced[j] = true;  // a scalar's dim 0 / -1 reduces nothing
  }
  if (dims.empty()) std::fill(reduced, reduced + kMaxRank, true);

  // Dimensions of size 1 do not affect the layout: leave them out, so that
  // e.g. reducing dims {0, 2} of [4, 1, 5] is one block.
  int kept_rank = 0;
  std::int64_t sizes[kMaxRank];
  bool is_reduced[kMaxRank];
  int source_dim[kMaxRank];
  for (int i = 0; i < rank; ++i) {
    if (x[i] == 1) continue;
    sizes[kept_rank] = x[i];
    is_reduced[kept_rank] = reduced[i];
    source_dim[kept_rank] = i;
    ++kept_rank;
  }

  size_t kept = 1;
  size_t n = 1;
  int first = -1;
  int last = -1;
  for (int i = 0; i < kept_rank; ++i) {
    if (is_reduced[i]) {
      n *= static_cast<size_t>(sizes[i]);
      if (first < 0) first = i;
      last = i;
    } else {
      kept *= static_cast<size_t>(sizes[i]);
    }
  }
  bool block = true;
  for (int i = first; i >= 0 && i <= last; ++i) block = block && is_reduced[i];

  plan.transpose = false;
  if (first < 0) {
    // Nothing of size > 1 is reduced: each output is its one input.
    plan.outer = kept;
    plan.n = 1;
    plan.inner = 1;
    return;
  }
  if (block) {
    plan.outer = 1;
    plan.inner = 1;
    for (int i = 0; i < first; ++i) plan.outer *= static_cast<size_t>(sizes[i]);
    for (int i = last + 1; i < kept_rank; ++i) plan.inner *= static_cast<size_t>(sizes[i]);
    plan.n = n;
    return;
  }
  plan.outer = kept;
  plan.n = n;
  plan.inner = 1;
  // With nothing to read (n == 0) the kernel only writes identities, in
  // the kept dimensions' order, which is out's layout: no copy needed.
  if (n == 0 || kept == 0) return;

  plan.transpose = true;
  const std::array<std::int64_t, kMaxRank> strides = contiguous_strides(x);
  plan.rank = 0;
  auto append = [&](int i) {
    const std::int64_t size = sizes[i];
    const std::int64_t stride = strides[static_cast<size_t>(source_dim[i])];
    if (plan.rank > 0) {
      const auto p = static_cast<size_t>(plan.rank - 1);
      if (plan.strides[p] == stride * size) {  // contiguous continuation: merge
        plan.sizes[p] *= size;
        plan.strides[p] = stride;
        return;
      }
    }
    const auto p = static_cast<size_t>(plan.rank++);
    plan.sizes[p] = size;
    plan.strides[p] = stride;
  };
  for (int i = 0; i < kept_rank; ++i) {
    if (!is_reduced[i]) append(i);
  }
  for (int i = 0; i < kept_rank; ++i) {
    if (is_reduced[i]) append(i);
  }
}

void repeat_value(const void* value, std::size_t n, void* dst, std::size_t element_size) noexcept {
  fill_copies(value, n, dst, element_size);
}

void transpose_copy(const void* src, void* dst, std::size_t element_size,
                    const ReducePlan& plan) noexcept {
  // The shape and linalg ops' strided copy, which transposes in blocks.
  copy_strided(src, plan.sizes.data(), plan.strides.data(), plan.rank, dst, element_size);
}

}  // namespace opgen::detail
