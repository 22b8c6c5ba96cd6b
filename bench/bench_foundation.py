"""Build + check + save of the 4,096-server x 8-rail design (issue 2's benchmark).

64 SUs x 64 servers x 8 rails (32,768 NICs) on 64 x 800G leaves split 2 x 400G toward the servers,
32 x 800G uplinks per leaf, one plane of 32 spines (64 x 800G) per rail: 512 leaves, 256 spines,
32,768 server links, 16,384 leaf-spine links, 1:1.

Run: python bench/bench_foundation.py   (prints wall seconds per stage and peak memory)
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from designer.checks import check  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.planning.spec import BuildSpec  # noqa: E402
from designer.storage import load, save  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402

BIG = BuildSpec(name="bench-4096", sus=64, servers_per_su=64, server_model="hgx-h100-8x400g",
                leaf_model="nvidia-sn5600", spine_model="nvidia-sn5600", leaf_uplinks=32, uplink_speed=800,
                spines=32, spine_planes="per-rail", scheme="p2p31")


def main() -> None:
    catalog = builtin_catalog()
    t0 = time.perf_counter()
    fabric = build(BIG, catalog)
    t1 = time.perf_counter()
    findings = check(fabric)
    t2 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.fabric.yaml"
        save(fabric, path)
        t3 = time.perf_counter()
        load(path)
        t4 = time.perf_counter()
        size_mb = path.stat().st_size / 1e6
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"design: {len(fabric.servers)} servers, {sum(len(s.nics) for s in fabric.servers.values())} NICs, "
          f"{len(fabric.leaves())} leaves, {len(fabric.spines())} spines, {len(fabric.links)} links; "
          f"{len(findings)} findings")
    print(f"build  {t1 - t0:6.2f} s")
    print(f"check  {t2 - t1:6.2f} s")
    print(f"save   {t3 - t2:6.2f} s   ({size_mb:.1f} MB)")
    print(f"total  {t3 - t0:6.2f} s   (build + check + save; target < 5 s)")
    print(f"load   {t4 - t3:6.2f} s   (not in the target)")
    print(f"peak memory {peak:.0f} MB (target < 1024 MB)")


if __name__ == "__main__":
    main()
