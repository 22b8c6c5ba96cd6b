"""Stage 1 of the AI Infrastructure Descriptor (DOMAIN.md section 7): the design as four tables.

The AID is one document: a ``design`` header (settings, rail and SU names) and four row lists
that are also the spreadsheet's sheets (Devices, Interfaces, Links, IP Plan). Every row holds
only scalars (str, int, bool or None), so JSON, YAML, CSV and XLSX all show the same cells.
The ``notes`` column carries the rail number (0 = rail plane 0), the convention the seed's
toolkit uses. Everything needed to rebuild the design is here (see `aid_import`).

Past two tiers and one plane. A design with a core tier adds ``group`` to Devices (a leaf's or
spine's spine group, a core's core group) and ``max_spine_oversubscription`` plus ``asn.core_asn``
to the design header; a multi-plane design adds ``fabric_plane`` to every sheet and
``fabric_planes`` to the header. Notes stays the rail on every plane (rail 3 of plane 1 is Notes 3,
Fabric plane 1), so filtering Notes still selects a rail. An InfiniBand design adds
``fabric_kind`` to the header and the GUID columns (a switch's node GUID on Devices, an HCA's port
GUID on Interfaces, as topology.ibnd writes them) plus each server's NCCL_IB_HCA. A column or key
appears only in designs that use it (`columns`), so a two-tier, one-plane AID reads exactly as before.
The header also carries ``load_balancing``, ``growth`` (the final size a design is planned for) and
``lossless`` (ECN / PFC watchdog overrides) in the design file's form (`storage.plan_settings`), each
only when the design sets it, so importing a planned design gives a planned design.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..model.entities import INFINIBAND, SCHEMES, DesignSettings, Role
from ..model.fabric import Fabric, asn_key
from ..model.guids import hca_port_guid, switch_guid
from ..model.guids import text as guid_text
from ..model.floor import floor_dict
from ..model.hardware import breakout_runs, cage_range, parse_breakout
from ..model.ids import natural_key, split_endpoint
from ..planning.addressing import loopback_key
from ..storage.plan_settings import write_plan_settings

AID_FORMAT_VERSION = 1
SCHEMES_ENUM = SCHEMES


@dataclass(frozen=True)
class Column:
    key: str          # JSON key
    header: str       # spreadsheet / CSV header
    kind: str         # "string", "integer" or "boolean"
    nullable: bool = False
    enum: tuple[str, ...] = ()
    description: str = ""
    when: str = ""    # a design-header key: the column is there only when the header has it


@dataclass(frozen=True)
class Sheet:
    key: str          # JSON key of the row list
    title: str        # sheet name
    csv: str          # CSV file name
    columns: tuple[Column, ...]


def _c(key, header, kind="string", nullable=False, enum=(), description="", when=""):
    return Column(key, header, kind, nullable, tuple(enum), description, when)


TIERS_KEY, PLANES_KEY, KIND_KEY = "max_spine_oversubscription", "fabric_planes", "fabric_kind"   # bring columns
FLOOR_KEY = "floor"                   # the halls' rows and racks (model/floor.py), when the design has a floor
NOTES = _c("notes", "Notes", "integer", True,
           description="rail number (0 = rail plane 0) on every fabric plane; empty when none")
FABRIC_PLANE = _c("fabric_plane", "Fabric plane", "integer", True, when=PLANES_KEY,
                  description="the independent plane of a multi-plane design (from 0); empty for a server")
SHEETS = (
    Sheet("devices", "Devices", "devices.csv", (
        _c("id", "Device"), _c("hostname", "Hostname"), _c("role", "Role", enum=("server", "leaf", "spine", "core")),
        _c("model", "Model"), _c("su", "SU", "integer", True), _c("rail", "Rail", "integer", True),
        _c("plane", "Plane", "integer", True, description="a spine's rail plane (spine planes per rail)"),
        _c("group", "Group", "integer", True, when=TIERS_KEY,
           description="a leaf's or spine's spine group, a core's core group (from 1)"),
        FABRIC_PLANE, _c("rack", "Rack", nullable=True),
        _c("position", "Position", "integer", True), _c("gpus", "GPUs", "integer", True),
        _c("gid_index", "RoCE GID index", "integer", True,
           description="RoCE v2 GID index read on the server (empty: the server model's)"),
        _c("asn", "ASN", "integer", True), _c("asn_pinned", "ASN pinned", "boolean"),
        _c("loopback", "Loopback", nullable=True),
        _c("breakouts", "Breakouts", nullable=True,
           description="cages not in native mode, e.g. '1-32:2x400G 33:4x200G'"),
        _c("guid", "GUID", nullable=True, when=KIND_KEY,
           description="InfiniBand: a switch's node GUID, derived from its id as topology.ibnd writes it"),
        _c("nccl_ib_hca", "NCCL_IB_HCA", nullable=True, when=KIND_KEY,
           description="InfiniBand: a server's rail HCAs in GPU-affinity order, as its nccl-ib.env sets them"),
        NOTES)),
    Sheet("interfaces", "Interfaces", "interfaces.csv", (
        _c("device", "Device"), _c("interface", "Interface"), _c("kind", "Kind", enum=("nic", "port")),
        _c("netdev", "Netdev", nullable=True), _c("rdma", "RDMA device", nullable=True),
        _c("gpus", "GPUs", nullable=True, description="GPUs closest to the NIC, e.g. '0,1'"),
        _c("speed", "Speed (Gb/s)", "integer"), _c("breakout", "Breakout", nullable=True),
        _c("address", "Address", nullable=True), _c("peer", "Peer", nullable=True),
        _c("guid", "GUID", nullable=True, when=KIND_KEY,
           description="InfiniBand: an HCA's port GUID, derived from its server and NIC as topology.ibnd writes it"),
        FABRIC_PLANE, NOTES)),
    Sheet("links", "Links", "links.csv", (
        _c("link", "Link"), _c("a_device", "A device"), _c("a_port", "A port"),
        _c("b_device", "B device"), _c("b_port", "B port"), _c("speed", "Speed (Gb/s)", "integer"),
        _c("su", "SU", "integer", True), FABRIC_PLANE, NOTES)),
    Sheet("ip_plan", "IP Plan", "ip-plan.csv", (
        _c("key", "Key"), _c("address", "Address"), _c("pinned", "Pinned", "boolean"),
        _c("kind", "Kind", enum=("nic", "port", "svi", "loopback")), _c("device", "Device"), FABRIC_PLANE, NOTES)),
)


def columns(sheet: Sheet, design: dict) -> tuple[Column, ...]:
    """The sheet's columns in a document with this design header."""
    return tuple(c for c in sheet.columns if not c.when or c.when in design)


