#!/usr/bin/env python3
"""numpy's side of bench/run.sh: the same ops on the same inputs as
bench/ops_bench.cpp (bench/common.hpp's fill_inputs), timed as CPU time per
call (the median of repetitions, and each repetition), plus each op's max
relative error against a float64 reference and the per-call overhead on
1-element arrays. Prints JSON.

Usage: numpy_bench.py SIZES OPS.json MIN_TIME REPS [--timing-only] [--float64],
with OPS.json the op table of `ops_bench --list_ops` (names, kinds, input
domains). --timing-only leaves the errors out (run.sh's later rounds, whose
inputs and results are the first round's). --float64 runs the ops on float64
arrays (the same inputs unrounded, as `ops_bench --float64`), with errors
against a long double reference, and leaves out the overhead and allocation
rows.

Run with OPENBLAS_NUM_THREADS=1 (run.sh does) so numpy stays on one thread.
"""

import json
import statistics
import sys
import time

import numpy as np

ROW = 1024


def inputs(n, lo, hi, salt, dtype=np.float32):
    i = np.arange(n, dtype=np.uint64) + np.uint64(salt)
    m = np.uint64(0xFFFFFFFF)
    h = (i * np.uint64(2654435761)) & m
    # MurmurHash3's 32-bit finaliser, as bench/common.hpp fill_inputs.
    h ^= h >> np.uint64(16)
    h = (h * np.uint64(0x85EBCA6B)) & m
    h ^= h >> np.uint64(13)
    h = (h * np.uint64(0xC2B2AE35)) & m
    h ^= h >> np.uint64(16)
    return (lo + (hi - lo) * (h.astype(np.float64) / 4294967296.0)).astype(dtype)


K = np.sqrt(2 / np.pi)
SELU_SCALE, SELU_ALPHA = 1.0507009873554805, 1.6732632423543772


def ufunc(f):
    """op(x) or op(x, y) into out: one numpy ufunc with out=."""
    return lambda x, y, out, tmp: (lambda: f(x, out=out)) if y is None else (
        lambda: f(x, y, out=out))


def expr(f):
    """A composite expression of x (numpy allocates its temporaries)."""
    return lambda x, y, out, tmp: lambda: out.__setitem__(..., f(x))


def reduce(f):
    """A reduction to one value, stored in out[0]."""
    return lambda x, y, out, tmp: lambda: out.__setitem__(0, f(x, y))


def rows(f):
    """f(rows of x) for each row of ROW elements."""
    return lambda x, y, out, tmp: lambda: out.reshape(-1, ROW).__setitem__(
        ..., f(x.reshape(-1, ROW)))


def sigmoid(x, y, out, tmp):
    def f():
        np.negative(x, out=out)
        np.exp(out, out=out)
        np.add(out, 1, out=out)
        np.reciprocal(out, out=out)
    return f


def gelu(x, y, out, tmp):
    def f():
        np.multiply(x, x, out=tmp)
        np.multiply(tmp, 0.044715, out=tmp)
        np.multiply(tmp, x, out=tmp)
        np.add(tmp, x, out=tmp)
        np.multiply(tmp, K, out=tmp)
        np.tanh(tmp, out=tmp)
        np.add(tmp, 1, out=tmp)
        np.multiply(x, 0.5, out=out)
        np.multiply(out, tmp, out=out)
    return f


def softmax(x, y, out, tmp):
    x2, o2 = x.reshape(-1, ROW), out.reshape(-1, ROW)
    def f():
        np.subtract(x2, x2.max(axis=1, keepdims=True), out=o2)
        np.exp(o2, out=o2)
        np.divide(o2, o2.sum(axis=1, keepdims=True), out=o2)
    return f


def softplus(x):
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


def log_softmax(x2):
    m = x2.max(axis=1, keepdims=True)
    return x2 - m - np.log(np.exp(x2 - m).sum(axis=1, keepdims=True))


