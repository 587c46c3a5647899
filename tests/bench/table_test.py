#!/usr/bin/env python3
"""Tests of bench/table.py on small hand-made inputs: the median ratios, the
range over repetitions and the two counts of rows below 1.0 (within the
range, or below in every pair of repetitions).

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


def run_table(runs, numpy_ops, aggregates_only=False):
    """table.py's output for runs {name: [Gelem/s per repetition]} and
    numpy rows {name: [Gelem/s per repetition]} (all errors 1e-7)."""
    benchmarks = []
    for name, reps in runs.items():
        benchmarks += bench_entries(name, reps, aggregates_only)
    gb = {"context": {"num_cpus": 1, "mhz_per_cpu": 1000}, "benchmarks": benchmarks}
    acc = {name: 1e-7 for name in runs}
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


if __name__ == "__main__":
    TABLE = sys.argv.pop(1)
    unittest.main(verbosity=2)
