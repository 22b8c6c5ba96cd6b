"""Where RoCE data (DSCP 26) and CNPs (DSCP 48) land, hop by hop, in the emulation's namespaces.

What is real and what stands in:
- Real: the ToS each flow leaves with comes from the host's exported files (``NCCL_IB_TC`` in nccl.env,
  else roce-qos.sh's ``cma_roce_tos``; CNPs: roce-qos.sh's ``cnp_dscp``), read back by the same parser
  the QoS agreement check uses (`qos.sides.read_host`). The packets are real UDP datagrams to port 4791
  (RoCEv2's), routed by the hosts' policy rules and by FRR across leaves and spines; every count below
  is the kernel's own `tc -s class show` of the egress port it crossed.
- Stand-in for the host NIC (mlx5 under ``mlnx_qos --trust dscp``, which needs a Mellanox NIC): an HTB
  qdisc with one class per priority (class 1:<p+1>) on the host's rail netdev, and u32 filters that put
  a packet on priority DSCP >> 3 (mlx5's default DSCP -> priority table, which roce-qos.sh leaves as it
  is) and CNPs on ``cnp_802p_prio``. Linux on a veth sends no PFC frames: PFC is read from the script.
- Stand-in for the switch ASIC (there is no SAI here): on every cabled port of every switch, an HTB
  class per egress queue (1:<q+1>) and u32 filters built from that switch's config_db.json alone
  (`switch_port_lines`): DSCP d -> class ``DSCP_TO_TC_MAP[d]`` -> queue ``TC_TO_QUEUE_MAP[class]``, the
  port's own bindings (the bundle binds the same maps on every port, so ingress and egress maps are one).
  The priority group (``TC_TO_PRIORITY_GROUP_MAP``) and whether PFC and ECN act are read from the same
  maps: Linux has no ingress buffers, PFC or WRED to show them.
This kernel offers HTB and u32 but no prio/mqprio qdisc, flower classifier or tc actions, and iproute2's
``dcb`` cannot set a veth's DSCP -> priority table (veth has no DCB operations): hence HTB and u32.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..qos.agree import Port, as_int, flags_on, nic_priority
from ..qos.sides import HostNic, Switch, read_host
from .checks import Row
from .netns import Runner
from .plan import Endpoint

ROCE_PORT = 4791
PACKETS = 400
RATE = "100gbit"                     # no shaping: HTB here only sorts packets into counted classes


def _htb(dev: str, default: int) -> list[str]:
    lines = [f"qdisc replace dev {dev} root handle 1: htb default {default + 1}"]
    lines += [f"class add dev {dev} parent 1: classid 1:{n + 1} htb rate {RATE} quantum 60000" for n in range(8)]
    return lines


def _u32(dev: str, pref: int, tos: int, mask: int, band: int, roce_only: bool) -> str:
    udp = f" match ip protocol 17 0xff match ip dport {ROCE_PORT} 0xffff" if roce_only else ""
    return f"filter add dev {dev} parent 1: protocol ip pref {pref} u32 match ip tos {tos:#04x} {mask:#04x}{udp} flowid 1:{band + 1}"


def host_nic_lines(nic: HostNic, dev: str) -> list[str]:
    """``tc -batch`` lines standing in for the NIC's egress classification: class 1:<p+1> is priority p."""
    lines = _htb(dev, 0)
    cnp, cnp_prio = as_int(nic.cnp_dscp.text), as_int(nic.cnp_priority.text)
    if cnp is not None and cnp_prio is not None:
        lines.append(_u32(dev, 1, cnp << 2, 0xfc, cnp_prio, roce_only=True))
    if nic.trust.text == "dscp":                 # else (pcp): untagged frames stay on priority 0
        lines += [_u32(dev, 10 + p, p << 5, 0xe0, nic_priority(p << 3), roce_only=False) for p in range(8)]   # ToS >> 5
    return lines


def switch_port_lines(switch: Switch, port: str, dev: str) -> list[str]:
    """``tc -batch`` lines standing in for the ASIC's classification of what leaves ``port``: class 1:<q+1> is
    queue q, from DSCP_TO_TC_MAP and TC_TO_QUEUE_MAP as config_db.json binds them to the port."""
    p = Port(switch, port)
    queue = {tc: p.queue(tc) for tc in range(8)}
    lines = _htb(dev, queue[0])
    for dscp in range(64):
        tc, _ = p.dscp_class(dscp)
        if queue.get(tc, 0) != queue[0]:
            lines.append(_u32(dev, 10, dscp << 2, 0xfc, queue.get(tc, 0), roce_only=False))
    return lines


