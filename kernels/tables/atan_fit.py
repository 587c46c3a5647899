#!/usr/bin/env python3
"""Derives the polynomials of Atan2 (kernels/elementary.cpp, atan_fit).

    atan_fit.py              prints kF64 and kF32 as C++
    atan_fit.py --check F    exits 1 unless source file F holds exactly them

Atan2 reduces every input pair to atan(t) with |t| <= 1/2 and takes
atan(t) = t + t^3 P(t^2). P is the polynomial of n coefficients (lowest
degree first) in s = t^2 on [0, 1/4] that minimises the largest relative
error of t + t^3 P over the interval: 12 coefficients for double
(4.0e-18), 6 for float (2.5e-10), each then rounded once to its type
(5.1e-18 and 4.4e-9 with the rounded coefficients, evaluated exactly).

With g(s) = (atan t - t) / t^3 = -1/3 + s/5 - s^2/7 + ..., the relative
error is w(s) (P(s) - g(s)) with w(s) = t^3 / atan t, which remez.py's
exchange minimises (on a grid of 3000 points) in 60-digit decimals, so the
coefficients are the same on any machine. Standard library only.
"""

import decimal
import sys

import remez
import tablecheck

D = decimal.Decimal
S_MAX = D(1) / 4
GRID = 3000
TERMS = {"kF64": (12, "double"), "kF32": (6, "float")}


def g(s):
    """(atan t - t) / t^3 for s = t^2 in [0, 1/4], by its series."""
    total, power, k = D(0), D(1), 1
    while True:
        term = power / (2 * k + 1)
        total = total - term if k % 2 else total + term
        if term < D(10) ** -62:
            return total
        power *= s
        k += 1


def weight(s):
    """t^3 / atan t = s / (atan t / t)."""
    return s / (1 + s * g(s))


def tables():
    decimal.getcontext().prec = 60
    return {
        name: (remez.fit(g, weight, 0, S_MAX, n, grid=GRID, name="atan_fit.py")[0], kind)
        for name, (n, kind) in TERMS.items()
    }


def main(argv):
    return tablecheck.main(argv, "atan_fit.py", tables)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
