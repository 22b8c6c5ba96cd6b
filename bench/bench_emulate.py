"""An emulation run per preset size, on real FRR: seconds for setup, BGP convergence, the checks, the
failover scenarios (with their own convergence times) and teardown. Needs root and FRR.

Run: sudo python bench/bench_emulate.py [--no-failover]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from designer.emulation import emulate, environment_problem  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402
from designer.storage.presets import load_preset  # noqa: E402

# (preset, overrides): small sizes of every preset that fit the emulation's 64 namespaces.
SIZES = [
    ("default", dict(sus=2, servers_per_su=2, rails=2)),
    ("default", dict(sus=2, servers_per_su=4, rails=4)),
    ("rail-only-32x4", dict(servers_per_su=8, rails=4)),
    ("rail-optimized-64x4", dict(sus=2, servers_per_su=4, rails=2, spine_planes="per-rail", spines=2)),
    ("superpod-su", dict(sus=2, servers_per_su=4, rails=2, oversubscription=2.0, spines=2)),
    ("superpod-su", dict(sus=2, servers_per_su=8, rails=4, spines=2)),
    ("b200-superpod", dict(core_tier="on", sus=2, sus_per_group=1, servers_per_su=2, rails=2, spines=2)),
    ("b200-superpod", dict(core_tier="on", sus=4, sus_per_group=2, servers_per_su=2, rails=2, spines=2)),
    ("twin-plane-800g", dict(sus=2, servers_per_su=2, rails=2, spines=2, uplink_speed=400)),
]
COLUMNS = ["setup", "convergence", "checks", "failover", "teardown"]


def label(preset: str, overrides: dict) -> str:
    return preset + " " + " ".join(f"{k}={v}" for k, v in overrides.items())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-failover", action="store_true")
    args = parser.parse_args()
    problem = environment_problem()
    if problem:
        print(f"bench_emulate: {problem}", file=sys.stderr)
        return 2
    rows, recoveries = [], []
    for n, (preset, overrides) in enumerate(SIZES):
        fabric = build(load_preset(preset).spec(**overrides), builtin_catalog())
        started = time.monotonic()
        result = emulate(fabric, run_id=f"rdb{os.getpid()}{n}", failover=not args.no_failover)
        total = time.monotonic() - started
        failed = sum(not r.ok for r in result.rows)
        scenario = [v for k, v in result.timings.items() if k.startswith("converge: ") and "restored" not in k]
        restored = [v for k, v in result.timings.items() if k.startswith("converge: ") and "restored" in k]
        rows.append([label(preset, overrides), str(len(result.plan.namespaces)), str(len(result.rows)),
                     *(f"{result.timings.get(c, 0.0):.1f}" for c in COLUMNS),
                     " / ".join(f"{v:.1f}" for v in scenario) or "-", " / ".join(f"{v:.1f}" for v in restored) or "-",
                     f"{total:.1f}", "all passed" if not failed else f"{failed} FAILED"])
        print(" | ".join(rows[-1]), file=sys.stderr)
        recoveries += recovery_lines(label(preset, overrides), result.rows)
    head = ["design", "ns", "rows", *COLUMNS, "converge broken", "converge restored", "total s", "result"]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())
    if recoveries:
        print("\nrecovery of the flows whose path crossed the failure (seconds without a reply, 20 ms probes):")
        print("\n".join(recoveries))
    return 0


def recovery_lines(design: str, result_rows) -> list[str]:
    """Per scenario: how many flows it hit, their outage when it broke and when it came back
    (min / median / max), and the probes the untouched flows lost (must be 0)."""
    out = []
    for scenario in sorted({r.kind for r in result_rows if r.kind.startswith("flow [")}):
        flows = [r for r in result_rows if r.kind == scenario]
        hit = [r.outages for r in flows if r.outages is not None]
        untouched = [r for r in flows if r.outages is None]
        spread = lambda xs: (f"{min(xs):.2f} / {statistics.median(xs):.2f} / {max(xs):.2f}" if xs  # noqa: E731
                             else "-")
        out.append(f"  {design}, {scenario[len('flow ['):-1]}: {len(hit)} of {len(flows)} flows hit; broke "
                   f"{spread([b for b, _ in hit])}; came back {spread([c for _, c in hit])}; untouched flows "
                   f"{'lost nothing' if all(r.ok for r in untouched) else 'LOST PROBES'}")
    return out


if __name__ == "__main__":
    sys.exit(main())
