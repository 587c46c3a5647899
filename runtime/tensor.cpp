#include "opgen/tensor.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "buffer_cache.hpp"
#include "opgen/error.hpp"
#include "opgen/memory.hpp"

#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#endif

namespace opgen {

namespace detail {

// The header of one allocation: the data follows it directly, so a tensor
// costs one allocation and one pointer. alignas(64) makes the header 64
// bytes, which keeps the data 64-byte aligned (a full cache line and an
// AVX-512 vector).
struct alignas(64) Storage {
  std::atomic<std::size_t> refs{1};
  void* block = nullptr;  // what malloc returned, for free()
  // The size of a large block (posix_memalign, see allocate_large_block),
  // which goes back to the buffer cache; 0 for a small block.
  std::size_t capacity = 0;
  // 1 + the size class of a small block the thread's cache may keep
  // (SmallBlockCache), 0 for any other block.
  std::size_t small_class = 0;
};
static_assert(sizeof(Storage) == kStorageHeaderBytes,
              "the data must start on a 64-byte boundary, where tensor.hpp expects it");

namespace {

// Buffers from this size on are aligned to and advised as huge pages: on
// 4 KiB pages, memory-bound kernels lose 5-10% to TLB misses (the machine
// runs transparent huge pages in "madvise" mode).
constexpr std::size_t kHugePage = std::size_t{2} << 20;

void advise_huge_pages([[maybe_unused]] void* p, [[maybe_unused]] std::size_t bytes) noexcept {
#if defined(MADV_HUGEPAGE)
  // Advice only: a kernel without transparent huge pages refuses it, and
  // the buffer then simply stays on small pages.
  (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
}

// A large block: taken from the buffer cache (opgen/memory.hpp) when it
// holds one of about this size, already faulted in, or allocated on huge
// pages.
void* allocate_large_block(std::size_t total, std::size_t& capacity) {
  if (void* p = take_cached_block(total, capacity)) return p;
  void* p = nullptr;
  if (posix_memalign(&p, kHugePage, total) != 0) {
    // Out of memory while the cache may hold blocks of other sizes: give
    // them back and try once more.
    release_buffer_cache();
    if (posix_memalign(&p, kHugePage, total) != 0) throw std::bad_alloc();
  }
  advise_huge_pages(p, total);
  capacity = total;
  return p;
}

// The blocks of the smallest tensors (up to kSmallClasses * 64 bytes with
// the header and the alignment slack: 64 floats), freed by a thread, are
// kept for its next allocations of the same size class, up to
// kSmallCacheDepth per class (at most 8 KiB a thread): a call on a small
// tensor allocates its result and frees it soon after, and glibc's
// malloc and free took a fifth of such a call (perf, math::add on 1
// element). A thread's blocks are freed when it exits. Off in builds with
// a sanitizer that tracks allocations, and while the buffer cache's limit
// is 0 (memory.hpp: tools such as Valgrind), so that a use after free is
// still reported.
constexpr std::size_t kSmallClassBytes = 64;
constexpr std::size_t kSmallClasses = 6;
constexpr unsigned kSmallCacheDepth = 6;

// Per thread, trivially destructible and constant-initialised, so a
// thread's first access needs no guard; initial-exec, so each access is
// one load relative to the thread pointer, not a call to __tls_get_addr.
struct SmallBlockCache {
  void* heads[kSmallClasses];  // each cached block holds the next's address
  unsigned counts[kSmallClasses];
  bool exit_registered;  // SmallBlockDrain made for this thread
  bool exited;           // the thread is exiting: free, do not keep
};
[[gnu::tls_model("initial-exec")]] constinit thread_local SmallBlockCache small_blocks{};

void drain_small_blocks() noexcept {
  for (std::size_t c = 0; c < kSmallClasses; ++c) {
    while (void* block = small_blocks.heads[c]) {
      small_blocks.heads[c] = *static_cast<void**>(block);
      std::free(block);
    }
    small_blocks.counts[c] = 0;
  }
}

// Frees the thread's cached blocks when it exits (its destructor runs with
// the thread's other thread_local objects).
struct SmallBlockDrain {
  SmallBlockDrain() noexcept = default;
  SmallBlockDrain(const SmallBlockDrain&) = delete;
  SmallBlockDrain& operator=(const SmallBlockDrain&) = delete;
  ~SmallBlockDrain() {
    small_blocks.exited = true;
    drain_small_blocks();
  }
};

bool small_blocks_on() noexcept {
#ifdef OPGEN_TRACKING_SANITIZER
  return false;
#else
  return buffer_cache_limit() != 0;
#endif
}

// Keeps a small block of class c (1-based) for this thread's next
// allocation of that class, or frees it.
void give_small_block(void* block, std::size_t c) noexcept {
  SmallBlockCache& cache = small_blocks;
  if (cache.counts[c - 1] < kSmallCacheDepth && !cache.exited && small_blocks_on()) {
    if (!cache.exit_registered) [[unlikely]] {
      cache.exit_registered = true;
      thread_local SmallBlockDrain drain;
      (void)drain;
    }
    *static_cast<void**>(block) = cache.heads[c - 1];
    cache.heads[c - 1] = block;
    ++cache.counts[c - 1];
    return;
  }
  std::free(block);
}

// The block of a small tensor: glibc's aligned allocation (memalign, also
// behind aligned operator new) costs ~100 ns against ~15 ns for malloc, a
// large share of a small op's budget, so small blocks are over-allocated
// with malloc and aligned by hand. small_class receives 1 + the size class
// of a block the cache may keep, else 0.
void* allocate_small_block(std::size_t total, void*& block, std::size_t& small_class) {
  constexpr std::size_t align = alignof(Storage);
  std::size_t request = total + align - 1;
  small_class = 0;
  if (request <= kSmallClasses * kSmallClassBytes) {
    small_class = (request + kSmallClassBytes - 1) / kSmallClassBytes;
    request = small_class * kSmallClassBytes;
    SmallBlockCache& cache = small_blocks;
    if (void* cached = cache.heads[small_class - 1]) {
      cache.heads[small_class - 1] = *static_cast<void**>(cached);
      --cache.counts[small_class - 1];
      block = cached;
    } else {
      block = std::malloc(request);
    }
  } else {
    block = std::malloc(request);
  }
  if (block == nullptr) throw std::bad_alloc();
  const auto address = reinterpret_cast<std::uintptr_t>(block);
  return reinterpret_cast<void*>((address + align - 1) & ~std::uintptr_t{align - 1});
}

}  // namespace

void release_small_blocks() noexcept { drain_small_blocks(); }

Storage* storage_allocate(std::size_t bytes) {
  const std::size_t total = sizeof(Storage) + bytes;
  if (total >= kHugePage) [[unlikely]] {
    std::size_t capacity = 0;
    void* p = allocate_large_block(total, capacity);
    Storage* s = new (p) Storage;
    s->block = p;
    s->capacity = capacity;
    return s;
  }
  void* block = nullptr;
  std::size_t small_class = 0;
  void* p = allocate_small_block(total, block, small_class);
  Storage* s = new (p) Storage;
  s->block = block;
  s->small_class = small_class;
  return s;
}

void storage_retain(Storage* s) noexcept { s->refs.fetch_add(1, std::memory_order_relaxed); }

void storage_release(Storage* s) noexcept {
  // The last handle (the common case: an op's temporary result) frees
  // without a locked read-modify-write: a count of 1 read here cannot grow,
  // since no other handle exists to copy. acquire/acq_rel: the thread that
  // frees must see every write made through other handles before they
  // were dropped.
  if (s->refs.load(std::memory_order_acquire) == 1 ||
      s->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    void* block = s->block;
    const std::size_t capacity = s->capacity;
    const std::size_t small_class = s->small_class;
    s->~Storage();
    if (small_class != 0) {
      give_small_block(block, small_class);
    } else if (capacity != 0) {
      give_cached_block(block, capacity);
    } else {
      std::free(block);
    }
  }
}

void* storage_data(Storage* s) noexcept {
  return reinterpret_cast<std::byte*>(s) + sizeof(Storage);
}

void throw_dtype_mismatch(DType want, DType have) {
  throw Error("element type mismatch: the tensor holds " + std::string(dtype_name(have)) +
              ", not " + std::string(dtype_name(want)));
}

void throw_null_tensor(const char* what) {
  throw Error(std::string(what) + " called on a null tensor");
}

void throw_length_mismatch(std::size_t values, const Shape& shape) {
  throw Error(std::to_string(values) + (values == 1 ? " value" : " values") + " given for shape " +
              shape.to_string() + ", which holds " + std::to_string(shape.length()));
}

void throw_not_one_element(const Shape& shape) {
  throw Error("item() needs a tensor of exactly one element, got shape " + shape.to_string() +
              " (" + std::to_string(shape.length()) + " elements)");
}

}  // namespace detail

Tensor::Tensor(const Tensor& other) noexcept
    : storage_(other.storage_), shape_(other.shape_), length_(other.length_), dtype_(other.dtype_) {
  if (storage_ != nullptr) detail::storage_retain(storage_);
}

Tensor& Tensor::operator=(const Tensor& other) noexcept {
  // Retain first: `t = t` and assignments between handles of one storage
  // must not free it in between.
  if (other.storage_ != nullptr) detail::storage_retain(other.storage_);
  if (storage_ != nullptr) detail::storage_release(storage_);
  storage_ = other.storage_;
  shape_ = other.shape_;
  length_ = other.length_;
  dtype_ = other.dtype_;
  return *this;
}

namespace {

[[noreturn]] [[gnu::cold]] void throw_too_large(const Shape& shape, DType dtype,
                                                std::int64_t length) {
  throw Error("tensor " + std::string(dtype_name(dtype)) + shape.to_string() + " of " +
              std::to_string(length) + " elements is too large to allocate");
}

// The elements of a tensor of `shape` and the bytes of their storage, or
// opgen::Error when it is too large to allocate. Inline in both callers:
// it is on every call that allocates.
inline std::uint64_t checked_bytes(const Shape& shape, DType dtype, std::int64_t& length) {
  // One pass over the sizes (this is on every call that allocates); only
  // when the product overflows does Shape::length() decide, since a zero
  // size after the overflow makes the tensor valid and empty.
  length = 1;
  bool overflow = false;
  for (std::int64_t d : shape) overflow |= __builtin_mul_overflow(length, d, &length);
  if (overflow) length = shape.length();  // 0, or throws
  // Keep the byte count representable as a ptrdiff_t (pointer arithmetic
  // over the buffer must be defined) with room for the header. A multiply
  // that checks overflow, not a division by the element size: perf put 6 %
  // of a call on a one-element tensor on the instruction after that 64-bit
  // division.
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::uint64_t>(length), dtype_size(dtype), &bytes) ||
      bytes > static_cast<std::uint64_t>(PTRDIFF_MAX - 4096)) {
    throw_too_large(shape, dtype, length);
  }
  return bytes;
}

}  // namespace