def format_breakouts(breakouts: tuple[tuple[int, str], ...]) -> str | None:
    """``((1,'2x400G'),(2,'2x400G'),(5,'4x200G'))`` -> ``'1-2:2x400G 5:4x200G'``."""
    return " ".join(f"{cages}:{mode}" for cages, mode in breakout_runs(breakouts)) or None


def parse_breakouts(text: str | None) -> tuple[tuple[int, str], ...]:
    """The inverse of `format_breakouts`; raises ValueError with a readable message."""
    out = []
    for item in (text or "").split():
        cages, sep, mode = item.partition(":")
        try:
            if not sep:
                raise ValueError(item)
            cage_list = cage_range(cages)
        except ValueError:
            raise ValueError(f"'{item}' is not a breakout like 1-32:2x400G") from None
        parse_breakout(mode)
        out += [(cage, mode) for cage in cage_list]
    return tuple(out)


class _Index:
    """What the rows ask of the fabric, as maps built once per document (each row is a few dict
    lookups instead of a walk through the Fabric's queries)."""

    def __init__(self, fabric: Fabric):
        self.fabric, self.servers, self.switches = fabric, fabric.servers, fabric.switches
        self.nics = {nic.id: nic for server in fabric.servers.values() for nic in server.nics}
        self.leaf_rail = {w.id: w.rail for w in fabric.switches.values() if w.role is Role.LEAF}
        self.peers: dict[str, str] = {}
        for link in fabric.links.values():
            self.peers[link.a], self.peers[link.b] = link.b, link.a

    def nic(self, ep: str):
        found = self.nics.get(ep)
        return found if found is not None else self.fabric.nic(ep)      # its readable error

    def rail(self, ep: str) -> int | None:
        """The rail a cable end belongs to: the NIC's rail, else the leaf's rail (for a spine or core
        port: the rail of the leaf at its other end, else the switch's rail plane)."""
        device = ep.partition("/")[0]
        if device in self.servers:
            return self.nic(ep).rail
        if device in self.leaf_rail:
            return self.leaf_rail[device]
        peer = self.peers.get(ep)
        if peer is not None and peer.partition("/")[0] in self.leaf_rail:
            return self.leaf_rail[peer.partition("/")[0]]
        return self.switches[device].plane

    def plane(self, ep_or_device: str) -> int | None:
        """The fabric plane of a switch or a NIC (None for a server, or a key that names neither)."""
        device, _, port = ep_or_device.partition("/")
        if device in self.servers:
            return self.nic(ep_or_device).fabric_plane if port.startswith("nic") else None
        switch = self.switches.get(device)
        return switch.fabric_plane if switch is not None else None


