#!/usr/bin/env python3
"""Derives the 16-entry tables of LnTableF32 (kernels/math-inl.h).

    ln_sixteenths.py              prints kInvW, kLnWHi and kLnWLo as C++
    ln_sixteenths.py --check H    exits 1 unless header H holds exactly them

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
import re
import struct
import sys

BASE = 0x3F330000  # the bits of 0.69921875, the start of the first sixteenth
STEP = 0x80000  # one sixteenth: bit 19 of the pattern
UNIT = 9  # the sixteenth that holds 1
R_MAX = 0.0305
SEARCH = 20000  # floats tried on either side of 1 / middle


def float_of_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def bits_of_float(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def to_float(x):
    """x rounded to the nearest float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


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


def header_tables(text):
    """The three arrays as the header spells them, as floats."""
    found = {}
    for name in ("kInvW", "kLnWHi", "kLnWLo"):
        m = re.search(r"\b%s\[16\]\s*=\s*\{([^}]*)\}" % name, text)
        if not m:
            raise SystemExit("ln_sixteenths.py: no %s[16] in the header" % name)
        values = [v.strip().rstrip("f") for v in m.group(1).split(",") if v.strip()]
        found[name] = [to_float(float(v)) for v in values]
    return found


def main(argv):
    derived = tables()
    if len(argv) == 3 and argv[1] == "--check":
        with open(argv[2], encoding="utf-8") as f:
            held = header_tables(f.read())
        bad = 0
        for name, values in derived.items():
            if len(held[name]) != len(values):
                print("%s: %s has %d entries, not %d" % (argv[2], name, len(held[name]), len(values)))
                bad += 1
                continue
            for j, (want, got) in enumerate(zip(values, held[name])):
                if bits_of_float(want) != bits_of_float(got):
                    print("%s: %s[%d] is %.9g, derived %.9g" % (argv[2], name, j, got, want))
                    bad += 1
        if bad:
            return 1
        print("kInvW, kLnWHi, kLnWLo: as derived")
        return 0
    if len(argv) != 1:
        print("usage: ln_sixteenths.py [--check HEADER]", file=sys.stderr)
        return 2
    for name, values in derived.items():
        print("%s[16] = {%s};" % (name, ", ".join("%.9gf" % v for v in values)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