Tensor Tensor::empty(const Shape& shape, DType dtype) {
  std::int64_t length = 0;
  const std::uint64_t bytes = checked_bytes(shape, dtype, length);
  return Tensor(detail::storage_allocate(static_cast<std::size_t>(bytes)), shape, length, dtype);
}

void detail::assign_empty(Tensor& out, const Shape& shape, DType dtype) {
  std::int64_t length = 0;
  const std::uint64_t bytes = checked_bytes(shape, dtype, length);
  Storage* const storage = storage_allocate(static_cast<std::size_t>(bytes));
  out.shape_ = shape;  // may be out's own shape: a copy onto itself
  if (out.storage_ != nullptr) storage_release(out.storage_);
  out.storage_ = storage;
  out.length_ = length;
  out.dtype_ = dtype;
}

Tensor Tensor::zeros(const Shape& shape, DType dtype) {
  Tensor t = empty(shape, dtype);
  // All-zero bytes are 0, 0.0 and false for every dtype.
  if (t.nbytes() > 0) std::memset(t.raw_data(), 0, t.nbytes());
  return t;
}

std::int64_t Tensor::size(std::int64_t i) const {
  const std::int64_t rank = shape_.rank();
  const std::int64_t j = i < 0 ? i + rank : i;
  if (j < 0 || j >= rank) {
    throw Error("size(" + std::to_string(i) + "): dimension " + std::to_string(i) +
                " is out of range for a tensor of rank " + std::to_string(rank));
  }
  return shape_[static_cast<int>(j)];
}

Tensor Tensor::clone() const {
  if (storage_ == nullptr) return Tensor();
  Tensor t = empty(shape_, dtype_);
  if (nbytes() > 0) std::memcpy(t.raw_data(), raw_data(), nbytes());
  return t;
}

std::string Tensor::description() const {
  if (storage_ == nullptr) return "null";
  return std::string(dtype_name(dtype_)) + shape_.to_string();
}

}  // namespace opgen
