"""`new` + `validate` at 4,096 servers, and the three-tier design of 16,384 servers x 8 rails (131,072 GPUs).

Each size runs what the two commands do, in one process, timed per stage: build (the planner, with
addressing), save (the design file), load (read it back), check (every rule), plus the file size and
the process's peak memory after that size (ru_maxrss, so it only grows from one size to the next).

- 4096: the b200-superpod preset at 128 SUs would need a fourth tier, so this is bench_foundation's
  design (64 SUs x 64 servers, 64 x 800G leaves split 2 x 400G, per-rail spine planes), and the same
  servers as a three-tier b200 design (the preset at 128 SUs of 32 servers on 64 x 800G switches split
  2 x 400G: radix 128 at 400G lets one spine group hold 8 SUs).
- 131072: 256 SUs x 64 servers x 8 rails on 64 x 800G switches, leaves 64 x 400G down and 32 x 800G up,
  spines 32 down and 32 up, core tier sized for 1:1 (2,048 leaves, 2,048 spines in 64 spine groups,
  1,024 cores; 262,144 cables).

Run: python bench/bench_tiers.py [4096|131072 ...]   (default: both)
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
from designer.storage.presets import load_preset  # noqa: E402

SN5600 = dict(leaf_model="nvidia-sn5600", spine_model="nvidia-sn5600", core_model="nvidia-sn5600")
SIZES = {
    "4096": [
        ("two tiers, per-rail spine planes",
         BuildSpec(name="bench-4096", sus=64, servers_per_su=64, server_model="hgx-h100-8x400g", leaf_uplinks=32,
                   uplink_speed=800, spines=32, spine_planes="per-rail", scheme="p2p31", **SN5600)),
        ("three tiers (b200-superpod, 2 x 400G ports)",
         load_preset("b200-superpod").spec(sus=128, uplink_speed=400, **SN5600)),
    ],
    "131072": [
        ("three tiers, 800G uplinks",
         BuildSpec(name="bench-131072", sus=256, servers_per_su=64, server_model="hgx-h100-8x400g",
                   uplink_speed=800, core_tier="on", scheme="p2p31", fabric_pool="10.248.0.0/14",
                   loopback_pool="10.252.0.0/16", **SN5600)),
    ],
}


def run(label: str, spec: BuildSpec) -> None:
    catalog = builtin_catalog()
    t0 = time.perf_counter()
    fabric = build(spec, catalog)
    t1 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.fabric.yaml"
        save(fabric, path)
        t2 = time.perf_counter()
        size_mb = path.stat().st_size / 1e6
        del fabric
        loaded = load(path)
        t3 = time.perf_counter()
    findings = check(loaded)
    t4 = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    gpus = sum(s.gpus for s in loaded.servers.values())
    print(f"{label}: {len(loaded.servers):,} servers ({gpus:,} GPUs), {len(loaded.leaves()):,} leaves, "
          f"{len(loaded.spines()):,} spines, {len(loaded.cores()):,} cores, {len(loaded.links):,} cables; "
          f"{len(findings)} findings")
    print(f"  build  {t1 - t0:6.2f} s")
    print(f"  save   {t2 - t1:6.2f} s   ({size_mb:.1f} MB)")
    print(f"  load   {t3 - t2:6.2f} s")
    print(f"  check  {t4 - t3:6.2f} s")
    print(f"  new + validate (build + save, load + check): {t4 - t0:6.2f} s")
    print(f"  peak memory so far {peak:.0f} MB")


def main(argv: list[str]) -> None:
    for size in argv or list(SIZES):
        for label, spec in SIZES[size]:
            run(label, spec)


if __name__ == "__main__":
    main(sys.argv[1:])
