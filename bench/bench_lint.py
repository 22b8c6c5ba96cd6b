"""Benchmark: `rail-designer lint` on exported bundles: model loading, and validation per file.

    RAIL_DESIGNER_YANG_DIR=../shared/sonic-yang .venv/bin/python bench/bench_lint.py [YANG_DIR]

For the 32 small designs the tests validate (4 presets x 2 schemes x 2 plane modes x 1:1/2:1) and
for a 4-SU superpod, prints files, seconds to compile the
models, total and per-file validation seconds (wall and CPU), and the problems found (must be 0).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from designer.export.bundle import render_in_memory  # noqa: E402
from designer.export.switches import PARTS  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.sonic.schema import Models  # noqa: E402
from designer.sonic.validate import validate  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402
from designer.storage.presets import load_preset  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
PRESETS = ["default", "rail-only-32x4", "rail-optimized-64x4", "superpod-su"]


def config_dbs(fabric) -> list[dict]:
    return [json.loads(text) for path, text in render_in_memory(fabric, [PARTS[0]]).items()
            if path.endswith("/config_db.json")]


def timed(models, dbs) -> tuple[float, float, int]:
    start, cpu = time.perf_counter(), time.process_time()
    problems = sum(len(validate(models, db)) for db in dbs)
    return time.perf_counter() - start, time.process_time() - cpu, problems


def main() -> None:
    yang_dir = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("RAIL_DESIGNER_YANG_DIR",
                                                                     str(REPO.parent / "shared" / "sonic-yang"))
    start = time.perf_counter()
    models = Models(yang_dir)
    print(f"compile {len(models.modules)} models: {time.perf_counter() - start:.2f} s")
    small = []
    for preset in PRESETS:
        for scheme in ("subnet-per-leaf", "p2p31"):
            for planes in ("shared", "per-rail"):
                for ratio in (1.0, 2.0):
                    spec = load_preset(preset).spec(sus=1, servers_per_su=8, scheme=scheme, spine_planes=planes,
                                                    oversubscription=ratio)
                    small += config_dbs(build(spec, builtin_catalog()))
    wall, cpu, problems = timed(models, small)
    print(f"32 small designs: {len(small)} files, {wall:.2f} s wall ({cpu:.2f} s CPU), "
          f"{1000 * wall / len(small):.1f} ms per file, {problems} problems")
    fabric = build(load_preset("superpod-su").spec(sus=4), builtin_catalog())
    big = config_dbs(fabric)
    wall, cpu, problems = timed(models, big)
    print(f"superpod-su, 4 SUs ({len(fabric.servers)} servers, {len(fabric.switches)} switches): {len(big)} files, {wall:.2f} s wall ({cpu:.2f} s CPU), "
          f"{1000 * wall / len(big):.1f} ms per file, {problems} problems")


if __name__ == "__main__":
    main()
