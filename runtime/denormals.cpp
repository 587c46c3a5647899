// FlushDenormals: the opt-in flush-to-zero mode (opgen/denormals.hpp).
#include "opgen/denormals.hpp"

#include "fp_control.hpp"

namespace opgen {

FlushDenormals::FlushDenormals() noexcept : saved_(detail::fp_control()) {
  if (detail::kFlushBits != 0) detail::set_fp_control(saved_ | detail::kFlushBits);
}

FlushDenormals::~FlushDenormals() {
  // Only the flush bits go back: a rounding mode set meanwhile stays, and
  // so do exception flags raised meanwhile.
  if (detail::kFlushBits != 0) {
    const std::uint64_t now = detail::fp_control();
    detail::set_fp_control((now & ~detail::kFlushBits) | (saved_ & detail::kFlushBits));
  }
}

bool FlushDenormals::supported() noexcept { return detail::kFlushBits != 0; }

bool denormals_flushed() noexcept {
  return detail::kFlushResultBit != 0 && (detail::fp_control() & detail::kFlushResultBit) != 0;
}

}  // namespace opgen
