"""What the emulation creates, as plain data: computed from the design without root, unit-testable.

One network namespace per server and per switch (``<run id>-<device id>``), one veth pair per cable
whose ends carry the design's interface names, and per namespace the `ip -batch` lines that configure
it. Hosts get their exported ``policy-routing.sh`` and ``sysctl.conf`` verbatim (the same export code
as the bundle); switches become Linux routers built from the exported switch data:

- addresses: loopback /32 on ``lo``, routed /31 ports, and for subnet-per-leaf a bridge ``Vlan1000``
  holding the downlinks with the SVI address;
- routes: static, what eBGP would install (`routes.ebgp_routes`); FRR itself is not run;
- PPD: per uplink a table ``200 + i`` with ``default via <spine next hop> dev <uplink>``; rules
  ``to <local prefix> lookup main`` (priority 100 + i) before ``from <nic> iif <downlink> lookup
  <uplink table>`` (priority 1000 + i), the same two steps the SONiC ACL and FRR PBR express.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..export import preview
from ..export.host_data import rail_nics
from ..export.switch_data import switch_data
from ..model.addressing import ip_int, network_of, size
from ..model.entities import Role
from ..model.fabric import Fabric
from ..model.ids import natural_key, split_endpoint
from .routes import ebgp_routes

MAX_NAMESPACES = 64
MAX_CABLES = 256
PIN_TABLE_BASE = 200
LOCAL_RULE_PRIORITY, PIN_RULE_PRIORITY = 100, 1000
SWITCH_SYSCTLS = ("net.ipv4.ip_forward=1", "net.ipv4.conf.all.rp_filter=2", "net.ipv4.conf.default.rp_filter=2")
_IFNAME = re.compile(r"^[A-Za-z0-9_.-]{1,15}$")


class EmulationError(Exception):
    """A readable, one-message reason the emulation cannot run."""


@dataclass(frozen=True, slots=True)
class Namespace:
    name: str
    device: str
    kind: str                    # "host", "leaf" or "spine"


@dataclass(frozen=True, slots=True)
class Cable:
    link: str
    a_ns: str
    a_if: str
    b_ns: str
    b_if: str


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A rail NIC as the checks see it."""
    host: str                    # hostname
    ns: str
    netdev: str
    address: str
    rail: int
    leaf: str                    # leaf id

    @property
    def label(self) -> str:
        return f"{self.host}:{self.netdev}"


@dataclass(frozen=True, slots=True)
class PinCheck:
    """`ip route get <dst> from <src> iif <iif>` on a leaf must leave by ``uplink`` via ``next_hop``."""
    leaf: str                    # hostname
    ns: str
    nic: str                     # label of the source NIC
    source: str
    destination: str
    dest_label: str
    iif: str
    uplink: str                  # interface name in the namespace
    next_hop: str


@dataclass
class Plan:
    run_id: str
    namespaces: list[Namespace]
    cables: list[Cable]
    sysctls: dict[str, tuple[str, ...]]          # namespace -> sysctl -w arguments (switches)
    batches: dict[str, list[str]]                # namespace -> `ip -batch` lines, run in order
    host_files: dict[str, dict[str, str]]        # namespace -> {"policy-routing.sh": text, "sysctl.conf": text}
    endpoints: list[Endpoint]
    pins: list[PinCheck]
    renamed: dict[str, str] = field(default_factory=dict)   # "device/port" -> interface name, when renamed
    off_rail: str = "198.51.100.1"               # a destination outside every pool (see off_rail_address)

    def ns_of(self, device: str) -> str:
        return f"{self.run_id}-{device}"

    def probes(self) -> list[tuple[Endpoint, Endpoint]]:
        """Every ordered pair of rail NICs on one rail that sit in different servers."""
        by_rail: dict[int, list[Endpoint]] = {}
        for e in self.endpoints:
            by_rail.setdefault(e.rail, []).append(e)
        return [(a, b) for rail in sorted(by_rail) for a in by_rail[rail] for b in by_rail[rail] if a.ns != b.ns]


def check_size(namespaces: int, cables: int) -> None:
    if namespaces > MAX_NAMESPACES or cables > MAX_CABLES:
        raise EmulationError(f"the design needs {namespaces} namespaces and {cables} veth pairs; the emulation "
                             f"builds at most {MAX_NAMESPACES} namespaces and {MAX_CABLES} veth pairs "
                             "(emulate a smaller design, e.g. fewer servers per SU)")



class _Names:
    """Interface names per device: the design's name when Linux accepts it, else ``p<n>`` (kept in a map)."""

    def __init__(self):
        self.renamed: dict[str, str] = {}
        self._given: dict[str, str] = {}
        self._used: dict[str, set[str]] = {}

    def get(self, device: str, port: str) -> str:
        key = f"{device}/{port}"
        if key in self._given:
            return self._given[key]
        used = self._used.setdefault(device, {"lo", "Vlan1000"})
        name = port
        if not _IFNAME.match(port) or port in (".", "..") or port in used:
            name = self._free(used)
            self.renamed[key] = name
        used.add(name)
        self._given[key] = name
        return name

    @staticmethod
    def _free(used: set[str]) -> str:
        n = 0
        while f"p{n}" in used:
            n += 1
        return f"p{n}"


_DOCUMENTATION_ADDRESSES = ("198.51.100.1", "203.0.113.1", "192.0.2.1")   # RFC 5737 TEST-NETs