_CLASS = re.compile(r"^class htb 1:([0-9a-f]+) ")
_SENT = re.compile(r"^\s*Sent \d+ bytes (\d+) pkt")


def class_packets(text: str) -> dict[int, int]:
    """`tc -s class show` of an HTB qdisc: class minor -> packets sent (iproute2 here prints no JSON for HTB)."""
    out, current = {}, None
    for line in text.splitlines():
        head, sent = _CLASS.match(line), _SENT.match(line)
        if head:
            current = int(head.group(1), 16)
        elif sent and current is not None:
            out[current], current = int(sent.group(1)), None
    return out


@dataclass
class _Flow:
    what: str                    # "RoCE data" or "CNP"
    src: Endpoint
    dst: Endpoint
    tos: int
    source: str                  # which file set the ToS
    host_priority: int


SENDER = """import socket, sys, time
src, dst, tos, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
s.bind((src, 0))
time.sleep(0.3)
for _ in range(count):
    s.sendto(b"rail-designer qos proof " * 8, (dst, %d))
""" % ROCE_PORT
RECEIVER = """import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], %d))
s.settimeout(0.2)
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    try:
        s.recv(2048)
    except OSError:
        pass
""" % ROCE_PORT


class Proof:
    """The stand-ins installed on one pair's hosts and on every switch port, the two flows, the counts."""

    def __init__(self, runner: Runner, src: Endpoint, dst: Endpoint):
        self.runner, self.src, self.dst = runner, src, dst
        self.nics = {e.ns: self._nic(e) for e in (src, dst)}
        self.ports: dict[tuple[str, str], tuple[str, Switch]] = {}       # (ns, dev) -> (SONiC port, switch)

    def _nic(self, e: Endpoint) -> HostNic:
        nics = read_host(e.host, self.runner.workdir / e.ns)
        return next(n for n in nics if n.netdev == e.netdev)

    def install(self) -> None:
        for e in (self.src, self.dst):
            self._tc(e.ns, host_nic_lines(self.nics[e.ns], e.netdev), f"the NIC stand-in on {e.label}")
        names = {v: k for k, v in self.runner.plan.renamed.items()}
        for ns, setup in self.runner.plan.switches.items():
            switch = Switch(setup.hostname, json.loads(setup.files["config_db.json"]),
                            f"switches/{setup.hostname}/config_db.json")
            lines = []
            for dev in self._cabled(ns):
                port = names.get(f"{setup.device}/{dev}", f"{setup.device}/{dev}").partition("/")[2]
                self.ports[ns, dev] = (port, switch)
                lines += switch_port_lines(switch, port, dev)
            self._tc(ns, lines, f"the ASIC stand-in on {setup.hostname}")

    def _tc(self, ns: str, lines: list[str], what: str) -> None:
        if lines:
            self.runner.run(["ip", "netns", "exec", ns, "tc", "-batch", "-"], what, "\n".join(lines) + "\n")

    def _cabled(self, ns: str) -> list[str]:
        plan = self.runner.plan
        return sorted({c.a_if for c in plan.cables if c.a_ns == ns} | {c.b_if for c in plan.cables if c.b_ns == ns})

    def remove(self) -> None:
        for e in (self.src, self.dst):
            self.runner.exec(e.ns, ["tc", "qdisc", "del", "dev", e.netdev, "root"], check=False)
        for ns, dev in self.ports:
            self.runner.exec(ns, ["tc", "qdisc", "del", "dev", dev, "root"], check=False)

    def counts(self) -> dict[tuple[str, str], dict[int, int]]:
        """(ns, dev) -> class minor -> packets, for the two host NICs and every switch port."""
        by_ns: dict[str, list[str]] = {}
        for ns, dev in [(e.ns, e.netdev) for e in (self.src, self.dst)] + list(self.ports):
            by_ns.setdefault(ns, []).append(dev)
        jobs = [(ns, ["sh", "-c", 'for d; do echo "== $d"; tc -s class show dev "$d"; done', "sh", *devs])
                for ns, devs in by_ns.items()]
        out = {}
        for (ns, _), done in zip(jobs, self.runner.exec_all(jobs)):
            for block in done.stdout.split("== ")[1:]:
                dev, _, text = block.partition("\n")
                out[ns, dev] = class_packets(text)
        return out

    def send(self, flow: _Flow) -> dict[tuple[str, str], dict[int, int]]:
        before = self.counts()
        receiver = flow.dst
        self.runner.exec_all([(receiver.ns, ["python3", "-c", RECEIVER, receiver.address, "1.0"]),
                              (flow.src.ns, ["python3", "-c", SENDER, flow.src.address, receiver.address,
                                             str(flow.tos), str(PACKETS)])])
        after = self.counts()
        return {k: {c: after[k].get(c, 0) - before[k].get(c, 0) for c in after[k]} for k in after}


