#!/usr/bin/env python3
"""Proves opgen's incremental regeneration on a real ninja build.

Copies the fixture project (tests/build/fixture: three namespaces, two
include-only files, one file per namespace that includes its header) to a
temporary folder, builds it with the opgen under test, then edits specs and
checks exactly which generators and compiles ninja runs:

  no-op build            nothing runs
  comment-only edit      that namespace's generator, no compile
  one-op edit            that namespace's generator; its wrapper source and
                         the files including its header, nothing else
  notes-only edit        generator, Markdown page changed, no compile
  include-only edits     exactly the namespaces including the file, directly
                         or through another include
  new generator          every namespace regenerated, nothing recompiled
  removed / renamed ns   no stale generated files left, none compiled
  determinism            two generations into two folders are byte-identical
  parallel runs          concurrent generators into one folder never leave
                         a torn or temporary file

Usage: incremental.py --opgen PATH --include DIR --fixture DIR [--keep]
Exit status 0 when every case passes; each case prints one line.
"""

import argparse
import concurrent.futures
import filecmp
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from scratch import scratch_folder

COMPILE_RE = re.compile(r"\s-c\s+(\S+)")


class Failure(Exception):
    pass


class Fixture:
    def __init__(self, args, root: Path):
        self.src = root / "src"
        self.build = root / "build"
        self.bin = root / "bin"
        shutil.copytree(args.fixture, self.src)
        # A private copy of the generator, so the "new generator" case can
        # replace it without touching the build under test.
        self.bin.mkdir()
        self.opgen = self.bin / "opgen"
        shutil.copy2(args.opgen, self.opgen)
        self.include = args.include

    def setup(self):
        run(["meson", "setup", str(self.build), str(self.src),
             f"-Dopgen={self.opgen}", f"-Dopgen_include={self.include}"])

    def ninja(self):
        """Runs ninja -v; returns (namespaces generated, files compiled)."""
        out = run(["ninja", "-v", "-C", str(self.build)])
        generated, compiled = set(), set()
        for line in out.splitlines():
            if " generate " in line and str(self.opgen) in line:
                spec = line.split(" generate ", 1)[1].split()[0]
                generated.add(Path(spec).stem)
            elif (m := COMPILE_RE.search(line)) and "Compiling" not in line:
                compiled.add(Path(m.group(1)).name)
        if "no work to do" in out:
            assert not generated and not compiled
        return generated, compiled

    def edit(self, name, old, new):
        path = self.src / name
        text = path.read_text()
        if old not in text:
            raise Failure(f"fixture {name} lacks {old!r}")
        path.write_text(text.replace(old, new, 1))
        bump(path)

    def append(self, name, text):
        path = self.src / name
        path.write_text(path.read_text() + text)
        bump(path)


def bump(path: Path):
    # Edits must be newer than the outputs of the last build. Never in the
    # future: ninja would see the spec newer than outputs written after it,
    # and meson stops on clock skew.
    now = time.time_ns()
    os.utime(path, ns=(now, now))


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, **kw)
    if p.returncode != 0:
        raise Failure(f"{' '.join(map(str, cmd))} failed:\n{p.stdout}")
    return p.stdout


def expect(what, got, want):
    if got != want:
        raise Failure(f"{what}: expected {sorted(want)}, ran {sorted(got)}")


def expect_run(fx, generated, compiled):
    g, c = fx.ninja()
    expect("generators", g, set(generated))
    expect("compiles", c, set(compiled))
    # And the build is settled: the next ninja has nothing to do.
    g, c = fx.ninja()
    expect("generators on the next build", g, set())
    expect("compiles on the next build", c, set())


def case_noop(fx):
    expect_run(fx, [], [])


def case_comment(fx):
    fx.append("alpha.toml", "# a comment only\n")
    expect_run(fx, ["alpha"], [])


def case_one_op(fx):
    # The summary is in the header's doc comment and in the registry entry.
    fx.edit("alpha.toml", 'summary = "Doubles each element."',
            'summary = "Doubles each element, exactly."')
    expect_run(fx, ["alpha"], ["alpha.cpp", "use_alpha.cpp"])


def case_notes(fx):
    page = fx.build / "beta.md"
    before = page.read_text()
    fx.edit("beta.toml", 'notes = "Shown on the reference page only."',
            'notes = "Shown on the reference page only, and reworded."')
    expect_run(fx, ["beta"], [])
    if page.read_text() == before or "reworded" not in page.read_text():
        raise Failure("beta.md did not change with the notes")


def case_include_direct(fx):
    # shared.toml: included by alpha directly and by beta through mid.toml.
    fx.edit("shared.toml", 'doc = "Works on one float32 tensor."',
            'doc = "Works on one float32 tensor, element by element."')
    expect_run(fx, ["alpha", "beta"],
               ["alpha.cpp", "beta.cpp", "use_alpha.cpp", "use_beta.cpp"])


def case_include_nested(fx):
    fx.edit("mid.toml", 'doc = "Works on two float32 tensors of one shape."',
            'doc = "Works on two float32 tensors of the same shape."')
    expect_run(fx, ["beta"], ["beta.cpp", "use_beta.cpp"])


def case_include_comment(fx):
    fx.append("shared.toml", "# a comment only\n")
    expect_run(fx, ["alpha", "beta"], [])


def case_new_generator(fx):
    # Same program, newer file: what an upgrade or a template change gives.
    bump(fx.opgen)
    expect_run(fx, ["alpha", "beta", "gamma"], [])


