"""The full bundle, as `rail-designer export` writes it, at the sizes issue 11 names.

- 4096: bench_foundation's 4,096-server design (target: under 8 s wall on 2 cores, peak under 1 GB).
- 131072: bench_tiers' three-tier design of 16,384 servers x 8 rails (target: under 60 s, under 4 GB).
- superpod-4096: the b200-superpod preset at 128 SUs (4,096 servers, 2,560 switches, 98,304 cables) with
  its SuperPOD floor, so racks, cable lengths, media and the bill are in the bundle too.

Each size is exported twice into fresh folders with the workers the CLI would use (or ``--workers N``)
and once more with a single process when ``--compare`` is given, so the pool has to show that it pays.
Prints wall seconds (the checks export runs first included), files and MB, whether the two runs are
byte-identical, and peak memory: of the exporting process and its workers together (PSS, sampled
every 0.2 s; fork shares pages, so adding up RSS would count them twice), and each one's peak RSS.
The disk matters: ``TMPDIR=/dev/shm`` measures the render without it.

``--phases`` instead exports ``--runs`` times (default 3) and prints, per phase, the min / median wall
seconds and the min / median CPU seconds (user time of the exporting process and its workers: the
machine may be shared, and CPU time is what another process's load changes least):
check (the rules export runs first), render (every part's files, rendered and written, workers included),
write (README, MANIFEST and the swap into place), qos (the written bundle's QoS agreement check).

Run: python bench/bench_export.py [4096|131072 ...] [--workers N] [--compare] [--phases [--runs N]]
(default: 4096)
"""

from __future__ import annotations

import argparse
import filecmp
import os
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import designer  # noqa: E402
from bench.bench_foundation import BIG  # noqa: E402
from bench.bench_tiers import SIZES  # noqa: E402
from designer.api.bundle import export_bundle  # noqa: E402
from designer.api.bundle import _workers as cli_workers  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402

_, _PRESET, _PARAMS = SIZES["131072"][0]
DESIGNS = {"4096": (BIG, 8.0, 1024), "131072": (designer.spec(_PRESET, **_PARAMS), 60.0, 4096),
           "superpod-4096": (designer.spec("b200-superpod", sus=128), 8.0, 1024)}


def _same_tree(a: Path, b: Path) -> bool:
    pending = [filecmp.dircmp(a, b)]
    while pending:
        c = pending.pop()
        if c.left_only or c.right_only or c.funny_files:
            return False
        _, mismatch, errors = filecmp.cmpfiles(c.left, c.right, c.common_files, shallow=False)
        if mismatch or errors:
            return False
        pending.extend(c.subdirs.values())
    return True


class _TreePss(threading.Thread):
    """Samples the proportional set size (Linux PSS: a page shared by n processes counts 1/n) of this
    process and its forked workers, so pages the workers share with the parent count once."""

    def __init__(self):
        super().__init__(daemon=True)
        self.peak_mb, self._done = 0.0, threading.Event()

    def run(self) -> None:
        while not self._done.wait(0.2):
            self.peak_mb = max(self.peak_mb, sum(map(_pss_kb, _tree(os.getpid()))) / 1024)

    def stop(self) -> float:
        self._done.set()
        self.join()
        return self.peak_mb


def _tree(pid: int) -> list[int]:
    try:
        children = open(f"/proc/{pid}/task/{pid}/children").read().split()
    except OSError:
        return [pid]
    return [pid] + [p for c in children for p in _tree(int(c))]


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            return next((int(line.split()[1]) for line in rollup if line.startswith("Pss:")), 0)
    except OSError:
        return 0


def _timed(fabric, folder: Path, workers: int):
    sampler = _TreePss()
    sampler.start()
    t0 = time.perf_counter()
    result = export_bundle(fabric, folder, workers=workers)
    took = time.perf_counter() - t0
    return took, result, sampler.stop()


