"""The QoS agreement check (`rail-designer qos-check`, also run by `export`) on bench_foundation's
4,096-server bundle: the switches, hosts and cabling parts written once, then the check timed alone
(wall and CPU) a few times, each pair count and finding count printed.

Run: python bench/bench_qos.py [--repeat N]      (TMPDIR=/dev/shm leaves the disk out)
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import designer  # noqa: E402
from bench.bench_foundation import BIG  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    fabric = build(BIG, builtin_catalog())
    folder = Path(tempfile.mkdtemp(prefix="bench-qos-"))
    try:
        started = time.perf_counter()
        result = designer.export_bundle(fabric, folder / "bundle", parts=["switches", "hosts", "cabling"])
        print(f"{len(fabric.servers)} servers, {len(fabric.switches)} switches: export of switches, hosts, cabling "
              f"(the check included) {time.perf_counter() - started:.2f} s")
        for n in range(args.repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            report = designer.qos_check(result.outdir)
            print(f"qos-check run {n + 1}: {time.perf_counter() - wall:.2f} s wall, {time.process_time() - cpu:.2f} s "
                  f"CPU; {report.pairs} pairs, {len(report.findings)} disagreements")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
