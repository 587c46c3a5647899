#!/usr/bin/env python3
"""numpy's side of bench/run.sh: the same ops on the same inputs as
bench/ops_bench.cpp (bench/common.hpp's fill_inputs), timed as CPU time per
call (median of repetitions), plus each op's max relative error against a
float64 reference and the per-call overhead on 1-element arrays. Prints JSON.

Run with OPENBLAS_NUM_THREADS=1 (run.sh does) so numpy stays on one thread.
"""

import json
import statistics
import sys
import time

import numpy as np

ROW = 1024
RANGES = {"sum": (0.0, 1.0), "softmax": (-10.0, 10.0)}


def inputs(n, op, salt):
    lo, hi = RANGES.get(op, (-6.0, 6.0))
    i = np.arange(n, dtype=np.uint64) + np.uint64(salt)
    h = (i * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)
    return (lo + (hi - lo) * (h.astype(np.float64) / 4294967296.0)).astype(np.float32)


K = np.float32(np.sqrt(2 / np.pi))


def make(op, x, y, out, tmp):
    """Returns a callable computing op(x[, y]) into out (numpy's fastest
    spelling with preallocated buffers)."""
    if op == "add":
        return lambda: np.add(x, y, out=out)
    if op == "mul":
        return lambda: np.multiply(x, y, out=out)
    if op == "relu":
        return lambda: np.maximum(x, np.float32(0), out=out)
    if op == "exp":
        return lambda: np.exp(x, out=out)
    if op == "tanh":
        return lambda: np.tanh(x, out=out)
    if op == "sigmoid":
        def f():
            np.negative(x, out=out)
            np.exp(out, out=out)
            np.add(out, np.float32(1), out=out)
            np.reciprocal(out, out=out)
        return f
    if op == "gelu":
        def f():
            np.multiply(x, x, out=tmp)
            np.multiply(tmp, np.float32(0.044715), out=tmp)
            np.multiply(tmp, x, out=tmp)
            np.add(tmp, x, out=tmp)
            np.multiply(tmp, K, out=tmp)
            np.tanh(tmp, out=tmp)
            np.add(tmp, np.float32(1), out=tmp)
            np.multiply(x, np.float32(0.5), out=out)
            np.multiply(out, tmp, out=out)
        return f
    if op == "sum":
        return lambda: out.__setitem__(0, np.sum(x))
    if op == "softmax":
        x2, o2 = x.reshape(-1, ROW), out.reshape(-1, ROW)
        def f():
            np.subtract(x2, x2.max(axis=1, keepdims=True), out=o2)
            np.exp(o2, out=o2)
            np.divide(o2, o2.sum(axis=1, keepdims=True), out=o2)
        return f
    raise ValueError(op)


def reference(op, x, y):
    a = x.astype(np.float64)
    if op == "add":
        return a + y
    if op == "mul":
        return a * y
    if op == "relu":
        return np.maximum(a, 0)
    if op == "exp":
        return np.exp(a)
    if op == "tanh":
        return np.tanh(a)
    if op == "sigmoid":
        return 1 / (1 + np.exp(-a))
    if op == "gelu":
        k = np.sqrt(2 / np.pi)
        return a / (1 + np.exp(-2 * k * (a + 0.044715 * a ** 3)))
    if op == "sum":
        return np.array([np.sum(a)])
    if op == "softmax":
        a2 = a.reshape(-1, ROW)
        e = np.exp(a2 - a2.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)).reshape(-1)
    raise ValueError(op)


def rel_error(y, r):
    y = y.astype(np.float64)
    d = np.abs(y - r)
    nz = r != 0
    rel = np.where(nz, d / np.where(nz, np.abs(r), 1), d)
    return float(np.max(rel))


def per_call(f, min_time, reps):
    """Median CPU seconds per call over reps repetitions of >= min_time."""
    f()
    n = 1
    while True:
        t = time.thread_time()
        for _ in range(n):
            f()
        dt = time.thread_time() - t
        if dt >= min_time:
            break
        n = max(2 * n, int(n * min_time / dt * 1.2)) if dt > min_time / 8 else 8 * n
    times = [dt / n]
    for _ in range(reps - 1):
        t = time.thread_time()
        for _ in range(n):
            f()
        times.append((time.thread_time() - t) / n)
    return statistics.median(times)


def main():
    sizes = [int(s) for s in sys.argv[1].split(",")]
    ops = sys.argv[2].split(",")
    min_time = float(sys.argv[3])
    reps = int(sys.argv[4])
    result = {"numpy": np.__version__, "ops": {}, "overhead": {}}
    for n in sizes:
        for op in ops:
            x = inputs(n, op, 0)
            y = inputs(n, op, 12345)
            out = np.zeros(1 if op == "sum" else n, np.float32)
            tmp = np.zeros(n, np.float32) if op == "gelu" else None
            f = make(op, x, y, out, tmp)
            f()
            err = rel_error(out, reference(op, x, y))
            sec = per_call(f, min_time, reps)
            result["ops"][f"{op}/numpy/{n}"] = {"gelem_s": n / sec / 1e9, "err": err}
    a = np.array([1.5], np.float32)
    b = np.array([2.5], np.float32)
    c = np.zeros(1, np.float32)
    result["overhead"]["full"] = per_call(lambda: np.add(a, b), min_time, reps) * 1e9
    result["overhead"]["out"] = per_call(lambda: np.add(a, b, out=c), min_time, reps) * 1e9
    json.dump(result, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
