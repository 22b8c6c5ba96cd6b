"""The checks, run against live namespaces: routes, reachability, symmetric paths, and the leaves' pins.

0. Routes: every switch's BGP table, read from its own FRR (``show bgp ipv4 unicast json``), holds the
   server prefix of every leaf it can reach through the wiring.

1. Reachability: every rail NIC sends an ICMP echo request to every other server's NIC on its rail,
   from a raw socket bound to its address (routed by the host's policy rules, like ``ping -I``). One
   probe agent per host namespace (`agent.py`) sends all of its host's probes at once; all agents run
   in parallel, so a run takes about one timeout however many pairs there are.
2. Symmetry: the same agents capture every ICMP echo frame on every interface of their namespace
   with its direction. A pair A -> B passes only when the request left A by A's rail NIC and arrived
   on B's rail NIC, and the reply left B by that same NIC and arrived on A's NIC: real packets, seen on
   the wire of the veth, not a route lookup.
3. Pins: on each leaf, ``ip route get <remote NIC> from <local NIC> iif <downlink>`` must answer
   ``via <spine next hop> dev <uplink>`` (the kernel's own forwarding decision, after rail-ppd-agent
   installed its rules), where the uplink is the first candidate of ppd-pins.json that works and
   whose spine still reaches the destination's leaf: the primary while nothing is broken.
4. Source routing: on each host, ``ip route get <an address outside every pool> from <NIC k>`` must
   leave by NIC k. Only the NIC's own rule and table can route it so (the main table's rail routes
   cover rail addresses), so this is the row that turns red when a host's policy rule is missing:
   a reply to a peer off the rail would otherwise leave by the wrong NIC or not at all.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .errors import EmulationError
from .netns import Runner
from .plan import Candidate, Endpoint, PinCheck, Plan

AGENT = Path(__file__).with_name("agent.py")
PROBE_TIMEOUT = 1.0


@dataclass(frozen=True, slots=True)
class Row:
    kind: str            # routes, ping, pin, rule, flow; "<kind> [<failure>]" while something is broken
    source: str
    target: str
    ok: bool
    detail: str
    outages: tuple[float, float] | None = None   # flow rows on a broken path: seconds lost when it broke, came back


def spawn(ns: str, script: Path, config: dict) -> subprocess.Popen:
    """Start a stdlib probe script in ``ns`` and hand it its JSON config line."""
    proc = subprocess.Popen(["ip", "netns", "exec", ns, sys.executable, str(script)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    proc.stdin.write(json.dumps(config) + "\n")
    proc.stdin.flush()
    return proc


def expect(procs: dict[str, subprocess.Popen], word: str) -> None:
    for ns, proc in procs.items():
        line = proc.stdout.readline().strip()
        if line != word:
            raise EmulationError(f"probe agent in {ns} said {line!r} instead of {word!r}: "
                               f"{proc.stderr.read().strip()[-400:]}")


def send(procs: dict[str, subprocess.Popen], word: str) -> None:
    for proc in procs.values():
        proc.stdin.write(word + "\n")
        proc.stdin.flush()


def reap(procs: dict[str, subprocess.Popen]) -> None:
    for proc in procs.values():
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()


def collect(procs: dict[str, subprocess.Popen]) -> dict[str, dict]:
    """Send ``stop`` and read each agent's one JSON line."""
    send(procs, "stop")
    return {ns: json.loads(proc.stdout.readline()) for ns, proc in procs.items()}


def run_probes(runner: Runner, pairs: list[tuple[Endpoint, Endpoint]]) -> dict[str, dict]:
    """Namespace -> the agent's result (replies and captured frames) after all probes ran."""
    by_ns: dict[str, list[list[str]]] = {ns: [] for ns in runner.plan.host_files}
    for a, b in pairs:
        by_ns[a.ns].append([a.address, b.address])
    procs: dict[str, subprocess.Popen] = {}
    try:
        for ns, probes in by_ns.items():
            procs[ns] = spawn(ns, AGENT, {"probes": probes, "timeout": PROBE_TIMEOUT})
        expect(procs, "ready")
        send(procs, "go")
        expect(procs, "done")
        return collect(procs)
    finally:
        reap(procs)


def _interfaces(seen: list, direction: str, kind: int, src: str, dst: str) -> set[str]:
    return {s[0] for s in seen if s[1] == direction and s[2] == kind and s[3] == src and s[4] == dst}


def _where(label_host: str, faces: set[str]) -> str:
    return ", ".join(f"{label_host}:{f}" for f in sorted(faces)) or "nowhere"


def judge_pair(a: Endpoint, b: Endpoint, results: dict[str, dict], failure: Failure | None = None) -> Row:
    seen_a, seen_b = results[a.ns]["seen"], results[b.ns]["seen"]
    replied = [a.address, b.address] in results[a.ns]["replied"]
    legs = [("request left", a, _interfaces(seen_a, "out", 8, a.address, b.address)),
            ("request arrived on", b, _interfaces(seen_b, "in", 8, a.address, b.address)),
            ("reply left", b, _interfaces(seen_b, "out", 0, b.address, a.address)),
            ("reply arrived on", a, _interfaces(seen_a, "in", 0, b.address, a.address))]
    wrong = [f"{what} {_where(e.host, faces)}, not {e.label}" for what, e, faces in legs
             if faces and faces != {e.netdev}]
    lost = next((f"no frame: {what} {e.label}" for what, e, faces in legs if not faces), None)
    if wrong:
        detail = "; ".join(wrong)
    elif not replied:
        detail = "no reply" + (f" ({lost})" if lost else "")
    else:
        detail = lost or "request and reply on the rail NICs"
    ok = replied and not wrong and lost is None
    return Row(failure.tag("ping") if failure else "ping", a.label, b.label, ok, detail)


