"""`grow` of a planned 4,096-server design by one SU (64 servers: 4,096 -> 4,160), timed per step, and the
two-tier superpod-su grown 2 -> 3 and 2 -> 8 SUs (issue 17's target: grow under 2 s on 2 cores).

The 4,096-server designs: 64 SUs x 64 servers on 64 x 800G leaves split 2 x 400G toward the servers,
spine planes per rail, planned for 72 SUs; once with 64 x 400G uplinks to 64 spines per plane (two
tiers: the spines, split 2 x 400G, have room), once with the README's 32 x 800G uplinks, whose spines
are full at 64 SUs, so the plan brings a core tier (and a /14 fabric pool for the spine-core links).

Steps, in one process: load the design file; the reference (the design at its final size, built once);
the target (the design at the new size, placed as the reference has it); compare and merge; save.

Run: python bench/bench_grow.py [--small]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import designer  # noqa: E402
from designer.planning import growth  # noqa: E402
from designer.planning.grow import compare  # noqa: E402

BIG = dict(sus=64, final_sus=72, servers_per_su=64, leaf_model="nvidia-sn5600", spine_model="nvidia-sn5600",
           leaf_uplinks=32, uplink_speed=800, spine_planes="per-rail", core_tier="auto", fabric_pool="10.252.0.0/14")
# The same servers on two tiers: 64 x 400G uplinks per leaf, 64 spines per rail plane split 2 x 400G
# (128 ports each: room for 128 SUs), so the plan for 72 SUs needs no core tier.
BIG_TWO_TIERS = dict(sus=64, final_sus=72, servers_per_su=64, leaf_model="nvidia-sn5600", spine_model="nvidia-sn5600",
                     leaf_uplinks=64, uplink_speed=400, spines=64, spine_planes="per-rail", core_tier="off")


def timed(label: str, work):
    start = time.perf_counter()
    value = work()
    print(f"  {label:40} {time.perf_counter() - start:6.2f} s")
    return value


def run(name: str, preset: str, params: dict, to: int) -> None:
    print(f"{name}: grow to {to} SUs")
    folder = Path(tempfile.mkdtemp(prefix="bench-grow-"))
    path = folder / "g.fabric.yaml"
    designer.save(designer.build(designer.spec(preset, **params)), path)
    growth._BUILT.clear()
    start = time.perf_counter()
    fabric = timed("load", lambda: designer.load(path))
    result = timed("grow (reference, target, compare, merge)", lambda: designer.grow(fabric, to))
    timed("save", lambda: designer.save(result.fabric, path))
    print(f"  {'= the grow command':40} {time.perf_counter() - start:6.2f} s  ({len(result.added)} devices, "
          f"{result.cables} cables added)")
    again = designer.load(path)
    growth._BUILT.clear()
    print("  of which (timed again alone):")
    timed("  reference (the final size, built)", lambda: growth.reference(again))
    spec = growth.planned_spec(again.settings, to + 1, params.get("servers_per_su") or 32)
    sizing = designer.size(spec)
    target = timed("  target (cut from the reference)", lambda: growth.planned_cut(spec, sizing, again.catalog))
    timed("  compare", lambda: compare(again, target, strict=False))


if __name__ == "__main__":
    run("superpod-su 2 SUs planned for 8", "superpod-su", {"sus": 2, "final_sus": 8}, 3)
    run("superpod-su 2 SUs planned for 8", "superpod-su", {"sus": 2, "final_sus": 8}, 7)
    if "--small" not in sys.argv:
        run("4,096 servers planned for 72 SUs, two tiers", "superpod-su", BIG_TWO_TIERS, 65)
        run("4,096 servers planned for 72 SUs, three tiers (the README's leaves)", "superpod-su", BIG, 65)
