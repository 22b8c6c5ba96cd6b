"""Benchmark: render every host's files and the AID for the 4,096-server design.

    /work/venv/bin/python bench/bench_export_hosts.py

Prints seconds per stage and MB rendered (in memory; the bundle writer adds the disk writes).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from designer.export import aid, hosts  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.planning.spec import BuildSpec  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402

SPEC = BuildSpec(sus=64, servers_per_su=64, server_model="hgx-h100-8x400g", leaf_model="nvidia-sn5600",
                 spine_model="nvidia-sn5600", leaf_uplinks=32, uplink_speed=800, spines=32,
                 spine_planes="per-rail", scheme="p2p31")


def _size(files) -> int:
    return sum(len(v.encode() if isinstance(v, str) else v) for v in files.values())


def main() -> None:
    t0 = time.perf_counter()
    fabric = build(SPEC, builtin_catalog())
    t1 = time.perf_counter()
    print(f"build: {t1 - t0:.2f} s  ({len(fabric.servers)} servers, {len(fabric.switches)} switches, "
          f"{len(fabric.links)} links)")
    part = hosts.PARTS[0]
    host_bytes, host_files = 0, 0
    for server_id in part.devices(fabric):
        files = part.render_device(fabric, server_id)
        host_bytes += _size(files)
        host_files += len(files)
    t2 = time.perf_counter()
    print(f"hosts: {t2 - t1:.2f} s  {host_files} files  {host_bytes / 1e6:.1f} MB")
    files = aid.PARTS[0].render_global(fabric)
    t3 = time.perf_counter()
    detail = ", ".join(f"{k.split('/')[-1]} {_size({k: v}) / 1e6:.1f}" for k, v in sorted(files.items()))
    print(f"aid:   {t3 - t2:.2f} s  {_size(files) / 1e6:.1f} MB ({detail})")
    print(f"hosts + aid: {t3 - t1:.2f} s  {(host_bytes + _size(files)) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
