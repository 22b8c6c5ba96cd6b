"""Failures during a run: one leaf uplink, then one spine, each broken and restored while flows run.

1. **Uplink**: the cable of the first pinned source's primary uplink is pulled (``ip link set down`` at both
   ends: both switches lose carrier, as with a cut fibre or a dead optic).
2. **Spine**: that uplink's spine loses power: every one of its links goes down, so each leaf loses
   carrier on its port to it. Its FRR keeps running but is cut off; a spine whose daemons crash with its
   links up would be caught by the BGP hold timer (9 s) instead, which this run does not wait for.

Through each scenario every pinned source keeps one flow (`flowprobe.py`: an ICMP echo every
``INTERVAL`` s to a same-rail NIC behind another leaf). After the break converges (BGP, then every leaf's
rail-ppd-agent has nothing left to change) the checks run again: BGP tables, every same-rail pair, and
each pin on the candidate ppd-pins.json says it falls to. After the restore each pin must be back on
its primary. A flow whose path (there or back) did not cross the broken part must lose no probe at all;
the others must be delivered again, and the report gives their outage when it broke and when it came back.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from .checks import Row, collect, expect, judge_pair, judge_pins, judge_routes, reap, run_probes, send, spawn
from .expect import Expectation, Failure
from .netns import Runner
from .plan import Cable, PinCheck, Plan

PROBER = Path(__file__).with_name("flowprobe.py")
INTERVAL = 0.02             # seconds between a flow's probes: the resolution of every outage reported
BASELINE, TAIL = 0.5, 0.6   # seconds of flow before the break and after the last convergence


@dataclass(frozen=True)
class Scenario:
    failure: Failure
    cables: tuple[Cable, ...]                 # what goes down (both ends)


def scenarios(plan: Plan) -> list[Scenario]:
    if not plan.pins:
        return []
    first = plan.pins[0].candidates[0]
    by_link = {c.link: c for c in plan.cables}
    spine_ns = plan.ns_of(first.spine)
    spine_cables = tuple(c for c in plan.cables if spine_ns in (c.a_ns, c.b_ns))
    leaf = plan.pins[0].leaf
    return [Scenario(Failure(f"uplink {leaf}:{first.uplink} down", frozenset({first.cable})), (by_link[first.cable],)),
            Scenario(Failure(f"spine {first.spine} down", frozenset(c.link for c in spine_cables),
                             frozenset({first.spine})), spine_cables)]


def _set(runner: Runner, cables: tuple[Cable, ...], state: str) -> None:
    by_ns: dict[str, list[str]] = {}
    for c in cables:
        by_ns.setdefault(c.a_ns, []).append(f"link set dev {c.a_if} {state}")
        by_ns.setdefault(c.b_ns, []).append(f"link set dev {c.b_if} {state}")
    for ns, lines in by_ns.items():
        runner.batch(ns, lines, f"setting links {state} in {ns}")


def path_parts(plan: Plan, pin: PinCheck, back: PinCheck | None) -> set[str]:
    """Cables and devices a flow may cross with nothing broken: out by its pin, back by its peer's pin, and
    from each of those spines every ECMP path down to the far leaf (through the cores in three tiers)."""
    intact = Expectation(plan)
    parts: set[str] = set()
    for p, to_leaf in [(pin, pin.dest_leaf)] + ([(back, pin.leaf_id)] if back else []):
        c = intact.candidate(p, to_leaf)
        if c is not None:
            parts |= {c.cable} | intact.parts(c.spine, to_leaf)
    return parts


def _outages(flow: dict, start: float, end: float) -> list[float]:
    """Lengths of the runs of lost probes sent in [start, end): first lost send to first answered send."""
    sent, answered = flow["sent"], set(flow["answered"])
    out, lost_since = [], None
    for i, t in enumerate(sent):
        if t < start - INTERVAL or t >= end:
            continue
        if i not in answered and lost_since is None:
            lost_since = t
        elif i in answered and lost_since is not None:
            out.append(t - lost_since)
            lost_since = None
    if lost_since is not None:
        out.append(float("inf"))
    return out


def judge_flow(plan: Plan, pin: PinCheck, back: PinCheck | None, flow: dict, failure: Failure,
               times: tuple[float, float, float]) -> Row:
    t_break, t_restore, t_end = times
    lost = len(flow["sent"]) - len(flow["answered"])
    broke, returned = _outages(flow, t_break, t_restore), _outages(flow, t_restore, t_end)
    affected = bool(path_parts(plan, pin, back) & (failure.cables | failure.devices))
    never = float("inf") in broke + returned
    gone = (f"{max(broke):.2f} s when it broke" if broke else "none when it broke")
    came = (f"{max(returned):.2f} s when it came back" if returned else "none when it came back")
    if not affected:
        ok = lost == 0
        detail = f"path untouched: {'no probe lost' if ok else f'{lost} probes lost'} of {len(flow['sent'])}"
        return Row(failure.tag("flow"), pin.nic, pin.dest_label, ok, detail)
    ok = not never and len(flow["answered"]) > 0
    detail = (f"outage {gone}, {came} ({lost} of {len(flow['sent'])} probes lost)" if not never
              else "not delivered again after convergence")
    return Row(failure.tag("flow"), pin.nic, pin.dest_label, ok, detail,
               (max(broke, default=0.0), max(returned, default=0.0)))


def run_failovers(runner: Runner) -> list[Row]:
    plan = runner.plan
    rows: list[Row] = []
    back_of = {p.source: p for p in plan.pins}
    for scenario in scenarios(plan):
        failure = scenario.failure
        runner.log(f"failover: {failure.label}")
        flows_by_ns: dict[str, list[PinCheck]] = {}
        for pin in plan.pins:
            flows_by_ns.setdefault(pin.source_ns, []).append(pin)
        procs = {}
        try:
            for ns, pins in flows_by_ns.items():
                procs[ns] = spawn(ns, PROBER, {"flows": [[p.source, p.destination] for p in pins],
                                               "interval": INTERVAL})
            expect(procs, "ready")
            send(procs, "go")
            time.sleep(BASELINE)
            t_break = time.monotonic()
            _set(runner, scenario.cables, "down")
            took = runner.converge(failure.cables, failure.devices)
            runner.timings[f"converge: {failure.label}"] = took
            runner.log(f"converged in {took:.1f} s; checking")
            rows += judge_routes(runner, failure)
            pairs = plan.probes()
            results = run_probes(runner, pairs)
            rows += [judge_pair(a, b, results, failure) for a, b in pairs]
            rows += judge_pins(runner, failure)
            t_restore = time.monotonic()
            runner.log("restoring")
            _set(runner, scenario.cables, "up")
            took = runner.converge()
            runner.timings[f"converge: {failure.label}, restored"] = took
            runner.log(f"converged in {took:.1f} s")
            restored = Failure(failure.label.replace(" down", " back"))
            rows += judge_pins(runner, kind=restored.tag("pin"))
            time.sleep(TAIL)
            t_end = time.monotonic()
            flows = collect(procs)
        finally:
            reap(procs)
        for ns, pins in flows_by_ns.items():
            for pin, flow in zip(pins, flows[ns]["flows"]):
                rows.append(judge_flow(plan, pin, back_of.get(pin.destination), flow, failure,
                                       (t_break, t_restore, t_end)))
    return rows
