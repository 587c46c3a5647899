"""The Remez exchange the polynomial fits in kernels/tables/ share.

fit(g, weight, lo, hi, n) returns the n coefficients c (lowest degree
first) of the polynomial P that minimises the largest weighted error
weight(x) (P(x) - g(x)) over [lo, hi], and that error. g and weight take
and return Decimals; weight may be 0 at a point (an end, or 0 inside),
which then never serves as a reference.

Each step solves for the P whose weighted error alternates in sign with
equal size at n + 1 reference points, then moves the references to the
extrema of the error on a grid of `grid` points (the extremum of each run
of one sign, the n + 1 consecutive runs whose smallest extremum is
largest), until the levelled error and the largest one agree to 1e-12 of
themselves. The caller sets the decimal precision (60 digits serve double
coefficients); every step is decimal arithmetic, so the result is the same
on any machine. Standard library only.
"""

import decimal

D = decimal.Decimal

# pi to 60 digits, for the starting references.
_PI = D("3.14159265358979323846264338327950288419716939937510582097494")


def _cos(x):
    total, term, k = D(1), D(1), 0
    while abs(term) > D(10) ** -62:
        k += 2
        term = -term * x * x / (k * (k - 1))
        total += term
    return total


def polynomial(c, x):
    """c[0] + c[1] x + ... by Horner's rule."""
    r = D(0)
    for v in reversed(c):
        r = r * x + v
    return r


def _solve(a, b):
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


def fit(g, weight, lo, hi, n, grid=4000, name="fit"):
    """The n coefficients and the largest weighted error on the grid."""
    lo, hi = D(lo), D(hi)
    # Chebyshev points of [lo, hi], moved off points of weight 0.
    refs = []
    for i in range(n + 1):
        x = (lo + hi) / 2 - (hi - lo) / 2 * _cos(_PI * (2 * i + 1) / (2 * n + 2))
        refs.append(x if weight(x) != 0 else x + (hi - lo) / (4 * grid))
    points = [lo + (hi - lo) * i / grid for i in range(grid + 1)]
    table = [(x, g(x), w) for x, w in ((x, weight(x)) for x in points) if w != 0]
    for _ in range(40):
        rows = [[x**j for j in range(n)] + [D(-1) ** i / weight(x)] for i, x in enumerate(refs)]
        solution = _solve(rows, [g(x) for x in refs])
        c, level = solution[:n], abs(solution[n])
        runs = []
        for x, gx, w in table:
            e = w * (polynomial(c, x) - gx)
            if runs and (runs[-1][1] >= 0) == (e >= 0):
                if abs(e) > abs(runs[-1][1]):
                    runs[-1] = (x, e)
            else:
                runs.append((x, e))
        largest = max(abs(e) for _, e in runs)
        if largest - level <= level * D(10) ** -12:
            return c, largest
        if len(runs) < n + 1:
            raise SystemExit("%s: the error has %d extrema, fewer than %d" % (name, len(runs), n + 1))
        start = max(range(len(runs) - n), key=lambda i: min(abs(e) for _, e in runs[i : i + n + 1]))
        refs = [x for x, _ in runs[start : start + n + 1]]
    raise SystemExit("%s: the Remez exchange did not converge for %d terms" % (name, n))
