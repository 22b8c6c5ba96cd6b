"""Benchmark: the collision analysis under every load-balancing mode at 1,024 servers, and the failure
capacity.

    .venv/bin/python bench/bench_lb.py [--trials 20] [--qps 4] [--alltoall-sus 8] [--alltoall]

The design is superpod-su with 32 SUs and spine planes per rail (1,024 eight-GPU servers, 8 rails,
256 leaves), as bench_ops.py. Per pattern and mode: wall and CPU seconds of `collisions.analyze`
(Forwarding built once, as the window's child and the CLI do per run) and the predicted bus-bandwidth
fraction and busiest-uplink load. The all-to-all runs on `--alltoall-sus` SUs (default 8: 256 servers,
522,240 flows, one trial); `--alltoall` also runs it at 1,024 servers (8.4 million flows: gigabytes of
flow objects and minutes per mode).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from designer.analysis.collisions import ROUTINGS, analyze  # noqa: E402
from designer.analysis.flows import flows  # noqa: E402
from designer.analysis.routing import Forwarding  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.planning.failures import failure_capacity  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402
from designer.storage.presets import load_preset  # noqa: E402


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--qps", type=int, default=4)
    ap.add_argument("--alltoall-sus", type=int, default=8)
    ap.add_argument("--alltoall", action="store_true")
    args = ap.parse_args()
    fabric, wall, _ = timed(lambda: build(load_preset("superpod-su").spec(sus=32, spine_planes="per-rail"),
                                          builtin_catalog()))
    print(f"build 1,024 servers: {wall:.2f} s ({len(fabric.servers)} servers, {len(fabric.leaves())} leaves)")
    fw, wall, _ = timed(lambda: Forwarding(fabric))
    print(f"forwarding state: {wall:.2f} s")
    rows, wall, _ = timed(lambda: failure_capacity(fabric))
    print(f"failure capacity: {wall * 1000:.0f} ms: " + "; ".join(r.text for r in rows))
    small = build(load_preset("superpod-su").spec(sus=args.alltoall_sus, spine_planes="per-rail"), builtin_catalog())
    runs = [(fw, fabric, "rail-ring", args.trials), (fw, fabric, "allreduce-ring", args.trials),
            (Forwarding(small), small, "alltoall", 1)] + ([(fw, fabric, "alltoall", 1)] if args.alltoall else [])
    for forwarding, design, pattern, trials in runs:
        flow_list = flows(design, pattern)
        print(f"\n{pattern} over {len(design.servers):,} servers: {len(flow_list):,} flows, {trials} trials, "
              f"qp-hash with {args.qps} QPs")
        for mode in ROUTINGS:
            a, wall, cpu = timed(lambda: analyze(forwarding, flow_list, mode, trials, 0, pattern, args.qps))
            print(f"  {mode:9} {wall:7.2f} s wall {cpu:7.2f} s CPU  {a.trials:3d} trials  "
                  f"busbw mean {100 * statistics.fmean(a.fraction):5.1f}% (min {100 * min(a.fraction):5.1f}%)  "
                  f"busiest uplink {100 * statistics.fmean(a.max_uplink_load):5.1f}%")


if __name__ == "__main__":
    main()
