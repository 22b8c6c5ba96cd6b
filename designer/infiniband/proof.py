"""The design proved on the real subnet manager: the bundle's topology.ibnd loaded into ibsim, its
opensm.conf routing it, and what OpenSM did read back with the diagnostics.

`prove` reports the routing engine OpenSM configured against the one opensm.conf names first, the
HCAs that got a LID, per leaf the number of remote HCAs routed out of each uplink (``ibroute``), and
``ibtracert`` between same-rail HCAs in different SUs compared with the design: the switch roles the
design predicts (leaf, spine, leaf; through a core when the leaves share no spine), the two leaves
the HCAs are cabled to, and each hop leaving and entering by the ports of a planned cable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..export.ib_data import IbIndex
from ..export.infiniband import SM_DIR
from ..importers.ibnd import parse_ibnd
from ..model.entities import Role
from ..model.fabric import Fabric
from ..model.guids import hca_node_guid, hca_port_guid, switch_guid
from ..model.ids import split_endpoint
from ..planning.topology import leaf_links
from .diags import parse_ibroute, parse_tracert
from .sim import Subnet


@dataclass
class Trace:
    source: str                 # NIC endpoints
    target: str
    predicted: list[str]        # roles, leaves named: ["su1-leaf-r0", "spine", "su2-leaf-r0"]
    hops: list[str]             # the switches ibtracert went through, by host name
    problems: list[str] = field(default_factory=list)


@dataclass
class Proof:
    engine: str | None
    expected_engine: str
    hcas: int
    with_lid: int
    balance: dict[str, dict[int, int]] = field(default_factory=dict)   # leaf -> uplink port -> remote HCAs
    traces: list[Trace] = field(default_factory=list)

    def spread(self, leaf: str) -> int:
        counts = self.balance[leaf].values()
        return max(counts) - min(counts) if counts else 0

    @property
    def ok(self) -> bool:
        return (self.engine == self.expected_engine and self.with_lid == self.hcas
                and all(self.spread(leaf) <= 1 for leaf in self.balance)
                and all(not t.problems for t in self.traces))

    def lines(self) -> list[str]:
        out = [f"routing engine: {self.engine} (opensm.conf asks for {self.expected_engine})",
               f"LIDs: {self.with_lid} of {self.hcas} HCAs"]
        out += [f"balance {leaf}: {dict(sorted(ports.items()))} (spread {self.spread(leaf)})"
                for leaf, ports in sorted(self.balance.items())]
        out += [f"trace {t.source} -> {t.target}: {' > '.join(t.hops)} (design: {' > '.join(t.predicted)})"
                + (f" PROBLEMS: {'; '.join(t.problems)}" if t.problems else "") for t in self.traces]
        return out


def _engine(conf: str) -> str:
    for line in conf.splitlines():
        if line.startswith("routing_engine"):
            return line.split()[1].split(",")[0]
    return "minhop"                       # OpenSM's default when the file names none


def same_rail_pairs(fabric: Fabric, count: int) -> list[tuple[str, str]]:
    """Rail NICs of the first SU's servers paired with the same rail's NIC of a server in the last SU."""
    servers = fabric.sorted_servers()
    sus = sorted({s.su for s in servers})
    first = [s for s in servers if s.su == sus[0]]
    last = [s for s in servers if s.su == sus[-1]]
    pairs = []
    for a, b in zip(first, last):
        rails = {n.rail: n for n in b.nics if n.rail is not None and fabric.link_at(n.id)}
        pairs += [(n.id, rails[n.rail].id) for n in a.nics if n.rail in rails and fabric.link_at(n.id)]
    return pairs[:count]


def _leaf_of(fabric: Fabric, nic: str) -> str:
    return split_endpoint(fabric.peer(nic))[0]


def predict(fabric: Fabric, source: str, target: str) -> list[str]:
    a, b = _leaf_of(fabric, source), _leaf_of(fabric, target)
    if a == b:
        return [a]
    up = {split_endpoint(p)[0] for _, p in leaf_links(fabric, a).uplinks}
    if up & {split_endpoint(p)[0] for _, p in leaf_links(fabric, b).uplinks}:
        return [a, "spine", b]
    return [a, "spine", "core", "spine", b]


class _Cables:
    """(port GUID, port number) -> the same for the far end of every planned cable, and GUID -> device."""

    def __init__(self, fabric: Fabric):
        index = IbIndex(fabric)
        self.peer: dict[tuple[int, int], tuple[int, int]] = {}
        for link in fabric.links.values():
            x, y = index.end(link.a), index.end(link.b)
            self.peer[(x.port_guid, x.port)] = (y.port_guid, y.port)
            self.peer[(y.port_guid, y.port)] = (x.port_guid, x.port)
        self.switch = {switch_guid(s): s for s in fabric.switches}


def _check(fabric: Fabric, cables: _Cables, trace: Trace, text: str) -> None:
    hops = parse_tracert(text)
    device, nic = fabric.servers[split_endpoint(trace.source)[0]], fabric.nic(trace.source)
    here = hca_port_guid(device.id, nic.index)
    switches = []
    for hop in hops:
        if cables.peer.get((here, hop.out_port)) != (hop.guid, hop.in_port):
            trace.problems.append(f"hop to {hop.description} port {hop.in_port} is not a planned cable")
        here = hop.guid
        if hop.kind == "switch":
            switches.append(cables.switch.get(hop.guid, f"unknown 0x{hop.guid:x}"))
    trace.hops = [fabric.switches[s].hostname if s in fabric.switches else s for s in switches]
    roles = [fabric.switches[s].role.value if s in fabric.switches else "?" for s in switches]
    want = [p if p in ("spine", "core") else "leaf" for p in trace.predicted]
    if roles != want:
        trace.problems.append(f"roles {roles}, the design predicts {want}")
    elif switches and (switches[0], switches[-1]) != (trace.predicted[0], trace.predicted[-1]):
        trace.problems.append(f"leaves {switches[0]} .. {switches[-1]}, the design predicts "
                              f"{trace.predicted[0]} .. {trace.predicted[-1]}")
    target = fabric.nic(trace.target)
    if not hops or hops[-1].guid != hca_port_guid(split_endpoint(trace.target)[0], target.index):
        trace.problems.append("the trace does not end at the target HCA")


def prove(fabric: Fabric, bundle: Path, workdir: Path, pairs: int = 8) -> Proof:
    sm_dir = Path(bundle) / "infiniband"
    with Subnet(sm_dir / "topology.ibnd", Path(workdir)) as net:
        sm = net.run_sm(sm_dir, SM_DIR)
        nodes = parse_ibnd(net.run("ibnetdiscover"), "ibnetdiscover")
        lids = {n.guid: n.lid for n in nodes.values() if n.lid}
        cabled = {ep for link in fabric.links.values() for ep in (link.a, link.b)}
        hcas = {hca_node_guid(s.id, n.index): n.id for s in fabric.sorted_servers() for n in s.nics
                if n.id in cabled}
        proof = Proof(sm.engine, _engine((sm_dir / "opensm.conf").read_text()), len(hcas),
                      sum(1 for guid in hcas if lids.get(guid)))
        remote_lid = {lids[g]: ep for g, ep in hcas.items() if lids.get(g)}
        numbers = IbIndex(fabric)
        for leaf in fabric.leaves():
            uplinks = {numbers.numbers(leaf.id)[port.name] for port, _ in leaf_links(fabric, leaf.id).uplinks}
            if not uplinks or not lids.get(switch_guid(leaf.id)):
                continue
            counts = dict.fromkeys(uplinks, 0)
            for route in parse_ibroute(net.run("ibroute", "-t", "1000", str(lids[switch_guid(leaf.id)]))):
                ep = remote_lid.get(route.lid)
                if ep is not None and route.port in counts and _leaf_of(fabric, ep) != leaf.id:
                    counts[route.port] += 1
            proof.balance[leaf.hostname] = counts
        cables = _Cables(fabric)
        for source, target in same_rail_pairs(fabric, pairs):
            trace = Trace(source, target, predict(fabric, source, target), [])
            src, dst = (lids.get(hca_node_guid(split_endpoint(e)[0], fabric.nic(e).index)) for e in (source, target))
            if not (src and dst):
                trace.problems.append("an HCA has no LID")
            else:
                _check(fabric, cables, trace, net.run("ibtracert", "-t", "1000", str(src), str(dst)))
            proof.traces.append(trace)
    return proof
