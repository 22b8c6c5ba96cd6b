"""Sizing the third tier: spine groups under a tier of core switches (super-spines).

The shape is NVIDIA's SuperPOD one beyond a single spine tier (and a classic three-tier Clos):

- Leaves are grouped by SU into *spine groups*. Every leaf of a group meshes with every spine of the
  group (NVIDIA: spine-leaf group), as a two-tier fabric would. With spine planes per rail, a group
  is (its SUs, one rail).
- Spine j of every group goes to *core group* j: each spine's uplinks spread over the cores of its
  core group, so any two groups meet at every core group.

Default sizes, for the spine oversubscription target r (spine downlinks:uplinks at one speed):
a spine takes at most d leaf uplinks where d + ceil(d / r) fits its ports; a group holds as many SUs
as d allows (its leaves' uplinks over at most one spine per leaf uplink); spines per group are the
fewest that take the group's uplinks (rounded up to a divisor of the leaf uplinks, so they spread
evenly); cores per core group are the fewest whose ports take the uplinks of one spine position of
every group (rounded up to a divisor of the spine uplinks).
"""

from __future__ import annotations

import math

from .spec import Sizing, _mode_for, even_count


def max_downlinks(ports: int, ratio: float) -> int:
    """The most leaf-facing ports a spine of ``ports`` can give while keeping downlinks:uplinks <= ratio."""
    down = ports
    while down > 0 and down + math.ceil(down / ratio - 1e-9) > ports:
        down -= 1
    return down


def size_three_tiers(spec, s: Sizing, spine, per_spine: int, core, p: list[str]) -> None:
    """Fill the three-tier numbers of ``s`` (leaf numbers already sized); append every shortfall to ``p``."""
    spine_ports = spine.ports * per_spine
    ratio = spec.spine_oversubscription
    up = s.leaf_uplinks
    leaves_per_su = s.rails // s.planes
    down_max = max_downlinks(spine_ports, ratio)
    if down_max < 1:
        p.append(f"{spine.id} has {spine_ports} ports at {s.uplink_speed}G: too few to carry both leaves and cores")
        return
    s.sus_per_group = spec.sus_per_group or max(1, min(spec.sus, down_max // leaves_per_su))
    pods = math.ceil(spec.sus / s.sus_per_group)
    s.groups = pods * s.planes
    group_leaves = s.sus_per_group * leaves_per_su
    group_uplinks = group_leaves * up
    if spec.spines:
        s.spines_per_plane = spec.spines
    else:
        s.spines_per_plane = even_count(max(1, math.ceil(group_uplinks / down_max)), up)
    per_group = s.spines_per_plane
    if per_group > up:
        p.append(f"each leaf has {up} uplinks but must reach all {per_group} spines of its spine group: short by "
                 f"{per_group - up} uplinks (fewer SUs per group, fewer spines, or more leaf uplinks)")
    s.spine_ports_used = math.ceil(group_uplinks / per_group)
    s.spine_cages = math.ceil(s.spine_ports_used / per_spine)
    s.spine_uplinks = spec.spine_uplinks or math.ceil(s.spine_ports_used / ratio - 1e-9)
    s.spine_uplink_cages = math.ceil(s.spine_uplinks / per_spine)
    s.spine_ratio = s.spine_ports_used / s.spine_uplinks
    if s.spine_cages + s.spine_uplink_cages > spine.ports:
        used = s.spine_cages + s.spine_uplink_cages
        p.append(f"each spine needs {used} ports ({s.spine_cages} for {s.spine_ports_used} leaf uplinks of "
                 f"{s.sus_per_group} SUs, {s.spine_uplink_cages} for {s.spine_uplinks} core uplinks at "
                 f"{s.uplink_speed}G); {spine.id} has {spine.ports}: short by {used - spine.ports} ports "
                 "(fewer SUs per group, more spines per group, or a higher spine oversubscription)")
    s.spines = per_group * s.groups * s.fabric_planes
    s.fabric_links = s.leaves * up
    _size_cores(spec, s, core, p)


def _size_cores(spec, s: Sizing, core, p: list[str]) -> None:
    s.core_mode, per_core = _mode_for(core, s.uplink_speed, "core", p)
    core_ports = core.ports * per_core
    per_group, v = s.spines_per_plane, s.spine_uplinks
    s.core_groups = per_group
    into_group = s.groups * v                 # one spine of each group feeds each core group
    if spec.cores:
        if spec.cores % per_group:
            p.append(f"{spec.cores} cores per plane do not split into {per_group} core groups (one per spine of "
                     f"a group): use a multiple of {per_group}")
        s.cores_per_group = max(1, spec.cores // per_group)
    else:
        s.cores_per_group = even_count(max(1, math.ceil(into_group / core_ports)), v)
    if s.cores_per_group > v:
        p.append(f"each spine has {v} core uplinks but must reach all {s.cores_per_group} cores of its core group: "
                 f"short by {s.cores_per_group - v} uplinks (fewer cores or more spine uplinks)")
    s.core_ports_used = math.ceil(into_group / s.cores_per_group)
    s.core_cages = math.ceil(s.core_ports_used / per_core)
    if s.core_ports_used > core_ports:
        p.append(f"each core needs {s.core_ports_used} ports at {s.uplink_speed}G ({s.groups} spine groups x {v} "
                 f"uplinks over {s.cores_per_group} cores); {core.id} has {core_ports}: short by "
                 f"{s.core_ports_used - core_ports} ports (more cores per group)")
    s.cores = s.core_groups * s.cores_per_group * s.fabric_planes
    s.core_links = s.spines * v
