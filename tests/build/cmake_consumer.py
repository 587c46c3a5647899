#!/usr/bin/env python3
"""Builds examples/cmake-consumer with CMake against a staged opgen install.

Installs this Meson build into a temporary DESTDIR (`meson install
--destdir`), so the CMake package is found at a prefix other than the one it
was configured for (proving it relocatable), copies the example to a
temporary folder, configures it with `cmake -G Ninja`, builds it, runs its
test with ctest, and checks what edits rebuild:

  no-op build           nothing runs
  generated files       every file opgen wrote is a declared output
  comment in the spec   its generator runs, nothing is compiled
  comment in an include the generator runs (through the depfile), no compile
  summary edit          generator, then the generated source and the one
                        file including the header; ctest passes again
  new opgen program     the generator runs, nothing is compiled

Exits 77 (skipped) when cmake is not installed.

Usage: cmake_consumer.py --build-root DIR --prefix PREFIX --bindir BINDIR --example DIR [--keep]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from scratch import scratch_folder

COMPILE_RE = re.compile(r"\s-c\s+(\S+)")
SKIP = 77


class Failure(Exception):
    pass


# meson test points LD_LIBRARY_PATH at the build's libopgen: the consumer
# must find the installed one by itself (CMake's build RPATH).
ENV = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}


def run(cmd, cwd=None):
    print("+", " ".join(map(str, cmd)), flush=True)
    p = subprocess.run(cmd, cwd=cwd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if p.returncode != 0:
        print(p.stdout)
        raise Failure(f"failed: {' '.join(map(str, cmd))}")
    return p.stdout


class Consumer:
    def __init__(self, root: Path, example: Path, prefix: Path, opgen: Path):
        self.src = root / "src"
        self.build = root / "build"
        self.prefix = prefix
        self.opgen = opgen
        shutil.copytree(example, self.src, ignore=shutil.ignore_patterns("build*"))

    def configure(self):
        flags = "-Wall -Wextra -Wpedantic -Werror"
        out = run(["cmake", "-S", str(self.src), "-B", str(self.build), "-G", "Ninja",
                   f"-DCMAKE_PREFIX_PATH={self.prefix}", f"-DCMAKE_CXX_FLAGS={flags}"])
        print(out)
        cache = (self.build / "CMakeCache.txt").read_text()
        found = re.search(r"^opgen_DIR:PATH=(.*)$", cache, re.M)
        if not found or not Path(found.group(1)).resolve().is_relative_to(self.prefix.resolve()):
            raise Failure(f"find_package(opgen) did not use the staged install: {found and found.group(1)}")

    def ninja(self):
        """Runs ninja -v; returns (generator runs, files compiled, output)."""
        out = run(["ninja", "-v", "-C", str(self.build)])
        generated, compiled = [], set()
        for line in out.splitlines():
            if f"{self.opgen} generate " in line:
                generated.append(Path(line.split(" generate ", 1)[1].split()[0]).stem)
            elif m := COMPILE_RE.search(line):
                compiled.add(Path(m.group(1)).name)
        return generated, compiled, out

    def expect(self, case, generated, compiled):
        got_gen, got_comp, out = self.ninja()
        if got_gen != generated or got_comp != compiled:
            print(out)
            raise Failure(f"{case}: expected generators {generated} and compiles {sorted(compiled)}, "
                          f"got {got_gen} and {sorted(got_comp)}")
        print(f"ok: {case}: generators {got_gen or 'none'}, compiles {sorted(got_comp) or 'none'}")

    def append(self, name, text):
        path = self.src / name
        path.write_text(path.read_text() + text)

    def replace(self, name, old, new):
        path = self.src / name
        text = path.read_text()
        if old not in text:
            raise Failure(f"{name} lacks {old!r}")
        path.write_text(text.replace(old, new))

    def ctest(self):
        out = run(["ctest", "--test-dir", str(self.build), "--output-on-failure"])
        if "100% tests passed" not in out:
            print(out)
            raise Failure("ctest did not pass every test")


def check(consumer: Consumer):
    consumer.configure()
    generated, compiled, out = consumer.ninja()
    if generated != ["tone"] or "tone.cpp" not in compiled:
        print(out)
        raise Failure(f"first build: expected opgen to generate tone, got {generated}")
    consumer.ctest()
    print("ok: configured against the staged install, built, ctest passed")

    consumer.expect("no-op build", [], set())

    # Every file the installed opgen wrote must be a declared output of the
    # custom command (else opgenGenerate.cmake's list is stale and CMake
    # never knows the file); the depfile alone is not one.
    out_dir = consumer.build / "opgen"
    written = sorted(p.name for p in out_dir.iterdir() if p.suffix != ".d")
    for name in written:
        q = subprocess.run(["ninja", "-C", str(consumer.build), "-t", "query", f"opgen/{name}"],
                           env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if q.returncode != 0 or "CUSTOM_COMMAND" not in q.stdout:
            raise Failure(f"opgen wrote {name}, which opgen_generate() does not declare as an output")
    print(f"ok: every generated file is a declared output: {', '.join(written)}")

    consumer.append("opdefs/tone.toml", "# a comment only\n")
    consumer.expect("comment in the spec", ["tone"], set())

    consumer.append("opdefs/shared/pointwise.toml", "# a comment only\n")
    consumer.expect("comment in an included file", ["tone"], set())

    consumer.replace("opdefs/tone.toml", 'summary = "Gamma correction:', 'summary = "Gamma:')
    consumer.expect("summary edit", ["tone"], {"tone.cpp", "consumer_test.cpp"})
    consumer.ctest()

    # A new generator (here: the same one, newer) reruns every generator.
    os.utime(consumer.opgen)
    consumer.expect("new opgen program", ["tone"], set())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-root", required=True, type=Path, help="the Meson build to install")
    ap.add_argument("--prefix", required=True, help="that build's prefix option")
    ap.add_argument("--bindir", required=True, help="that build's bindir option")
    ap.add_argument("--example", required=True, type=Path)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    missing = [tool for tool in ("cmake", "ctest", "ninja") if shutil.which(tool) is None]
    if missing:
        print(f"skipped: {' and '.join(missing)} not installed (Debian package: cmake)")
        return SKIP

    with scratch_folder("opgen-cmake-consumer-", args.keep) as root:
        try:
            stage = root / "stage"
            run(["meson", "install", "-C", str(args.build_root), "--no-rebuild", "--destdir", str(stage)])
            prefix = stage / args.prefix.lstrip("/")
            configs = list(prefix.glob("**/cmake/opgen/opgenConfig.cmake"))
            if not configs:
                raise Failure("the install has no cmake/opgen/opgenConfig.cmake "
                              "(was cmake missing when this build was set up? reconfigure it)")
            # The bindir option is relative to the prefix unless set outside it.
            bindir = Path(args.prefix, args.bindir)
            opgen = stage / bindir.relative_to("/") / "opgen"
            check(Consumer(root, args.example, prefix, opgen))
            print("cmake consumer: built against the installed CMake package; edits rebuild as expected")
            return 0
        except Failure as e:
            print(f"FAIL: {e}")
            return 1


if __name__ == "__main__":
    sys.exit(main())
