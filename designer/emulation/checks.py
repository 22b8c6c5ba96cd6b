"""The checks, run against live namespaces: reachability, symmetric paths, and the leaves' pins.

1. Reachability: every rail NIC sends an ICMP echo request to every other server's NIC on its rail,
   from a raw socket bound to its address (routed by the host's policy rules, like ``ping -I``). One
   probe agent per host namespace (`agent.py`) sends all of its host's probes at once; all agents run
   in parallel, so a run takes about one timeout however many pairs there are.
2. Symmetry: the same agents capture every ICMP echo frame on every interface of their namespace
   with its direction. A pair A -> B passes only when the request left A by A's rail NIC and arrived
   on B's rail NIC, and the reply left B by that same NIC and arrived on A's NIC: real packets, seen on
   the wire of the veth, not a route lookup.
3. Pins: on each leaf, ``ip route get <remote NIC> from <local NIC> iif <downlink>`` must answer
   ``via <spine next hop> dev <pinned uplink>`` (the kernel's own forwarding decision).
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

from .netns import Runner
from .plan import Endpoint, PinCheck, Plan

AGENT = Path(__file__).with_name("agent.py")
PROBE_TIMEOUT = 1.0


@dataclass(frozen=True, slots=True)
class Row:
    kind: str            # "ping" or "pin"
    source: str
    target: str
    ok: bool
    detail: str


def _start_agents(runner: Runner, probes_by_ns: dict[str, list[list[str]]]) -> dict[str, subprocess.Popen]:
    agents = {}
    for ns, probes in probes_by_ns.items():
        proc = subprocess.Popen(["ip", "netns", "exec", ns, sys.executable, str(AGENT)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        agents[ns] = proc
        proc.stdin.write(json.dumps({"probes": probes, "timeout": PROBE_TIMEOUT}) + "\n")
        proc.stdin.flush()
    return agents


def _expect(agents: dict[str, subprocess.Popen], word: str) -> None:
    for ns, proc in agents.items():
        line = proc.stdout.readline().strip()
        if line != word:
            raise RuntimeError(f"probe agent in {ns} said {line!r} instead of {word!r}: "
                               f"{proc.stderr.read().strip()[-400:]}")


def _send(agents: dict[str, subprocess.Popen], word: str) -> None:
    for proc in agents.values():
        proc.stdin.write(word + "\n")
        proc.stdin.flush()


def run_probes(runner: Runner, pairs: list[tuple[Endpoint, Endpoint]]) -> dict[str, dict]:
    """Namespace -> the agent's result (replies and captured frames) after all probes ran."""
    by_ns: dict[str, list[list[str]]] = {ns: [] for ns in runner.plan.host_files}
    for a, b in pairs:
        by_ns[a.ns].append([a.address, b.address])
    agents = _start_agents(runner, by_ns)
    try:
        _expect(agents, "ready")
        _send(agents, "go")
        _expect(agents, "done")
        _send(agents, "stop")
        return {ns: json.loads(proc.stdout.readline()) for ns, proc in agents.items()}
    finally:
        for proc in agents.values():
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                stream.close()


def _interfaces(seen: list, direction: str, kind: int, src: str, dst: str) -> set[str]:
    return {s[0] for s in seen if s[1] == direction and s[2] == kind and s[3] == src and s[4] == dst}


def _where(label_host: str, faces: set[str]) -> str:
    return ", ".join(f"{label_host}:{f}" for f in sorted(faces)) or "nowhere"


def judge_pair(a: Endpoint, b: Endpoint, results: dict[str, dict]) -> Row:
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
    return Row("ping", a.label, b.label, ok, detail)


_ROUTE = re.compile(r"\bvia (\S+)|\bdev (\S+)")


def judge_pin(runner: Runner, pin: PinCheck) -> Row:
    done = runner.exec(pin.ns, ["ip", "route", "get", pin.destination, "from", pin.source, "iif", pin.iif],
                       check=False)
    answer = " ".join(done.stdout.split()) or (done.stderr.strip() or f"exit {done.returncode}")
    via = dev = None
    for v, d in _ROUTE.findall(done.stdout):
        via, dev = via or v or None, dev or d or None
    ok = done.returncode == 0 and via == pin.next_hop and dev == pin.uplink
    detail = (f"via {via} dev {dev}" if ok else
              f"expected via {pin.next_hop} dev {pin.uplink}; kernel says: {answer}")
    return Row("pin", f"{pin.leaf} from {pin.nic}", f"{pin.dest_label}", ok, detail)


def judge_source_route(runner: Runner, e: Endpoint, off_rail: str) -> Row:
    done = runner.exec(e.ns, ["ip", "route", "get", off_rail, "from", e.address], check=False)
    answer = " ".join(done.stdout.split()) or (done.stderr.strip() or f"exit {done.returncode}")
    dev = next((d for _, d in _ROUTE.findall(done.stdout) if d), None)
    ok = done.returncode == 0 and dev == e.netdev
    detail = f"dev {dev}" if ok else f"expected dev {e.netdev} (its own table); kernel says: {answer}"
    return Row("rule", e.label, f"off-rail {off_rail}", ok, detail)


def run_checks(runner: Runner, plan: Plan) -> list[Row]:
    pairs = plan.probes()
    results = run_probes(runner, pairs)
    rows = [judge_pair(a, b, results) for a, b in pairs]
    rows += [judge_pin(runner, pin) for pin in plan.pins]
    rows += [judge_source_route(runner, e, plan.off_rail) for e in plan.endpoints]
    return rows
