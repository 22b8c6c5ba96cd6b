"""Wiring a three-tier plane: spine groups over SUs, core groups over spine positions (see core_tier.py).

Leaves of group g mesh with the spines of group g exactly as a two-tier plane does. Spine j of every
group takes uplinks from its top cages; uplink i goes to core i mod c of core group j, so each core
receives the same number of links from one spine of every group. Cores use their ports from cage 1
in the order the spines are cabled (group by group).
"""

from __future__ import annotations

import math

from ..model.entities import Role, Switch
from .build import _width, core_id, leaf_id, mesh, spine_id, uplink_ports


def _switches(fabric, ids: list[str], role: Role, model, breakouts, **fields) -> None:
    for sid in ids:
        fabric.add_switch(Switch(sid, sid, role, model.id, breakouts=breakouts, **fields))


def _cage_ports(model, cages: range, mode: str) -> tuple[list[str], tuple]:
    names = [p.name for c in cages for p in model.cage_ports(c, mode)]
    return names, tuple((c, mode) for c in cages if mode != model.native_mode)


def add_three_tiers(fabric, spec, sizing, leaves, leaf_model, spine_model, fabric_plane) -> None:
    """Add the spines and cores of one plane and cable them (``leaves``: (plane, su, rail) keys of the plane)."""
    core_model = fabric.catalog.switch(spec.core_model or spec.spine_model or spec.leaf_model)
    plane_no = fabric_plane or 0
    leaf_up = uplink_ports(leaf_model, sizing.uplink_cages, sizing.uplink_mode, sizing.leaf_uplinks)
    spine_down, down_breakouts = _cage_ports(spine_model, range(1, sizing.spine_cages + 1), sizing.spine_mode)
    top = range(spine_model.ports - sizing.spine_uplink_cages + 1, spine_model.ports + 1)
    spine_up = uplink_ports(spine_model, sizing.spine_uplink_cages, sizing.spine_mode, sizing.spine_uplinks)
    spine_breakouts = tuple(sorted(down_breakouts + _cage_ports(spine_model, top, sizing.spine_mode)[1]))
    core_ports, core_breakouts = _cage_ports(core_model, range(1, sizing.core_cages + 1), sizing.core_mode)

    core_width = _width(sizing.cores_per_group)
    core_groups = []
    for k in range(sizing.core_groups):
        ids = [core_id(k + 1, m + 1, core_width, fabric_plane) for m in range(sizing.cores_per_group)]
        _switches(fabric, ids, Role.CORE, core_model, core_breakouts, group=k + 1, fabric_plane=plane_no)
        core_groups.append(ids)
    taken: dict[str, int] = {}
    per_rail = spec.spine_planes == "per-rail"
    width = _width(sizing.spines_per_plane)
    for group in range(1, math.ceil(spec.sus / sizing.sus_per_group) + 1):
        first_su = (group - 1) * sizing.sus_per_group + 1
        sus = range(first_su, first_su + sizing.sus_per_group)
        for plane in range(sizing.planes):
            plane_id = plane if per_rail else None
            spines = [spine_id(plane_id, j + 1, width, group, fabric_plane) for j in range(sizing.spines_per_plane)]
            _switches(fabric, spines, Role.SPINE, spine_model, spine_breakouts, plane=plane_id, group=group,
                      fabric_plane=plane_no)
            members = [leaf_id(su, rail, fabric_plane) for (_, su, rail) in sorted(leaves)
                       if su in sus and (not per_rail or rail == plane)]
            mesh(fabric, members, leaf_up, spines, spine_down)
            for j, sid in enumerate(spines):
                mesh(fabric, [sid], spine_up, core_groups[j], core_ports, taken)
