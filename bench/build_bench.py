#!/usr/bin/env python3
"""Measures opgen's build-system costs; prints one table.

  - generator wall time and peak memory for the built-in specs (opdefs/) and
    for a synthetic tree of N namespaces x M ops (default 100 x 100), one
    `opgen generate` per namespace, run one after another (one core);
  - no-op `ninja` time for opgen's own build folder (--build) and for the
    synthetic tree built as a Meson project;
  - what a one-op edit in the synthetic tree runs: generators and compiles.

Usage:
  bench/build_bench.py --opgen BUILD/gen/opgen --include include \
      [--build BUILD] [--namespaces 100] [--ops 100] [--keep]

The synthetic project compiles every generated source (a few minutes on
two cores); --no-compile measures the generator only.
"""

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMPILE_RE = re.compile(r"\s-c\s+(\S+)")


def spec_text(ns: int, ops: int) -> str:
    lines = [
        f'namespace = "ns{ns:03d}"',
        f'summary = "Synthetic namespace {ns} of the build benchmark."',
        f'cpp_namespace = "synth::ns{ns:03d}"',
        'kernel_header = "synth_kernels.hpp"',
        'include = ["shared.toml"]',
        "",
    ]
    for i in range(ops):
        mixin = ("unary", "binary", "scaled")[i % 3]
        lines += [
            "[[op]]",
            f'name = "op{i:03d}"',
            f'use = ["{mixin}"]',
            f'kernel = "{mixin.capitalize()}"',
            f'summary = "Synthetic op {i} of namespace {ns}."',
            "",
        ]
    return "\n".join(lines)


SHARED = '''# Mixins shared by every synthetic namespace.

[[mixin]]
name = "unary"
kind = "custom"
input = [ { name = "x", type = "float32", doc = "Input." } ]
output = [ { name = "y", type = "float32", shape = "same(x)", dtype = "float32", doc = "Result." } ]

[[mixin]]
name = "binary"
kind = "custom"
input = [
  { name = "x", type = "float32", doc = "First." },
  { name = "y", type = "float32", doc = "Second." },
]
output = [ { name = "z", type = "float32", shape = "same(x)", dtype = "float32", doc = "Result." } ]

[[mixin.constraint]]
check = "sameShape(x, y)"
message = "x and y must have one shape"

[[mixin]]
name = "scaled"
use = ["unary"]
arg = [
  { name = "factor", type = "float", default = 1, doc = "Scale." },
  { name = "axes", type = "int", count = ">=0", default = [], doc = "Axes." },
]

[[mixin.constraint]]
check = "factor != 0"
message = "factor must not be zero"
'''

KERNELS = '''// Kernels shared by every synthetic namespace (declared, never run).
#pragma once
#include "opgen/span.hpp"
#include "opgen/tensor.hpp"
namespace synth::kernels {
void Unary(const opgen::Tensor& x, opgen::Tensor& y);
void Binary(const opgen::Tensor& x, const opgen::Tensor& y, opgen::Tensor& z);
void Scaled(const opgen::Tensor& x, double factor, opgen::Span<std::int64_t> axes, opgen::Tensor& y);
}  // namespace synth::kernels
'''

MESON = '''project('opgen-synthetic', 'cpp', default_options: ['cpp_std=c++20'])
opgen = find_program(get_option('opgen'), native: true)
sources = []
foreach ns : [{names}]
  sources += custom_target('opgen-' + ns,
    input: ns + '.toml',
    output: [ns + '.hpp', ns + '.cpp', ns + '.md', ns + '_reference.hpp'],
    depfile: ns + '.d',
    command: [opgen, 'generate', '@INPUT@', '--out-dir', '@OUTDIR@',
              '--depfile', '@DEPFILE@', '--root', meson.project_source_root()],
  )
endforeach
static_library('synth', sources, include_directories: include_directories(get_option('opgen_include')))
'''

OPTIONS = '''option('opgen', type: 'string', value: 'opgen')
option('opgen_include', type: 'string', value: '')
'''


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed:\n{p.stdout}")
    return p.stdout


