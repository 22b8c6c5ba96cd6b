"""Benchmark: render every switch-side file (switches, ppd, cabling) of the 4,096-server design.

    .venv/bin/python bench/bench_export_switches.py

Prints build and render seconds per part (wall and CPU: the CPU time is steadier on a shared machine), per
switch, files and MB, and checks that a second render is byte-identical. The second render of a fabric state
reuses its whole-fabric stage-1 data (export.memo), as the window's re-export does not: an edit drops it.
Nothing is written to disk: this measures the exporters, not the bundle writer.
Targets (issue 11): the whole 4,096-server bundle under 8 s wall on 2 cores; per switch >= 50x faster than
pyavd (bench/bench_peers.py measures that side by side).
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from designer.export import ppd, switches  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.planning.spec import BuildSpec  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402

PARTS = switches.PARTS + ppd.PARTS
SPEC = BuildSpec(sus=64, servers_per_su=64, server_model="hgx-h100-8x400g", leaf_model="nvidia-sn5600",
                 spine_model="nvidia-sn5600", leaf_uplinks=32, uplink_speed=800, spines=32,
                 spine_planes="per-rail", scheme="p2p31")


def render_all(fabric) -> tuple[dict[str, float], str, int, int]:
    seconds, digest, files, size = {}, hashlib.sha256(), 0, 0
    for part in PARTS:
        start, cpu = time.perf_counter(), time.process_time()
        out = {}
        for device in part.devices(fabric):
            out.update(part.render_device(fabric, device))
        out.update(part.render_global(fabric))
        seconds[part.name] = (time.perf_counter() - start, time.process_time() - cpu)
        for path in sorted(out):
            data = out[path].encode() if isinstance(out[path], str) else out[path]
            digest.update(path.encode() + b"\0" + data)
            size += len(data)
        files += len(out)
    return seconds, digest.hexdigest(), files, size


def main() -> int:
    start = time.perf_counter()
    fabric = build(SPEC, builtin_catalog())
    built = time.perf_counter() - start
    print(f"design: {len(fabric.servers):,} servers, {len(fabric.leaves())} leaves, {len(fabric.spines())} spines, "
          f"{len(fabric.links):,} links (built in {built:.2f} s)")
    first, digest, files, size = render_all(fabric)
    count = len(fabric.switches)
    for name, (wall, cpu) in first.items():
        print(f"  {name:9s} {wall:6.2f} s wall, {cpu:6.2f} s CPU ({cpu / count * 1000:.2f} ms CPU per switch)")
    print(f"switch-side render: {sum(w for w, _ in first.values()):.2f} s wall, "
          f"{sum(c for _, c in first.values()):.2f} s CPU, {files:,} files, {size / 1e6:.1f} MB")
    second, digest2, _, _ = render_all(fabric)
    print(f"second render: {sum(w for w, _ in second.values()):.2f} s wall, byte-identical: {digest == digest2}")
    return 0 if digest == digest2 else 1


if __name__ == "__main__":
    raise SystemExit(main())
