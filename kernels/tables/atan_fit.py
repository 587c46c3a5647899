#!/usr/bin/env python3
"""Derives the polynomials of Atan2 (kernels/elementary.cpp, atan_fit).

    atan_fit.py              prints kF64 and kF32 as C++
    atan_fit.py --check F    exits 1 unless source file F holds exactly them

Atan2 reduces every input pair to atan(t) with |t| <= 1/2 and takes
atan(t) = t + t^3 P(t^2). P is the polynomial of n coefficients (lowest
degree first) in s = t^2 on [0, 1/4] that minimises the largest relative
error of t + t^3 P over the interval: 12 coefficients for double
(4.0e-18), 6 for float (2.5e-10), each then rounded to its type.

With g(s) = (atan t - t) / t^3 = -1/3 + s/5 - s^2/7 + ..., the relative
error is w(s) (P(s) - g(s)) with w(s) = t^3 / atan t. The Remez exchange
solves for the P whose weighted error alternates in sign with equal size
at n + 1 reference points, moves the references to the extrema of the
error (on a grid of 3000 points), and repeats until the levelled error
and the largest one agree to 1e-12 of themselves. Everything is computed
with the decimal module at 60 digits, so the coefficients are the same on
any machine. Standard library only.
"""

import decimal
import sys

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


def polynomial(c, s):
    r = D(0)
    for x in reversed(c):
        r = r * s + x
    return r


def cos(x):
    """cos of a Decimal, by its series (for the starting references)."""
    total, term, k = D(1), D(1), 0
    while abs(term) > D(10) ** -62:
        k += 2
        term = -term * x * x / (k * (k - 1))
        total += term
    return total


def solve(a, b):
    """a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[p] = m[p], m[i]
        for r in range(i + 1, n):
            f = m[r][i] / m[i][i]
            for j in range(i, n + 1):
                m[r][j] -= f * m[i][j]
    x = [D(0)] * n
    for i in reversed(range(n)):
        x[i] = (m[i][n] - sum(m[i][j] * x[j] for j in range(i + 1, n))) / m[i][i]
    return x


def remez(n):
    """The n coefficients and the largest relative error on the grid."""
    pi = D("3.14159265358979323846264338327950288419716939937510582097494")
    # Chebyshev points on (0, S_MAX], the last at S_MAX.
    refs = [S_MAX * (1 - cos(pi * (2 * i + 1) / (2 * n + 2))) / 2 for i in range(n)] + [S_MAX]
    grid = [S_MAX * i / GRID for i in range(1, GRID + 1)]
    table = [(s, g(s), weight(s)) for s in grid]
    for _ in range(30):
        rows = [[s**j for j in range(n)] + [D(-1) ** i / weight(s)] for i, s in enumerate(refs)]
        solution = solve(rows, [g(s) for s in refs])
        c, level = solution[:n], abs(solution[n])
        # The extremum of each run of one sign.
        runs = []
        for s, gs, w in table:
            e = w * (polynomial(c, s) - gs)
            if runs and (runs[-1][1] >= 0) == (e >= 0):
                if abs(e) > abs(runs[-1][1]):
                    runs[-1] = (s, e)
            else:
                runs.append((s, e))
        largest = max(abs(e) for _, e in runs)
        if largest - level <= level * D(10) ** -12:
            return c, largest
        # The n + 1 consecutive runs whose smallest extremum is largest.
        start = max(range(len(runs) - n), key=lambda i: min(abs(e) for _, e in runs[i : i + n + 1]))
        refs = [s for s, _ in runs[start : start + n + 1]]
    raise SystemExit("atan_fit.py: the Remez exchange did not converge for %d terms" % n)


def tables():
    decimal.getcontext().prec = 60
    derived = {}
    for name, (n, kind) in TERMS.items():
        c, _ = remez(n)
        values = [float(x) for x in c]
        derived[name] = [tablecheck.to_float(v) for v in values] if kind == "float" else values
    return derived


def main(argv):
    derived = tables()
    status = 0
    for kind in ("double", "float"):
        part = {name: v for name, v in derived.items() if TERMS[name][1] == kind}
        status |= tablecheck.main(argv, "atan_fit.py", part, kind)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
