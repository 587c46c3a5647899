#!/usr/bin/env python3
"""Prints bench/run.sh's table from the JSON of ops_bench (Google Benchmark,
each repetition and, from one process with repetitions, the median
aggregates), its --accuracy_out file and numpy_bench.py's output.

Usage: table.py FOLDER
       table.py [--paired=PAIRED.json] OPS_BENCH.json[,...] ACCURACY.json NUMPY.json[,...]
                [THREADS.json]

FOLDER: the raw results run.sh keeps (BENCH_KEEP): ops.<round>.json,
accuracy.json, numpy.<round>.json, and threads.json and paired.json when
present.
PAIRED.json: ops_bench --paired_out (opgen and the C++ peers timed
alternately, round by round), printed as a second table of median
per-round ratios.
OPS_BENCH.json and NUMPY.json may each be a comma-separated list of files,
one per round: a row's repetitions are those of every file, its value their
median, and numpy's error the first file's that has one.
THREADS.json: ops_bench --threads_rows (opgen at 1 and 2 threads).
"""

import glob
import json
import os
import statistics
import sys

# Errors up to this (2 ulp at 1, relative: of a float32, or of a float64 in
# the float64 table) count as comparable whatever opgen's error: the rule
# only sets aside peers that are faster by being far less accurate, not
# ulp-level differences. main() sets it from the run's dtype.
COMPARABLE_ERR = 2.0 ** -22
COMPARABLE_ERR_BY_DTYPE = {"float32": 2.0 ** -22, "float64": 2.0 ** -51}


def comparable(peer_err, opgen_err):
    """Whether a peer's max relative error is comparable to opgen's: at most
    twice it, or at most COMPARABLE_ERR (a missing error counts as comparable,
    an infinite one, a NaN dropped or made, never)."""
    if peer_err == float("inf"):
        return False
    if peer_err != peer_err or opgen_err != opgen_err:  # NaN: not measured
        return True
    return peer_err <= max(2 * opgen_err, COMPARABLE_ERR)


def median_run(reps):
    """One run whose every numeric field is the median of that field over
    the repetitions reps (Google Benchmark's median aggregate, for runs
    spread over several files)."""
    out = dict(reps[0])
    for k, v in reps[0].items():
        if isinstance(v, (int, float)) and not isinstance(v, bool) and all(k in r for r in reps):
            out[k] = statistics.median(r[k] for r in reps)
    return out


def runs(benchmarks):
    """Google Benchmark JSON entries (of one file or several) -> (median,
    repetitions): per run name the median of its repetitions (run_type
    iteration), or its median aggregate when the entries hold aggregates
    only, and the list of its repetitions."""
    med, reps = {}, {}
    for b in benchmarks:
        name = b.get("run_name", b["name"])
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                med[name] = b
        else:
            reps.setdefault(name, []).append(b)
    return {**med, **{name: median_run(r) for name, r in reps.items()}}, reps


def load_gb(paths):
    """The context of the first of these Google Benchmark JSON files and
    the entries of them all."""
    ctx, benchmarks = None, []
    for path in paths:
        with open(path) as f:
            gb = json.load(f)
        ctx = ctx or gb["context"]
        benchmarks += gb["benchmarks"]
    return ctx, benchmarks


def load_numpy(paths):
    """numpy_bench.py's outputs (one per round) merged: per row every
    repetition, their median, and the first error measured; per-call and
    allocation times the median over the files."""
    docs = []
    for path in paths:
        with open(path) as f:
            docs.append(json.load(f))
    npy = {"numpy": docs[0]["numpy"], "ops": {}, "overhead": {}, "alloc": {}}
    for doc in docs:
        for name, v in doc["ops"].items():
            row = npy["ops"].setdefault(name, {"samples": [], "err": float("nan")})
            row["samples"] += v.get("samples", [v["gelem_s"]])
            if row["err"] != row["err"] and "err" in v:
                row["err"] = v["err"]
    for row in npy["ops"].values():
        row["gelem_s"] = statistics.median(row["samples"])
    for kind in {k for doc in docs for k in doc.get("overhead", {})}:
        npy["overhead"][kind] = statistics.median(
            doc["overhead"][kind] for doc in docs if kind in doc.get("overhead", {}))
    for n in {n for doc in docs for n in doc.get("alloc", {})}:
        rows = [doc["alloc"][n] for doc in docs if n in doc.get("alloc", {})]
        npy["alloc"][n] = {k: statistics.median(r[k] for r in rows if k in r) for k in rows[0]}
    return npy


