"""The cabling plan: stage 1 rows (one per cable), written as ``cabling.csv`` and ``topology.dot``.

Each cable's A end is a switch, so a technician works switch by switch: rows run in natural switch
order, then front-panel order. A leaf-spine cable is listed at its leaf (where it is patched),
a server cable at its leaf. Devices are named by host name, server ports by their OS interface name
(what LLDP reports), switch sub-ports also by their lane (the breakout sub-port index).
"""

from __future__ import annotations

import csv
import io

from ..model.entities import Role, Switch
from ..model.fabric import Fabric
from ..model.hardware import parse_breakout
from ..model.ids import natural_key, split_endpoint
from .env import render
from .errors import require_hostname, require_port_name

COLUMNS = ["cable", "su", "rail", "a_device", "a_cage", "a_port", "a_lane",
           "b_device", "b_cage", "b_port", "b_lane", "speed_gbps", "cable_type"]


def _a_side(fabric: Fabric, a: str, b: str) -> tuple[str, str]:
    """Order a link's ends: the switch end first; between switches the leaf, else the natural first."""
    def rank(ep: str) -> tuple:
        device = fabric.switches.get(split_endpoint(ep)[0])
        role = 2 if device is None else (0 if device.role is Role.LEAF else 1)
        return (role, natural_key(ep))
    return (a, b) if rank(a) <= rank(b) else (b, a)


def _end(fabric: Fabric, ep: str) -> dict:
    device_id, port_name = split_endpoint(ep)
    device = fabric.device(device_id)
    require_hostname(device.hostname, device_id)
    if isinstance(device, Switch):
        port = fabric.port(ep)
        require_port_name(port_name, device_id)
        count, _ = parse_breakout(port.breakout)
        return {"device": device.hostname, "cage": port.cage, "port": port_name,
                "lane": port.sub if count > 1 else "", "breakout": count, "cage_speed": count * port.speed}
    nic = fabric.nic(ep)
    require_port_name(nic.netdev, device_id)
    return {"device": device.hostname, "cage": "", "port": nic.netdev, "lane": "", "breakout": 1,
            "cage_speed": nic.speed, "su": device.su, "rail": nic.rail}


def cable_type(speed: int, a: dict, b: dict) -> str:
    split = [e for e in (a, b) if e["breakout"] > 1]
    if not split:
        return f"{speed}G DAC/AOC"
    e = split[0]
    return f"{e['cage_speed']}G to {e['breakout']}x{speed}G breakout cable (lane {e['lane']})"


def _front_panel_order(fabric: Fabric):
    cache: dict[str, dict[str, int]] = {}

    def index(ep: str) -> int:
        device, port = split_endpoint(ep)
        if device not in cache:
            cache[device] = {name: i for i, name in enumerate(fabric.ports(device))}
        return cache[device][port]
    return index


def cable_rows(fabric: Fabric) -> list[dict]:
    """One row per cable, A = switch end, in natural switch order then front-panel order."""
    port_index = _front_panel_order(fabric)
    ordered = sorted((_a_side(fabric, link.a, link.b) + (link.speed,) for link in fabric.links.values()),
                     key=lambda r: (natural_key(split_endpoint(r[0])[0]), port_index(r[0])))
    width = max(4, len(str(len(ordered))))
    rows = []
    for n, (a_ep, b_ep, speed) in enumerate(ordered, 1):
        a, b = _end(fabric, a_ep), _end(fabric, b_ep)
        switch = fabric.switches[split_endpoint(a_ep)[0]]
        su, rail = (b["su"], b["rail"]) if "su" in b else (switch.su, switch.rail)
        rows.append({"cable": f"C{n:0{width}d}", "su": _blank(su), "rail": _blank(rail),
                     "a_device": a["device"], "a_cage": a["cage"], "a_port": a["port"], "a_lane": a["lane"],
                     "b_device": b["device"], "b_cage": b["cage"], "b_port": b["port"], "b_lane": b["lane"],
                     "speed_gbps": speed, "cable_type": cable_type(speed, a, b)})
    return rows


def _blank(value):
    return "" if value is None else value


def cabling_csv(rows: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def topology_dot(rows: list[dict]) -> str:
    """The wiring in the DOT form Cumulus PTM reads: ``"host":"port" -- "host":"port";``."""
    return render("ptm/topology.dot.j2", rows=rows)
