"""`emulate --change OLD NEW`: a grown fabric rolled out on the emulation, wave by wave, under running flows.

The namespaces and cables are NEW's from the start (the new SU is cabled before it is configured, as on a
real floor); the switches and hosts OLD has run OLD's files, and BGP converges on them. A flow per rail
NIC of OLD's servers (to a same-rail NIC of another server) then runs for the whole rollout. The waves are
`export --since`'s (`export.rollout.plan_waves`, from the files that differ): each switch of a wave gets
NEW's files through the same steps the emulation's setup takes (config_db.json's lines, frr.conf read by
the running FRR with ``vtysh -b``, the PPD agent restarted on new pins), a new host its policy-routing.sh
and sysctl.conf, and the wave waits for BGP (only sessions whose peers are rolled out already) before the
next. At the end every check of the full emulation runs on NEW: every pair, the new SU's included.

Reported per wave: the probes lost by the running flows (every one of them is a flow whose path the
change does not touch: growth only adds). Not emulated: SONiC's TSA/TSB (the emulation has no traffic
shift daemon), so no flow is drained; a drained spine's loss is not measured here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from ..export.bundle import preview
from ..export.rollout import DEFAULT_MAX_DRAIN, Wave, plan_waves
from ..model.fabric import Fabric
from .checks import Row, collect, expect, reap, run_checks, send, spawn
from .errors import EmulationError
from .failover import INTERVAL, PROBER
from .netns import Runner, environment_problem, free_run_id
from .plan import SWITCH_SYSCTLS, Endpoint, Plan, SwitchSetup, make_plan

SETTLE = 1.0            # seconds of flow before the first wave and after the last


@dataclass
class WaveResult:
    number: int
    name: str
    switches: list[str]
    hosts: list[str]
    seconds: float
    sent: int = 0
    lost: int = 0


@dataclass
class ChangeResult:
    waves: list[WaveResult]
    rows: list[Row]                          # the full checks on NEW after the rollout
    flows: int
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rows) and not any(w.lost for w in self.waves)


def changed_devices(old: Fabric, new: Fabric) -> tuple[set[str], set[str]]:
    """(devices whose bundle files differ, devices NEW adds); a device OLD has and NEW lacks is refused."""
    gone = sorted(set(old.switches) - set(new.switches) | set(old.servers) - set(new.servers))
    if gone:
        raise EmulationError(f"emulate --change rolls out growth; NEW drops {', '.join(gone[:4])}"
                             + (f" and {len(gone) - 4} more" if len(gone) > 4 else ""))
    added = (set(new.switches) - set(old.switches)) | (set(new.servers) - set(old.servers))
    changed = set(added)
    for device in (*old.switches, *old.servers):
        if preview(old, device) != preview(new, device):
            changed.add(device)
    return changed, added


def emulate_change(old: Fabric, new: Fabric, *, max_drain: float = DEFAULT_MAX_DRAIN, run_id: str | None = None,
                   log=None) -> ChangeResult:
    """Bring OLD up, roll NEW out in waves under running flows, then check NEW whole. Always tears down."""
    changed, added = changed_devices(old, new)
    problem = environment_problem()
    if problem:
        raise EmulationError(problem)
    waves = plan_waves(new, changed, added, max_drain)
    rid = free_run_id(run_id or "rdchange")
    full, before = make_plan(new, rid), make_plan(old, rid)
    start = replace(full, host_files=dict(before.host_files), switches=dict(before.switches),
                    endpoints=list(before.endpoints), pins=list(before.pins))
    runner = Runner(start, log)
    result = ChangeResult([], [], 0)
    try:
        runner.up()
        result.timings.update(runner.timings)
        flows = _flows(before.endpoints)
        result.flows = sum(len(v) for v in flows.values())
        procs = {}
        try:
            for ns, pairs in flows.items():
                procs[ns] = spawn(ns, PROBER, {"flows": [[a.address, b.address] for a, b in pairs],
                                               "interval": INTERVAL})
            expect(procs, "ready")
            send(procs, "go")
            time.sleep(SETTLE)
            applied, rolled = set(old.switches) - changed, set()
            marks = []
            for n, wave in enumerate(waves, 1):
                began = time.monotonic()
                _roll(runner, full, wave, applied, rolled, log)
                marks.append((began, time.monotonic()))
                result.waves.append(WaveResult(n, wave.name, wave.switches, wave.hosts, marks[-1][1] - began))
            time.sleep(SETTLE)
            sent = collect(procs)
        finally:
            reap(procs)
        _count(result.waves, marks, sent)
        runner.plan = full
        result.timings["convergence after the rollout"] = runner.converge()
        result.rows = run_checks(runner, full)
    finally:
        left = runner.down()
        if left:
            raise EmulationError(f"could not remove namespaces {', '.join(left)}; remove them with: "
                                 f"{runner.removal_hint()}")
    return result


def _flows(endpoints: list[Endpoint]) -> dict[str, list[tuple[Endpoint, Endpoint]]]:
    """One flow per rail NIC of OLD's servers, to the next NIC of its rail and plane in another server
    (another SU first): host namespace -> its flows."""
    out: dict[str, list[tuple[Endpoint, Endpoint]]] = {}
    for a in endpoints:
        peers = [b for b in endpoints if (b.rail, b.plane) == (a.rail, a.plane) and b.ns != a.ns]
        target = next((b for b in peers if b.leaf != a.leaf), peers[0] if peers else None)
        if target is not None:
            out.setdefault(a.ns, []).append((a, target))
    return out


def _roll(runner: Runner, full: Plan, wave: Wave, applied: set[str], rolled: set[str], log) -> None:
    """Give the wave's switches and hosts NEW's files, then wait for BGP on what is rolled out so far."""
    plan = runner.plan
    fresh, again = [], []
    for device in wave.switches:
        ns = full.ns_of(device)
        setup = full.switches[ns]
        running = plan.switches.get(ns)
        if running is None:                          # a new switch: set up as the emulation's setup does
            fresh.append(setup)
            runner.exec(ns, ["sysctl", "-q", "-w", *SWITCH_SYSCTLS, *setup.sysctls])
        else:
            again.append(setup)
            if setup.sysctls and setup.sysctls != running.sysctls:
                runner.exec(ns, ["sysctl", "-q", "-w", *setup.sysctls])
        lines = [line for line in setup.lines if running is None or line not in set(running.lines)]
        if lines:
            runner.batch(ns, lines, f"applying {setup.hostname}/config_db.json (rollout)")
    applied.update(wave.switches)
    rolled.update(wave.switches)
    switches = dict(plan.switches)
    for setup in fresh + again:
        switches[setup.ns] = setup
    # A rolled-out switch's sessions are up once their peer runs a config that has them (rolled out, or
    # unchanged); a switch not rolled out yet keeps OLD's sessions, which every peer's config still has.
    runner.plan = replace(plan, switches={ns: _reachable(s, applied) if s.device in rolled else s
                                          for ns, s in switches.items()})
    if fresh:
        runner.frr.start(fresh)
    for setup in again:
        (runner.frr.folder(setup) / "frr.conf").write_text(setup.files["frr.conf"])
    runner.frr.apply(fresh + again)
    pinned = [s for s in fresh + again if "ppd-pins.json" in s.files]
    if pinned:
        runner.agents.start(pinned)
    for device in wave.hosts:
        _host(runner, full, full.ns_of(device))
    took = runner.converge()
    if log:
        log(f"wave {wave.name}: {len(wave.switches)} switches, {len(wave.hosts)} hosts, converged in {took:.1f} s")


def _reachable(setup: SwitchSetup, applied: set[str]) -> SwitchSetup:
    """The setup with only the sessions whose peer already runs its new files (the others come up later)."""
    return replace(setup, sessions=[s for s in setup.sessions if s.peer in applied])


def _host(runner: Runner, full: Plan, ns: str) -> None:
    folder = runner.workdir / ns
    folder.mkdir(exist_ok=True)
    for name, text in full.host_files[ns].items():
        (folder / name).write_text(text)
    runner.exec(ns, ["sysctl", "-q", "-p", str(folder / "sysctl.conf")])
    runner.exec(ns, ["bash", str(folder / "policy-routing.sh")])


def _count(waves: list[WaveResult], marks: list[tuple[float, float]], sent: dict[str, dict]) -> None:
    """Each wave's probes sent while it ran, and how many of them got no reply."""
    for wave, (began, ended) in zip(waves, marks):
        for result in sent.values():
            for flow in result["flows"]:
                answered = set(flow["answered"])
                for i, t in enumerate(flow["sent"]):
                    if began <= t < ended:
                        wave.sent += 1
                        wave.lost += i not in answered

