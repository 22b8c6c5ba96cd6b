"""Bulk wiring plans for the window's bulk edits (pure: they say what to cable, the caller cables).

- `rail_cabling`: every rail NIC of the given servers onto a leaf of its rail in its server's SU.
- `spine_mesh`: every given leaf onto the spines it meshes with (`topology.expected_spines`: its fabric
  plane, spine group and spine plane), evenly, with enough uplinks for the design's allowed
  oversubscription over the servers it carries: its server cables, or, before they are drawn, the
  NICs of its rail (and plane) in its SU's servers, shared among that SU's leaves of the rail. A leaf
  with neither is left alone, with a note saying to add and cable its servers first.
- `core_mesh`: every given spine onto the cores of its core group (`topology.expected_cores`),
  evenly, with enough uplinks for the allowed spine oversubscription.

Each returns what to do and, for what cannot be done, one readable line naming the object.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..model.entities import Role
from ..model.fabric import Fabric
from ..model.ids import endpoint, natural_key, split_endpoint
from .topology import expected_cores, expected_spines, leaf_links, mesh_scope, spine_links


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


PLURAL = {"leaf": "leaves", "spine": "spines", "core": "cores"}


def spine_mesh(fabric: Fabric, leaf_ids) -> Plan:
    """Uplinks from each leaf to every spine it meshes with, spread evenly: at least one per spine,
    and enough for the design's allowed oversubscription over the leaf's server cables."""
    def spines(leaf):
        found = expected_spines(fabric, leaf)
        return found, "spines of its plane", (f"{mesh_scope(fabric, leaf, 'the design')} has no spines for "
                                              f"{leaf.id}; add spines from the palette")
    return _mesh(fabric, leaf_ids, Role.LEAF, fabric.settings.max_oversubscription, spines, _ServerLoad(fabric))


class _ServerLoad:
    """The server bandwidth a leaf will carry when its SU's NICs of its rail are cabled (Gb/s)."""

    def __init__(self, fabric: Fabric):
        self.fabric = fabric
        self._nics: dict | None = None
        self._leaves: dict | None = None

    def __call__(self, leaf) -> int:
        f = self.fabric
        if self._nics is None:
            self._nics, self._leaves = {}, {}
            for server in f.servers.values():
                for nic in server.nics:
                    if nic.rail is not None:
                        key = (server.su, nic.rail, nic.fabric_plane)
                        self._nics[key] = self._nics.get(key, 0) + nic.speed
            for other in f.leaves():
                key = (other.su, other.rail, other.fabric_plane)
                self._leaves[key] = self._leaves.get(key, 0) + 1
        key = (leaf.su, leaf.rail, leaf.fabric_plane)
        return math.ceil(self._nics.get(key, 0) / max(self._leaves.get(key, 1), 1))


def core_mesh(fabric: Fabric, spine_ids) -> Plan:
    """Uplinks from each spine to every core of its core group, spread evenly: at least one per core,
    and enough for the allowed spine oversubscription over the spine's leaf cables."""
    def cores(spine):
        group, found = expected_cores(fabric, spine)
        return found, f"cores of core group {group}", (f"core group {group} of fabric plane {spine.fabric_plane} "
                                                      f"has no cores for {spine.id}; add cores from the palette")
    return _mesh(fabric, spine_ids, Role.SPINE, fabric.settings.max_spine_oversubscription, cores)


def _mesh(fabric: Fabric, ids, role: Role, ratio: float, targets, expected=None) -> Plan:
    """Each switch of ``ids`` (a ``role``) meshed up to what ``targets(switch)`` gives: (the upper
    switches, what they are, the problem to report when there are none). ``expected(switch)``: the
    downlink bandwidth it will carry when that is more than what is cabled (None: what is cabled)."""
    plan, free = Plan(), _FreePorts(fabric)
    upper = "spines" if role is Role.LEAF else "cores"
    for switch_id in sorted(set(ids), key=natural_key):
        switch = fabric.switches[switch_id]
        if switch.role is not role:
            plan.problems.append(f"{switch_id} is a {switch.role.value}; select {PLURAL[role.value]} to connect to "
                                 f"the {upper}")
            continue
        uppers, what, problem = targets(switch)
        if not uppers:
            plan.problems.append(problem)
            continue
        links = (leaf_links if role is Role.LEAF else spine_links)(fabric, switch_id)
        down = max(sum(p.speed for p, _ in links.downlinks), expected(switch) if expected else 0)
        if expected and not down:
            plan.problems.append(f"{switch_id} has no servers to carry yet, so how many uplinks it needs is not "
                                 f"known: add servers to SU{switch.su} and cable them (Design > Cable NICs to their "
                                 "rail leaves), then connect it to its spines")
            continue
        _mesh_up(fabric, plan, free, switch_id, uppers, links, ratio or 1.0, what, down)
    return plan


def _mesh_up(fabric, plan: Plan, free: _FreePorts, lower: str, uppers: list[str], links, ratio: float,
             what: str, down: int) -> None:
    """Plan uplinks from switch ``lower`` (its ``links``: downlinks and uplinks) to each of ``uppers``:
    at least one each, enough for ``ratio`` over ``down`` Gb/s of downlinks, the same number to each."""
    per_upper = {u: 0 for u in uppers}
    for _, up_ep in links.uplinks:
        upper = split_endpoint(up_ep)[0]
        if upper in per_upper:
            per_upper[upper] += 1
    speed = _uplink_speed(free, lower, uppers, links)
    if speed is None:
        plan.problems.append(f"{lower} and the {what} have no free ports of a common speed")
        return
    have = sum(per_upper.values())
    want = max(math.ceil(down / (ratio * speed)) if down else 0, len(uppers))
    want = len(uppers) * math.ceil(want / len(uppers))          # even over the upper switches
    if have >= want and all(per_upper.values()):
        plan.already += 1
        return
    for _ in range(max(want - have, sum(1 for n in per_upper.values() if not n))):
        upper = min(per_upper, key=lambda u: (per_upper[u], natural_key(u)))
        lower_port = free.take(lower, speed, last=True)
        if lower_port is None:
            plan.problems.append(f"{lower} ran out of free {speed}G ports: {sum(per_upper.values())} of "
                                 f"{want} uplinks")
            return
        upper_port = free.take(upper, speed)
        if upper_port is None:
            free.ports(lower).append(fabric.port(lower_port))
            plan.problems.append(f"{upper} has no free {speed}G port left for {lower}")
            per_upper.pop(upper)
            if not per_upper:
                return
            continue
        plan.steps.append((lower_port, upper_port))
        per_upper[upper] += 1


def _uplink_speed(free: _FreePorts, lower: str, uppers: list[str], links) -> int | None:
    """The speed of the switch's uplinks so far, else the fastest its free ports share with an upper's."""
    if links.uplinks:
        return links.uplinks[0][0].speed
    common = free.speeds(lower) & set().union(*(free.speeds(u) for u in uppers))
    return max(common) if common else None
