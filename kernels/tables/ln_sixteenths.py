#!/usr/bin/env python3
"""Derives the 16-entry tables of LnTableF32 (kernels/math-inl.h).

    ln_sixteenths.py              prints kInvW, kLnWHi and kLnWLo as C++
    ln_sixteenths.py --check H    exits 1 unless header H holds exactly them
                                  (the command line of tablecheck.py)

LnTableF32 splits a float u = 2^k z with z in [0.7, 1.4) (the bits of z
minus those of 0.69921875 number the sixteenth of that interval z falls
in) and reduces z to r = z / w - 1 with 1/w from kInvW. For each sixteenth
this takes, among the floats 1/w near 1 / (the sixteenth's middle) that keep
|r| <= 0.0305 over the whole sixteenth, the one whose ln(w) lies nearest a
float, so that ln(w)'s own rounding costs next to nothing; the sixteenth
around 1 takes w = 1, so that results near 0 keep their relative accuracy.
ln(w) is then split into kLnWHi, a multiple of 2^-17 (so that k ln2_hi +
kLnWHi is exact), and kLnWLo, the rest rounded to float.

The search steps through float bit patterns, so the tables are the same on
any machine with IEEE doubles. Standard library only.
"""

import math
import struct
import sys

import tablecheck
from tablecheck import to_float

BASE = 0x3F330000  # the bits of 0.69921875, the start of the first sixteenth
STEP = 0x80000  # one sixteenth: bit 19 of the pattern
UNIT = 9  # the sixteenth that holds 1
R_MAX = 0.0305
SEARCH = 20000  # floats tried on either side of 1 / middle


def float_of_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def bits_of_float(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def ulp(x):
    return abs(float_of_bits(bits_of_float(x) + 1) - x)


def inverse_w(j):
    """1/w for sixteenth j (a float)."""
    if j == UNIT:
        return 1.0
    lo = float_of_bits(BASE + j * STEP)
    hi = float_of_bits(BASE + (j + 1) * STEP)
    centre = bits_of_float(2 / (lo + hi))
    best = None
    for delta in range(-SEARCH, SEARCH + 1):
        inv = float_of_bits(centre + delta)
        if max(abs(lo * inv - 1), abs(hi * inv - 1)) > R_MAX:
            continue
        ln_w = 0.0 - math.log(inv)  # +0 for w = 1
        rounded = to_float(ln_w)
        distance = abs(ln_w - rounded) / ulp(rounded)
        if best is None or distance < best[0]:
            best = (distance, inv)
    return best[1]


def tables():
    inv_w = [inverse_w(j) for j in range(16)]
    ln_hi, ln_lo = [], []
    for inv in inv_w:
        ln_w = 0.0 - math.log(inv)
        hi = round(ln_w * 2**17) / 2**17
        assert to_float(hi) == hi
        ln_hi.append(hi)
        ln_lo.append(to_float(ln_w - hi))
    return {"kInvW": inv_w, "kLnWHi": ln_hi, "kLnWLo": ln_lo}


def main(argv):
    return tablecheck.main(
        argv, "ln_sixteenths.py", lambda: {n: (v, "float") for n, v in tables().items()}
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv))
