"""Hop-by-hop path trace of one flow and its reply through what the bundle configures.

`trace(fw, src_nic, dst_nic)` returns a `Trace`: the request leg (source host rule and table, the
leaf's local delivery or PPD pin, the L3 choices of the spines and cores above, the far leaf, the
far host) and the reply
leg (sourced from the destination NIC's address, so its own rule and table), plus flags as
`Finding`s. Where a device has equal-cost choices (ECMP), the hop lists every link it may take.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..checks.finding import Finding, Severity
from ..model.addressing import ip_str
from ..model.ids import endpoint, split_endpoint
from .routing import Forwarding, address_text, net_str

MAX_HOPS = 8


@dataclass(frozen=True, slots=True)
class Hop:
    device: str
    ingress: str | None          # port or netdev the packet came in on (None at the source host)
    egress: str | None           # port or netdev it leaves by (None: delivered or dropped)
    decision: str                # why, in the device's own terms
    links: tuple[str, ...] = ()  # link ids it may leave on (several under ECMP)

    def as_dict(self) -> dict:
        return {"device": self.device, "ingress": self.ingress, "egress": self.egress,
                "decision": self.decision, "links": list(self.links)}


@dataclass(slots=True)
class Leg:
    source: str                  # address text
    destination: str
    hops: list[Hop] = field(default_factory=list)
    delivered: bool = False
    egress_nic: str | None = None    # NIC the packet left its host by
    arrival_nic: str | None = None   # NIC it arrived on at the far host
    spines: list[str] = field(default_factory=list)
    cores: list[str] = field(default_factory=list)
    problem: str | None = None       # why it was not delivered

    def as_dict(self) -> dict:
        return {"source": self.source, "destination": self.destination, "delivered": self.delivered,
                "egress_nic": self.egress_nic, "arrival_nic": self.arrival_nic, "spines": self.spines,
                "cores": self.cores, "problem": self.problem, "hops": [h.as_dict() for h in self.hops]}


@dataclass(slots=True)
class Trace:
    src_nic: str
    dst_nic: str
    request: Leg | None
    reply: Leg | None
    flags: list[Finding]

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.flags)

    def as_dict(self) -> dict:
        return {"from": self.src_nic, "to": self.dst_nic, "ok": self.ok,
                "request": self.request.as_dict() if self.request else None,
                "reply": self.reply.as_dict() if self.reply else None,
                "flags": [f.as_dict() for f in self.flags]}


def _flag(flags: list[Finding], code: str, severity: Severity, message: str, ids: tuple[str, ...], hint: str = ""):
    flags.append(Finding(code, severity, message, ids, hint))


def trace(fw: Forwarding, src_nic: str, dst_nic: str) -> Trace:
    fabric = fw.fabric
    src, dst = fw.host_nics[src_nic], fw.host_nics[dst_nic]
    flags: list[Finding] = []
    for h in (src, dst):
        leaf = fw.leaf_of(h.nic_id)
        if leaf is not None and h.rail is not None and fabric.switches[leaf].rail != h.rail:
            _flag(flags, "PATH-NIC-RAIL", Severity.WARNING,
                  f"{h.nic_id} is on rail {h.rail} but cabled to {leaf}, a rail {fabric.switches[leaf].rail} leaf",
                  (h.nic_id, leaf), "move the NIC to its rail's leaf or change its rail")
    if src.plane != dst.plane:
        _flag(flags, "PATH-CROSS-PLANE", Severity.ERROR,
              f"{src_nic} is on fabric plane {src.plane} and {dst_nic} on plane {dst.plane}: the planes share no "
              "switch, so a flow stays in its plane", (src_nic, dst_nic),
              "pair NIC ports of the same plane (NCCL uses each plane's ports with their own peers)")
    if src.rail != dst.rail or _leaf_rail(fw, src_nic) != _leaf_rail(fw, dst_nic):
        _flag(flags, "PATH-CROSS-RAIL", Severity.WARNING,
              f"{src_nic} and {dst_nic} are on different rails: the flow leaves its rail "
              "(PXN would move it over NVLink to the GPU on the destination's rail instead)", (src_nic, dst_nic))
    for h, role in ((src, "source"), (dst, "destination")):
        if h.address is None:
            _flag(flags, "PATH-NO-ADDRESS", Severity.ERROR,
                  f"{role} {h.nic_id} has no address, so its host has no rule or table for it and no flow can use it",
                  (h.nic_id,), "plan the addresses (rail-designer assign)")
    for h in (src, dst):
        if h.address is not None and not h.has_rule:
            _flag(flags, "PATH-NO-RULE", Severity.ERROR,
                  f"{h.nic_id} ({h.netdev}, {ip_str(h.address)}) has no policy rule: traffic from it, replies "
                  "included, follows the main table, so replies to peers off its rail leave by another NIC",
                  (h.nic_id,), "restore the NIC's routing-policy entry (re-export the host's files)")
    if src.address is None or dst.address is None:
        return Trace(src_nic, dst_nic, None, None, flags)
    request = walk(fw, src.nic_id.split("/")[0], src.address, dst.address)
    if not request.delivered:
        _flag(flags, "PATH-NO-ROUTE", Severity.ERROR, f"request {src_nic} -> {dst_nic}: {request.problem}",
              (src_nic, dst_nic), "see the last hop of the request")
        return Trace(src_nic, dst_nic, request, None, flags)
    reply = walk(fw, dst.nic_id.split("/")[0], dst.address, src.address)
    if not reply.delivered:
        _flag(flags, "PATH-NO-ROUTE", Severity.ERROR, f"reply {dst_nic} -> {src_nic}: {reply.problem}",
              (dst_nic, src_nic), "see the last hop of the reply")
    if request.arrival_nic != dst_nic:
        _flag(flags, "PATH-WRONG-NIC", Severity.WARNING,
              f"the request arrives on {request.arrival_nic}, not on {dst_nic} which owns {ip_str(dst.address)}",
              (dst_nic,))
    if reply.delivered and reply.egress_nic != request.arrival_nic:
        _flag(flags, "PATH-ASYMMETRIC", Severity.WARNING,
              f"the reply leaves by {reply.egress_nic}, but the request arrived on {request.arrival_nic}",
              (dst_nic, reply.egress_nic or ""), "give every rail NIC its rule and table (policy-routing.sh)")
    if reply.delivered and set(reply.spines) != set(request.spines):
        _flag(flags, "PATH-SPINE-DIFFERS", Severity.INFO,
              f"the request crosses {_names(request.spines)} and the reply {_names(reply.spines)}: "
              "normal with PPD, each direction is pinned by its own source", (src_nic, dst_nic))
    return Trace(src_nic, dst_nic, request, reply, flags)


def _leaf_rail(fw: Forwarding, nic_id: str) -> int | None:
    leaf = fw.leaf_of(nic_id)
    return fw.fabric.switches[leaf].rail if leaf else fw.host_nics[nic_id].rail


def _names(spines: list[str]) -> str:
    return ", ".join(spines) if spines else "no spine"


def _link(fw: Forwarding, ep: str) -> tuple[str, ...]:
    link = fw.fabric.link_at(ep)
    return (link.id,) if link else ()


def walk(fw: Forwarding, server_id: str, src: int, dst: int) -> Leg:
    """Follow one packet from a host to the host that owns ``dst``."""
    leg = Leg(ip_str(src), ip_str(dst))
    h = next((n for n in fw.server_nics(server_id) if n.configured and n.address == src), None)
    if h is not None:
        rule, h = h, fw.table_routes(server_id, h.table, dst)
        route = (f"{net_str((h.address, h.prefix))} dev {h.netdev}" if h.in_subnet(dst)
                 else f"default via {address_text(h.gateway)} dev {h.netdev}")
        decision = f"{rule.rule_text()} -> table {rule.table}: {route}"
    else:
        h = fw.main_route(server_id, dst)
        if h is None:
            leg.hops.append(Hop(server_id, None, None, f"no rule from {ip_str(src)} and no main-table rail route "
                                "holding the destination: it would leave by the management default route"))
            leg.problem = f"{server_id} has no rule for {ip_str(src)} and no rail route to {ip_str(dst)}"
            return leg
        decision = (f"no rule from {ip_str(src)}; main table: {net_str(h.supernet)} via "
                    f"{address_text(h.gateway)} dev {h.netdev}")
    leg.egress_nic = h.nic_id
    leg.hops.append(Hop(server_id, None, h.netdev, decision, _link(fw, h.nic_id)))
    device, ingress = split_endpoint(h.leaf_ep)
    switches = fw.fabric.switches
    for _ in range(MAX_HOPS):
        is_leaf = switches[device].role.value == "leaf"
        nxt = _leaf_step(fw, device, ingress, src, dst, leg) if is_leaf else _spine_step(fw, device, ingress, dst, leg)
        if nxt is None:
            return leg
        peer_dev, peer_port = split_endpoint(fw.fabric.peer(endpoint(device, nxt)))
        if peer_dev in fw.fabric.servers:
            return _arrive(fw, peer_dev, endpoint(peer_dev, peer_port), dst, leg)
        role = switches[peer_dev].role.value
        if role == "spine":
            leg.spines.append(peer_dev)
        elif role == "core":
            leg.cores.append(peer_dev)
        device, ingress = peer_dev, peer_port
    leg.problem = f"more than {MAX_HOPS} hops: a forwarding loop"
    return leg


def _leaf_step(fw: Forwarding, leaf: str, ingress: str, src: int, dst: int, leg: Leg) -> str | None:
    local = fw.local_delivery(leaf, dst)
    if local is not None:
        port, why = local
        if not port:
            leg.hops.append(Hop(leaf, ingress, None, why))
            leg.problem = f"{leaf}: {why}"
            return None
        leg.hops.append(Hop(leaf, ingress, port, f"local destination, forwarded normally: {why}",
                            _link(fw, endpoint(leaf, port))))
        return port
    pin = fw.pins.get(leaf, {}).get(src)
    if pin is not None and pin.downlink == ingress:
        leg.hops.append(Hop(leaf, ingress, pin.uplink,
                            f"PPD pin: from {ip_str(src)} on {pin.downlink} -> set nexthop "
                            f"{pin.next_hop or '(unaddressed)'} via {pin.uplink} ({pin.spine})",
                            _link(fw, endpoint(leaf, pin.uplink))))
        return pin.uplink
    owner = fw.owning_leaf(dst)
    spines = fw.spines_reaching(leaf, owner) if owner else []
    if not spines:
        why = ("it has no uplinks (rail-only: no spine tier, so traffic for another leaf has no path)"
               if not fw.uplinks.get(leaf) else
               _other_plane(fw, leaf, owner) or f"no spine it is wired to reaches {owner}" if owner else
               f"no leaf advertises {ip_str(dst)}")
        leg.hops.append(Hop(leaf, ingress, None, f"no route to {ip_str(dst)}: {why}"))
        leg.problem = f"{leaf} has no route to {ip_str(dst)}: {why}"
        return None
    ports = [p for s in spines for p in fw.uplinks[leaf][s]]
    leg.hops.append(Hop(leaf, ingress, ports[0],
                        f"BGP: {owner} via {', '.join(spines)}, ECMP over {len(ports)} uplinks",
                        tuple(l for p in ports for l in _link(fw, endpoint(leaf, p)))))
    return ports[0]


def _other_plane(fw: Forwarding, device: str, owner: str) -> str | None:
    here, there = fw.fabric.switches[device].fabric_plane, fw.fabric.switches[owner].fabric_plane
    if here == there:
        return None
    return f"{owner} is on fabric plane {there} and {device} on plane {here}: planes share no switch"


def _spine_step(fw: Forwarding, switch: str, ingress: str, dst: int, leg: Leg) -> str | None:
    """A spine or core: L3 over eBGP toward the leaf that owns ``dst``."""
    owner = fw.owning_leaf(dst)
    hops = fw.routes(owner).get(switch, ()) if owner else ()
    if not hops:
        why = _other_plane(fw, switch, owner) if owner else None
        if why is None:
            why = f"no adjacent leaf advertises {ip_str(dst)}"
            if owner:
                through = " nor reached through a core" if fw.fabric.cores() else ""
                why += f" (it is {owner}'s, not wired to {switch}{through})"
        leg.hops.append(Hop(switch, ingress, None, f"no route: {why}"))
        leg.problem = f"{switch} has no route to {ip_str(dst)}: {why}"
        return None
    ports = [port for port, _ in fw.next_ports(switch, owner)]
    if hops == (owner,):
        choice = f"ECMP over {len(ports)} parallel links" if len(ports) > 1 else "one link"
        decision = f"L3 (eBGP): {ip_str(dst)} is {owner}'s; {choice}"
    else:
        decision = f"L3 (eBGP): {ip_str(dst)} is {owner}'s, via {', '.join(hops)}: ECMP over {len(ports)} links"
    leg.hops.append(Hop(switch, ingress, ports[0], decision,
                        tuple(l for p in ports for l in _link(fw, endpoint(switch, p)))))
    return ports[0]


def _arrive(fw: Forwarding, server_id: str, nic_ep: str, dst: int, leg: Leg) -> Leg:
    nic = fw.host_nics[nic_ep]
    leg.arrival_nic = nic.nic_id
    owner = fw.local_owner(server_id, dst)
    if owner is None:
        leg.hops.append(Hop(server_id, nic.netdev, None, f"{ip_str(dst)} is not an address of this host: dropped"))
        leg.problem = f"{server_id} does not own {ip_str(dst)}"
        return leg
    where = "" if owner.nic_id == nic.nic_id else f" (the address of {owner.netdev}, arrived on {nic.netdev})"
    leg.hops.append(Hop(server_id, nic.netdev, None, f"delivered: {ip_str(dst)} is local{where}"))
    leg.delivered = True
    return leg
