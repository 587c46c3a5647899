"""The temporary folder of a build test (imported by the scripts beside it)."""

import contextlib
import shutil
import tempfile
from pathlib import Path


@contextlib.contextmanager
def scratch_folder(prefix, keep):
    """A new temporary folder, removed at the end unless `keep` (--keep)."""
    root = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield root
    finally:
        if keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