def _switches(fabric: Fabric) -> list:
    return fabric.leaves() + fabric.spines() + fabric.cores()


def _device_rows(fabric: Fabric) -> list[dict]:
    rows = []
    for s in fabric.sorted_servers():
        rows.append({"id": s.id, "hostname": s.hostname, "role": "server", "model": s.model, "su": s.su,
                     "rail": None, "plane": None, "rack": s.rack, "position": s.position, "gpus": s.gpus,
                     "gid_index": s.gid_index, "asn": None, "asn_pinned": False, "loopback": None, "breakouts": None, "notes": None})
    for w in _switches(fabric):
        rows.append({"id": w.id, "hostname": w.hostname, "role": w.role.value, "model": w.model, "su": w.su,
                     "rail": w.rail, "plane": w.plane, "rack": w.rack, "position": w.position, "gpus": None,
                     "gid_index": None, "asn": fabric.asns.get(w.id), "asn_pinned": fabric.is_pinned(asn_key(w.id)),
                     "loopback": fabric.addresses.get(loopback_key(w.id)),
                     "breakouts": format_breakouts(w.breakouts),
                     "notes": w.rail if w.role is Role.LEAF else w.plane})
    return rows


def _interface_rows(fabric: Fabric, index: _Index) -> list[dict]:
    rows, addresses, peers = [], fabric.addresses, index.peers
    for server in fabric.sorted_servers():
        for nic in sorted(server.nics, key=lambda n: n.index):
            ep = nic.id
            rows.append({"device": server.id, "interface": nic.port, "kind": "nic", "netdev": nic.netdev,
                         "rdma": nic.rdma, "gpus": ",".join(map(str, nic.gpus)), "speed": nic.speed,
                         "breakout": None, "address": addresses.get(ep), "peer": peers.get(ep), "notes": nic.rail})
    for switch in _switches(fabric):
        prefix = switch.id + "/"
        for port in fabric.ports(switch.id).values():
            ep = prefix + port.name
            peer, address = peers.get(ep), addresses.get(ep)
            if peer is None and address is None:
                continue
            rows.append({"device": switch.id, "interface": port.name, "kind": "port", "netdev": None,
                         "rdma": None, "gpus": None, "speed": port.speed, "breakout": port.breakout,
                         "address": address, "peer": peer, "notes": index.rail(ep)})
    return rows


def _link_rows(fabric: Fabric, index: _Index) -> list[dict]:
    rows = []
    su_of = {d.id: d.su for d in (*fabric.servers.values(), *fabric.switches.values())}
    for link in fabric.sorted_links():
        (ad, ap), (bd, bp) = split_endpoint(link.a), split_endpoint(link.b)
        su = su_of[ad] if su_of[ad] is not None else su_of[bd]
        rail = index.rail(link.a)
        rows.append({"link": link.id, "a_device": ad, "a_port": ap, "b_device": bd, "b_port": bp,
                     "speed": link.speed, "su": su, "notes": rail if rail is not None else index.rail(link.b)})
    return rows