# numpy's spelling of each op of ops_bench.cpp's table, with preallocated
# out= buffers where one ufunc does it. Ops missing here have no numpy row
# (erf needs scipy).
OPS = {
    "add": ufunc(np.add), "sub": ufunc(np.subtract), "mul": ufunc(np.multiply),
    "div": ufunc(np.divide), "maximum": ufunc(np.maximum), "minimum": ufunc(np.minimum),
    "pow": ufunc(np.power), "atan2": ufunc(np.arctan2), "hypot": ufunc(np.hypot),
    "fmod": ufunc(np.fmod),
    "exp": ufunc(np.exp), "tanh": ufunc(np.tanh), "sqrt": ufunc(np.sqrt),
    "rsqrt": expr(lambda x: 1 / np.sqrt(x)), "reciprocal": ufunc(np.reciprocal),
    "log": ufunc(np.log), "log2": ufunc(np.log2), "log1p": ufunc(np.log1p),
    "exp2": ufunc(np.exp2), "expm1": ufunc(np.expm1), "sin": ufunc(np.sin),
    "cos": ufunc(np.cos), "abs": ufunc(np.abs), "neg": ufunc(np.negative),
    "square": ufunc(np.square), "floor": ufunc(np.floor), "ceil": ufunc(np.ceil),
    "round": ufunc(np.rint), "trunc": ufunc(np.trunc), "sign": ufunc(np.sign),
    "clip": ufunc(lambda x, out: np.clip(x, -1, 1, out=out)),
    "relu": ufunc(lambda x, out: np.maximum(x, 0, out=out)),
    "relu6": ufunc(lambda x, out: np.clip(x, 0, 6, out=out)),
    "leaky_relu": expr(lambda x: np.where(x > 0, x, 0.01 * x)),
    "sigmoid": sigmoid, "gelu": gelu,
    "silu": expr(lambda x: x / (1 + np.exp(-x))),
    "elu": expr(lambda x: np.where(x > 0, x, np.expm1(x))),
    "selu": expr(lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(x))),
    "softplus": expr(softplus), "softsign": expr(lambda x: x / (1 + np.abs(x))),
    "mish": expr(lambda x: x * np.tanh(softplus(x))),
    "hard_sigmoid": expr(lambda x: np.clip(x + 3, 0, 6) / 6),
    "hard_swish": expr(lambda x: x * np.clip(x + 3, 0, 6) / 6),
    "sum": reduce(lambda x, y: np.sum(x)), "mean": reduce(lambda x, y: np.mean(x)),
    "reduce_max": reduce(lambda x, y: np.max(x)), "prod": reduce(lambda x, y: np.prod(x)),
    "norm2": reduce(lambda x, y: np.linalg.norm(x)), "dot": reduce(np.dot),
    "var": reduce(lambda x, y: np.var(x)), "std": reduce(lambda x, y: np.std(x)),
    "argmax": reduce(lambda x, y: np.argmax(x)), "argmin": reduce(lambda x, y: np.argmin(x)),
    "cumsum": ufunc(lambda x, out: np.cumsum(x, out=out)),
    "softmax": softmax, "log_softmax": rows(log_softmax),
    "layer_norm": rows(lambda r: (r - r.mean(axis=1, keepdims=True))
                      / np.sqrt(r.var(axis=1, keepdims=True) + 1e-5)),
    "rms_norm": rows(lambda r: r / np.sqrt((r * r).mean(axis=1, keepdims=True) + 1e-6)),
}
# The reference of numpy's result is its own expression in a wider type
# (float64 for float32 results, long double for float64 ones), but for gelu,
# whose 1 + tanh(u) cancels in the far negative tail (ops_bench.cpp's
# reference: x sigmoid(2u)).
REFERENCE = {
    "gelu": lambda a: a / (1 + np.exp(-2 * K * (a + 0.044715 * a ** 3))),
}
# The reference's type for each result type.
WIDER = {np.float32: np.float64, np.float64: np.longdouble}


def run(op, x, y, dtype):
    """Computes op once on x, y converted to dtype; returns (out, callable)."""
    x = x.astype(dtype)
    y = None if y is None else y.astype(dtype)
    out = np.zeros(1 if op["kind"] == "reduction" else len(x), dtype)
    tmp = np.zeros(len(x), dtype) if op["op"] == "gelu" else None
    f = OPS[op["op"]](x, y, out, tmp)
    f()
    return out, f


def rel_error(y, r, floor):
    """As bench/common.hpp max_rel_error: a NaN on both sides is exact, on
    one side only an infinite error."""
    y = y.astype(np.longdouble)
    r = np.asarray(r, np.longdouble)
    yn, rn = np.isnan(y), np.isnan(r)
    if np.any(yn != rn):
        return float("inf")
    keep = ~yn & (y != r)
    y, r = y[keep], r[keep]
    if not len(y):
        return 0.0
    d = np.abs(y - r)
    den = np.maximum(np.abs(r), floor)
    rel = np.where(den != 0, d / np.where(den != 0, den, 1), d)
    return float(np.max(rel))