def arguments(argv):
    """(ops_bench files, accuracy file, numpy files, threads file or None,
    paired file or None) from the command line: a folder, or the files
    themselves."""
    paired = None
    if argv and argv[0].startswith("--paired="):
        paired, argv = argv[0][len("--paired="):], argv[1:]
    if len(argv) == 1 and os.path.isdir(argv[0]):
        folder = argv[0]

        def rounds(base):
            """base.<round>.json in round order, or base.json (one file)."""
            paths = glob.glob(os.path.join(folder, base + ".*.json"))
            paths = [p for p in paths if p.rsplit(".", 2)[1].isdigit()]
            paths.sort(key=lambda p: int(p.rsplit(".", 2)[1]))
            return paths or [os.path.join(folder, base + ".json")]

        def present(name):
            path = os.path.join(folder, name)
            return path if os.path.isfile(path) and os.path.getsize(path) else None

        return (rounds("ops"), os.path.join(folder, "accuracy.json"), rounds("numpy"),
                present("threads.json"), paired or present("paired.json"))
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    return (argv[0].split(","), argv[1], argv[2].split(","), argv[3] if len(argv) == 4 else None,
            paired)


def si(n):
    for unit, k in (("M", 1 << 20), ("K", 1 << 10)):
        if n >= k and n % k == 0:
            return f"{n // k}{unit}"
    return str(n)


