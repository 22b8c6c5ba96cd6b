"""Next free ids for devices added by hand (the palette, paste): suN-srvNN, suN-leaf-rK, spine-NN,
sgG-spine-NN in spine group G, cgG-core-NN in core group G; in a multi-plane design a switch's id
starts with its plane (``pl1-``), as the planner names them.

``taken`` holds ids already handed out but not yet added (a paste of several devices)."""

from __future__ import annotations

from ..model.fabric import Fabric
from .build import core_id, leaf_id, server_id, spine_id


def _free(fabric: Fabric, taken, device_id: str) -> bool:
    return not fabric.has_device(device_id) and device_id not in taken and not fabric.hostname_owner(device_id)


def next_server_id(fabric: Fabric, su: int, taken=frozenset()) -> str:
    prefix = f"su{su}-srv"
    width = max([2] + [len(s.id) - len(prefix) for s in fabric.servers.values()
                       if s.id.startswith(prefix) and s.id[len(prefix):].isdigit()])
    number = 1
    while not _free(fabric, taken, server_id(su, number, width)):
        number += 1
    return server_id(su, number, width)


def _plane_label(fabric: Fabric, fabric_plane: int) -> int | None:
    """The plane as ids carry it: only a multi-plane design's switch ids name their plane."""
    return fabric_plane if fabric.settings.fabric_planes > 1 or fabric_plane else None


def next_leaf_id(fabric: Fabric, su: int, rail: int, taken=frozenset(), fabric_plane: int = 0) -> str:
    base = leaf_id(su, rail, _plane_label(fabric, fabric_plane))
    if _free(fabric, taken, base):
        return base
    n = 2
    while not _free(fabric, taken, f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"


def next_spine_id(fabric: Fabric, plane: int | None = None, taken=frozenset(), group: int | None = None,
                  fabric_plane: int = 0) -> str:
    label = _plane_label(fabric, fabric_plane)
    number = 1
    while not _free(fabric, taken, spine_id(plane, number, group=group, fabric_plane=label)):
        number += 1
    return spine_id(plane, number, group=group, fabric_plane=label)


def next_core_id(fabric: Fabric, group: int, taken=frozenset(), fabric_plane: int = 0) -> str:
    label = _plane_label(fabric, fabric_plane)
    number = 1
    while not _free(fabric, taken, core_id(group, number, 2, label)):
        number += 1
    return core_id(group, number, 2, label)


def group_of_su(fabric: Fabric, su: int | None) -> int | None:
    """The spine group most of an SU's leaves belong to (the lower one on a tie; None without one)."""
    counts: dict[int, int] = {}
    for leaf in fabric.leaves():
        if leaf.su == su and leaf.group is not None:
            counts[leaf.group] = counts.get(leaf.group, 0) + 1
    return min(counts, key=lambda g: (-counts[g], g)) if counts else None


def free_rail(fabric: Fabric, su: int) -> int:
    """The lowest rail that has no leaf in ``su`` yet (or the next rail after the last)."""
    taken = {s.rail for s in fabric.leaves() if s.su == su}
    rail = 0
    while rail in taken:
        rail += 1
    return rail