def off_rail_address(fabric: Fabric) -> str:
    """An address in no pool of the design: only a NIC's own policy table can route traffic to it."""
    a = fabric.settings.addressing
    pools = [network_of(cidr) for cidr in (a.rail_supernet, a.fabric_pool, a.loopback_pool)]
    for candidate in _DOCUMENTATION_ADDRESSES:
        value = ip_int(candidate)
        if not any(base <= value < base + size(prefix) for base, prefix in pools):
            return candidate
    raise EmulationError("the design's pools cover every RFC 5737 test network; the emulation needs one free")


def make_plan(fabric: Fabric, run_id: str) -> Plan:
    servers = [s for s in fabric.sorted_servers() if rail_nics(fabric, s)]
    switches = sorted(fabric.switches, key=natural_key)
    devices = {s.id for s in servers} | set(switches)
    links = [link for link in fabric.sorted_links()
             if split_endpoint(link.a)[0] in devices and split_endpoint(link.b)[0] in devices]
    check_size(len(devices), len(links))
    names = _Names()
    plan = Plan(run_id, [], [], {}, {}, {}, [], [], off_rail=off_rail_address(fabric))
    for s in servers:
        plan.namespaces.append(Namespace(plan.ns_of(s.id), s.id, "host"))
    for sid in switches:
        kind = "leaf" if fabric.switches[sid].role is Role.LEAF else "spine"
        plan.namespaces.append(Namespace(plan.ns_of(sid), sid, kind))
    for link in links:
        ends = []
        for ep in (link.a, link.b):
            device, port = split_endpoint(ep)
            ends.append((plan.ns_of(device), fabric.nic(ep).netdev if device in fabric.servers
                         else names.get(device, port)))
        plan.cables.append(Cable(link.id, ends[0][0], ends[0][1], ends[1][0], ends[1][1]))
    for s in servers:
        _plan_host(fabric, plan, s)
    data = {sid: switch_data(fabric, sid) for sid in switches}
    routes = ebgp_routes(data)
    for sid in switches:
        _plan_switch(plan, data[sid], routes[sid], names)
    _plan_pins(plan, data, names)
    plan.renamed = dict(sorted(names.renamed.items(), key=lambda kv: natural_key(kv[0])))
    return plan


def _plan_host(fabric: Fabric, plan: Plan, server) -> None:
    ns = plan.ns_of(server.id)
    files = preview(fabric, server.id)
    base = f"hosts/{server.hostname}/"
    plan.host_files[ns] = {name: files[base + name] for name in ("policy-routing.sh", "sysctl.conf")}
    plan.batches[ns] = ["link set dev lo up"]
    for nic in rail_nics(fabric, server):
        leaf = split_endpoint(nic["leaf_port"])[0]
        plan.endpoints.append(Endpoint(server.hostname, ns, nic["netdev"], nic["address"], nic["rail"], leaf))


def _plan_switch(plan: Plan, d: dict, routes, names: _Names) -> None:
    ns = plan.ns_of(d["id"])
    plan.sysctls[ns] = SWITCH_SYSCTLS
    ifname = lambda port: names.get(d["id"], port)          # noqa: E731
    lines = ["link set dev lo up", f"address add {d['loopback']} dev lo"]
    for port in d["ports"]:
        if port["cabled"]:
            lines.append(f"link set dev {ifname(port['name'])} mtu {d['mtu']} up")
    for i in d["interfaces"]:
        lines.append(f"address add {i['address']} dev {ifname(i['port'])}")
    vlan = d["vlan"]
    if vlan:
        lines.append(f"link add {vlan['name']} type bridge")
        lines += [f"link set dev {ifname(p)} master {vlan['name']}" for p in vlan["members"]]
        lines += [f"address add {vlan['address']} dev {vlan['name']}", f"link set dev {vlan['name']} up"]
    for r in routes:
        hops = [f"via {ip} dev {ifname(port)}" for ip, port in r.nexthops]
        lines.append(f"route add {r.prefix} " + (hops[0] if len(hops) == 1 else
                                                 " ".join(f"nexthop {h}" for h in hops)))
    ppd = d["ppd"]
    if ppd:
        tables = {}
        for pin in ppd["pins"]:
            if pin["uplink"] not in tables:
                tables[pin["uplink"]] = PIN_TABLE_BASE + len(tables)
                lines.append(f"route add default via {pin['next_hop']} dev {ifname(pin['uplink'])} "
                             f"table {tables[pin['uplink']]}")
        for i, local in enumerate(ppd["local"]):
            lines.append(f"rule add to {local['prefix']} lookup main priority {LOCAL_RULE_PRIORITY + i}")
        for i, pin in enumerate(ppd["pins"]):
            iif = vlan["name"] if vlan else ifname(pin["downlink"])
            lines.append(f"rule add from {pin['source_prefix']} iif {iif} lookup {tables[pin['uplink']]} "
                         f"priority {PIN_RULE_PRIORITY + i}")
    plan.batches[ns] = lines


def _plan_pins(plan: Plan, data: dict[str, dict], names: _Names) -> None:
    """One route-get check per pinned NIC, towards the first same-rail NIC behind another leaf."""
    by_nic_address = {e.address: e for e in plan.endpoints}
    for sid, d in data.items():
        if not d["ppd"]:
            continue
        for pin in d["ppd"]["pins"]:
            src = by_nic_address.get(pin["source"])
            if src is None:
                continue
            dst = next((e for e in plan.endpoints if e.rail == src.rail and e.leaf != sid), None)
            if dst is None:
                continue
            iif = d["vlan"]["name"] if d["vlan"] else names.get(sid, pin["downlink"])
            plan.pins.append(PinCheck(d["hostname"], plan.ns_of(sid), src.label, src.address, dst.address,
                                      dst.label, iif, names.get(sid, pin["uplink"]), pin["next_hop"]))