def generate_all(opgen, specs, out_dir, root):
    """Runs opgen generate once per spec, sequentially; returns (seconds, peak RSS MiB)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    for spec in specs:
        run([opgen, "generate", str(spec), "--out-dir", str(out_dir),
             "--depfile", str(out_dir / (spec.stem + ".d")), "--root", str(root)])
    seconds = time.perf_counter() - start
    # ru_maxrss of children: the largest of the generator runs so far (KiB on Linux).
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return seconds, peak


def noop_ninja_ms(build, repeat=7):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        out = run(["ninja", "-C", str(build)])
        times.append((time.perf_counter() - start) * 1000)
        if "no work to do" not in out:
            raise SystemExit(f"ninja in {build} was not a no-op:\n{out}")
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opgen", required=True, type=Path)
    ap.add_argument("--include", required=True, type=Path, help="opgen's include/ folder")
    ap.add_argument("--opdefs", type=Path, default=Path(__file__).resolve().parent.parent / "opdefs")
    ap.add_argument("--build", type=Path, help="a built opgen build folder, for its no-op time")
    ap.add_argument("--namespaces", type=int, default=100)
    ap.add_argument("--ops", type=int, default=100)
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    opgen = args.opgen.resolve()
    rows = []
    root = Path(tempfile.mkdtemp(prefix="opgen-build-bench-"))
    try:
        builtin = sorted(p for p in args.opdefs.glob("*.toml") if "namespace =" in p.read_text())
        s, mem = generate_all(opgen, builtin, root / "builtin-out", args.opdefs.parent)
        rows.append(("generator, built-in specs", f"{len(builtin)} namespaces", f"{s * 1000:.0f} ms",
                     f"peak {mem:.1f} MiB"))

        src = root / "synth"
        src.mkdir()
        (src / "shared.toml").write_text(SHARED)
        (src / "synth_kernels.hpp").write_text(KERNELS)
        names = ", ".join(f"'ns{i:03d}'" for i in range(args.namespaces))
        (src / "meson.build").write_text(MESON.replace("{names}", names))
        (src / "meson_options.txt").write_text(OPTIONS)
        specs = []
        for i in range(args.namespaces):
            spec = src / f"ns{i:03d}.toml"
            spec.write_text(spec_text(i, args.ops))
            specs.append(spec)
        total_ops = args.namespaces * args.ops
        s, mem = generate_all(opgen, specs, root / "synth-out", src)
        rows.append(("generator, synthetic tree", f"{total_ops} ops", f"{s * 1000:.0f} ms",
                     f"peak {mem:.1f} MiB"))

        if args.build:
            rows.append(("no-op ninja, opgen's build", str(args.build), f"{noop_ninja_ms(args.build):.0f} ms", ""))

        if not args.no_compile:
            build = root / "synth-build"
            run(["meson", "setup", str(build), str(src), f"-Dopgen={opgen}",
                 f"-Dopgen_include={args.include.resolve()}"])
            start = time.perf_counter()
            run(["ninja", "-C", str(build)])
            rows.append(("full build, synthetic tree", f"{total_ops} ops",
                         f"{time.perf_counter() - start:.0f} s", ""))
            rows.append(("no-op ninja, synthetic tree", f"{args.namespaces} namespaces",
                         f"{noop_ninja_ms(build):.0f} ms", ""))
            victim = src / "ns042.toml" if args.namespaces > 42 else specs[-1]
            text = victim.read_text()
            victim.write_text(text.replace("Synthetic op 7 of", "Synthetic op seven of", 1))
            out = run(["ninja", "-v", "-C", str(build)])
            gens = sum(1 for l in out.splitlines() if " generate " in l)
            compiles = [Path(m.group(1)).name for l in out.splitlines() if (m := COMPILE_RE.search(l))]
            rows.append(("one-op edit, synthetic tree", victim.name,
                         f"{gens} generator run(s), {len(compiles)} compile(s)", " ".join(compiles)))
    finally:
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)

    width = [max(len(r[i]) for r in rows) for i in range(4)]
    print(f"opgen build benchmark ({os.cpu_count()} cores)")
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, width)).rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
