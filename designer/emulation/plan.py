"""What the emulation creates, as plain data: computed from the design without root, unit-testable.

One network namespace per server and per switch (``<run id>-<device id>``), one veth pair per cable
whose ends carry the design's interface names. Every device gets its files exactly as the bundle
exports them (the same export code):

- hosts: ``policy-routing.sh`` and ``sysctl.conf``, run unchanged (``roce-qos.sh`` and ``nccl.env`` are
  written beside them for the QoS proof, `qos`: they need a Mellanox NIC and NCCL to run);
- switches (leaves, spines and cores): ``config_db.json`` applied as SONiC's managers would
  (`configdb.apply_config_db`), FRR's own daemons started on ``frr.conf`` (`frr`), and on each leaf
  ``rail-ppd-agent.py run --backend linux`` on its ``ppd-pins.json``. No route is computed here: routing
  is what FRR converges to (`expect` says what it should converge to, for the checks to compare).

A multi-plane design is one run: its servers hold a port on every plane, each port routed by its own
table; the checks probe each plane's pairs and prove that nothing crosses to another plane.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..export import preview
from ..export.host_data import rail_nics
from ..export.ppd import agent_source
from ..export.switch_data import switch_data
from ..model.addressing import ip_int, network_of, size
from ..model.entities import Role
from ..model.fabric import Fabric
from ..model.ids import natural_key, split_endpoint
from .configdb import apply_config_db
from .errors import EmulationError

__all__ = ["EmulationError", "Plan", "make_plan"]

MAX_NAMESPACES = 64
MAX_CABLES = 256
SWITCH_SYSCTLS = ("net.ipv4.ip_forward=1", "net.ipv4.conf.all.rp_filter=2", "net.ipv4.conf.default.rp_filter=2")
# written into each host's folder: the first two run; roce-qos.sh and nccl.env are read by the QoS proof (qos.py)
HOST_FILES = ("policy-routing.sh", "sysctl.conf", "roce-qos.sh", "nccl.env")
_IFNAME = re.compile(r"^[A-Za-z0-9_.-]{1,15}\Z")


@dataclass(frozen=True, slots=True)
class Namespace:
    name: str
    device: str
    kind: str                    # "host", "leaf", "spine" or "core"


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
    plane: int = 0               # fabric plane of the port
    group: int | None = None     # spine group of its leaf (three tiers)

    @property
    def label(self) -> str:
        return f"{self.host}:{self.netdev}"


@dataclass(frozen=True, slots=True)
class Candidate:
    """One uplink a pin may use, as the leaf's ppd-pins.json lists it."""
    uplink: str                  # interface name in the leaf's namespace
    next_hop: str
    spine: str                   # spine id
    cable: str                   # link id of the uplink's cable


@dataclass(frozen=True, slots=True)
class PinCheck:
    """A pinned source and one same-rail NIC behind another leaf: `ip route get` on the leaf must leave by
    the first candidate that is up and whose spine still reaches the destination's leaf."""
    leaf: str                    # hostname
    leaf_id: str
    ns: str
    nic: str                     # label of the source NIC
    source: str
    source_ns: str
    destination: str
    dest_label: str
    dest_leaf: str               # leaf id
    iif: str
    candidates: tuple[Candidate, ...]


@dataclass(frozen=True, slots=True)
class Session:
    peer_ip: str
    peer: str                    # device id
    cable: str


@dataclass
class SwitchSetup:
    ns: str
    device: str
    hostname: str
    kind: str                                    # "leaf", "spine" or "core"
    files: dict[str, str]                        # config_db.json, frr.conf and (pinned leaves) ppd-pins.json
    lines: list[str]                             # `ip -batch` lines from config_db.json
    sessions: list[Session]
    server_prefixes: list[str]                   # what a leaf advertises for its servers
    asn: int | None = None                       # its BGP ASN, as frr.conf says
    sysctls: tuple[str, ...] = ()                # from config_db.json (SWITCH_HASH), after SWITCH_SYSCTLS