def _key_kind(index: _Index, key: str) -> tuple[str, str, int | None]:
    device, port = split_endpoint(key)
    if device in index.servers:
        return "nic", device, index.nic(key).rail
    switch = index.switches.get(device)
    rail = index.leaf_rail.get(device)
    if port == "svi":
        return "svi", device, rail
    if port == "lo":
        return "loopback", device, rail if rail is not None else (switch.plane if switch else None)
    return "port", device, index.rail(key) if switch is not None else None


def _ip_rows(fabric: Fabric, index: _Index) -> list[dict]:
    rows, addresses, pinned = [], fabric.addresses, fabric.is_pinned
    for key in sorted(addresses, key=natural_key):
        kind, device, rail = _key_kind(index, key)
        rows.append({"key": key, "address": addresses[key], "pinned": pinned(key),
                     "kind": kind, "device": device, "notes": rail})
    return rows


def _design(fabric: Fabric) -> dict:
    s = fabric.settings
    design = {
        "name": s.name, "description": s.description, "max_oversubscription": s.max_oversubscription,
        "spine_planes": s.spine_planes, "addressing": asdict(s.addressing), "asn": asdict(s.asn),
        "rails": [{"index": r.index, "name": r.name} for _, r in sorted(fabric.rails.items())],
        "sus": [{"index": u.index, "name": u.name} for _, u in sorted(fabric.sus.items())],
    }
    default = DesignSettings()
    if (fabric.cores() or any(w.group is not None for w in fabric.switches.values())
            or (s.max_spine_oversubscription, s.core_asn) != (default.max_spine_oversubscription, default.core_asn)):
        design[TIERS_KEY] = s.max_spine_oversubscription
        design["asn"]["core_asn"] = s.core_asn       # with the other ASNs here (the model keeps it in the settings)
    if s.fabric_planes > 1 or any(w.fabric_plane for w in fabric.switches.values()):
        design[PLANES_KEY] = s.fabric_planes
    if s.infiniband:
        design[KIND_KEY] = INFINIBAND
    if fabric.floor is not None:
        design[FLOOR_KEY] = floor_dict(fabric.floor)
    write_plan_settings(design, s)      # load_balancing, growth, lossless: as the design file writes them
    return design


def _add_guids(fabric: Fabric, doc: dict) -> None:
    """The InfiniBand columns: GUIDs (derived, as the SM files write them) and NCCL_IB_HCA."""
    from .ib_data import nccl_ib_hca
    for row in doc["devices"]:
        server = fabric.servers.get(row["id"])
        row["guid"] = None if server else guid_text(switch_guid(row["id"]))
        row["nccl_ib_hca"] = nccl_ib_hca(server) if server else None
    for row in doc["interfaces"]:
        nic = row["kind"] == "nic"
        row["guid"] = guid_text(hca_port_guid(row["device"], int(row["interface"][3:]))) if nic else None


def _add_planes(index: _Index, doc: dict) -> None:
    """The Fabric plane column on every sheet (a link's is its switch end's)."""
    for row in doc["devices"]:
        row["fabric_plane"] = index.plane(row["id"])
    for row in doc["interfaces"]:
        row["fabric_plane"] = index.plane(f"{row['device']}/{row['interface']}")
    for row in doc["links"]:
        row["fabric_plane"] = index.plane(row["a_device"] if row["a_device"] in index.switches else row["b_device"])
    for row in doc["ip_plan"]:
        row["fabric_plane"] = index.plane(row["key"])


def aid_document(fabric: Fabric) -> dict:
    """The whole AID as plain data (the JSON file's content)."""
    design, index = _design(fabric), _Index(fabric)
    doc = {"aid_format_version": AID_FORMAT_VERSION, "design": design, "devices": _device_rows(fabric),
           "interfaces": _interface_rows(fabric, index), "links": _link_rows(fabric, index),
           "ip_plan": _ip_rows(fabric, index)}
    if TIERS_KEY in design:
        for row in doc["devices"]:
            row["group"] = fabric.switches[row["id"]].group if row["role"] != "server" else None
    if PLANES_KEY in design:
        _add_planes(index, doc)
    if KIND_KEY in design:
        _add_guids(fabric, doc)
    return doc
