"""Next free ids for devices added by hand (the GUI palette): suN-srvNN, suN-leaf-rK, spine-NN."""

from __future__ import annotations

from ..model.fabric import Fabric
from .build import leaf_id, server_id, spine_id


def next_server_id(fabric: Fabric, su: int) -> str:
    prefix = f"su{su}-srv"
    width = max([2] + [len(s.id) - len(prefix) for s in fabric.servers.values()
                       if s.id.startswith(prefix) and s.id[len(prefix):].isdigit()])
    number = 1
    while fabric.has_device(server_id(su, number, width)):
        number += 1
    return server_id(su, number, width)


def next_leaf_id(fabric: Fabric, su: int, rail: int) -> str:
    base = leaf_id(su, rail)
    if not fabric.has_device(base):
        return base
    n = 2
    while fabric.has_device(f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"


def next_spine_id(fabric: Fabric, plane: int | None = None) -> str:
    number = 1
    while fabric.has_device(spine_id(plane, number)):
        number += 1
    return spine_id(plane, number)


def free_rail(fabric: Fabric, su: int) -> int:
    """The lowest rail that has no leaf in ``su`` yet (or the next rail after the last)."""
    taken = {s.rail for s in fabric.leaves() if s.su == su}
    rail = 0
    while rail in taken:
        rail += 1
    return rail