def plant_nans(x, period, first):
    """bench/common.hpp plant_nans: NaN at every period-th element from first."""
    x = x.copy()
    x[first::period] = np.nan
    return x


REDUCTION_SAMPLES = 8
SAMPLE_SALT = 1 << 28


def error(op, x, y, out):
    """Max relative error of numpy's result out on inputs x, y."""
    wide = WIDER[out.dtype.type]
    if op["op"] in REFERENCE:
        ref = REFERENCE[op["op"]](x.astype(wide))
    else:
        ref = run(op, x, y, wide)[0]
    return rel_error(out, ref, op["err_floor"])


def per_call(f, min_time, reps):
    """CPU seconds per call of each of reps repetitions of >= min_time."""
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
    return times


def main():
    args = [a for a in sys.argv[1:] if a not in ("--timing-only", "--float64")]
    if len(args) != 4:
        sys.exit(__doc__)
    timing_only = "--timing-only" in sys.argv[1:]
    dtype = np.float64 if "--float64" in sys.argv[1:] else np.float32
    sizes = [int(s) for s in args[0].split(",")]
    with open(args[1]) as f:
        ops = [op for op in json.load(f) if op["op"] in OPS]
    min_time = float(args[2])
    reps = int(args[3])
    result = {"numpy": np.__version__, "ops": {}, "overhead": {}}
    for n in sizes:
        for op in ops:
            x = inputs(n, *op["x"], 0, dtype)
            y = None if op["y"] is None else inputs(n, *op["y"], 12345, dtype)
            out, f = run(op, x, y, dtype)
            row = {}
            if not timing_only:
                err = error(op, x, y, out)
                # A reduction's error is the largest over REDUCTION_SAMPLES
                # input sets, as ops_bench.cpp's write_accuracy does.
                if op["kind"] == "reduction":
                    for s in range(1, REDUCTION_SAMPLES):
                        xs = inputs(n, *op["x"], s * SAMPLE_SALT, dtype)
                        ys = None if y is None else inputs(n, *op["y"], 12345 + s * SAMPLE_SALT,
                                                           dtype)
                        err = max(err, error(op, xs, ys, run(op, xs, ys, dtype)[0]))
                # The NaN input set of ops_bench.cpp's nan_set ops.
                if op.get("nan_set"):
                    xs = plant_nans(x, 61, 7)
                    ys = None if y is None else plant_nans(y, 67, 3)
                    err = max(err, error(op, xs, ys, run(op, xs, ys, dtype)[0]))
                row["err"] = err
            secs = per_call(f, min_time, reps)
            # The median, and every repetition for table.py's spread.
            row["gelem_s"] = n / statistics.median(secs) / 1e9
            row["samples"] = [n / sec / 1e9 for sec in secs]
            result["ops"][f"{op['op']}/numpy/{n}"] = row
    if dtype == np.float64:
        json.dump(result, sys.stdout, indent=1)
        return
    a = np.array([1.5], np.float32)
    b = np.array([2.5], np.float32)
    c = np.zeros(1, np.float32)
    full = per_call(lambda: np.add(a, b), min_time, reps)
    out = per_call(lambda: np.add(a, b, out=c), min_time, reps)
    result["overhead"]["full"] = statistics.median(full) * 1e9
    result["overhead"]["out"] = statistics.median(out) * 1e9
    # A call that allocates its large result, and the same into out
    # (ops_bench.cpp's alloc rows), in microseconds.
    result["alloc"] = {}
    for n in sizes:
        if n < 1 << 20:
            continue
        x = inputs(n, -6.0, 6.0, 0)  # ops_bench.cpp's kWide
        y = inputs(n, -6.0, 6.0, 12345)
        c = np.empty(n, np.float32)
        full = per_call(lambda: np.add(x, y), min_time, reps)
        out = per_call(lambda: np.add(x, y, out=c), min_time, reps)
        result["alloc"][str(n)] = {"full": statistics.median(full) * 1e6,
                                   "out": statistics.median(out) * 1e6}
    json.dump(result, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