def prove(runner: Runner, src: Endpoint, dst: Endpoint) -> list[Row]:
    """RoCE data from ``src`` to ``dst`` and CNPs back; one row per port each crossed, then a verdict row."""
    proof = Proof(runner, src, dst)
    nic_a, nic_b = proof.nics[src.ns], proof.nics[dst.ns]
    data = next((m for m in reversed(nic_a.markings) if as_int(m.text) is not None), None)
    if data is None or as_int(nic_b.cnp_dscp.text) is None:
        return [Row("qos", src.label, dst.label, False, "the host files set no RoCE ToS or CNP DSCP to send")]
    tos = as_int(data.text)
    flows = [_Flow("RoCE data", src, dst, tos, data.source, nic_priority(tos >> 2) if nic_a.trust.text == "dscp" else 0),
             _Flow("CNP", dst, src, as_int(nic_b.cnp_dscp.text) << 2, nic_b.cnp_dscp.source, as_int(nic_b.cnp_priority.text))]
    proof.install()
    try:
        return [row for flow in flows for row in _judge(proof, flow, proof.send(flow))]
    finally:
        proof.remove()


def _judge(proof: Proof, flow: _Flow, moved: dict[tuple[str, str], dict[int, int]]) -> list[Row]:
    dscp = flow.tos >> 2
    label = f"{flow.what} DSCP {dscp}"
    host = moved[flow.src.ns, flow.src.netdev]
    nic = proof.nics[flow.src.ns]
    pfc = "on" if flow.host_priority in flags_on(nic.pfc.text) else "off"
    got = host.get(flow.host_priority + 1, 0)
    rows = [Row("qos", f"host {flow.src.label}", label, got >= PACKETS,
                f"{got} of {PACKETS} packets on priority {flow.host_priority} (tc class 1:{flow.host_priority + 1}; "
                f"ToS {flow.tos} from {flow.source}; PFC {pfc} for it in mlnx_qos --pfc)")]
    hops = []
    plan = proof.runner.plan
    order = {flow.src.leaf: 0, flow.dst.leaf: 2}          # the sender's leaf, the fabric, the receiver's leaf
    for (ns, dev), classes in sorted(moved.items(), key=lambda kv: (order.get(plan.device_of(kv[0][0]), 1), kv[0])):
        if (ns, dev) not in proof.ports or sum(classes.values()) < PACKETS:
            continue
        port, switch = proof.ports[ns, dev]
        p = Port(switch, port)
        tc, _ = p.dscp_class(dscp)
        queue = p.queue(tc)
        pg, _ = p.lookup("tc_to_pg_map", "TC_TO_PRIORITY_GROUP_MAP", tc)
        lossless = tc in p.pfc()
        marks, _ = p.ecn(queue)
        got = classes.get(queue + 1, 0)
        hops.append((switch.name, tc, queue, lossless))
        more = f", {got - PACKETS} other packets of that class" if got > PACKETS else ""   # FRR's BGP is CS6: DSCP 48
        rows.append(Row("qos", f"switch {switch.name}:{port}", label, got >= PACKETS and tc == flow.host_priority,
                        f"{got} packets in egress queue {queue} (tc class 1:{queue + 1}{more}); config_db.json: class "
                        f"{tc}, PG {pg}, PFC {'on' if lossless else 'off'}, ECN {'on' if marks else 'off'}"))
    agree = bool(hops) and all(r.ok for r in rows) and all(tc == flow.host_priority for _, tc, _, _ in hops)
    path = ", ".join(name for name, *_ in hops) or "no switch port"
    kind = "lossless" if all(lossless for *_, lossless in hops) and hops else "lossy"
    rows.append(Row("qos", flow.src.label, flow.dst.label, agree,
                    f"{label} on {kind} priority {flow.host_priority} at the host and class/queue "
                    f"{'/'.join(sorted({f'{tc}/{q}' for _, tc, q, _ in hops})) or '-'} through {path}"))
    return rows


def qos_rows(runner: Runner, checked: list[Row]) -> list[Row]:
    """The proof on one pair that reaches each other both ways (the ``checked`` ping rows): the first whose NICs
    sit behind different leaves (the flows cross the fabric), else the first; none when no pair works."""
    working = {(r.source, r.target) for r in checked if r.kind == "ping" and r.ok}
    probes = [(a, b) for a, b in runner.plan.probes() if {(a.label, b.label), (b.label, a.label)} <= working]
    chosen = next(((a, b) for a, b in probes if a.leaf != b.leaf), probes[0] if probes else None)
    return prove(runner, *chosen) if chosen else []