def expect_after_reconfigure(generated, required, allowed):
    """After a reconfigure, meson runs `ninja -t restat`, which records the
    real mtimes of outputs the generator left untouched (older than their
    spec), so those generators run once more, still writing nothing and
    compiling nothing; they are allowed, not required."""
    if not required <= generated or not generated <= required | allowed:
        raise Failure(f"generators after reconfigure: expected {sorted(required)} "
                      f"(and possibly {sorted(allowed)}), ran {sorted(generated)}")


def case_remove(fx):
    fx.edit("meson.build", "namespaces = ['alpha', 'beta', 'gamma']",
            "namespaces = ['alpha', 'beta']")
    (fx.src / "gamma.toml").unlink()
    (fx.src / "use_gamma.cpp").unlink()
    g, c = fx.ninja()  # reconfigures
    expect_after_reconfigure(g, set(), {"alpha", "beta"})
    expect("compiles after removing gamma", c, set())
    stale = [str(p.relative_to(fx.build)) for p in fx.build.glob("gamma*")]
    if stale:
        raise Failure(f"stale outputs of the removed namespace: {stale}")
    if "gamma" in run(["ninja", "-C", str(fx.build), "-t", "targets", "all"]):
        raise Failure("the build still has targets of the removed namespace")


def case_rename(fx):
    text = (fx.src / "beta.toml").read_text()
    (fx.src / "delta.toml").write_text(text.replace("beta", "delta"))
    (fx.src / "delta_kernels.hpp").write_text(
        (fx.src / "beta_kernels.hpp").read_text().replace("fixture::beta", "fixture::delta"))
    (fx.src / "use_delta.cpp").write_text(
        (fx.src / "use_beta.cpp").read_text().replace("beta", "delta"))
    for name in ("beta.toml", "beta_kernels.hpp", "use_beta.cpp"):
        (fx.src / name).unlink()
    fx.edit("meson.build", "namespaces = ['alpha', 'beta']", "namespaces = ['alpha', 'delta']")
    g, c = fx.ninja()
    expect_after_reconfigure(g, {"delta"}, {"alpha"})
    expect("compiles after renaming beta", c, {"delta.cpp", "use_delta.cpp"})
    stale = [str(p.relative_to(fx.build)) for p in fx.build.glob("beta*")]
    if stale:
        raise Failure(f"stale outputs of the renamed namespace: {stale}")


def generate(fx, spec, out_dir):
    out_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(fx.opgen), "generate", str(spec), "--out-dir", str(out_dir),
                    "--depfile", str(out_dir / (spec.stem + ".d")), "--root", str(fx.src)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def normalized(path: Path):
    """A generated file's bytes; a depfile's with its own folder masked
    (depfiles name their targets by path, so two folders differ there)."""
    data = path.read_bytes()
    if path.suffix == ".d":
        data = data.replace(str(path.parent).encode(), b"<out>")
    return data


def case_deterministic(fx):
    root = fx.build.parent
    specs = sorted(fx.src.glob("*.toml"))
    specs = [s for s in specs if "namespace =" in s.read_text()]
    for d in ("det1", "det2"):
        for s in specs:
            generate(fx, s, root / d)
    cmp = filecmp.dircmp(root / "det1", root / "det2")
    names = sorted(os.listdir(root / "det1"))
    if not names or cmp.left_only or cmp.right_only:
        raise Failure(f"different file sets: {cmp.left_only} / {cmp.right_only}")
    differ = [n for n in names
              if normalized(root / "det1" / n) != normalized(root / "det2" / n)]
    if differ:
        raise Failure(f"generated twice, files differ: {differ}")


def case_parallel(fx):
    root = fx.build.parent
    spec = fx.src / "alpha.toml"
    reference = root / "par-ref"
    generate(fx, spec, reference)
    shared = root / "par"
    # Outputs exist and differ from what the runs write, so every run
    # replaces them (the write-if-changed path is not taken).
    shared.mkdir()
    for p in reference.iterdir():
        (shared / p.name).write_text("stale\n")
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda _: generate(fx, spec, shared), range(24)))
    names = sorted(os.listdir(shared))
    if names != sorted(os.listdir(reference)):
        raise Failure(f"parallel runs left {names}")
    torn = [n for n in names if normalized(reference / n) != normalized(shared / n)]
    if torn:
        raise Failure(f"parallel runs corrupted {torn}")


CASES = [
    ("no-op build does nothing", case_noop),
    ("comment-only edit: 1 generator, 0 compiles", case_comment),
    ("one-op edit: its namespace and its includers only", case_one_op),
    ("notes-only edit: page changes, 0 compiles", case_notes),
    ("include edit: namespaces including it, directly or not", case_include_direct),
    ("nested include edit: only the namespace reaching it", case_include_nested),
    ("include comment edit: 2 generators, 0 compiles", case_include_comment),
    ("new generator: every namespace, 0 compiles", case_new_generator),
    ("generation is deterministic", case_deterministic),
    ("parallel generators never corrupt outputs", case_parallel),
    ("removed namespace: no stale outputs", case_remove),
    ("renamed namespace: no stale outputs", case_rename),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opgen", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--fixture", required=True)
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = ap.parse_args()
    with scratch_folder("opgen-incremental-", args.keep) as root:
        failed = 0
        fx = Fixture(args, root)
        fx.setup()
        fx.ninja()
        for title, case in CASES:
            try:
                case(fx)
                print(f"ok   {title}")
            except Failure as e:
                failed += 1
                print(f"FAIL {title}\n     {e}")
    print(f"{len(CASES) - failed} of {len(CASES)} cases passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
