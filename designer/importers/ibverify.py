"""The as-built check on InfiniBand: ``ibnetdiscover`` output against the design's cabling.

Each node ibnetdiscover found is matched to the design by its GUID (the design's derived GUIDs, as
the bundle's topology.ibnd lists them), else by its node description (a switch's host name; an
HCA's ``"<host> <rdma device>"``, what rdma-ndd sets by default), so a real fabric whose GUIDs are
burnt in still matches. Switch ports are IB port numbers (front-panel order, `export.ib_data`); an
HCA's port 1 is its NIC. The cables then go through the same comparison as the LLDP check
(`verify.compare`: cross-rail, miswired, missing, unknown, with the work order); a node matched by
neither GUID nor name is an *unknown GUID* on the port that sees it, and a planned cable up at
another width or speed than the design's (``4xNDR``) is a *rate* mismatch with a check step.
"""

from __future__ import annotations

from ..export.ib_data import IbIndex, rate
from ..model.fabric import Fabric
from ..model.guids import hca_node_guid, switch_guid
from ..model.ids import endpoint, natural_key
from .ibnd import IbNode
from .verify import Mismatch, VerifyResult, compare
from .workorder import Move


class Names:
    """Discovered node id -> design device (switch id, or the NIC endpoint for an HCA)."""

    def __init__(self, fabric: Fabric, nodes: dict[str, IbNode]):
        by_guid = {switch_guid(s): s for s in fabric.switches}
        by_name = {sw.hostname: s for s, sw in fabric.switches.items()}
        for server in fabric.servers.values():
            for nic in server.nics:
                by_guid[hca_node_guid(server.id, nic.index)] = nic.id
                by_name[f"{server.hostname} {nic.rdma}"] = nic.id
        self.device: dict[str, str] = {}
        self.by_name = 0
        for node in nodes.values():
            found = by_guid.get(node.guid)
            if found is None and node.description in by_name:
                found = by_name[node.description]
                self.by_name += 1
            if found is not None:
                self.device[node.node] = found


def design_end(fabric: Fabric, index: IbIndex, names: Names, node: str, port: int) -> str | None:
    device = names.device.get(node)
    if device is None:
        return None
    if device in fabric.switches:
        name = index.port_name(device, port)
        return endpoint(device, name) if name else None
    return device if port == 1 else None


def _what(nodes: dict[str, IbNode], node: str, port: int, description: str | None) -> str:
    found = nodes.get(node)
    guid = f"GUID 0x{found.guid:016x}" if found else f"node {node}"
    return f"unknown {guid} '{found.description if found else description or '?'}' port {port}"


def verify_ib(fabric: Fabric, nodes: dict[str, IbNode], source: str = "ibnetdiscover") -> VerifyResult:
    result = VerifyResult()
    index, names = IbIndex(fabric), Names(fabric, nodes)
    cables: set[tuple[str, str]] = set()
    unknown: dict[str, str] = {}
    rates: dict[tuple[str, str], str] = {}
    for node in nodes.values():
        for port in node.links.values():
            near = design_end(fabric, index, names, node.node, port.port)
            far = design_end(fabric, index, names, port.remote, port.remote_port)
            if near is None:
                continue
            if far is None:
                unknown[near] = _what(nodes, port.remote, port.remote_port, port.remote_description)
                continue
            cable = tuple(sorted((near, far), key=natural_key))
            cables.add(cable)
            if port.rate and (node.kind == "switch" or cable not in rates):
                rates[cable] = port.rate
    covered = {d.partition("/")[0] for d in names.device.values()}
    planned = {(link.a, link.b): link for link in fabric.sorted_links()}
    for cable, found in sorted(rates.items(), key=lambda kv: (natural_key(kv[0][0]), natural_key(kv[0][1]))):
        link = planned.get(cable)
        if link is None:
            continue
        want = rate(index.width(link.a, link.b), link.speed)
        if found != want:
            a, b = cable
            result.mismatches.append(Mismatch("rate", cable, (), found, (link.id,),
                                              f"{a} - {b} is up at {found}, the design says {want}"))
            result.moves.append(Move("check", None, a, None, b,
                                     f"check the cable {a} - {b}: up at {found}, planned {want} (reseat both "
                                     "ends; replace the cable or transceiver if it stays low)"))
    if names.by_name:
        result.notes.append(f"{names.by_name} node(s) matched by node description, not GUID (the design's GUIDs "
                            "stand in for the burnt-in ones)")
    return compare(fabric, cables, unknown, covered, result, source)


