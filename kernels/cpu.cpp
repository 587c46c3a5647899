// Run-time CPU facts (cpu.hpp), detected once when the library is loaded.
#include "kernels/cpu.hpp"

#include <mutex>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

#include <cstring>
#endif

namespace opgen::kernels {
namespace {

// Whether this is an AMD CPU. Only AVX-512 kernels ask the facts below, and
// AMD's CPUs with AVX-512 are Zen 4 and later.
bool IsAmd() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  unsigned max_leaf = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0, &max_leaf, &ebx, &ecx, &edx) == 0) return false;
  char vendor[12];
  std::memcpy(vendor, &ebx, 4);
  std::memcpy(vendor + 4, &edx, 4);
  std::memcpy(vendor + 8, &ecx, 4);
  return std::memcmp(vendor, "AuthenticAMD", 12) == 0;
#else
  return false;
#endif
}

// Whether this is a Zen 4 CPU (AMD family 19h; among its models only Zen 4
// has AVX-512): the one that executes 512-bit operations as two 256-bit
// halves. Zen 5 (family 1Ah) has full-width 512-bit units.
bool IsZen4() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!IsAmd() || __get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return false;
  unsigned family = (eax >> 8) & 0xF;
  if (family == 0xF) family += (eax >> 20) & 0xFF;
  return family == 0x19;
#else
  return false;
#endif
}

}  // namespace

namespace cpu_detail {
std::atomic<bool> fast_divider{IsAmd()};
std::atomic<bool> narrow_stores{IsZen4()};
std::atomic<std::size_t> stream_bytes{kDefaultStreamBytes};
}  // namespace cpu_detail

void SetFastDividerForTest(int value) noexcept {
  cpu_detail::fast_divider.store(value < 0 ? IsAmd() : value != 0, std::memory_order_relaxed);
}

void SetNarrowStoresForTest(int value) noexcept {
  cpu_detail::narrow_stores.store(value < 0 ? IsZen4() : value != 0, std::memory_order_relaxed);
}

namespace dispatch_detail {
namespace {
std::mutex links_mutex;
Link* links = nullptr;
}  // namespace

void Register(Link* link) noexcept {
  const std::lock_guard<std::mutex> lock(links_mutex);
  link->next = links;
  links = link;
}
}  // namespace dispatch_detail

void ResetDispatchForTest() noexcept {
  const std::lock_guard<std::mutex> lock(dispatch_detail::links_mutex);
  for (const dispatch_detail::Link* link = dispatch_detail::links; link != nullptr;
       link = link->next) {
    link->clear();
  }
}

void SetStreamBytesForTest(std::size_t bytes) noexcept {
  cpu_detail::stream_bytes.store(bytes == 0 ? kDefaultStreamBytes : bytes,
                                 std::memory_order_relaxed);
}

}  // namespace opgen::kernels
