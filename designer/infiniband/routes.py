"""Path trace and collision analysis on InfiniBand over the routes the subnet manager computed.

The routes are what the diagnostics read back from the fabric: its cables from ``ibnetdiscover`` and
every switch's linear forwarding table from ``dump_fts`` (``ibroute`` on each switch). A packet to LID
L leaves each switch by the port that switch's table names for L; nothing here models ftree or updn.
Discovered nodes are matched to the design by GUID, else by node description, as `verify
--ibnetdiscover` does (`importers.ibverify.Names`), so a fabric with burnt-in GUIDs still matches.

An analysis is the Ethernet one's `Analysis` (routing ``"opensm"``, one trial: the tables are fixed),
so the same table, JSON and chart show it. A link's capacity is its design speed (the rate it
trained at is `verify`'s business).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..analysis.collisions import Analysis, LinkLoad, link_tier, trial_figures
from ..analysis.flows import Flow
from ..analysis.paths import Hop, Leg, Trace
from ..checks.finding import Finding, Severity
from ..errors import DesignerError
from ..export.ib_data import IbIndex
from ..importers.ibnd import IbNode
from ..importers.ibverify import Names, design_end
from ..model.fabric import Fabric
from ..model.ids import natural_key, split_endpoint
from .diags import route_line

_HEADER = re.compile(r"^Unicast lids \[.*\] of switch .*guid 0x([0-9a-fA-F]+) \((.*)\):\s*$")
MAX_HOPS = 16


class RoutesError(DesignerError, ValueError):
    """dump_fts output that cannot be used; the message names the source and line."""


def parse_fts(text: str, source: str = "dump_fts output") -> dict[int, dict[int, int]]:
    """Switch node GUID -> {destination LID: out port}, from dump_fts (or several ibroute outputs)."""
    tables: dict[int, dict[int, int]] = {}
    current: dict[int, int] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        head = _HEADER.match(line.strip())
        if head:
            current = tables.setdefault(int(head[1], 16), {})
            continue
        route = route_line(line)
        if route is not None:
            if current is None:
                raise RoutesError(f"{source}, line {number}: a route before any 'Unicast lids ... of switch' "
                                  "header; give the whole output of dump_fts (or ibroute)")
            current[route.lid] = route.port
    if not tables:
        raise RoutesError(f"{source}: no switch forwarding table found; give the output of `dump_fts` "
                          "(infiniband-diags) run on the fabric")
    return tables


@dataclass(frozen=True, slots=True)
class Step:
    node: str               # ibnetdiscover node id the packet leaves
    in_port: int | None     # the port it came in on (None at the source HCA)
    out_port: int


class IbRoutes:
    """The fabric as discovered, its forwarding tables, and the design's name for each of its ports."""

    def __init__(self, fabric: Fabric, nodes: dict[str, IbNode], tables: dict[int, dict[int, int]]):
        self.fabric, self.nodes, self.tables = fabric, nodes, tables
        self.index, self.names = IbIndex(fabric), Names(fabric, nodes)
        self.node_of_device = {device: node for node, device in self.names.device.items()}

    def end(self, node: str, port: int) -> str:
        """The design's endpoint for a discovered port, else a readable stand-in."""
        found = design_end(self.fabric, self.index, self.names, node, port)
        known = self.nodes.get(node)             # a cable's far end may be a node ibnetdiscover did not list
        return found or f"{known.description if known and known.description else node}/port{port}"

    def walk(self, src_nic: str, dst_nic: str) -> tuple[list[Step], str | None]:
        """The steps from one HCA to another through the tables, and why it stopped short (None: arrived)."""
        src, dst = self.node_of_device.get(src_nic), self.node_of_device.get(dst_nic)
        if src is None or dst is None:
            return [], f"{src_nic if src is None else dst_nic} is not in the discovered fabric"
        lid = self.nodes[dst].lid
        if not lid:
            return [], f"{dst_nic} has no LID (the subnet manager did not bring it up)"
        steps, here, came_in = [], src, None
        out = 1
        for _ in range(MAX_HOPS):
            steps.append(Step(here, came_in, out))
            link = self.nodes[here].links.get(out)
            if link is None:
                return steps, f"port {out} of {self.nodes[here].description} is not cabled"
            here, came_in = link.remote, link.remote_port
            if here == dst:
                return steps, None
            node = self.nodes.get(here)
            if node is None or node.kind != "switch":
                return steps, f"reached {link.remote_description or here}, not {dst_nic}"
            out = self.tables.get(node.guid, {}).get(lid)
            if out is None or out == 0:
                return steps, f"{node.description} has no route to LID {lid} (no forwarding table entry)"
        return steps, f"no arrival after {MAX_HOPS} switches (a routing loop?)"


