"""The cabling plan: stage 1 rows (one per cable), written as ``cabling.csv`` and ``topology.dot``.

Each cable's A end is a switch, so a technician works switch by switch: rows run in natural switch
order, then front-panel order. A cable is listed at its lower switch (where it is patched): a server
cable and a leaf-spine cable at the leaf, a spine-core cable at the spine. Devices are named by host
name, server ports by their OS interface name (what LLDP reports), switch sub-ports also by their lane
(the breakout sub-port index). A three-tier design adds a ``tier`` column (server-leaf, leaf-spine,
spine-core) and a multi-plane one a ``fabric_plane`` column; a design with a floor adds each end's rack
and unit, the length bought, the media and its parts and a label for each end (`floor_data`); other
designs keep the columns they had.
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter

from ..model.entities import TIER_RANK
from ..model.fabric import Fabric
from ..model.hardware import Port, parse_breakout
from ..model.ids import natural_key, split_endpoint
from .env import render
from .csvtext import csv_text
from .errors import require_hostname, require_port_name
from .floor_data import FLOOR_COLUMNS, floor_columns

COLUMNS = ["cable", "su", "rail", "a_device", "a_cage", "a_port", "a_lane",
           "b_device", "b_cage", "b_port", "b_lane", "speed_gbps", "cable_type"]
TIER, PLANE = "tier", "fabric_plane"          # the columns of three-tier and multi-plane designs


class _Ends:
    """Describes link ends; each device's name is checked once and its port order read once."""

    def __init__(self, fabric: Fabric):
        self.fabric = fabric
        self.hostnames: dict[str, str] = {}
        self.order: dict[str, dict[str, int]] = {}
        switches = sorted(fabric.switches, key=natural_key)
        self.switch_rank = {sid: i for i, sid in enumerate(switches)}
        self.rank = {sid: TIER_RANK[s.role] for sid, s in fabric.switches.items()}

    def hostname(self, device_id: str) -> str:
        name = self.hostnames.get(device_id)
        if name is None:
            name = self.hostnames[device_id] = require_hostname(self.fabric.device(device_id).hostname, device_id)
        return name

    def sort_key(self, device: str, port: str) -> tuple[int, int]:
        """(switch order, front-panel index) of a switch port."""
        order = self.order.get(device)
        if order is None:
            order = self.order[device] = {name: i for i, name in enumerate(self.fabric.ports(device))}
        return self.switch_rank[device], order[port]

    def cable(self, link) -> tuple:
        """(sort key of the A end, A end, B end), each end as (endpoint, device, port): the switch end
        first; between two switches the lower tier (where it is patched), else the first."""
        ends = []
        for ep in (link.a, link.b):
            device, port = split_endpoint(ep)
            if device in self.switch_rank:
                key = self.sort_key(device, port)
                ends.append(((self.rank[device],) + key, key, (ep, device, port)))
            else:
                ends.append(((3,), None, (ep, device, port)))
        first, second = ends if ends[0][0] <= ends[1][0] else ends[::-1]
        return first[1], first[2], second[2]

    def describe(self, end: tuple[str, str, str]) -> dict:
        ep, device_id, port_name = end
        hostname = self.hostname(device_id)
        if device_id in self.switch_rank:
            require_port_name(port_name, device_id)
            cage, lane, count, cage_speed = _cage(self.fabric.ports(device_id)[port_name])
            return {"device": hostname, "cage": cage, "port": port_name, "lane": lane, "breakout": count,
                    "cage_speed": cage_speed}
        nic = self.fabric.nic(ep)
        require_port_name(nic.netdev, device_id)
        return {"device": hostname, "cage": "", "port": nic.netdev, "lane": "", "breakout": 1,
                "cage_speed": nic.speed, "su": self.fabric.servers[device_id].su, "rail": nic.rail}


@lru_cache(maxsize=4096)
def _cage(port: Port) -> tuple:
    """(cage, lane, sub-ports of the cage, cage speed) of a switch port (shared by every switch of a model)."""
    count, _ = parse_breakout(port.breakout)
    return port.cage, port.sub if count > 1 else "", count, count * port.speed


def cable_type(speed: int, a: dict, b: dict) -> str:
    split = [e for e in (a, b) if e["breakout"] > 1]
    if not split:
        return f"{speed}G DAC/AOC"
    e = split[0]
    return f"{e['cage_speed']}G to {e['breakout']}x{speed}G breakout cable (lane {e['lane']})"


def columns(fabric: Fabric) -> list[str]:
    """cabling.csv's columns for this design."""
    extra = ([TIER] if fabric.cores() else []) + ([PLANE] if fabric.settings.fabric_planes > 1 else [])
    return COLUMNS[:3] + extra + COLUMNS[3:] + (FLOOR_COLUMNS if fabric.floor is not None else [])


def _tier(a_switch, b_device: str, fabric: Fabric) -> str:
    b = fabric.switches.get(b_device)
    lower = a_switch.role.value if b is not None else "server"
    upper = b.role.value if b is not None else a_switch.role.value
    return f"{lower}-{upper}"


def cable_rows(fabric: Fabric) -> list[dict]:
    """One row per cable, A = switch end, in natural switch order then front-panel order."""
    ends = _Ends(fabric)
    tiers, planes, floor = bool(fabric.cores()), fabric.settings.fabric_planes > 1, fabric.floor is not None
    ordered = sorted((ends.cable(link) + (link.speed,) for link in fabric.links.values()), key=lambda r: r[0])
    width = max(4, len(str(len(ordered))))
    rows = []
    for n, (_, a_end, b_end, speed) in enumerate(ordered, 1):
        a, b = ends.describe(a_end), ends.describe(b_end)
        switch = fabric.switches[a_end[1]]
        su, rail = (b["su"], b["rail"]) if "su" in b else (switch.su, switch.rail)
        row = {"cable": f"C{n:0{width}d}", "su": _blank(su), "rail": _blank(rail),
               "a_device": a["device"], "a_cage": a["cage"], "a_port": a["port"], "a_lane": a["lane"],
               "b_device": b["device"], "b_cage": b["cage"], "b_port": b["port"], "b_lane": b["lane"],
               "speed_gbps": speed, "cable_type": cable_type(speed, a, b)}
        if tiers:
            row[TIER] = _tier(switch, b_end[1], fabric)
        if planes:
            row[PLANE] = switch.fabric_plane
        if floor:
            link = fabric.link_at(a_end[0])
            row.update(floor_columns(fabric, link.id, a_end[0], b_end[0],
                                     (a["device"], a["port"], b["device"], b["port"]), row["cable"],
                                     row["cable_type"]))
        rows.append(row)
    return rows


def _blank(value):
    return "" if value is None else value


def cabling_csv(rows: list[dict], names: list[str] = COLUMNS) -> str:
    """The rows as CSV with the design's ``names`` (`columns`)."""
    if rows and rows[0].keys() != set(names):
        raise ValueError(f"cabling rows have the columns {sorted(rows[0])}, not {sorted(names)}")
    return csv_text(names, list(map(itemgetter(*names), rows)))


def topology_dot(rows: list[dict]) -> str:
    """The wiring in the DOT form Cumulus PTM reads: ``"host":"port" -- "host":"port";``."""
    return render("ptm/topology.dot.j2", rows=rows)
