"""Next free ids for devices added by hand (the palette, paste): suN-srvNN, suN-leaf-rK, spine-NN.

``taken`` holds ids already handed out but not yet added (a paste of several devices)."""

from __future__ import annotations

from ..model.fabric import Fabric
from .build import leaf_id, server_id, spine_id


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


def next_leaf_id(fabric: Fabric, su: int, rail: int, taken=frozenset()) -> str:
    base = leaf_id(su, rail)
    if _free(fabric, taken, base):
        return base
    n = 2
    while not _free(fabric, taken, f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"


def next_spine_id(fabric: Fabric, plane: int | None = None, taken=frozenset()) -> str:
    number = 1
    while not _free(fabric, taken, spine_id(plane, number)):
        number += 1
    return spine_id(plane, number)


def free_rail(fabric: Fabric, su: int) -> int:
    """The lowest rail that has no leaf in ``su`` yet (or the next rail after the last)."""
    taken = {s.rail for s in fabric.leaves() if s.su == su}
    rail = 0
    while rail in taken:
        rail += 1
    return rail