def main():
    global COMPARABLE_ERR
    ops_paths, acc_path, numpy_paths, threads_path, paired_path = arguments(sys.argv[1:])
    ctx, benchmarks = load_gb(ops_paths)
    # ops_bench's custom context: float64 with --float64.
    dtype = ctx.get("dtype", "float32")
    COMPARABLE_ERR = COMPARABLE_ERR_BY_DTYPE[dtype]
    with open(acc_path) as f:
        acc = json.load(f)
    npy = load_numpy(numpy_paths)
    med, reps = runs(benchmarks)
    repetitions = max((len(r) for r in reps.values()), default=0) or \
        benchmarks[0].get("repetitions", 1)

    # op -> size -> impl -> (gelem/s, err, gelem/s of each repetition)
    data = {}
    for name, b in med.items():
        parts = name.split("/")
        if len(parts) == 3 and "items_per_second" in b:
            op, impl, n = parts
            g = b["items_per_second"] / 1e9
            samples = [r["items_per_second"] / 1e9 for r in reps.get(name, [])] or [g]
            data.setdefault(op, {}).setdefault(int(n), {})[impl] = (
                g, acc.get(name, float("nan")), samples)
    for name, v in npy["ops"].items():
        op, impl, n = name.split("/")
        data.setdefault(op, {}).setdefault(int(n), {})[impl] = (
            v["gelem_s"], v["err"], v.get("samples", [v["gelem_s"]]))

    # The ops in the order of ops_bench's table (the accuracy file's order).
    ops = list(dict.fromkeys(k.split("/")[0] for k in acc))

    print(f"opgen vs peers, one core (taskset), medians of {repetitions}"
          f" repetitions, CPU time; {ctx.get('num_cpus')} CPUs @ {ctx.get('mhz_per_cpu')} MHz;"
          f" numpy {npy['numpy']}")
    if os.environ.get("BENCH_OPENBLAS_NOTE"):
        print(os.environ["BENCH_OPENBLAS_NOTE"])
    print(f"Gelem/s of {dtype} elements; err = max relative error vs a"
          f" {'long double' if dtype == 'float64' else 'double'} reference, same inputs")
    # The ops of ops_bench.cpp's kOps marked with_nan_set.
    print("(maximum, minimum, reduce_max, argmax and argmin also on inputs holding NaN;")
    print("err inf: a NaN input dropped or a NaN made; argmax/argmin: the wrong index's error)")
    print()
    print("best peer: the fastest peer of comparable accuracy, whose max relative error is at most")
    print(f"twice opgen's or {COMPARABLE_ERR:.1e} (2 ulp at 1); a faster peer less accurate than that")
    print("is named after the row with its ratio and error; range: the ratio's extremes over the")
    print("repetitions (opgen's slowest against the peer's fastest, and the other way round)")
    print()
    hdr = (f"{'op':12} {'size':>5} | {'opgen':>7} | {'best peer':>9} {'Gelem/s':>7} | {'ratio':>5}"
           f" {'range':>9} | {'err opgen':>9} {'err peer':>9}")
    print(hdr)
    print("-" * len(hdr))
    ratios = []
    ratios_any = []
    worst = {}
    beyond = []  # rows below 1.0 in every pair of repetitions
    fastest_rows = []  # (ratio of each side's fastest repetition, row name)
    dominated = []  # rows whose every peer is slower and less accurate
    for op in ops + sorted(set(data) - set(ops)):
        for n in sorted(data.get(op, {})):
            row = data[op][n]
            if "opgen" not in row:
                continue
            og, oe, os_ = row["opgen"]
            peers = {k: v for k, v in row.items() if k != "opgen"}
            if not peers:
                continue
            fastest = max(peers, key=lambda k: peers[k][0])
            ratios_any.append(og / peers[fastest][0])
            fair = {k: v for k, v in peers.items() if comparable(v[1], oe)}
            less_accurate = ""
            if not fair and og >= peers[fastest][0]:
                # Every peer is both less accurate and slower: opgen wins on
                # both counts, so the row shows its ratio against the fastest
                # one (but stays out of the counts, below).
                fair = {fastest: peers[fastest]}
                less_accurate = "  (every peer less accurate)"
            if not fair:
                print(f"{op:12} {si(n):>5} | {og:7.2f} | no peer of comparable accuracy"
                      f" (fastest: {fastest} {og / peers[fastest][0]:.2f}, err {peers[fastest][1]:.2e};"
                      f" opgen's err {oe:.2e})")
                continue
            best = max(fair, key=lambda k: fair[k][0])
            pg, pe, ps = fair[best]
            ratio = og / pg
            lo, hi = min(os_) / max(ps), max(os_) / min(ps)
            if less_accurate:
                # Shown, but not counted: the counts are against peers of
                # comparable accuracy.
                dominated.append(f"{op} {si(n)}")
                print(f"{op:12} {si(n):>5} | {og:7.2f} | {best:>9} {pg:7.2f} | {ratio:5.2f}"
                      f" {lo:4.2f}-{hi:4.2f} | {oe:9.2e} {pe:9.2e}{less_accurate}")
                continue
            ratios.append((ratio, hi))
            fastest_rows.append((max(os_) / max(ps), f"{op} {si(n)}"))
            worst[op] = min(ratio, worst.get(op, ratio))
            if hi < 1.0:
                beyond.append(f"{op} {si(n)} {ratio:.2f}")
            aside = ""
            if fastest != best:
                fg, fe, _ = peers[fastest]
                aside = f"  (faster: {fastest} {og / fg:.2f}, err {fe:.2e})"
            print(f"{op:12} {si(n):>5} | {og:7.2f} | {best:>9} {pg:7.2f} | {ratio:5.2f}"
                  f" {lo:4.2f}-{hi:4.2f} | {oe:9.2e} {pe:9.2e}{aside}")
    if ratios:
        medians = [r for r, _ in ratios]
        print(f"ratio opgen / best peer: min {min(medians):.2f}, max {max(medians):.2f},"
              f" {sum(r >= 1.0 for r in medians)} of {len(medians)} rows >= 1.0"
              f" (against the fastest peer at any accuracy: {sum(r >= 1.0 for r in ratios_any)}"
              f" of {len(ratios_any)})")
        within = sum(r < 1.0 <= hi for r, hi in ratios)
        print(f"of the rows below 1.0, {within} reach 1.0 within the repetitions' range and"
              f" {len(beyond)} do not (opgen slower in every pair of repetitions)")
        below = [f"{op} {r:.3f}" for op, r in worst.items() if r < 1.0]
        print("ops with a row below 1.0 (worst ratio): " + (", ".join(below) if below else "none"))
        print("rows below 1.0 in every pair of repetitions: " + (", ".join(beyond) if beyond else "none"))
        # A busy neighbour only ever slows a repetition down, so each side's
        # fastest repetition is its least disturbed one. The ratio of the two
        # moved less between two runs than the ratio of medians (0.11 against
        # 0.19 in the median row), though rows near 1.0 crossed it as often.
        slow = [f"{name} {r:.3f}" for r, name in fastest_rows if r < 1.0]
        print(f"by each side's fastest repetition (the least disturbed): "
              f"{len(fastest_rows) - len(slow)} of {len(fastest_rows)} rows >= 1.0; below: "
              + (", ".join(slow) if slow else "none"))
    if dominated:
        print(f"not counted: {len(dominated)} rows where every peer is slower and less accurate"
              f" than the rule allows ({', '.join(dominated)})")

    stream = sorted({int(k.split('/')[2]) for k in med if k.startswith("stream_add/")})
    if stream:
        print()
        print(f"{'memory':8} {'size':>5} | {'copy GB/s':>9} {'add GB/s':>9} | {'opgen add GB/s':>14} | {'ratio':>5}")
    for n in stream:
        c = med.get(f"stream_copy/loop/{n}", {}).get("bytes_per_second", 0) / 1e9
        a = med.get(f"stream_add/loop/{n}", {}).get("bytes_per_second", 0) / 1e9
        o = data.get("add", {}).get(n, {}).get("opgen", (0, 0))[0] * 12
        print(f"{'stream':8} {si(n):>5} | {c:9.1f} {a:9.1f} | {o:14.1f} | {o / a if a else 0:5.2f}")

    if "overhead/opgen/full" in med:
        print()
        print("per-call overhead, 1-element float32 add (ns):")
    for kind in ("full", "out"):
        b = med.get(f"overhead/opgen/{kind}")
        if b:
            print(f"  {kind:4} call: opgen {b['cpu_time']:6.1f}   numpy {npy['overhead'][kind]:6.1f}")

    alloc = sorted(int(name.split("/")[3]) for name in med if name.startswith("alloc/opgen/full/"))
    if alloc:
        print()
        print("a call that allocates its result against the same call into out, float32 add (us):")
        print(f"{'size':>5} | {'opgen full':>10} {'out':>8} {'ratio':>5} | {'numpy full':>10} {'out':>8} {'ratio':>5}")
    for n in alloc:
        full = med[f"alloc/opgen/full/{n}"]["cpu_time"] / 1e3
        out = med.get(f"alloc/opgen/out/{n}", {}).get("cpu_time", 0) / 1e3
        np_row = npy.get("alloc", {}).get(str(n), {})
        nf, no = np_row.get("full", 0), np_row.get("out", 0)
        print(f"{si(n):>5} | {full:10.1f} {out:8.1f} {full / out if out else 0:5.2f} |"
              f" {nf:10.1f} {no:8.1f} {nf / no if no else 0:5.2f}")

    peak = med.get("fma_peak/loop/0", {}).get("flops", 0) / 1e9
    mm = {}
    if peak:
        print()
        print(f"FMA peak (measured, one core): {peak:.1f} GFLOP/s")
    for name, b in med.items():
        parts = name.split("/")
        if parts[0] == "matmul" and "flops" in b:
            mm.setdefault(int(parts[2]), {})[parts[1]] = b["flops"] / 1e9
    if mm:
        print(f"{'matmul':8} {'n':>5} | {'opgen':>7} | {'best peer':>9} {'GFLOP/s':>7} | {'ratio':>5} | {'% peak':>6} | others")
        for n in sorted(mm):
            row = mm[n]
            peers = {k: v for k, v in row.items() if k != "opgen"}
            best = max(peers, key=peers.get) if peers else "-"
            pg = peers.get(best, 0)
            og = row.get("opgen")
            others = " ".join(f"{k} {v:.1f}" for k, v in sorted(peers.items()) if k != best)
            if og is None:
                print(f"{'matmul':8} {n:5} | {'-':>7} | {best:>9} {pg:7.1f} | {'-':>5} | {pg / peak * 100 if peak else 0:5.0f}% | {others}")
            else:
                print(f"{'matmul':8} {n:5} | {og:7.1f} | {best:>9} {pg:7.1f} | {og / pg:5.2f} | {og / peak * 100 if peak else 0:5.0f}% | {others}")

    if paired_path:
        with open(paired_path) as f:
            print_paired(json.load(f), acc, ops)
    if threads_path:
        print_threads(load_gb([threads_path])[1])


