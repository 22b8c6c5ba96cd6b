"""Time `check()` on big designs: ``python bench/bench_checks.py``.

The 4,096-server design is 64 SUs x 64 eight-NIC servers: 32,768 NICs, 49,152 cables,
768 switches (512 leaves, 8 spine planes of 32). check() runs after every GUI edit, so it
should stay well under a second there.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from designer.checks import check  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.planning.spec import BuildSpec  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402

DESIGNS = {
    "4096 servers x 8 NICs, per-rail spine planes, p2p31": BuildSpec(
        sus=64, servers_per_su=64, server_model="hgx-h100-8x400g", leaf_model="nvidia-sn5600",
        spine_model="nvidia-sn5600", leaf_uplinks=32, uplink_speed=800, spines=32, spine_planes="per-rail",
        scheme="p2p31"),
    "1024 servers x 8 NICs, per-rail spine planes, subnet-per-leaf": BuildSpec(
        sus=16, servers_per_su=64, server_model="hgx-h100-8x400g", leaf_model="nvidia-sn5600",
        spine_model="nvidia-sn5600", leaf_uplinks=32, uplink_speed=800, spine_planes="per-rail",
        scheme="subnet-per-leaf"),
}


def best_of(runs: int, function) -> tuple[float, float, object]:
    """Best wall time and best CPU time over ``runs`` (CPU time is steadier on a shared machine)."""
    wall = cpu = float("inf")
    result = None
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = function()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu, result


def main() -> None:
    catalog = builtin_catalog()
    for name, spec in DESIGNS.items():
        start = time.perf_counter()
        fabric = build(spec, catalog)
        built = time.perf_counter() - start
        first, _, findings = best_of(1, lambda: check(fabric))
        wall, cpu, _ = best_of(5, lambda: check(fabric))
        print(f"{name}: {len(fabric.servers):,} servers, {len(fabric.links):,} cables, "
              f"{len(fabric.switches):,} switches; build {built:.2f} s; check first run {first:.3f} s, "
              f"best of 5 {wall:.3f} s wall / {cpu:.3f} s CPU; {len(findings)} findings")
        fabric.replace_plan({}, {})      # the same design before addressing: many findings to sort
        wall, cpu, findings = best_of(3, lambda: check(fabric))
        print(f"  unaddressed: best of 3 {wall:.3f} s wall / {cpu:.3f} s CPU; {len(findings)} findings")


if __name__ == "__main__":
    main()
