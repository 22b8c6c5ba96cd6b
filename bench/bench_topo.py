"""Reading `nvidia-smi topo -m` matrices of growing size: ``python bench/bench_topo.py``.

Issue 13: a 200-GPU x 200-NIC matrix took 8.6 s (networkx min-cost flow on huge integer weights) and
256 x 512 did not finish. The lexicographic assignment (`importers.assignment`) should keep even the
largest matrix the limits allow well under a second.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from designer.importers.affinity import parse_topo  # noqa: E402
from fuzz.mutate import topo_matrix  # noqa: E402

SIZES = [(8, 10), (16, 32), (64, 64), (200, 200), (256, 512), (256, 768)]


def main() -> None:
    for gpus, nics in SIZES:
        text = topo_matrix(gpus, nics, random.Random(gpus * 1000 + nics)).decode()
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            result = parse_topo(text)
            best = min(best, time.perf_counter() - started)
        print(f"{gpus:4} GPUs x {nics:4} NICs ({len(text) / 1e6:5.2f} MB): {best:7.3f} s best of 3, "
              f"{len(result.rails)} rails")


if __name__ == "__main__":
    main()
