"""Render time of every bundle part, one line per part, at 4,096 servers (`bench_foundation.BIG`).

    .venv/bin/python bench/bench_parts.py [--only PART ...] [--profile DIR]

For each part of `designer.export.registry.parts()`, in bundle order and in one process (no forks, no
disk writes): its ``render_device`` over all its devices, then its ``render_global``, on one fabric, so
whole-fabric answers cached per fabric state (`export.memo.per_state`) are paid by the first part
that asks, as in a real export. Prints wall and CPU seconds (CPU is the steadier on a shared machine), files and MB per part and the sum. ``--profile DIR``
also writes ``DIR/<part>.prof`` (cProfile) per part. Issue 11's target is the whole bundle (this plus
the disk writes) under 8 s on 2 cores.
"""

from __future__ import annotations

import argparse
import cProfile
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_foundation import BIG  # noqa: E402
from designer.export.registry import parts  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402


def _size(files) -> int:
    return sum(len(v.encode() if isinstance(v, str) else v) for v in files.values())


def render_part(fabric, part) -> tuple[int, int, int]:
    """(devices, files, bytes) of one part's whole output."""
    devices = part.devices(fabric)
    count = size = 0
    for device in devices:
        files = part.render_device(fabric, device)
        count += len(files)
        size += _size(files)
    files = part.render_global(fabric)
    return len(devices), count + len(files), size + _size(files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="PART", help="time only these parts")
    parser.add_argument("--profile", metavar="DIR", help="write DIR/<part>.prof per part")
    args = parser.parse_args()
    t0 = time.perf_counter()
    fabric = build(BIG, builtin_catalog())
    print(f"build {time.perf_counter() - t0:.2f} s: {len(fabric.servers)} servers, {len(fabric.switches)} "
          f"switches, {len(fabric.links)} links (not counted below)")
    chosen = [p for p in parts() if not args.only or p.name in args.only]
    total = total_cpu = 0.0
    for part in chosen:
        profiler = cProfile.Profile() if args.profile else None
        t0, c0 = time.perf_counter(), time.process_time()
        if profiler:
            profiler.enable()
        devices, count, size = render_part(fabric, part)
        if profiler:
            profiler.disable()
            Path(args.profile).mkdir(parents=True, exist_ok=True)
            profiler.dump_stats(str(Path(args.profile) / f"{part.name}.prof"))
        took, cpu = time.perf_counter() - t0, time.process_time() - c0
        total += took
        total_cpu += cpu
        print(f"{part.name:<11} {took:6.2f} s  cpu {cpu:6.2f} s  {devices:5d} devices  {count:6d} files  "
              f"{size / 1e6:6.1f} MB")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'sum':<11} {total:6.2f} s  cpu {total_cpu:6.2f} s  (render only, one process; the whole bundle's target is < 8 s)")
    print(f"peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