@dataclass
class Plan:
    run_id: str
    namespaces: list[Namespace]
    cables: list[Cable]
    host_files: dict[str, dict[str, str]]        # namespace -> {name: text} of HOST_FILES
    switches: dict[str, SwitchSetup]             # namespace -> what runs there
    endpoints: list[Endpoint]
    pins: list[PinCheck]
    agent: str                                   # ppd/rail-ppd-agent.py as exported
    renamed: dict[str, str] = field(default_factory=dict)   # "device/port" -> interface name, when renamed
    off_rail: str = "198.51.100.1"               # a destination outside every pool (see off_rail_address)
    skipped_redirects: int = 0                   # config_db.json REDIRECT rules left to the agent

    def ns_of(self, device: str) -> str:
        return f"{self.run_id}-{device}"

    def device_of(self, ns: str) -> str:
        return ns[len(self.run_id) + 1:]

    def probes(self) -> list[tuple[Endpoint, Endpoint]]:
        """Every ordered pair of rail NICs on one rail and fabric plane that sit in different servers."""
        by_rail: dict[tuple[int, int], list[Endpoint]] = {}
        for e in self.endpoints:
            by_rail.setdefault((e.rail, e.plane), []).append(e)
        return [(a, b) for key in sorted(by_rail) for a in by_rail[key] for b in by_rail[key] if a.ns != b.ns]

    def cross_plane_probes(self) -> list[tuple[Endpoint, Endpoint]]:
        """Per rail NIC, the first NIC of its rail on another fabric plane in another server: a pair no
        network path may join (empty in one-plane designs)."""
        return [(a, b) for a in self.endpoints
                for b in [next((b for b in self.endpoints if b.rail == a.rail and b.plane != a.plane and b.ns != a.ns),
                               None)] if b is not None]

    def leaves(self) -> list[SwitchSetup]:
        return [s for s in self.switches.values() if s.kind == "leaf"]


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
    plan = Plan(run_id, [], [], {}, {}, [], [], agent_source().decode("utf-8"), off_rail=off_rail_address(fabric))
    for s in servers:
        plan.namespaces.append(Namespace(plan.ns_of(s.id), s.id, "host"))
    for sid in switches:
        plan.namespaces.append(Namespace(plan.ns_of(sid), sid, fabric.switches[sid].role.value))
    cable_of: dict[tuple[str, str], str] = {}                 # (switch id, port) -> link id
    for link in links:
        ends = []
        for ep in (link.a, link.b):
            device, port = split_endpoint(ep)
            if device in fabric.switches:
                cable_of[(device, port)] = link.id
            ends.append((plan.ns_of(device), fabric.nic(ep).netdev if device in fabric.servers
                         else names.get(device, port)))
        plan.cables.append(Cable(link.id, ends[0][0], ends[0][1], ends[1][0], ends[1][1]))
    for s in servers:
        _plan_host(fabric, plan, s)
    by_host = {fabric.switches[sid].hostname: sid for sid in switches}
    for sid in switches:
        _plan_switch(fabric, plan, sid, names, cable_of, by_host)
    _plan_pins(plan, names, cable_of, by_host)
    plan.renamed = dict(sorted(names.renamed.items(), key=lambda kv: natural_key(kv[0])))
    pinned = {leaf.device for leaf in plan.leaves() if "ppd-pins.json" in leaf.files}
    odd = [key for key in plan.renamed if key.partition("/")[0] in pinned]
    if odd:
        raise EmulationError(f"Linux refuses the interface name of {', '.join(odd)} (15 characters, no '/'), and the "
                             "leaf's exported ppd-pins.json names it; the emulation runs the bundle's files unchanged, "
                             "so it cannot emulate this leaf (use a switch model whose ports are named like SONiC's)")
    return plan


def _plan_host(fabric: Fabric, plan: Plan, server) -> None:
    ns = plan.ns_of(server.id)
    files = preview(fabric, server.id)
    base = f"hosts/{server.hostname}/"
    plan.host_files[ns] = {name: files[base + name] for name in HOST_FILES}
    for nic in rail_nics(fabric, server):
        leaf = split_endpoint(nic["leaf_port"])[0]
        plan.endpoints.append(Endpoint(server.hostname, ns, nic["netdev"], nic["address"], nic["rail"], leaf,
                                       nic["plane"], fabric.switches[leaf].group))


def _plan_switch(fabric: Fabric, plan: Plan, sid: str, names: _Names, cable_of, by_host) -> None:
    switch = fabric.switches[sid]
    ns = plan.ns_of(sid)
    rendered = preview(fabric, sid)
    folder = f"switches/{switch.hostname}/"
    files = {name: rendered[folder + name] for name in ("config_db.json", "frr.conf", "ppd-pins.json")
             if folder + name in rendered}
    cabled = {port for (device, port) in cable_of if device == sid}
    applied = apply_config_db(files["config_db.json"], switch.hostname, lambda p: names.get(sid, p), cabled)
    plan.skipped_redirects += applied.skipped_redirects
    data = switch_data(fabric, sid)
    sessions = [Session(n["ip"], by_host[n["name"]], cable_of[(sid, n["local_port"])])
                for n in data["bgp"]["neighbors"] if n["name"] in by_host]
    leaf = switch.role is Role.LEAF
    plan.switches[ns] = SwitchSetup(ns, sid, switch.hostname, switch.role.value, files, applied.lines, sessions,
                                    data["bgp"]["networks"][1:] if leaf else [], data["asn"], tuple(applied.sysctls))


def _plan_pins(plan: Plan, names: _Names, cable_of, by_host) -> None:
    """One check per pinned NIC, from ppd-pins.json, towards the first NIC of its rail and plane behind another
    leaf: one of another spine group when there is one (three tiers: the path crosses the cores)."""
    by_address = {e.address: e for e in plan.endpoints}
    for leaf in plan.leaves():
        if "ppd-pins.json" not in leaf.files:
            continue
        pins = json.loads(leaf.files["ppd-pins.json"])
        uplinks = pins["uplinks"]
        for pin in pins["pins"]:
            src = by_address.get(pin["source"].partition("/")[0])
            if src is None:
                continue
            peers = [e for e in plan.endpoints if (e.rail, e.plane) == (src.rail, src.plane) and e.leaf != leaf.device]
            dst = next((e for e in peers if e.group != src.group), peers[0] if peers else None)
            if dst is None:
                continue
            candidates = tuple(Candidate(names.get(leaf.device, port), uplinks[port]["next_hop"],
                                         by_host[uplinks[port]["spine"]], cable_of[(leaf.device, port)])
                               for port in pin["candidates"])
            iif = pin["l3_interface"] if pin["l3_interface"].startswith("Vlan") else names.get(leaf.device,
                                                                                               pin["l3_interface"])
            plan.pins.append(PinCheck(leaf.hostname, leaf.device, leaf.ns, src.label, src.address, src.ns,
                                      dst.address, dst.label, dst.leaf, iif, candidates))
