#!/usr/bin/env python3
"""Derives the 16-entry tables of LnTableF64 (kernels/math-inl.h).

    ln_sixteenths_f64.py              prints kInvWF64, kLnWHiF64, kLnWLoF64,
                                      kLog2WHiF64, kLog2WLoF64 and kLnQF64
    ln_sixteenths_f64.py --check H    exits 1 unless header H holds exactly them
                                      (the command line of tablecheck.py)

LnTableF64 splits a double u = 2^k z with z in [0.69921875, 1.3984375)
(the bits of z minus those of 0.69921875 number the sixteenth of that
interval z falls in, bits 48 to 51) and reduces z to r = z / w - 1 with 1/w
from kInvWF64: 2 / (the sixteenth's ends summed), rounded, which keeps
|r| below 0.0297; the sixteenth around 1 takes w = 1, so that results
near 0 keep their relative accuracy. ln(w) is split into kLnWHiF64, a
multiple of 2^-42 (so that k ln2_hi + kLnWHiF64 is exact for |k| <= 1075),
and kLnWLoF64, the rest rounded to double; log2(w) likewise into
kLog2WHiF64 and kLog2WLoF64 (for LnTableF64's log2 form). ln(w) comes from the decimal
module at 50 digits, so the tables are the same on any machine with IEEE
doubles.

kLnQF64 holds Q, lowest degree first, in ln(1 + r) = r - r^2/2 + r^3 Q(r)
for |r| <= 0.0297: the 8 coefficients that minimise the largest relative
error of that sum (remez.py's exchange, 2^-62), where the Taylor series
needs 9 for 2^-58. Standard library only.
"""

import decimal
import struct
import sys

import remez
import tablecheck

BASE = 0x3FE6600000000000  # the bits of 0.69921875, the start of the first sixteenth
STEP = 1 << 48  # one sixteenth: bit 48 of the pattern
UNIT = 9  # the sixteenth that holds 1
R_MAX = 0.0297


def double_of_bits(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def inverse_w(j):
    """1/w for sixteenth j."""
    if j == UNIT:
        return 1.0
    lo = double_of_bits(BASE + j * STEP)
    hi = double_of_bits(BASE + (j + 1) * STEP)
    inv = 2 / (lo + hi)
    assert max(abs(lo * inv - 1), abs(hi * inv - 1)) <= R_MAX, j
    return inv


def ln_series():
    """Q's 8 coefficients (Decimals)."""

    def g(r):  # (ln(1 + r) - r + r^2/2) / r^3, by its series
        total, power, k = decimal.Decimal(0), decimal.Decimal(1), 3
        while True:
            term = power / k
            total = total + term if k % 2 else total - term
            if abs(term) < decimal.Decimal(10) ** -52:
                return total
            power *= r
            k += 1

    def weight(r):  # r^3 / ln(1 + r), the error relative to ln(1 + r)
        return r**3 / (r - r * r / 2 + r**3 * g(r)) if r != 0 else decimal.Decimal(0)

    c, _ = remez.fit(g, weight, -decimal.Decimal(R_MAX), decimal.Decimal(R_MAX), 8,
                     name="ln_sixteenths_f64.py")
    return c


def tables():
    decimal.getcontext().prec = 50
    inv_w = [inverse_w(j) for j in range(16)]
    ln_hi, ln_lo = [], []
    for inv in inv_w:
        ln_w = -decimal.Decimal(inv).ln()  # 0 for w = 1
        hi = float(round(ln_w * 2**42)) / 2**42
        assert decimal.Decimal(hi) * 2**42 == round(ln_w * 2**42)
        ln_hi.append(hi)
        ln_lo.append(float(ln_w - decimal.Decimal(hi)))
    log2_hi, log2_lo = [], []
    for inv in inv_w:
        log2_w = -decimal.Decimal(inv).ln() / decimal.Decimal(2).ln()
        hi = float(round(log2_w * 2**42)) / 2**42
        log2_hi.append(hi)
        log2_lo.append(float(log2_w - decimal.Decimal(hi)))
    return {
        "kInvWF64": inv_w,
        "kLnQF64": [float(c) for c in ln_series()],
        "kLnWHiF64": ln_hi,
        "kLnWLoF64": ln_lo,
        "kLog2WHiF64": log2_hi,
        "kLog2WLoF64": log2_lo,
    }


def main(argv):
    return tablecheck.main(
        argv, "ln_sixteenths_f64.py", lambda: {n: (v, "double") for n, v in tables().items()}
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv))
