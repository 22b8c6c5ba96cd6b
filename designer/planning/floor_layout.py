"""Place a design on a floor, SuperPOD-style, without moving anything that already has a place.

- Row ``row-net`` (index 0, the network row) holds the spines and cores, in racks ``net-r01``, ...
- SU n has its own row ``row-su<n>`` (index n): compute racks ``su<n>-r01``, ... and its leaves in the
  network rack ``su<n>-net1`` (``-net2`` when one is full) standing in the middle of the row, so the
  server-to-leaf cables stay short.
- A compute rack takes up to ``servers_per_rack`` servers, fewer when its height, power budget
  (``compute_rack_kw``) or weight budget would be exceeded; a network rack takes switches up to its
  height and ``network_rack_kw``. Devices stack from unit 1 upwards, in natural id order.

`lay_out` places only devices without a rack of the floor, so `grow` calls it after adding SUs or
servers: what was there stays where it stood, the new devices go into free room or new racks.
"""

from __future__ import annotations

import re
from bisect import insort

from ..model.entities import Role, Server
from ..model.fabric import Fabric
from ..model.floor import FloorSettings, Rack, Row
from ..model.ids import natural_key

HALL = "hall1"
NETWORK_ROW = "row-net"


class _Room:
    """What is left in a rack: the next free unit, power (W) and weight (kg), servers in it."""

    def __init__(self, fabric: Fabric, rack: Rack):
        self.rack, self.unit, self.power, self.weight, self.servers = rack, 1, 0.0, 0.0, 0
        self.fabric = fabric

    def add(self, device) -> None:
        model = self.fabric.device_model(device)
        self.unit = max(self.unit, (device.position or 1) + model.rack_units)
        self.power += model.power_w or 0.0
        self.weight += model.weight_kg or 0.0
        self.servers += isinstance(device, Server)

    def fits(self, device, settings: FloorSettings) -> bool:
        model = self.fabric.device_model(device)
        if isinstance(device, Server) and self.servers >= settings.servers_per_rack:
            return False
        return (self.unit + model.rack_units - 1 <= self.rack.height_u
                and self.power + (model.power_w or 0.0) <= self.rack.power_kw * 1000
                and self.weight + (model.weight_kg or 0.0) <= self.rack.weight_kg)


def lay_out(fabric: Fabric, settings: FloorSettings | None = None) -> list[str]:
    """Give every device without a rack of the floor a place (the floor made first, with ``settings``,
    when the design has none); returns the ids of the racks added."""
    with fabric.batch():
        if fabric.floor is None:
            fabric.set_floor(settings or FloorSettings())
        settings = fabric.floor.settings
        rooms: dict[str, _Room] = {rack_id: _Room(fabric, rack) for rack_id, rack in fabric.racks.items()}
        for device in (*fabric.servers.values(), *fabric.switches.values()):
            if device.rack in rooms:
                rooms[device.rack].add(device)
        added: list[str] = []
        kinds: dict[str, list[_Room]] = {}       # a layout name stem -> its racks' rooms, in natural order
        for rack_id in sorted(rooms, key=natural_key):
            kinds.setdefault(_kind_of(rack_id), []).append(rooms[rack_id])
        waiting = [d for d in (*fabric.servers.values(), *fabric.switches.values()) if d.rack not in rooms]
        for device in sorted(waiting, key=lambda d: (_group(d), natural_key(d.id))):
            room = _room_for(fabric, settings, rooms, kinds, device, added)
            fabric.set_place(device.id, room.rack.id, room.unit)
            room.add(fabric.device(device.id))
    return added


def _group(device) -> tuple:
    """(SU or 0 for the network row, network 1 / compute 2) of a device: an SU's leaves are placed first,
    so its network rack takes the middle of the row before the compute racks fill around it."""
    if isinstance(device, Server):
        return (device.su, 2)
    if device.role is Role.LEAF and device.su is not None:
        return (device.su, 1)
    return (0, 1)


def _room_for(fabric: Fabric, settings: FloorSettings, rooms: dict, kinds: dict, device, added: list) -> _Room:
    su, kind = _group(device)
    network = kind == 1
    prefix = f"su{su}-net" if su and network else f"su{su}-r" if su else "net-r"
    mine = kinds.setdefault(prefix, [])
    for room in mine:
        if room.fits(device, settings):
            return room
    row = _row(fabric, su)
    number = len(mine) + 1
    rack_id = f"{prefix}{number}" if prefix.endswith("-net") else f"{prefix}{number:02d}"
    position = _position(fabric, settings, row, su, network)
    kw = settings.network_rack_kw if network else settings.compute_rack_kw
    rack = Rack(rack_id, row, position, settings.rack_height_u, kw, settings.rack_weight_kg)
    fabric.add_rack(rack)
    added.append(rack_id)
    rooms[rack_id] = room = _Room(fabric, rack)
    insort(mine, room, key=lambda r: natural_key(r.rack.id))
    return room


def _kind_of(rack_id: str) -> str:
    """The layout's name stem of a rack: ``su3-r``, ``su3-net``, ``net-r`` (other names: themselves)."""
    m = re.fullmatch(r"(su[0-9]+-net|su[0-9]+-r|net-r)[0-9]+", rack_id)
    return m.group(1) if m else rack_id


def _row(fabric: Fabric, su: int) -> str:
    row_id = f"row-su{su}" if su else NETWORK_ROW
    if row_id not in fabric.rows:
        taken = {r.index for r in fabric.rows.values()}
        index = su if su not in taken else max(taken) + 1
        fabric.add_row(Row(row_id, HALL, index))
    return row_id


def _position(fabric: Fabric, settings: FloorSettings, row: str, su: int, network: bool) -> int:
    """The lowest free slot of the row; an SU's first network rack stands in the middle of the compute
    racks its servers will need, and compute racks fill the slots around it."""
    taken = {r.position for r in fabric.racks.values() if r.row == row}
    if su and network and not taken:
        plan = fabric.settings.growth             # a planned SU's row is laid out for its final size
        servers = sum(1 for s in fabric.servers.values() if s.su == su)
        servers = max(servers, plan.final_servers_per_su if plan is not None else 0)
        return (-(-servers // max(1, settings.servers_per_rack))) // 2 + 1
    position = 1
    while position in taken:
        position += 1
    return position


def copy_floor(source: Fabric, target: Fabric) -> None:
    """Give ``target`` the floor of ``source`` and the places of the devices both have."""
    floor = source.floor
    if floor is None:
        return
    with target.batch():
        target.set_floor(floor.settings)
        for row in floor.rows:
            target.add_row(row)
        for rack in floor.racks:
            target.add_rack(rack)
        for device in (*source.servers.values(), *source.switches.values()):
            if target.has_device(device.id) and device.rack is not None:
                target.set_place(device.id, device.rack, device.position)