_ROUTE = re.compile(r"\bvia (\S+)|\bdev (\S+)")


@dataclass(frozen=True)
class Failure:
    """What is broken while the checks run (nothing, in the first pass)."""
    label: str = ""
    cables: frozenset[str] = frozenset()
    devices: frozenset[str] = frozenset()

    def tag(self, kind: str) -> str:
        return f"{kind} [{self.label}]" if self.label else kind


def reaches(plan: Plan, spine: str, leaf: str, failure: Failure) -> bool:
    """Whether ``spine`` still has a working cable to ``leaf`` (the expectation, from the plan's wiring)."""
    setup = plan.switches[plan.ns_of(spine)]
    return spine not in failure.devices and leaf not in failure.devices and any(
        s.peer == leaf and s.cable not in failure.cables for s in setup.sessions)


def expected_candidate(plan: Plan, pin: PinCheck, failure: Failure) -> Candidate | None:
    """The first candidate whose uplink works and whose spine still reaches the destination's leaf."""
    return next((c for c in pin.candidates if c.cable not in failure.cables and c.spine not in failure.devices
                 and reaches(plan, c.spine, pin.dest_leaf, failure)), None)


def route_get(done: subprocess.CompletedProcess) -> tuple[bool, str | None, str | None, str]:
    """(succeeded, via, dev, the whole answer) of an ``ip route get``."""
    answer = " ".join(done.stdout.split()) or (done.stderr.strip() or f"exit {done.returncode}")
    via = dev = None
    for v, d in _ROUTE.findall(done.stdout):
        via, dev = via or v or None, dev or d or None
    return done.returncode == 0, via, dev, answer


def judge_pins(runner: Runner, failure: Failure = Failure(), kind: str | None = None) -> list[Row]:
    """Every pin's ``ip route get`` at once, each judged against the candidate it should be on."""
    pins = runner.plan.pins
    answers = runner.exec_all([(p.ns, ["ip", "route", "get", p.destination, "from", p.source, "iif", p.iif])
                               for p in pins])
    return [judge_pin(runner.plan, pin, done, failure, kind) for pin, done in zip(pins, answers)]


def judge_pin(plan: Plan, pin: PinCheck, done: subprocess.CompletedProcess, failure: Failure,
              kind: str | None) -> Row:
    want = expected_candidate(plan, pin, failure)
    ok, via, dev, answer = route_get(done)
    if want is None:
        ok = ok and dev not in {c.uplink for c in pin.candidates}
        detail = f"no candidate left; kernel says: {answer}"
    else:
        ok = ok and via == want.next_hop and dev == want.uplink
        rank = "primary" if want == pin.candidates[0] else f"fallback {pin.candidates.index(want)}"
        detail = (f"via {via} dev {dev} ({rank}, {want.spine})" if ok else
                  f"expected via {want.next_hop} dev {want.uplink} ({rank}); kernel says: {answer}")
    return Row(kind or failure.tag("pin"), f"{pin.leaf} from {pin.nic}", pin.dest_label, ok, detail)


def judge_source_routes(runner: Runner) -> list[Row]:
    plan = runner.plan
    answers = runner.exec_all([(e.ns, ["ip", "route", "get", plan.off_rail, "from", e.address])
                               for e in plan.endpoints])
    return [judge_source_route(e, done, plan.off_rail) for e, done in zip(plan.endpoints, answers)]


def judge_source_route(e: Endpoint, done: subprocess.CompletedProcess, off_rail: str) -> Row:
    ok, _, dev, answer = route_get(done)
    ok = ok and dev == e.netdev
    detail = f"dev {dev}" if ok else f"expected dev {e.netdev} (its own table); kernel says: {answer}"
    return Row("rule", e.label, f"off-rail {off_rail}", ok, detail)


def judge_routes(runner: Runner, failure: Failure = Failure()) -> list[Row]:
    """Each switch's BGP table, read from its FRR: every server prefix of every leaf it can reach."""
    plan, rows = runner.plan, []
    setups = [s for s in plan.switches.values() if s.device not in failure.devices]
    for setup, table in zip(setups, runner.frr.routes(setups)):
        if setup.kind == "spine":
            leaves = {s.peer for s in setup.sessions if reaches(plan, setup.device, s.peer, failure)}
        else:
            spines = {s.peer for s in setup.sessions if s.cable not in failure.cables and s.peer not in failure.devices}
            leaves = {s.peer for sp in spines for s in plan.switches[plan.ns_of(sp)].sessions
                      if s.peer != setup.device and reaches(plan, sp, s.peer, failure)}
        wanted = [p for leaf in sorted(leaves) for p in plan.switches[plan.ns_of(leaf)].server_prefixes]
        missing = [p for p in wanted if p not in table]
        detail = (f"{len(wanted)} server prefixes of {len(leaves)} leaves in FRR's BGP table" if not missing
                  else f"missing {', '.join(missing[:6])}{' ...' if len(missing) > 6 else ''} of {len(wanted)}")
        rows.append(Row(failure.tag("routes"), setup.hostname, "every reachable leaf", not missing, detail))
    return rows


def run_checks(runner: Runner, plan: Plan) -> list[Row]:
    pairs = plan.probes()
    results = run_probes(runner, pairs)
    rows = judge_routes(runner)
    rows += [judge_pair(a, b, results) for a, b in pairs]
    rows += judge_pins(runner)
    rows += judge_source_routes(runner)
    return rows
