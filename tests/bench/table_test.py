#!/usr/bin/env python3
"""Tests of bench/table.py on small hand-made inputs: the median ratios, the
range over repetitions, the two counts of rows below 1.0 (within the
range, or below in every pair of repetitions) and the merging of run.sh's
rounds (one ops_bench and one numpy file per round, or their folder).

Usage: table_test.py PATH/TO/bench/table.py
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

TABLE = None


def bench_entries(name, gelem_s, aggregates_only=False):
    """Google Benchmark JSON entries of one benchmark run with these
    repetitions (items per second in Gelem/s), as run.sh writes them:
    each repetition, then the median aggregate."""
    out = []
    if not aggregates_only:
        for i, g in enumerate(gelem_s):
            out.append({"name": name, "run_name": name, "run_type": "iteration",
                        "repetitions": len(gelem_s), "repetition_index": i,
                        "items_per_second": g * 1e9})
    ordered = sorted(gelem_s)
    out.append({"name": name + "_median", "run_name": name, "run_type": "aggregate",
                "aggregate_name": "median", "repetitions": len(gelem_s),
                "items_per_second": ordered[len(ordered) // 2] * 1e9})
    return out


def run_table(runs, numpy_ops, aggregates_only=False, errors=None):
    """table.py's output for runs {name: [Gelem/s per repetition]} and
    numpy rows {name: [Gelem/s per repetition]} (all errors 1e-7 but those
    of errors {name: error})."""
    benchmarks = []
    for name, reps in runs.items():
        benchmarks += bench_entries(name, reps, aggregates_only)
    gb = {"context": {"num_cpus": 1, "mhz_per_cpu": 1000}, "benchmarks": benchmarks}
    acc = {name: (errors or {}).get(name, 1e-7) for name in runs}
    npy = {"numpy": "test", "overhead": {},
           "ops": {name: {"gelem_s": sorted(r)[len(r) // 2], "err": 1e-7, "samples": r}
                   for name, r in numpy_ops.items()}}
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for base, doc in (("ops", gb), ("acc", acc), ("npy", npy)):
            path = os.path.join(tmp, base + ".json")
            with open(path, "w") as f:
                json.dump(doc, f)
            paths.append(path)
        return subprocess.run([sys.executable, TABLE] + paths, check=True, capture_output=True,
                              text=True).stdout


def write_rounds(folder, rounds):
    """Writes run.sh's files of these rounds into folder: ops.<i>.json
    (one repetition per run), numpy.<i>.json (the first round with errors,
    the others timing only) and accuracy.json. rounds: a list of (runs,
    numpy rows), each {name: Gelem/s}; each round also times the per-call
    overhead (opgen 20 + i ns, numpy 100 i ns). Returns the three arguments
    of table.py's file form."""
    ops, npys = [], []
    for i, (runs, numpy_ops) in enumerate(rounds, 1):
        benchmarks = [{"name": name, "run_name": name, "run_type": "iteration",
                       "repetitions": 1, "repetition_index": 0, "items_per_second": g * 1e9}
                      for name, g in runs.items()]
        # The per-call overhead row: 21, 22, 23 ... ns.
        benchmarks.append({"name": "overhead/opgen/full", "run_name": "overhead/opgen/full",
                           "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
                           "cpu_time": 20.0 + i})
        gb = {"context": {"num_cpus": 1, "mhz_per_cpu": 1000}, "benchmarks": benchmarks}
        npy = {"numpy": "test", "overhead": {"full": 100.0 * i, "out": 50.0 * i},
               "ops": {name: dict({"gelem_s": g, "samples": [g]}, **({"err": 3e-7} if i == 1 else {}))
                       for name, g in numpy_ops.items()}}
        for base, doc, paths in (("ops", gb, ops), ("numpy", npy, npys)):
            path = os.path.join(folder, f"{base}.{i}.json")
            with open(path, "w") as f:
                json.dump(doc, f)
            paths.append(path)
    acc = os.path.join(folder, "accuracy.json")
    with open(acc, "w") as f:
        json.dump({name: 1e-7 for name in rounds[0][0]}, f)
    return [",".join(ops), acc, ",".join(npys)]


