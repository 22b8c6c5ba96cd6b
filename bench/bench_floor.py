"""The floor at 1,024 servers (superpod-su --sus 32: 32 SUs of 32 H100-class servers, three tiers): lay out
the racks, compute every cable's run and media, then move one rack and recompute (issue 20's target: the
move under 100 ms), and move one rack with a fresh computation of everything for comparison.

Run: python bench/bench_floor.py [--sus N]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import designer  # noqa: E402
from designer.model import events as ev  # noqa: E402
from designer.model.floor import Row  # noqa: E402
from designer.planning.cable_plan import CablePlan  # noqa: E402
from designer.planning.floor_layout import lay_out  # noqa: E402


def main() -> None:
    sus = int(sys.argv[sys.argv.index("--sus") + 1]) if "--sus" in sys.argv else 32
    start = time.perf_counter()
    fabric = designer.build(designer.spec("superpod-su", sus=sus, floor="none"))
    print(f"built {len(fabric.servers):,} servers, {len(fabric.switches):,} switches, {len(fabric.links):,} cables "
          f"in {time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    lay_out(fabric)
    print(f"  lay out (racks and places)            {1000 * (time.perf_counter() - start):8.1f} ms  "
          f"({len(fabric.racks)} racks, {len(fabric.rows)} rows)")
    start = time.perf_counter()
    plan = CablePlan(fabric)
    print(f"  every cable's run and media           {1000 * (time.perf_counter() - start):8.1f} ms")
    fabric.add_row(Row("row-spare", "hall1", sus + 5))
    touched = ev.Touched()
    fabric.subscribe(touched.add)
    moves, counts = [], []
    racks = sorted(r for r in fabric.racks if r.startswith("su") and "-net" not in r)[:10]
    racks += ["su1-net1", "net-r01"]
    for n, rack in enumerate(racks):
        start = time.perf_counter()
        fabric.move_rack(rack, "row-spare", n + 1)
        plan.refresh(touched)
        moves.append(time.perf_counter() - start)
        counts.append(plan.runs.recomputed)
        touched.__init__()
    print(f"  move one rack + recompute its cables  {1000 * statistics.median(moves):8.1f} ms median, "
          f"{1000 * max(moves):.1f} ms max over {len(moves)} racks ({min(counts)}-{max(counts)} cables each)")
    start = time.perf_counter()
    fabric.move_rack("su2-r01", "row-spare", 40)
    CablePlan(fabric)
    print(f"  move one rack + recompute everything  {1000 * (time.perf_counter() - start):8.1f} ms")


if __name__ == "__main__":
    main()
