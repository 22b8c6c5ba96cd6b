"""One collective's flows under every load-balancing mode, side by side (the window's chart and
``analyze --compare``).

Each mode runs `collisions.analyze` on the same flows with the same seed: ppd (the pins), ecmp (a hash
per flow), qp-hash with ``qps`` queue pairs per flow, and adaptive (the even-split ideal). A row says
what the collective gets (the bus-bandwidth fraction: mean, min and max over the trials) and how hard
the busiest leaf-spine link is asked (mean over trials), plus how often no uplink is oversubscribed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .collisions import ROUTINGS, analyze, summary
from .flows import Flow
from .routing import Forwarding


@dataclass(frozen=True, slots=True)
class ModeRow:
    mode: str             # the routing
    label: str            # "qp-hash x4" for qp-hash, else the routing
    trials: int
    fraction_mean: float
    fraction_min: float
    fraction_max: float
    uplink_load_mean: float
    collision_free_share: float

    def as_dict(self) -> dict:
        return {"mode": self.mode, "label": self.label, "trials": self.trials,
                "fraction": {"mean": self.fraction_mean, "min": self.fraction_min, "max": self.fraction_max},
                "max_uplink_load_mean": self.uplink_load_mean, "upstream_collision_free_share": self.collision_free_share}


def compare(fw: Forwarding, flow_list: list[Flow], qps: int, trials: int = 100, seed: int = 0,
            pattern: str = "") -> list[ModeRow]:
    rows = []
    for mode in ROUTINGS:
        a = analyze(fw, flow_list, mode, trials, seed, pattern, qps)
        s = summary(a)
        rows.append(ModeRow(mode, f"qp-hash x{a.qps}" if mode == "qp-hash" else mode, a.trials,
                            s["fraction"]["mean"], s["fraction"]["min"], s["fraction"]["max"],
                            s["max_uplink_load"]["mean"], s["upstream_collision_free_share"]))
    return rows


def compare_table(rows: list[ModeRow], pattern: str) -> str:
    out = [f"pattern {pattern}: every load-balancing mode on the same flows",
           f"{'mode':14} {'trials':>6} {'busbw mean':>10} {'min':>7} {'max':>7} {'busiest up':>10} {'clean':>7}"]
    for r in rows:
        out.append(f"{r.label:14} {r.trials:6d} {100 * r.fraction_mean:9.1f}% {100 * r.fraction_min:6.1f}% "
                   f"{100 * r.fraction_max:6.1f}% {100 * r.uplink_load_mean:9.1f}% {100 * r.collision_free_share:6.1f}%")
    out.append("busbw: the collective's bus-bandwidth fraction over trials; busiest up: the busiest leaf-spine "
               "link's demand / capacity (mean); clean: trials with no oversubscribed uplink. adaptive is the "
               "ideal (even spraying), not a measurement: it needs switch and NIC support (docs/load-balancing.md).")
    return "\n".join(out) + "\n"