def paired_ratio(mine, theirs):
    """The median over rounds of mine[r] / theirs[r], and the middle half
    (quartiles) of those ratios."""
    ratios = sorted(a / b for a, b in zip(mine, theirs) if b > 0)
    if not ratios:
        return float("nan"), float("nan"), float("nan")
    q = statistics.quantiles(ratios, n=4, method="inclusive") if len(ratios) > 1 else ratios * 3
    return statistics.median(ratios), q[0], q[2]


def print_paired(paired, acc, ops):
    """The paired rounds of ops_bench --paired_out: per op and size the
    median per-round ratio against the fastest C++ peer of comparable
    accuracy (by median rate), then matmul against each peer."""
    rows = {}
    for name, samples in paired.get("rows", {}).items():
        op, impl, n = name.split("/")
        rows.setdefault(op, {}).setdefault(int(n), {})[impl] = samples
    if rows:
        print()
        print(f"paired rounds: opgen and each C++ peer timed alternately, {paired['rounds']} rounds of"
              f" batches of {paired['batch_ms']:g} ms")
        print("(thread CPU time, a shuffled order each round); ratio: the median over the rounds of")
        print("opgen's rate over the peer's in the same round, against the fastest C++ peer of")
        print("comparable accuracy by median rate (numpy runs in its own process, so not here)")
        sizes = sorted({n for by_n in rows.values() for n in by_n})
        print((f"{'op':12} | " + " | ".join(f"{si(n):>5} {'peer':<9}" for n in sizes)).rstrip())
        counted, below, starred = 0, [], 0
        for op in ops + sorted(set(rows) - set(ops)):
            cells = []
            for n in sizes:
                row = rows.get(op, {}).get(n, {})
                if "opgen" not in row:
                    cells.append(f"{'-':>5} {'':9}")
                    continue
                oe = acc.get(f"{op}/opgen/{n}", float("nan"))
                fair = [k for k in row if k != "opgen"
                        and comparable(acc.get(f"{op}/{k}/{n}", float("nan")), oe)]
                mark = ""
                fastest = max((k for k in row if k != "opgen"),
                              key=lambda k: statistics.median(row[k]), default=None)
                if (not fair and fastest is not None
                        and statistics.median(row["opgen"]) >= statistics.median(row[fastest])):
                    # Every peer less accurate and slower (as in the main table).
                    fair, mark = [fastest], "*"
                    starred += 1
                if not fair:
                    cells.append(f"{'n/c':>5} {'':9}")
                    continue
                best = max(fair, key=lambda k: statistics.median(row[k]))
                ratio = paired_ratio(row["opgen"], row[best])[0]
                if mark:
                    cells.append(f"{ratio:5.2f} {best + mark:<9}")
                    continue
                counted += 1
                if ratio < 1.0:
                    below.append(f"{op} {si(n)} {ratio:.2f} ({best})")
                cells.append(f"{ratio:5.2f} {best:<9}")
            if any(c.strip() != "-" for c in cells):
                print((f"{op:12} | " + " | ".join(cells)).rstrip())
        if starred:
            print(f"*: every peer slower and less accurate than the rule allows; the ratio is against the"
                  f" fastest of them ({starred} cells, not counted)")
        print(f"paired: {counted - len(below)} of {counted} rows >= 1.0; below: "
              + (", ".join(below) if below else "none"))
    mm = {}
    for name, samples in paired.get("matmul", {}).items():
        _, impl, n = name.split("/")
        mm.setdefault(int(n), {})[impl] = samples
    if any("opgen" in by_impl for by_impl in mm.values()):
        print()
        print("matmul, paired rounds: opgen's median GFLOP/s and its median per-round ratio to each peer")
        for n in sorted(mm):
            row = mm[n]
            if "opgen" not in row:
                continue
            cells = []
            for k in sorted(k for k in row if k != "opgen"):
                r, lo, hi = paired_ratio(row["opgen"], row[k])
                cells.append(f"{k} {statistics.median(row[k]):.1f} GFLOP/s: {r:.2f} ({lo:.2f}-{hi:.2f})")
            print(f"{'matmul':8} {n:5} | opgen {statistics.median(row['opgen']):6.1f} | " + "; ".join(cells))


def print_threads(benchmarks):
    """The 2-thread speedup of opgen's parallel path (opgen::set_num_threads)."""
    rows = {}
    for name, b in runs(benchmarks)[0].items():
        parts = name.split("/")
        if parts[0] != "threads" or "items_per_second" not in b:
            continue
        op, n, t = parts[1], int(parts[2]), int(parts[3])
        rows.setdefault((op, n), {})[t] = b["items_per_second"] / 1e9
    if not rows:
        return
    print()
    print("parallel path, opgen::set_num_threads(2) against 1 (two cores, wall-clock medians):")
    print(f"{'op':8} {'size':>5} | {'1 thread':>8} {'2 threads':>9} Gelem/s | {'speedup':>7}")
    order = {op: i for i, op in enumerate(["add", "exp", "tanh", "sigmoid", "softmax"])}
    for (op, n) in sorted(rows, key=lambda k: (order.get(k[0], 99), k[1])):
        r = rows[(op, n)]
        if 1 in r and 2 in r:
            print(f"{op:8} {si(n):>5} | {r[1]:8.2f} {r[2]:9.2f}         | {r[2] / r[1]:7.2f}")


if __name__ == "__main__":
    main()
