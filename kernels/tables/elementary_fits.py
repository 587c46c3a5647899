#!/usr/bin/env python3
"""Derives the polynomial fits of kernels/elementary.cpp (namespace fits).

    elementary_fits.py              prints kAtanF64, kAtanF32 and kSinF64
    elementary_fits.py --check F    exits 1 unless source file F holds
                                    exactly them (tablecheck.py)

Each is the polynomial P of n coefficients (lowest degree first) in s =
t^2 that minimises the largest relative error of t + t^3 P(s) against an
odd function f(t) over an interval of s: remez.py's exchange on a grid of
3000 points in 60-digit decimals, so the coefficients are the same on any
machine. With g(s) = (f(t) - t) / t^3, that error is w(s) (P(s) - g(s)),
w(s) = t^3 / f(t) = s / (1 + s g(s)). Each coefficient is then rounded
once to its type.

- kAtanF64, kAtanF32: atan(t) for |t| <= 1/2 (Atan2 reduces every pair to
  it), g = -1/3 + s/5 - s^2/7 + ...; 12 coefficients for double (4.0e-18
  as fitted, 5.1e-18 with the coefficients rounded and evaluated exactly),
  6 for float (2.5e-10, 4.4e-9).
- kSinF64: sin(h) for |h| <= pi/4 + 0.0001 (SinCosF64's reduced argument
  or its half, a little past pi/4 where n's rounding misses), g = -1/3! +
  s/5! - ...; 6 coefficients, 3.6e-18 (2^-58), 1/30 of an ulp (5 reach only
  5.0e-15).

Standard library only.
"""

import decimal
import sys

import remez
import tablecheck

D = decimal.Decimal
GRID = 3000
PI = D("3.14159265358979323846264338327950288419716939937510582097494")


def series(first, next_term):
    """The sum of first, next_term(first, 1), next_term(that, 2), ...
    until the terms fall below 1e-62."""

    def g(s):
        total, term, k = D(0), first, 1
        while abs(term) >= D(10) ** -62:
            total += term
            term = next_term(term, s, k)
            k += 1
        return total

    return g


# (atan t - t) / t^3 = sum_k (-1)^k s^(k-1) / (2k + 1), k >= 1.
atan_g = series(D(-1) / 3, lambda term, s, k: -term * s * (2 * k + 1) / (2 * k + 3))
# (sin t - t) / t^3 = sum_k (-1)^k s^(k-1) / (2k + 1)!, k >= 1.
sin_g = series(D(-1) / 6, lambda term, s, k: -term * s / ((2 * k + 2) * (2 * k + 3)))


def relative(g):
    return lambda s: s / (1 + s * g(s))


FITS = {
    "kAtanF64": (atan_g, D(1) / 4, 12, "double"),
    "kAtanF32": (atan_g, D(1) / 4, 6, "float"),
    "kSinF64": (sin_g, (PI / 4 + D("0.0001")) ** 2, 6, "double"),
}


def tables():
    decimal.getcontext().prec = 60
    return {
        name: (remez.fit(g, relative(g), 0, s_max, n, grid=GRID, name="elementary_fits.py")[0], kind)
        for name, (g, s_max, n, kind) in FITS.items()
    }


def main(argv):
    return tablecheck.main(argv, "elementary_fits.py", tables)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
