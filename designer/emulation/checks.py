"""The checks, run against live namespaces: routes, reachability, symmetric paths, and the leaves' pins.

0. Routes: every switch's BGP table, read from its own FRR (``show bgp ipv4 unicast json``), holds the
   server prefix of every leaf it can reach through the wiring (`expect`: in three tiers a leaf of another
   spine group only through the cores) and no server prefix of any other leaf (another plane's).

1. Reachability: every rail NIC sends an ICMP echo request to every other server's NIC on its rail,
   from a raw socket bound to its address (routed by the host's policy rules, like ``ping -I``). One
   probe agent per host namespace (`agent.py`) sends all of its host's probes at once; all agents run
   in parallel, so a run takes about one timeout however many pairs there are.
2. Symmetry: the same agents capture every ICMP echo frame on every interface of their namespace
   with its direction. A pair A -> B passes only when the request left A by A's rail NIC and arrived
   on B's rail NIC, and the reply left B by that same NIC and arrived on A's NIC: real packets, seen on
   the wire of the veth, not a route lookup. Pairs whose leaves are in different spine groups cross the
   cores; their rows say so.
2b. Planes: each rail NIC also sends to a NIC of its rail on another fabric plane: the request must leave
   by its own NIC and nothing may arrive at the other host, nor any reply come back.
3. Pins: on each leaf, ``ip route get <remote NIC> from <local NIC> iif <downlink>`` must answer
   ``via <spine next hop> dev <uplink>`` (the kernel's own forwarding decision, after rail-ppd-agent
   installed its rules), where the uplink is the first candidate of ppd-pins.json that works and
   whose spine still offers the destination's leaf: the primary while nothing is broken.
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
from .expect import Expectation, Failure
from .netns import Runner
from .plan import Endpoint, PinCheck, Plan

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


def run_probes(runner: Runner, pairs: list[tuple[Endpoint, Endpoint]],
               silent: list[tuple[Endpoint, Endpoint]] = ()) -> dict[str, dict]:
    """Namespace -> the agent's result (replies and captured frames) after all probes ran; ``silent`` pairs
    must stay unanswered (sent once, waited for one timeout)."""
    by_ns: dict[str, dict[str, list]] = {ns: {"probes": [], "silent": []} for ns in runner.plan.host_files}
    for a, b in [*pairs, *silent]:
        by_ns[a.ns]["probes"].append([a.address, b.address])
    for a, b in silent:
        by_ns[a.ns]["silent"].append([a.address, b.address])
    procs: dict[str, subprocess.Popen] = {}
    try:
        for ns, probes in by_ns.items():
            procs[ns] = spawn(ns, AGENT, {**probes, "timeout": PROBE_TIMEOUT})
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
        detail = lost or ON_THE_RAIL_NICS + (f" (spine group {a.group} to {b.group}, through the cores)"
                                             if a.group != b.group else "")
    ok = replied and not wrong and lost is None
    return Row(failure.tag("ping") if failure else "ping", a.label, b.label, ok, detail)


ON_THE_RAIL_NICS = "request and reply on the rail NICs"


def judge_isolated(a: Endpoint, b: Endpoint, results: dict[str, dict]) -> Row:
    """A NIC of another fabric plane: the probe left by A's NIC and nothing of it reached B."""
    left = _interfaces(results[a.ns]["seen"], "out", 8, a.address, b.address)
    arrived = _interfaces(results[b.ns]["seen"], "in", 8, a.address, b.address)
    replied = [a.address, b.address] in results[a.ns]["replied"]
    ok = left == {a.netdev} and not arrived and not replied
    if ok:
        detail = f"left by {a.netdev} on plane {a.plane}; nothing reached plane {b.plane}'s {b.host}, no reply"
    else:
        detail = "; ".join(filter(None, [f"request left {_where(a.host, left)}" if left != {a.netdev} else "",
                                         f"arrived on {_where(b.host, arrived)}" if arrived else "",
                                         "a reply came back" if replied else ""]))
    return Row("plane", a.label, b.label, ok, detail)


_ROUTE = re.compile(r"\bvia (\S+)|\bdev (\S+)")


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
    expect = Expectation(runner.plan, failure)
    return [judge_pin(expect, pin, done, kind) for pin, done in zip(pins, answers)]


def judge_pin(expect: Expectation, pin: PinCheck, done: subprocess.CompletedProcess, kind: str | None) -> Row:
    want = expect.candidate(pin)
    ok, via, dev, answer = route_get(done)
    if want is None:
        ok = ok and dev not in {c.uplink for c in pin.candidates}
        detail = f"no candidate left; kernel says: {answer}"
    else:
        ok = ok and via == want.next_hop and dev == want.uplink
        rank = "primary" if want == pin.candidates[0] else f"fallback {pin.candidates.index(want)}"
        detail = (f"via {via} dev {dev} ({rank}, {want.spine})" if ok else
                  f"expected via {want.next_hop} dev {want.uplink} ({rank}); kernel says: {answer}")
    return Row(kind or expect.failure.tag("pin"), f"{pin.leaf} from {pin.nic}", pin.dest_label, ok, detail)


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
    """Each switch's BGP table, read from its FRR: every server prefix of every leaf it should reach, and
    none of a leaf it should not (another plane's, or one cut off)."""
    plan, rows = runner.plan, []
    expect = Expectation(plan, failure)
    owner = {p: leaf.device for leaf in plan.leaves() for p in leaf.server_prefixes}
    setups = [s for s in plan.switches.values() if s.device not in failure.devices]
    for setup, table in zip(setups, runner.frr.routes(setups)):
        leaves = set(expect.reached(setup.device))
        wanted = [p for leaf in sorted(leaves) for p in plan.switches[plan.ns_of(leaf)].server_prefixes]
        missing = [p for p in wanted if p not in table]
        stray = sorted(p for p in table if owner.get(p) not in (None, setup.device) and owner[p] not in leaves)
        detail = f"{len(wanted)} server prefixes of {len(leaves)} leaves in FRR's BGP table"
        if missing:
            detail = f"missing {', '.join(missing[:6])}{' ...' if len(missing) > 6 else ''} of {len(wanted)}"
        if stray:
            detail += (f"{'; ' if missing else ', but '}holds {', '.join(stray[:6])}"
                       f"{' ...' if len(stray) > 6 else ''} of leaves it must not reach")
        rows.append(Row(failure.tag("routes"), setup.hostname, "every reachable leaf", not missing and not stray,
                        detail))
    return rows


def run_checks(runner: Runner, plan: Plan) -> list[Row]:
    pairs, apart = plan.probes(), plan.cross_plane_probes()
    results = run_probes(runner, pairs, apart)
    rows = judge_routes(runner)
    rows += [judge_pair(a, b, results) for a, b in pairs]
    rows += [judge_isolated(a, b, results) for a, b in apart]
    rows += judge_pins(runner)
    rows += judge_source_routes(runner)
    return rows
