"""Export of the 4,096-server design (issue 3's benchmark): the whole bundle, twice.

Prints wall seconds, peak memory and MB written, and whether the second run is byte-identical.
Run: python bench/bench_export.py
"""

from __future__ import annotations

import filecmp
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_foundation import BIG  # noqa: E402
from designer.export import export  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402


WORKERS = min(os.cpu_count() or 1, 4)     # as the CLI does for large designs


def _same_tree(a: Path, b: Path) -> bool:
    cmp = filecmp.dircmp(a, b)
    pending = [cmp]
    while pending:
        c = pending.pop()
        if c.left_only or c.right_only or c.funny_files:
            return False
        _, mismatch, errors = filecmp.cmpfiles(c.left, c.right, c.common_files, shallow=False)
        if mismatch or errors:
            return False
        pending.extend(c.subdirs.values())
    return True


def main() -> None:
    fabric = build(BIG, builtin_catalog())
    with tempfile.TemporaryDirectory() as tmp:
        times = []
        for run in ("first", "second"):
            t0 = time.perf_counter()
            result = export(fabric, Path(tmp) / run, workers=WORKERS)
            times.append(time.perf_counter() - t0)
        identical = _same_tree(Path(tmp) / "first", Path(tmp) / "second")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"export: {len(result.files)} files, {result.bytes / 1e6:.0f} MB, {WORKERS} worker processes")
    print(f"first run  {times[0]:6.2f} s   (target < 15 s; includes the checks)")
    print(f"second run {times[1]:6.2f} s   byte-identical: {identical}")
    print(f"peak memory {peak:.0f} MB (largest worker process {child:.0f} MB)")


if __name__ == "__main__":
    main()
