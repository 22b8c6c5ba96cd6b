"""Bulk wiring plans for the window's bulk edits (pure: they say what to cable, the caller cables).

- `rail_cabling`: every rail NIC of the given servers onto a leaf of its rail in its server's SU.
- `spine_mesh`: every given leaf onto the spines of its plane, evenly, with enough uplinks for the
  design's allowed oversubscription.

Each returns what to do and, for what cannot be done, one readable line naming the object.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..model.entities import Role
from ..model.fabric import Fabric
from ..model.ids import endpoint, natural_key, split_endpoint
from .topology import leaf_links, spines_of_plane


@dataclass
class Plan:
    steps: list[tuple[str, str]] = field(default_factory=list)   # (from endpoint or NIC, to endpoint)
    problems: list[str] = field(default_factory=list)
    already: int = 0                                             # how many were already as asked


class _FreePorts:
    """Free ports per switch, handed out once each within one plan."""

    def __init__(self, fabric: Fabric):
        self.fabric = fabric
        self._free: dict[str, list] = {}

    def ports(self, switch_id: str) -> list:
        if switch_id not in self._free:
            self._free[switch_id] = list(self.fabric.free_ports(switch_id))
        return self._free[switch_id]

    def take(self, switch_id: str, speed: int, last: bool = False) -> str | None:
        free = self.ports(switch_id)
        order = range(len(free) - 1, -1, -1) if last else range(len(free))
        for i in order:
            if free[i].speed == speed:
                return endpoint(switch_id, free.pop(i).name)
        return None

    def speeds(self, switch_id: str) -> set[int]:
        return {p.speed for p in self.ports(switch_id)}


def rail_cabling(fabric: Fabric, nic_ids) -> Plan:
    """Cable (or re-cable) each NIC onto a leaf of its rail in its server's SU. A NIC already on
    such a leaf is left alone; a NIC without a rail is skipped with a note."""
    plan, free = Plan(), _FreePorts(fabric)
    leaves: dict[tuple, list[str]] = {}
    for leaf in fabric.leaves():
        leaves.setdefault((leaf.su, leaf.rail), []).append(leaf.id)
    for nic_id in sorted(set(nic_ids), key=natural_key):
        nic = fabric.nic(nic_id)
        su = fabric.servers[nic.server_id].su
        if nic.rail is None:
            plan.problems.append(f"{nic_id} has no rail; give it one in the inspector first")
            continue
        candidates = leaves.get((su, nic.rail), [])
        peer = fabric.peer(nic_id)
        if peer is not None and split_endpoint(peer)[0] in candidates:
            plan.already += 1
            continue
        if not candidates:
            plan.problems.append(f"SU{su} has no leaf of rail {nic.rail} for {nic_id}; add one from the palette")
            continue
        port = next((p for p in (free.take(c, nic.speed) for c in candidates) if p), None)
        if port is None:
            plan.problems.append(f"{', '.join(candidates)} ha{'s' if len(candidates) == 1 else 've'} no free "
                                 f"{nic.speed}G port left for {nic_id}")
            continue
        plan.steps.append((nic_id, port))
    return plan


def spine_mesh(fabric: Fabric, leaf_ids) -> Plan:
    """Uplinks from each leaf to every spine of its plane, spread evenly: at least one per spine,
    and enough for the design's allowed oversubscription over the leaf's server cables."""
    plan, free = Plan(), _FreePorts(fabric)
    ratio = fabric.settings.max_oversubscription or 1.0
    for leaf_id in sorted(set(leaf_ids), key=natural_key):
        leaf = fabric.switches[leaf_id]
        if leaf.role is not Role.LEAF:
            plan.problems.append(f"{leaf_id} is a spine; select leaves to connect to the spines")
            continue
        spines = spines_of_plane(fabric, leaf.rail)
        if not spines:
            where = f"plane {leaf.rail}" if fabric.settings.spine_planes == "per-rail" else "the design"
            plan.problems.append(f"{where} has no spines for {leaf_id}; add spines from the palette")
            continue
        links = leaf_links(fabric, leaf_id)
        per_spine = {s: 0 for s in spines}
        for _, spine_ep in links.uplinks:
            spine = split_endpoint(spine_ep)[0]
            if spine in per_spine:
                per_spine[spine] += 1
        speed = _uplink_speed(fabric, free, leaf_id, spines, links)
        if speed is None:
            plan.problems.append(f"{leaf_id} and the spines of its plane have no free ports of a common speed")
            continue
        down = sum(p.speed for p, _ in links.downlinks)
        have = sum(per_spine.values())
        want = max(math.ceil(down / (ratio * speed)) if down else 0, len(spines))
        want = len(spines) * math.ceil(want / len(spines))          # even over the spines
        if have >= want and all(per_spine.values()):
            plan.already += 1
            continue
        for _ in range(max(want - have, sum(1 for n in per_spine.values() if not n))):
            spine = min(per_spine, key=lambda s: (per_spine[s], natural_key(s)))
            leaf_port = free.take(leaf_id, speed, last=True)
            if leaf_port is None:
                plan.problems.append(f"{leaf_id} ran out of free {speed}G ports: {sum(per_spine.values())} of "
                                     f"{want} uplinks")
                break
            spine_port = free.take(spine, speed)
            if spine_port is None:
                free.ports(leaf_id).append(fabric.port(leaf_port))
                plan.problems.append(f"{spine} has no free {speed}G port left for {leaf_id}")
                per_spine.pop(spine)
                if not per_spine:
                    break
                continue
            plan.steps.append((leaf_port, spine_port))
            per_spine[spine] += 1
    return plan


def _uplink_speed(fabric, free: _FreePorts, leaf_id: str, spines: list[str], links) -> int | None:
    """The speed of the leaf's uplinks so far, else the fastest its free ports share with a spine's."""
    if links.uplinks:
        return links.uplinks[0][0].speed
    common = free.speeds(leaf_id) & set().union(*(free.speeds(s) for s in spines))
    return max(common) if common else None