def _leg(routes: IbRoutes, src: str, dst: str, flags: list[Finding]) -> Leg:
    steps, problem = routes.walk(src, dst)
    leg = Leg(src, dst, delivered=problem is None, egress_nic=src if steps else None,
              arrival_nic=dst if problem is None else None, problem=problem)
    lid = routes.nodes[routes.node_of_device[dst]].lid if dst in routes.node_of_device else None
    switches = routes.fabric.switches
    for step in steps:
        node = routes.nodes[step.node]
        near = routes.end(step.node, step.out_port)
        device, port = split_endpoint(near)
        ingress = split_endpoint(routes.end(step.node, step.in_port))[1] if step.in_port else None
        decision = (f"forwarding table (subnet manager): LID {lid} -> port {step.out_port}" if node.kind == "switch"
                    else f"HCA port {step.out_port} to LID {lid}")
        far, cable = node.links.get(step.out_port), routes.fabric.link_at(near)
        if far is not None and (cable is None or cable.other(near) != routes.end(far.remote, far.remote_port)):
            flags.append(Finding("IB-PATH-UNPLANNED", Severity.ERROR,
                                 f"{src} -> {dst} leaves {near} on a cable the design does not have", (near,),
                                 "rail-designer verify FILE --ibnetdiscover DUMP lists the cabling fixes"))
        role = switches[device].role.value if device in switches else None
        if role == "spine":
            leg.spines.append(device)
        elif role == "core":
            leg.cores.append(device)
        leg.hops.append(Hop(device, ingress, port, decision, (cable.id,) if cable else ()))
    if problem is None and steps:
        last = routes.nodes[steps[-1].node].links[steps[-1].out_port]
        host, nic = split_endpoint(routes.end(last.remote, last.remote_port))
        leg.hops.append(Hop(host, nic, None, f"delivered: LID {lid} is this HCA"))
    if problem:
        flags.append(Finding("IB-PATH-UNDELIVERED", Severity.ERROR, f"{src} -> {dst}: {problem}", (src, dst),
                             "check the subnet manager's log for the switch and LID, then dump the tables again "
                             "(ibnetdiscover, dump_fts) after a sweep"))
    return leg


def trace(routes: IbRoutes, src_nic: str, dst_nic: str) -> Trace:
    flags: list[Finding] = []
    return Trace(src_nic, dst_nic, _leg(routes, src_nic, dst_nic, flags), _leg(routes, dst_nic, src_nic, flags), flags)


def analyze(routes: IbRoutes, flows: list[Flow], pattern: str = "") -> Analysis:
    """Every flow on the links the tables send it over, once (the routes do not change between trials)."""
    fabric = routes.fabric
    index: dict[tuple[str, str], int] = {}          # directed link (design endpoints) -> its number
    count: list[int] = []
    demand: list[float] = []
    paths, unroutable = [], []
    for flow in flows:
        steps, problem = routes.walk(flow.src, flow.dst)
        if problem:
            unroutable.append((flow.src, flow.dst, problem))
            continue
        path = []
        for step in steps:
            far = routes.nodes[step.node].links[step.out_port]
            key = (routes.end(step.node, step.out_port), routes.end(far.remote, far.remote_port))
            i = index.setdefault(key, len(index))
            if i == len(count):
                count.append(0)
                demand.append(0.0)
            count[i] += 1
            demand[i] += flow.rate
            path.append(i)
        paths.append(path)
    names = list(index)
    cap = [_capacity(fabric, a) for a, _ in names]
    tiers = [link_tier(fabric, a, b) for a, b in names]
    slowest, mean, clean, busiest = trial_figures(cap, demand, paths, [i for i, t in enumerate(tiers) if t == "up"])
    loads = sorted((LinkLoad(f"{a} -> {b}", cap[i], tiers[i], count[i], count[i], demand[i])
                    for i, (a, b) in enumerate(names)), key=lambda l: natural_key(l.link))
    return Analysis(pattern, "opensm", 1, 0, len(flows), unroutable, loads, [slowest], [mean], int(clean), [busiest])


def _capacity(fabric: Fabric, ep: str) -> float:
    link = fabric.link_at(ep)
    return float(link.speed) if link is not None else 0.0
