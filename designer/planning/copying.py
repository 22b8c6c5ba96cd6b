"""Copy, paste and duplicate: a `Clip` of devices (and the cables among them) as plain data, and
the new devices and cables a paste makes of it, with fresh ids in the target SU.

Ids follow the design's conventions (`naming`): servers ``suN-srvNN``, leaves ``suN-leaf-rK``
(``-2``, ``-3`` when the rail already has one), spines ``spine-NN`` / ``pK-spine-NN`` / ``sgG-spine-NN``,
cores ``cgG-core-NN`` (``plP-`` first in a multi-plane design). A pasted server keeps its model, rail
NICs, their fabric planes and NIC names; a pasted switch its model, rail, spine plane, spine or core
group, fabric plane and breakouts, so the copied cables land on the same ports. Cables to devices
outside the clip are not copied.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from ..model.entities import Nic, Role, Server, Switch
from ..model.fabric import Fabric
from ..model.ids import natural_key, split_endpoint
from .naming import next_core_id, next_leaf_id, next_server_id, next_spine_id

CLIP_FORMAT = "rail-designer-clip/1"


@dataclass(frozen=True)
class Clip:
    servers: tuple[Server, ...]
    switches: tuple[Switch, ...]
    links: tuple[tuple[str, str], ...]

    def __bool__(self) -> bool:
        return bool(self.servers or self.switches)

    def ids(self) -> list[str]:
        return [d.id for d in (*self.switches, *self.servers)]

    def to_json(self) -> str:
        return json.dumps({
            "format": CLIP_FORMAT,
            "servers": [{"id": s.id, "hostname": s.hostname, "model": s.model, "su": s.su, "gpus": s.gpus,
                         "nics": [[n.index, n.netdev, n.rdma, n.speed, list(n.gpus), n.rail, n.fabric_plane]
                                  for n in s.nics]}
                        for s in self.servers],
            "switches": [{"id": s.id, "role": s.role.value, "model": s.model, "su": s.su, "rail": s.rail,
                          "plane": s.plane, "breakouts": [list(b) for b in s.breakouts], "group": s.group,
                          "fabric_plane": s.fabric_plane} for s in self.switches],
            "links": [list(l) for l in self.links]}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "Clip":
        """Raises ValueError for anything that is not a clip this version wrote."""
        try:
            raw = json.loads(text)
            if raw.get("format") != CLIP_FORMAT:
                raise ValueError("not a rail-designer clip")
            servers = tuple(Server(s["id"], s["hostname"], s["model"], int(s["su"]),
                                   tuple(Nic(s["id"], int(i), nd, rd, int(sp), tuple(g), r, int(rest[0]) if rest else 0)
                                         for i, nd, rd, sp, g, r, *rest in s["nics"]), int(s["gpus"]))
                            for s in raw["servers"])
            switches = tuple(Switch(s["id"], s["id"], Role(s["role"]), s["model"], s["su"], s["rail"], s["plane"],
                                    tuple((int(c), str(m)) for c, m in s["breakouts"]), s.get("group"),
                                    int(s.get("fabric_plane", 0))) for s in raw["switches"])
            links = tuple((str(a), str(b)) for a, b in raw["links"])
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"the clipboard does not hold rail-designer devices ({exc})") from None
        return cls(servers, switches, links)


def copy_devices(fabric: Fabric, ids) -> Clip:
    """The devices among ``ids`` (NIC and cable ids count for nothing) and the cables among them; a copy
    has no place on the floor (the original keeps its rack)."""
    wanted = {i for i in ids if fabric.has_device(i)}
    servers = tuple(replace(fabric.servers[i], rack=None, position=None)
                    for i in sorted(wanted, key=natural_key) if i in fabric.servers)
    switches = tuple(replace(fabric.switches[i], rack=None, position=None)
                     for i in sorted(wanted, key=natural_key) if i in fabric.switches)
    links = tuple((l.a, l.b) for l in fabric.sorted_links()
                  if split_endpoint(l.a)[0] in wanted and split_endpoint(l.b)[0] in wanted)
    return Clip(servers, switches, links)


def paste_plan(fabric: Fabric, clip: Clip, su: int | None = None, new_su: bool = False):
    """The devices and cables pasting ``clip`` adds: into ``su`` (every SU-bound device), or each
    copied SU into a new SU after the design's last (``new_su``), or where each came from."""
    taken: set[str] = set()
    sus = sorted({d.su for d in (*clip.servers, *clip.switches) if d.su is not None})
    last = max([*fabric.sus, *(s.su for s in fabric.servers.values())], default=0)
    target = {old: (last + n + 1 if new_su else su if su is not None else old) for n, old in enumerate(sus)}
    names: dict[str, str] = {}
    devices: list = []
    for sw in clip.switches:
        new_id = _new_id(fabric, taken, sw, target.get(sw.su))
        names[sw.id] = new_id
        devices.append(replace(sw, id=new_id, hostname=new_id, su=target.get(sw.su) if sw.su is not None else None))
    for sv in clip.servers:
        to = target[sv.su]
        new_id = _new_id(fabric, taken, sv, to)
        names[sv.id] = new_id
        nics = tuple(replace(n, server_id=new_id) for n in sv.nics)
        devices.append(replace(sv, id=new_id, hostname=new_id, su=to, nics=nics, rack=None, position=None))
    links = [(_rename(a, names), _rename(b, names)) for a, b in clip.links]
    return devices, links


def _rename(ep: str, names: dict[str, str]) -> str:
    device, port = split_endpoint(ep)
    return f"{names[device]}/{port}"


def _new_id(fabric: Fabric, taken: set[str], device, su: int | None) -> str:
    if isinstance(device, Server):
        new = next_server_id(fabric, su, taken)
    elif device.role is Role.LEAF:
        new = next_leaf_id(fabric, su if su is not None else 0, device.rail or 0, taken, device.fabric_plane)
    elif device.role is Role.CORE:
        new = next_core_id(fabric, device.group or 1, taken, device.fabric_plane)
    else:
        new = next_spine_id(fabric, device.plane, taken, device.group, device.fabric_plane)
    taken.add(new)
    return new
