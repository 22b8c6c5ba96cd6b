"""The as-built check: LLDP neighbours against the design's cabling.

Every LLDP entry becomes a cable between two design endpoints (a host names its local interface
by netdev, mapped to its NIC; a switch names its ports; the far end is found by system name =
host name and port ID = port name or netdev, falling back to the port description). The cables
seen are compared with ``Fabric.links``; each cable that is not in the plan is one mismatch,
so two swapped cables are two miswirings. A NIC landing on a leaf of another rail is
*cross-rail*, the costly mistake, and is listed first. Planned cables that no LLDP entry shows
are *missing* when at least one end sent data; cables seen only to names the design does not
know are *unknown neighbours*. `work_order` then turns the mismatches into the fewest moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.entities import Role
from ..model.fabric import Fabric
from ..model.ids import endpoint, natural_key, split_endpoint
from .lldp import LldpDump, Neighbor
from .workorder import Move, work_order

KINDS = ("cross-rail", "miswired", "unplanned", "missing", "unknown", "rate")


@dataclass(frozen=True, slots=True)
class Mismatch:
    kind: str                       # one of KINDS
    ends: tuple[str, ...]           # the cable found (or, for missing, the planned one); unknown: local end
    expected: tuple[tuple[str, str | None], ...]   # (end, its planned peer) for each end of a found cable
    found: str | None               # unknown neighbours: what LLDP named
    link_ids: tuple[str, ...]       # planned links this touches, for marking them in a view
    message: str


@dataclass
class VerifyResult:
    as_planned: list[str] = field(default_factory=list)     # planned link ids seen as planned
    mismatches: list[Mismatch] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    not_checked: list[str] = field(default_factory=list)    # planned links with no LLDP data at either end
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def link_status(self) -> dict[str, str]:
        """Planned link id -> 'as-planned', a mismatch kind, or 'not-checked' (worst kind wins)."""
        status = {lid: "as-planned" for lid in self.as_planned}
        status.update((lid, "not-checked") for lid in self.not_checked)
        for m in reversed(self.mismatches):      # mismatches are ordered worst first
            for lid in m.link_ids:
                status[lid] = m.kind
        return status


def _resolve_device(fabric: Fabric, name: str | None) -> str | None:
    if not name:
        return None
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        candidate = ".".join(parts[:i])
        if candidate in fabric.servers or candidate in fabric.switches:
            return candidate
        owner = fabric.hostname_owner(candidate)
        if owner:
            return owner
    return None


def _local_endpoint(fabric: Fabric, device: str, port: str) -> str | None:
    if device in fabric.switches:
        ports = fabric.ports(device)
        if port in ports:
            return endpoint(device, port)
        # SONiC's lldpd sends the port alias (etp1a) as the port ID: accept it for the port it names
        return next((endpoint(device, p.name) for p in ports.values() if p.alias == port), None)
    for nic in fabric.servers[device].nics:
        if nic.netdev == port:
            return nic.id
    return None


def _remote_endpoint(fabric: Fabric, device: str, nb: Neighbor, local: str) -> str | None:
    for name in (nb.port_id, nb.port_descr):
        if name and _local_endpoint(fabric, device, name):
            return _local_endpoint(fabric, device, name)
    planned = fabric.peer(local)          # a host may send its MAC as port ID: trust the device match
    if planned and split_endpoint(planned)[0] == device and device in fabric.servers:
        return planned
    return None


def _observe(fabric: Fabric, dumps: list[LldpDump], result: VerifyResult):
    cables: set[tuple[str, str]] = set()
    unknown: dict[str, str] = {}
    covered: set[str] = set()
    ignored = 0
    for dump in dumps:
        device = _resolve_device(fabric, dump.device)
        if device is None:
            result.notes.append(f"{dump.source}: '{dump.device}' names no device of the design; file skipped")
            continue
        covered.add(device)
        for nb in dump.neighbors:
            local = _local_endpoint(fabric, device, nb.local_port)
            if local is None:
                ignored += 1            # management or other non-fabric port
                continue
            remote_dev = _resolve_device(fabric, nb.system_name)
            remote = _remote_endpoint(fabric, remote_dev, nb, local) if remote_dev else None
            if remote is None:
                unknown[local] = f"{nb.system_name or '(no system name)'} port {nb.port_id or nb.port_descr or '?'}"
            else:
                cables.add(tuple(sorted((local, remote), key=natural_key)))
    if ignored:
        result.notes.append(f"{ignored} LLDP entries on ports outside the fabric (management, ...) ignored")
    return cables, unknown, covered


def verify(fabric: Fabric, dumps: list[LldpDump]) -> VerifyResult:
    result = VerifyResult()
    cables, unknown, covered = _observe(fabric, dumps, result)
    return compare(fabric, cables, unknown, covered, result)


def compare(fabric: Fabric, cables: set[tuple[str, str]], unknown: dict[str, str], covered: set[str],
            result: VerifyResult, source: str = "LLDP") -> VerifyResult:
    """The cables seen (endpoint pairs in natural order), the planned ends that see something the design
    does not know (end -> what), and the devices the data covers, against ``fabric.links``: fills
    ``result`` with what is as planned, the mismatches worst first, and the work order."""
    planned = {(l.a, l.b): l.id for l in fabric.sorted_links()}
    seen_at = {ep for cable in cables for ep in cable} | set(unknown)
    wrong = sorted((c for c in cables if c not in planned), key=lambda c: (natural_key(c[0]), natural_key(c[1])))
    unmet = []
    for ends, lid in planned.items():
        if ends in cables:
            result.as_planned.append(lid)
        elif not {split_endpoint(e)[0] for e in ends} & covered:
            result.not_checked.append(lid)
        else:
            unmet.append(ends)
    found = [_found_mismatch(fabric, c) for c in wrong]
    missing = [Mismatch("missing", ends, (), None, (planned[ends],),
                        f"planned cable {ends[0]} - {ends[1]} not seen by {source}")
               for ends in unmet if not set(ends) & seen_at]
    strays = [Mismatch("unknown", (ep,), ((ep, fabric.peer(ep)),), what,
                       (fabric.link_at(ep).id,) if fabric.link_at(ep) else (),
                       f"{ep} sees {what}, which is not in the design")
              for ep, what in sorted(unknown.items(), key=lambda kv: natural_key(kv[0]))]
    order = {k: i for i, k in enumerate(KINDS)}
    result.mismatches = sorted(found, key=lambda m: order[m.kind]) + missing + strays + result.mismatches
    result.moves = work_order(fabric, wrong, unmet, {m.ends: m.kind for m in found}, unknown) + result.moves
    return result


def _rail_clash(fabric: Fabric, a: str, b: str) -> tuple[int, int] | None:
    """(NIC rail, leaf rail) when one end is a rail NIC and the other a port of another rail's leaf."""
    for nic_ep, sw_ep in ((a, b), (b, a)):
        nic_dev, sw_dev = split_endpoint(nic_ep)[0], split_endpoint(sw_ep)[0]
        if nic_dev in fabric.servers and sw_dev in fabric.switches:
            nic, switch = fabric.nic(nic_ep), fabric.switches[sw_dev]
            if switch.role is Role.LEAF and nic.rail is not None and switch.rail != nic.rail:
                return nic.rail, switch.rail
    return None


def _found_mismatch(fabric: Fabric, cable: tuple[str, str]) -> Mismatch:
    a, b = cable
    expected = ((a, fabric.peer(a)), (b, fabric.peer(b)))
    link_ids = tuple(fabric.link_at(e).id for e in cable if fabric.link_at(e))
    wants = "; ".join(f"{e} should go to {p}" if p else f"{e} should be free" for e, p in expected)
    clash = _rail_clash(fabric, a, b)
    if clash:
        return Mismatch("cross-rail", cable, expected, None, link_ids,
                        f"CROSS-RAIL: {a} - {b} puts a rail {clash[0]} NIC on a rail {clash[1]} leaf ({wants})")
    kind = "miswired" if any(p for _, p in expected) else "unplanned"
    return Mismatch(kind, cable, expected, None, link_ids, f"found {a} - {b} ({wants})")
