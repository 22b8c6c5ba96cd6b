"""Benchmark: nccl-check on a large log, and the monitoring and lab exports at 1,024 servers.

    .venv/bin/python bench/bench_ops.py

The design is superpod-su with 32 SUs and spine planes per rail (1,024 eight-GPU servers, 8 rails,
256 leaves). The log is an
all_reduce_perf run over every server (8,192 ranks) with NCCL_DEBUG=INFO lines, written by the test
suite's log synthesiser in the real format. Prints seconds per stage and sizes.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from designer.analysis.routing import Forwarding  # noqa: E402
from designer.export import clab, monitoring  # noqa: E402
from designer.nccl.check import judge_runs  # noqa: E402
from designer.nccl.parse import parse_text  # noqa: E402
from designer.nccl.plot import busbw_chart  # noqa: E402
from designer.nccl.report import result_json, result_text  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402
from designer.storage.presets import load_preset  # noqa: E402
from tests.nccl.logsynth import Spec, make_log  # noqa: E402


def _mb(files) -> float:
    return sum(len(v.encode() if isinstance(v, str) else v) for v in files.values()) / 1e6


def timed(label: str, fn):
    t0 = time.perf_counter()
    value = fn()
    print(f"{label}: {time.perf_counter() - t0:.2f} s")
    return value


def main() -> None:
    fabric = timed("build 1,024 servers", lambda: build(load_preset("superpod-su").spec(sus=32, spine_planes="per-rail"), builtin_catalog()))
    servers = [s.id for s in fabric.sorted_servers()]
    text = make_log(Spec(fabric, servers, info=True, scale={256 << 20: 0.5}))
    print(f"log: {len(text.splitlines())} lines, {len(text) / 1e6:.1f} MB, {len(servers) * 8} ranks")
    runs = timed("nccl-check parse", lambda: parse_text(text, "big.log"))
    fw = timed("forwarding state", lambda: Forwarding(fabric))
    for routing in ("ppd", "ecmp"):
        result = timed(f"nccl-check judge ({routing}, 100 trials)", lambda: judge_runs(fabric, runs, routing, fw=fw))
        print(f"  verdict: {result.judgements[0].verdict.code}")
    timed("nccl-check table + JSON", lambda: (result_text(result), result_json(result)))
    png = timed("nccl-check plot (PNG)", lambda: busbw_chart(result, "png"))
    print(f"  {len(png) / 1e3:.0f} kB")
    files = timed("monitoring part", lambda: monitoring.PARTS[0].render_global(fabric))
    print(f"  {len(files)} files, {_mb(files):.1f} MB")
    files = timed("lab part", lambda: clab.PARTS[0].render_global(fabric))
    print(f"  {len(files)} files, {_mb(files):.1f} MB")


if __name__ == "__main__":
    main()
