"""Questions about the wiring that the planner, checks and exporters all ask."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.entities import Role, Switch
from ..model.fabric import Fabric
from ..model.hardware import Port


@dataclass(frozen=True, slots=True)
class LeafLinks:
    """A leaf's cabled ports in front-panel order: downlinks to NICs and uplinks to spines."""

    downlinks: tuple[tuple[Port, str], ...]   # (leaf port, NIC id)
    uplinks: tuple[tuple[Port, str], ...]     # (leaf port, spine endpoint)


def leaf_links(fabric: Fabric, leaf_id: str) -> LeafLinks:
    downs, ups = [], []
    servers, switches = fabric.servers, fabric.switches
    for port, peer in fabric.cabled_ports(leaf_id):
        device = peer.partition("/")[0]
        if device in servers:
            downs.append((port, peer))
        elif device in switches and switches[device].role is Role.SPINE:
            ups.append((port, peer))
    return LeafLinks(tuple(downs), tuple(ups))


def all_leaf_links(fabric: Fabric) -> dict[str, LeafLinks]:
    return {leaf.id: leaf_links(fabric, leaf.id) for leaf in fabric.leaves()}


@dataclass(frozen=True, slots=True)
class SpineLinks:
    """A spine's cabled ports in front-panel order: downlinks to leaves and uplinks to cores."""

    downlinks: tuple[tuple[Port, str], ...]   # (spine port, leaf endpoint)
    uplinks: tuple[tuple[Port, str], ...]     # (spine port, core endpoint)


def spine_links(fabric: Fabric, spine_id: str) -> SpineLinks:
    downs, ups = [], []
    switches = fabric.switches
    for port, peer in fabric.cabled_ports(spine_id):
        switch = switches.get(peer.partition("/")[0])
        if switch is not None and switch.role is Role.LEAF:
            downs.append((port, peer))
        elif switch is not None and switch.role is Role.CORE:
            ups.append((port, peer))
    return SpineLinks(tuple(downs), tuple(ups))


def all_spine_links(fabric: Fabric) -> dict[str, SpineLinks]:
    return {spine.id: spine_links(fabric, spine.id) for spine in fabric.spines()}


def mesh_key(fabric: Fabric, switch: Switch) -> tuple:
    """What a leaf and the spines it must mesh with share: fabric plane, spine group, and the rail when
    spine planes are per rail (a spine's ``plane``)."""
    per_rail = fabric.settings.spine_planes == "per-rail"
    plane = (switch.rail if switch.role is Role.LEAF else switch.plane) if per_rail else None
    return (switch.fabric_plane, switch.group, plane)


def mesh_scope(fabric: Fabric, leaf: Switch, whole: str = "the fabric") -> str:
    """Which spines a leaf meshes with, in words: 'fabric plane 1, spine group 2', 'plane 3', or ``whole``."""
    parts = []
    if fabric.settings.fabric_planes > 1:
        parts.append(f"fabric plane {leaf.fabric_plane}")
    if leaf.group is not None:
        parts.append(f"spine group {leaf.group}")
    if fabric.settings.spine_planes == "per-rail":
        parts.append(f"plane {leaf.rail}")
    return ", ".join(parts) or whole


def spines_of_plane(fabric: Fabric, plane: int | None) -> list[str]:
    """Spine ids a leaf of rail ``plane`` should reach in a two-tier, one-plane design (all spines when
    spine planes are shared). `expected_spines` also knows spine groups and fabric planes."""
    if fabric.settings.spine_planes != "per-rail":
        return [s.id for s in fabric.spines()]
    return [s.id for s in fabric.spines() if s.plane == plane]


def expected_spines(fabric: Fabric, leaf: Switch) -> list[str]:
    """Spine ids ``leaf`` should reach: those of its plane, spine group and (per-rail) spine plane."""
    key = mesh_key(fabric, leaf)
    return [s.id for s in fabric.spines() if mesh_key(fabric, s) == key]


def expected_cores(fabric: Fabric, spine: Switch) -> tuple[int | None, list[str]]:
    """(core group, core ids) a spine's uplinks should reach, in its own fabric plane: the core group
    its core uplinks already go to (the one with most of them), else core group j for the j-th spine
    of its spine group (the planner's rule: spine j of every group to core group j)."""
    switches = fabric.switches
    reached: dict[int, int] = {}
    for _, core_ep in spine_links(fabric, spine.id).uplinks:
        core = switches[core_ep.partition("/")[0]]
        if core.fabric_plane == spine.fabric_plane and core.group is not None:
            reached[core.group] = reached.get(core.group, 0) + 1
    if reached:
        group = min(reached, key=lambda g: (-reached[g], g))
    else:
        key = mesh_key(fabric, spine)
        group = [s.id for s in fabric.spines() if mesh_key(fabric, s) == key].index(spine.id) + 1
    cores = [c.id for c in fabric.cores() if c.fabric_plane == spine.fabric_plane and c.group == group]
    return group, cores
