"""What a source of truth should hold for a design: every object by name, no server ids.

`desired(fabric)` gives a `State`: per kind (in the order they must be written), a mapping from the
object's natural key to its fields. References are names too (a device's ``rack`` is the rack's name, a
cable's ends are ``device/interface``), so the same state is compared with what Nautobot or NetBox holds
and turned into either API's bodies by `nautobot` / `netbox`.

What each kind carries:
  manufacturer, device_type (`devicetypes`), role (gpu-server, rail-leaf, spine, core),
  location (one site named after the design; its ``design`` field holds the design-wide part of the
  design file that no object stands for: settings, rails, SUs, floor, custom models),
  rack (the floor's racks), device (type, role, rack, unit; custom fields su, rail, plane and
  ``rail_designer``: the device's design-file fields that no object holds, such as host name, spine
  group, breakouts, NIC overrides, its ASN and which addresses are pinned),
  interface (every switch port under its breakouts: a broken-out cage is a parent ``etp<cage>`` with
  its sub-ports as children; each server NIC by its OS name, labelled ``nic<i>``; Loopback0 and the
  server VLAN's SVI where the design addresses them; custom fields rail, plane, gpu_index),
  cable (the design's cables: ends, type and length from the cable plan, label = the design's cable id),
  prefix (each address pool), ip (each address on its interface), asn (each ASN the design uses, for a
  server with ASN objects: NetBox's; the devices' own ASNs ride in their rail_designer field either way).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.entities import Role, Server, Switch
from ..model.fabric import Fabric
from ..model.ids import natural_key, split_endpoint
from .devicetypes import device_type
from .errors import SotError

KINDS = ("manufacturer", "device_type", "role", "location", "asn", "rack", "device", "interface", "cable", "prefix",
         "ip")
TAG = "rail-designer"          # marks every object the tool created: the only ones it ever deletes
SERVER_ROLE = "gpu-server"
ROLES = {Role.LEAF: "rail-leaf", Role.SPINE: "spine", Role.CORE: "core"}
ROLE_COLORS = {"gpu-server": "4caf50", "rail-leaf": "2196f3", "spine": "9c27b0", "core": "f44336"}
LOOPBACK, SVI = "Loopback0", "Vlan1000"        # SONiC's names (switch_data.SERVER_VLAN is 1000)
VIRTUAL = {"lo": LOOPBACK, "svi": SVI}         # address key suffix -> the virtual interface holding it
# (cage form factor, speed Gb/s) -> the interface type both NetBox and Nautobot name it by.
_TYPES = {("osfp", 800): "800gbase-x-osfp", ("osfp", 400): "400gbase-x-osfp",
          ("qsfp-dd", 800): "800gbase-x-qsfpdd", ("qsfp-dd", 400): "400gbase-x-qsfpdd",
          ("qsfp112", 400): "400gbase-x-qsfp112", ("qsfp56", 200): "200gbase-x-qsfp56",
          ("qsfp28", 100): "100gbase-x-qsfp28", ("qsfp-dd", 100): "100gbase-x-qsfpdd"}
# The cable plan's media kinds -> cable types.
_CABLE_TYPES = {"dac": "dac-passive", "acc": "dac-active", "aoc": "aoc"}
# A device's design-file fields that native objects hold (everything else goes in rail_designer).
NATIVE_FIELDS = ("id", "role", "model", "su", "rail", "plane", "rack", "position")


@dataclass
class State:
    objects: dict[str, dict[str, dict]] = field(default_factory=lambda: {k: {} for k in KINDS})

    def count(self) -> int:
        return sum(len(v) for v in self.objects.values())


def interface_type(form: str, speed: int) -> str:
    return _TYPES.get((form, speed), "other")


def desired(fabric: Fabric) -> State:
    from ..storage.design_file import to_document
    state = State()
    o = state.objects
    doc = to_document(fabric)
    site = fabric.settings.name
    o["location"][site] = {"design": {k: v for k, v in doc.items() if k not in ("switches", "servers")}}
    if fabric.floor is not None:
        for rack in sorted(fabric.floor.racks, key=lambda r: natural_key(r.id)):
            o["rack"][rack.id] = {"location": site, "u_height": rack.height_u}
    for role in (SERVER_ROLE, *ROLES.values()):
        o["role"][role] = {"color": ROLE_COLORS[role]}
    records = {r["id"]: r for r in doc["switches"] + doc["servers"]}
    for device in [*sorted(fabric.switches.values(), key=lambda d: natural_key(d.id)), *fabric.sorted_servers()]:
        _device(fabric, device, records[device.id], site, o)
    for asn in sorted(set(fabric.asns.values())):
        o["asn"][str(asn)] = {"location": site}
    _addresses(fabric, o)
    _cables(fabric, o)
    _prefixes(fabric, o)
    return state


def _device(fabric: Fabric, device: Server | Switch, record: dict, site: str, o) -> None:
    server = isinstance(device, Server)
    dtype = device_type(fabric.catalog, device.model, server)
    o["manufacturer"].setdefault(dtype.manufacturer, {})
    o["device_type"][dtype.model] = {"manufacturer": dtype.manufacturer, "part_number": dtype.part_number,
                                     "u_height": dtype.u_height, "is_full_depth": dtype.is_full_depth,
                                     "comments": dtype.comments}
    extras = {k: v for k, v in record.items() if k not in NATIVE_FIELDS}
    plan, asn = fabric.plan_of(device.id)
    pinned = sorted((key.partition("/")[2] for key, (_, pin) in plan.items() if pin), key=natural_key)
    if pinned:
        extras["pinned"] = pinned
    if asn is not None:
        extras["asn"] = asn[0]
        if asn[1]:
            extras["asn_pinned"] = True
    o["device"][device.id] = {
        "device_type": dtype.model, "role": SERVER_ROLE if server else ROLES[device.role], "location": site,
        "rack": device.rack, "position": device.position, "face": "front" if device.position else None,
        "cf": {"su": device.su, "rail": None if server else device.rail, "plane": None if server else device.plane,
               "rail_designer": extras}}
    if server:
        for nic in device.nics:
            o["interface"][f"{device.id}/{nic.netdev}"] = {
                "device": device.id, "name": nic.netdev, "type": interface_type(
                    fabric.catalog.server(device.model).nic_form_factor, nic.speed),
                "parent": None, "label": nic.port,
                "cf": {"rail": nic.rail, "plane": nic.fabric_plane, "gpu_index": ",".join(map(str, nic.gpus))}}
        return
    model = fabric.catalog.switch(device.model)
    for port in fabric.ports(device.id).values():
        parent = None
        if not port.breakout.startswith("1x"):
            parent = f"etp{port.cage}"
            o["interface"].setdefault(f"{device.id}/{parent}", {
                "device": device.id, "name": parent, "type": interface_type(model.form_factor, model.speed),
                "parent": None, "label": "", "cf": {"rail": device.rail, "plane": device.fabric_plane, "gpu_index": None}})
        o["interface"][f"{device.id}/{port.name}"] = {
            "device": device.id, "name": port.name, "type": interface_type(model.form_factor, port.speed),
            "parent": parent, "label": port.alias,
            "cf": {"rail": device.rail, "plane": device.fabric_plane, "gpu_index": None}}


def interface_of(fabric: Fabric, ep: str) -> str:
    """The ``device/interface`` key a design endpoint (a switch port or ``server/nic<i>``) is in the state."""
    device_id, port = split_endpoint(ep)
    server = fabric.servers.get(device_id)
    if server is not None:
        return f"{device_id}/{fabric.nic(ep).netdev}"
    return ep


def _addresses(fabric: Fabric, o) -> None:
    interfaces = o["interface"]
    for key in sorted(fabric.addresses, key=natural_key):
        device_id, name = split_endpoint(key)
        if name in VIRTUAL:
            where = f"{device_id}/{VIRTUAL[name]}"
            interfaces.setdefault(where, {"device": device_id, "name": VIRTUAL[name], "type": "virtual",
                                          "parent": None, "label": name,
                                          "cf": {"rail": None, "plane": None, "gpu_index": None}})
        else:
            where = interface_of(fabric, key)
            if where not in interfaces:
                raise SotError(f"the address {key} is on no interface the source of truth would hold")
        cidr = fabric.addresses[key]
        if cidr in o["ip"]:
            raise SotError(f"the address {cidr} is on both {o['ip'][cidr]['interface']} and {where}: a source of "
                           "truth keeps each address once; give one of them another")
        o["ip"][cidr] = {"interface": where}


def _cables(fabric: Fabric, o) -> None:
    from ..planning.cable_plan import cable_plan
    plan = cable_plan(fabric)
    for link in fabric.sorted_links():
        choice = plan.choices.get(link.id) if plan is not None else None
        o["cable"][link.id] = {"a": interface_of(fabric, link.a), "b": interface_of(fabric, link.b),
                               "type": _cable_type(choice), "length": plan.metres(link.id) if plan else None,
                               "label": link.id}


def _cable_type(choice) -> str | None:
    if choice is None or not choice.media:
        return None
    if choice.kind == "optics":
        return "mmf" if "mmf" in choice.media else "smf"
    return _CABLE_TYPES.get(choice.kind)


def _prefixes(fabric: Fabric, o) -> None:
    from ..planning.addressing import requirements
    for need in requirements(fabric):
        kind = "container" if "supernet" in need.name else "network"
        o["prefix"].setdefault(need.cidr, {"description": f"rail-designer {need.name}", "type": kind,
                                           "location": fabric.settings.name})
