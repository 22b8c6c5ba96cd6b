"""How long each cable is, from where its two ends stand on the floor.

The routing model (overhead tray, Manhattan):

- A rack stands at ``x = (position - 0.5) * rack_width`` along its row and ``y = row.index * (rack_depth +
  aisle)`` across the rows (every hall's rows on one grid).
- A device's ports are at the middle of its units: ``z = (lowest unit - 1 + units / 2) * 44.45 mm``.
- Between two racks a cable goes up inside the first rack to its top, up ``tray_mm`` into the tray, along
  the tray ``|dx| + |dy|`` (along the row, then across rows), down ``tray_mm`` and down inside the far
  rack to its device. Inside one rack it runs the vertical manager: ``|z_a - z_b|``.
- The length needed is that route times ``1 + slack_percent / 100`` plus ``slack_end_m`` at each end; the
  media catalogue then rounds it up to a length that is sold (`planning.media`).

`CableRuns` keeps every cable's run and recomputes only the cables an edit can change: a rack moved or
resized (the cables of the devices in it), a device placed (its cables), a cable added or removed, or
every cable when the floor's settings change.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import events as ev
from ..model.floor import UNIT_MM
from ..model.ids import split_endpoint


@dataclass(frozen=True, slots=True)
class Run:
    routed_m: float       # the route over the tray (or inside the rack)
    needed_m: float       # with the slack: the shortest cable that does


class _Geometry:
    """Rack coordinates (m) and the settings, taken once per computation."""

    def __init__(self, fabric):
        floor = fabric.floor
        s = floor.settings
        self.settings = s
        pitch = (s.rack_depth_mm + s.aisle_mm) / 1000
        rows = {r.id: r.index for r in floor.rows}
        self.racks = {r.id: ((r.position - 0.5) * s.rack_width_mm / 1000, rows.get(r.row, 0) * pitch,
                             r.height_u * UNIT_MM / 1000) for r in floor.racks}
        self.tray = s.tray_mm / 1000
        self.scale = 1 + s.slack_percent / 100
        self.ends = 2 * s.slack_end_m


def _place(fabric, device_id: str, geometry: _Geometry):
    """(rack x, y, top, port height) of a device, or None when it has no place on the floor."""
    device = fabric.servers.get(device_id) or fabric.switches.get(device_id)
    if device is None or device.position is None:
        return None
    rack = geometry.racks.get(device.rack)
    if rack is None:
        return None
    z = (device.position - 1 + fabric.device_units(device) / 2) * UNIT_MM / 1000
    return rack[0], rack[1], rack[2], z, device.rack


def run_between(a, b, geometry: _Geometry) -> Run:
    ax, ay, atop, az, arack = a
    bx, by, btop, bz, brack = b
    if arack == brack:
        routed = abs(az - bz)
    else:
        routed = (atop - az) + geometry.tray + abs(ax - bx) + abs(ay - by) + geometry.tray + (btop - bz)
    return Run(round(routed, 3), round(routed * geometry.scale + geometry.ends, 3))


class CableRuns:
    """Every cable's `Run` (None for a cable with an end not on the floor), kept up to date by `refresh`."""

    def __init__(self, fabric):
        self.fabric = fabric
        self.runs: dict[str, Run | None] = {}
        self._links_of: dict[str, set[str]] = {}      # device id -> its cables
        self._in_rack: dict[str, set[str]] = {}       # rack id -> devices standing in it
        self._rack_of: dict[str, str] = {}            # and back: device id -> its rack
        self.recomputed = 0                           # cables the last refresh computed (for the bench)
        self.last: set[str] | None = None             # the cables it recomputed (None: all)
        self.compute_all()

    def compute_all(self) -> None:
        fabric = self.fabric
        self.last = None
        self._links_of, self._in_rack, self._rack_of, self.runs = {}, {}, {}, {}
        for link_id, link in fabric.links.items():
            for ep in (link.a, link.b):
                self._links_of.setdefault(ep.partition("/")[0], set()).add(link_id)
        for device in (*fabric.servers.values(), *fabric.switches.values()):
            if device.rack is not None:
                self._in_rack.setdefault(device.rack, set()).add(device.id)
                self._rack_of[device.id] = device.rack
        self._compute(fabric.links)

    def _compute(self, link_ids) -> None:
        fabric = self.fabric
        if fabric.floor is None:
            self.runs = {link_id: None for link_id in fabric.links}
            self.recomputed = len(self.runs)
            return
        geometry = _Geometry(fabric)
        places: dict[str, object] = {}
        count = 0
        for link_id in link_ids:
            link = fabric.links.get(link_id)
            if link is None:
                self.runs.pop(link_id, None)
                continue
            ends = []
            for ep in (link.a, link.b):
                device = ep.partition("/")[0]
                if device not in places:
                    places[device] = _place(fabric, device, geometry)
                ends.append(places[device])
            self.runs[link_id] = None if None in ends else run_between(ends[0], ends[1], geometry)
            count += 1
        self.recomputed = count

    def refresh(self, touched: ev.Touched) -> None:
        """Recompute what the events ``touched`` names can have changed."""
        if touched.everything or "" in touched.floor:
            self.compute_all()
            return
        fabric = self.fabric
        dirty: set[str] = set()
        for link_id in touched.links:
            dirty.add(link_id)
            link = fabric.links.get(link_id)
            ends = (link.a, link.b) if link is not None else split_link(link_id)
            for ep in ends:
                owner = self._links_of.setdefault(ep.partition("/")[0], set())
                (owner.add if link is not None else owner.discard)(link_id)
        for device_id in touched.devices:
            was = self._rack_of.pop(device_id, None)
            if was is not None:
                self._in_rack.get(was, set()).discard(device_id)
            device = fabric.servers.get(device_id) or fabric.switches.get(device_id)
            if device is not None and device.rack is not None:
                self._in_rack.setdefault(device.rack, set()).add(device_id)
                self._rack_of[device_id] = device.rack
            dirty |= self._links_of.get(device_id, set())
        for rack_id in touched.floor:
            for device_id in self._in_rack.get(rack_id, ()):
                dirty |= self._links_of.get(device_id, set())
        self._compute(sorted(dirty))
        self.last = dirty


def split_link(link_id: str) -> tuple[str, str]:
    a, _, b = link_id.partition("~")
    split_endpoint(a)
    return a, b