def _user_s() -> float:
    """User CPU seconds of this process and of its children that have ended (the pool's workers)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_utime + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime


class _Phases:
    """Wall and user CPU seconds of each export phase, by wrapping the functions that run them."""

    WRAPPED = (("check", "designer.export.bundle", "_refuse_errors"),
               ("render", "designer.export.bundle", "_render_into"),
               ("qos", "designer.qos.check", "written_bundle"))

    def __init__(self):
        self.times: dict[str, list[tuple[float, float]]] = {}
        self._run: dict[str, tuple[float, float]] = {}
        for phase, module, name in self.WRAPPED:
            owner = sys.modules[module] if module in sys.modules else __import__(module, fromlist=[name])
            setattr(owner, name, self._wrap(phase, getattr(owner, name)))

    def _wrap(self, phase: str, function):
        def timed(*args, **kwargs):
            wall, cpu = time.perf_counter(), _user_s()
            try:
                return function(*args, **kwargs)
            finally:
                self._run[phase] = (time.perf_counter() - wall, _user_s() - cpu)
        return timed

    def export(self, fabric, folder: Path, workers: int) -> None:
        self._run = {}
        wall, cpu = time.perf_counter(), _user_s()
        export_bundle(fabric, folder, workers=workers)
        total = (time.perf_counter() - wall, _user_s() - cpu)
        inner = [self._run[p] for p in ("check", "render", "qos")]
        self._run["write"] = (total[0] - sum(w for w, _ in inner), total[1] - sum(c for _, c in inner))
        self._run["total"] = total
        for phase, value in self._run.items():
            self.times.setdefault(phase, []).append(value)

    def report(self) -> None:
        print(f"  {'phase':8} {'wall min':>9} {'median':>8} {'cpu min':>9} {'median':>8}   (s, {len(self.times['total'])} runs)")
        for phase in ("check", "render", "write", "qos", "total"):
            walls, cpus = zip(*self.times[phase])
            print(f"  {phase:8} {min(walls):9.2f} {statistics.median(walls):8.2f} "
                  f"{min(cpus):9.2f} {statistics.median(cpus):8.2f}")


def phases(size: str, workers: int | None, runs: int) -> None:
    spec = DESIGNS[size][0]
    fabric = build(spec, builtin_catalog())
    workers = workers or cli_workers(fabric)
    print(f"bench {size} phases: {len(fabric.servers):,} servers, {len(fabric.switches):,} switches, "
          f"{len(fabric.links):,} cables, {workers} worker process(es)")
    timer = _Phases()
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(runs):
            timer.export(fabric, Path(tmp) / f"run{n}", workers)
    timer.report()


def run(size: str, workers: int | None, compare: bool) -> None:
    spec, target_s, target_mb = DESIGNS[size]
    t0 = time.perf_counter()
    fabric = build(spec, builtin_catalog())
    built = time.perf_counter() - t0
    workers = workers or cli_workers(fabric)
    print(f"bench {size}: {len(fabric.servers):,} servers, {len(fabric.switches):,} switches, "
          f"{len(fabric.links):,} cables (built in {built:.1f} s, not timed below)")
    with tempfile.TemporaryDirectory() as tmp:
        first, result, pss = _timed(fabric, Path(tmp) / "first", workers)
        second, _, pss2 = _timed(fabric, Path(tmp) / "second", workers)
        identical = _same_tree(Path(tmp) / "first", Path(tmp) / "second")
        single = _timed(fabric, Path(tmp) / "single", 1)[0] if compare and workers > 1 else None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"  {len(result.files):,} files, {result.bytes / 1e6:.0f} MB, {workers} worker process(es)")
    print(f"  first run  {first:6.2f} s   (target < {target_s:.0f} s; includes the checks)")
    print(f"  second run {second:6.2f} s   byte-identical: {identical}")
    if single is not None:
        print(f"  one process {single:6.2f} s   (the pool's gain: x{single / min(first, second):.2f})")
    print(f"  peak memory of the exporting processes together (PSS) {max(pss, pss2):.0f} MB "
          f"(target < {target_mb} MB); peak RSS {peak:.0f} MB, largest worker {child:.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sizes", nargs="*", help=f"{' or '.join(sorted(DESIGNS))} (default 4096)")
    ap.add_argument("--workers", type=int, help="forked render processes (default: as the CLI chooses)")
    ap.add_argument("--compare", action="store_true", help="also time one process, to see what the pool buys")
    ap.add_argument("--phases", action="store_true", help="time check / render / write / qos, min and median")
    ap.add_argument("--runs", type=int, default=3, help="exports timed with --phases (default 3)")
    args = ap.parse_args()
    for size in args.sizes:          # no choices= above: Python 3.11's argparse refuses an empty '*' list with them
        if size not in DESIGNS:
            ap.error(f"size {size!r}: use {' or '.join(sorted(DESIGNS))}")
    for size in args.sizes or ["4096"]:
        if args.phases:
            phases(size, args.workers, args.runs)
        else:
            run(size, args.workers, args.compare)


if __name__ == "__main__":
    main()
