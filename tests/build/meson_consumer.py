#!/usr/bin/env python3
"""Builds examples/consumer with opgen as its Meson subproject.

Copies the example to a temporary folder, puts a copy of this opgen source
tree in its subprojects/opgen (what a git submodule would give), then runs
`meson setup`, `ninja` and `meson test` there, as a user of opgen would.
Also checks that opgen's own tests, benchmarks and docs stay off as a
subproject and that the consumer's namespace page was generated.

Usage: meson_consumer.py --source OPGEN_SOURCE_ROOT [--keep]
"""

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from scratch import scratch_folder

# Not part of a clean checkout: build folders, VCS data, caches.
IGNORE = shutil.ignore_patterns(".git", "build*", "__pycache__", "packagecache", "*.pyc")


def run(cmd, cwd=None):
    print("+", " ".join(map(str, cmd)), flush=True)
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        print(p.stdout)
        raise SystemExit(f"failed: {' '.join(map(str, cmd))}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", required=True, type=Path)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    with scratch_folder("opgen-consumer-", args.keep) as root:
        project = root / "consumer"
        shutil.copytree(args.source / "examples" / "consumer", project, ignore=IGNORE)
        shutil.copytree(args.source, project / "subprojects" / "opgen",
                        ignore=shutil.ignore_patterns(".git", "build*", "__pycache__", "examples"))
        build = project / "build"
        setup = run(["meson", "setup", str(build), str(project), "--wrap-mode=nodownload"])
        if "Executing subproject opgen" not in setup:
            raise SystemExit("opgen was not used as a subproject (an installed opgen was found?)")
        run(["ninja", "-C", str(build)])
        out = run(["meson", "test", "-C", str(build), "--print-errorlogs"])
        print(out)
        targets = run(["ninja", "-C", str(build), "-t", "targets", "all"])
        for unwanted in ("gen_tests", "kernel_tests", "ops_tests"):
            if unwanted in targets:
                raise SystemExit(f"opgen as a subproject still builds {unwanted}")
        if not (build / "audio.md").is_file():
            raise SystemExit("the consumer's reference page audio.md was not generated")
        print("consumer example: built with opgen as a subproject, its test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