def run_paired(rounds, errors, paired):
    """table.py's output for the folder form: write_rounds(rounds), the
    accuracy file with these errors {name: error} added, and paired.json."""
    with tempfile.TemporaryDirectory() as tmp:
        write_rounds(tmp, rounds)
        acc_path = os.path.join(tmp, "accuracy.json")
        with open(acc_path) as f:
            acc = json.load(f)
        acc.update(errors)
        with open(acc_path, "w") as f:
            json.dump(acc, f)
        with open(os.path.join(tmp, "paired.json"), "w") as f:
            json.dump(paired, f)
        return subprocess.run([sys.executable, TABLE, tmp], check=True, capture_output=True,
                              text=True).stdout


def row(out, op, size):
    for line in out.splitlines():
        fields = line.split()
        if fields[:2] == [op, size]:
            return line
    raise AssertionError(f"no row {op} {size} in:\n{out}")


class TableTest(unittest.TestCase):
    def test_median_ratio_and_range(self):
        out = run_table({"add/opgen/1024": [9.0, 10.0, 11.0], "add/eigen/1024": [4.0, 5.0, 6.0]}, {})
        # 10 / 5; range 9 / 6 to 11 / 4.
        self.assertRegex(row(out, "add", "1K"), r"\|\s+2\.00 1\.50-2\.75 \|")
        self.assertIn("1 of 1 rows >= 1.0", out)
        self.assertIn("rows below 1.0 in every pair of repetitions: none", out)

    def test_below_within_and_beyond_the_range(self):
        out = run_table({
            # median 0.95, but opgen's fastest beats eigen's slowest: within.
            "exp/opgen/1024": [9.0, 9.5, 10.5], "exp/eigen/1024": [9.8, 10.0, 10.2],
            # every repetition of opgen slower than every one of eigen's: beyond.
            "exp/opgen/65536": [8.0, 8.1, 8.2], "exp/eigen/65536": [9.0, 9.1, 9.2],
        }, {})
        self.assertIn("0 of 2 rows >= 1.0", out)
        self.assertIn("of the rows below 1.0, 1 reach 1.0 within the repetitions' range and 1 do not",
                      out)
        self.assertIn("rows below 1.0 in every pair of repetitions: exp 64K 0.89", out)

    def test_numpy_repetitions_count(self):
        # numpy's median is faster, its slowest repetition slower than opgen's fastest.
        out = run_table({"log/opgen/1024": [2.0, 2.0, 2.0]}, {"log/numpy/1024": [1.9, 2.1, 2.2]})
        self.assertRegex(row(out, "log", "1K"), r"numpy\s+2\.10 \|\s+0\.95 0\.91-1\.05 \|")
        self.assertIn("1 reach 1.0 within the repetitions' range and 0 do not", out)

    def test_aggregates_only_file(self):
        # Without repetitions in the file the range is the median ratio itself.
        out = run_table({"relu/opgen/1024": [8.0, 9.0, 10.0], "relu/eigen/1024": [9.5, 10.0, 10.5]},
                        {}, aggregates_only=True)
        self.assertRegex(row(out, "relu", "1K"), r"\|\s+0\.90 0\.90-0\.90 \|")
        self.assertIn("rows below 1.0 in every pair of repetitions: relu 1K 0.90", out)

    def test_rounds_merged(self):
        # Three rounds, the third numbered 10 (the folder form finds every
        # round): the median of each side over the rounds.
        rounds = [({"exp/opgen/1024": g, "exp/eigen/1024": e}, {"exp/numpy/1024": n})
                  for g, e, n in ((4.0, 3.0, 1.0), (5.0, 9.0, 1.5), (6.0, 3.5, 1.2))]
        with tempfile.TemporaryDirectory() as tmp:
            files = write_rounds(tmp, rounds)
            for base in ("ops", "numpy"):
                os.rename(os.path.join(tmp, f"{base}.3.json"), os.path.join(tmp, f"{base}.10.json"))
            files = [p.replace(".3.json", ".10.json") for p in files]
            by_files = subprocess.run([sys.executable, TABLE] + files, check=True,
                                      capture_output=True, text=True).stdout
            by_folder = subprocess.run([sys.executable, TABLE, tmp], check=True,
                                       capture_output=True, text=True).stdout
        self.assertEqual(by_files, by_folder)
        self.assertIn("medians of 3 repetitions", by_files)
        # opgen 5 against eigen's median 3.5; range 4 / 9 to 6 / 3.
        self.assertRegex(row(by_files, "exp", "1K"), r"eigen\s+3\.50 \|\s+1\.43 0\.44-2\.00 \|")
        # The per-call overheads: medians of 21, 22, 23 and of 100, 200, 300.
        self.assertRegex(by_files, r"full call: opgen\s+22\.0\s+numpy\s+200\.0")

    def test_even_rounds_and_threads_in_folder(self):
        # Two rounds: the median is the mean of the two (Google Benchmark's
        # too); the folder's threads.json adds the 2-thread rows.
        rounds = [({"add/opgen/1024": g, "add/eigen/1024": 2.0}, {}) for g in (3.0, 5.0)]
        with tempfile.TemporaryDirectory() as tmp:
            write_rounds(tmp, rounds)
            threads = [{"name": f"threads/add/262144/{t}", "run_name": f"threads/add/262144/{t}",
                        "run_type": "aggregate", "aggregate_name": "median",
                        "items_per_second": g * 1e9} for t, g in ((1, 2.0), (2, 3.0))]
            with open(os.path.join(tmp, "threads.json"), "w") as f:
                json.dump({"context": {}, "benchmarks": threads}, f)
            out = subprocess.run([sys.executable, TABLE, tmp], check=True, capture_output=True,
                                 text=True).stdout
        self.assertIn("medians of 2 repetitions", out)
        self.assertRegex(row(out, "add", "1K"), r"\|\s+4\.00 \|.*\|\s+2\.00 1\.50-2\.50 \|")
        self.assertRegex(out, r"add\s+256K \|\s+2\.00\s+3\.00\s+\|\s+1\.50")

    def test_numpy_error_from_first_round(self):
        # numpy fastest, but its error (3e-7, first round only) is more than
        # twice opgen's 1e-7 and above 2.4e-7: set aside, and named.
        rounds = [({"log/opgen/1024": 2.0, "log/eigen/1024": 1.0}, {"log/numpy/1024": 4.0})
                  for _ in range(2)]
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run([sys.executable, TABLE] + write_rounds(tmp, rounds), check=True,
                                 capture_output=True, text=True).stdout
        self.assertRegex(row(out, "log", "1K"), r"eigen\s+1\.00 \|\s+2\.00 .*faster: numpy 0\.50,"
                         r" err 3\.00e-07")

    def test_infinite_error_set_aside(self):
        # ops_bench writes Infinity for a peer that dropped a NaN input (its
        # NaN input set): that peer is set aside however fast, and named.
        out = run_table({"maximum/opgen/1024": [10.0], "maximum/eigen/1024": [20.0],
                         "maximum/eigen_nan/1024": [8.0]}, {},
                        errors={"maximum/opgen/1024": 0.0, "maximum/eigen/1024": float("inf"),
                                "maximum/eigen_nan/1024": 0.0})
        self.assertRegex(row(out, "maximum", "1K"),
                         r"eigen_nan\s+8\.00 \|\s+1\.25 .*faster: eigen 0\.50, err inf\)")
        self.assertIn("1 of 1 rows >= 1.0 (against the fastest peer at any accuracy: 0 of 1)", out)
        # Without opgen's error (not measured) the infinite one still sets eigen aside.
        out = run_table({"maximum/opgen/1024": [10.0], "maximum/eigen/1024": [20.0],
                         "maximum/eigen_nan/1024": [8.0]}, {},
                        errors={"maximum/opgen/1024": float("nan"),
                                "maximum/eigen/1024": float("inf")})
        self.assertRegex(row(out, "maximum", "1K"), r"eigen_nan\s+8\.00 \|\s+1\.25 ")

    def test_every_peer_slower_and_less_accurate(self):
        # cumsum: the only peer is slower and over twice less accurate. The
        # row shows its ratio, marked, and stays out of the counts; a peer
        # that is less accurate but faster still leaves the row n/c.
        out = run_table({"cumsum/opgen/1024": [8.0], "cumsum/loop/1024": [2.0],
                         "gelu/opgen/1024": [4.0], "gelu/eigen/1024": [5.0]}, {},
                        errors={"cumsum/opgen/1024": 3e-7, "cumsum/loop/1024": 7e-7,
                                "gelu/opgen/1024": 2e-6, "gelu/eigen/1024": 1.0})
        self.assertRegex(row(out, "cumsum", "1K"),
                         r"loop\s+2\.00 \|\s+4\.00 .*\(every peer less accurate\)")
        self.assertIn("no peer of comparable accuracy", row(out, "gelu", "1K"))
        # No comparable row at all: the line still comes.
        self.assertNotIn("ratio opgen / best peer", out)
        self.assertIn("not counted: 1 rows where every peer is slower and less accurate", out)
        self.assertIn("(cumsum 1K)", out)
        # Paired rounds: the same rule, a starred cell outside the count.
        rounds = [({"cumsum/opgen/1024": 8.0, "cumsum/loop/1024": 2.0,
                    "exp/opgen/1024": 2.0, "exp/eigen/1024": 1.0}, {})]
        paired = {"rounds": 2, "batch_ms": 5, "rows": {
            "cumsum/opgen/1024": [8.0, 8.0], "cumsum/loop/1024": [2.0, 2.0],
            "exp/opgen/1024": [2.0, 2.0], "exp/eigen/1024": [1.0, 1.0]}, "matmul": {}}
        out = run_paired(rounds, {"cumsum/opgen/1024": 3e-7, "cumsum/loop/1024": 7e-7}, paired)
        self.assertRegex(out, r"\ncumsum\s+\|\s+4\.00 loop\*\n")
        self.assertIn("(1 cells, not counted)", out)
        self.assertIn("paired: 1 of 1 rows >= 1.0; below: none", out)

    def test_paired_rounds(self):
        # paired.json in the folder: per row the median of the per-round
        # ratios against the fastest C++ peer of comparable accuracy.
        rounds = [({"exp/opgen/1024": 2.0, "exp/eigen/1024": 1.0}, {}) for _ in range(2)]
        paired = {"rounds": 3, "batch_ms": 5, "rows": {
            # The machine halves its speed in round 2: the ratios are 1.1, 1.1, 0.55.
            "exp/opgen/1024": [11.0, 5.5, 5.5],
            "exp/eigen/1024": [10.0, 5.0, 10.0],
            # Slower than eigen by median rate: not the row's peer.
            "exp/loop/1024": [1.0, 1.0, 1.0],
            # Fastest, but less accurate (below): set aside.
            "exp/sleef/1024": [50.0, 50.0, 50.0],
        }, "matmul": {"matmul/opgen/1024": [96.0, 48.0, 84.0],
                      "matmul/openblas/1024": [80.0, 40.0, 105.0]}}
        out = run_paired(rounds, {"exp/loop/1024": 1e-7, "exp/sleef/1024": 1e-3}, paired)
        self.assertRegex(out, r"\nexp\s+\|\s+1\.10 eigen\n")
        self.assertIn("paired: 1 of 1 rows >= 1.0; below: none", out)
        # matmul: ratios 1.2, 1.2, 0.8 -> median 1.2, quartiles 1.0-1.2.
        self.assertRegex(out, r"matmul\s+1024 \| opgen\s+84\.0 \| openblas 80\.0 GFLOP/s: 1\.20"
                         r" \(1\.00-1\.20\)")


if __name__ == "__main__":
    TABLE = sys.argv.pop(1)
    unittest.main(verbosity=2)
