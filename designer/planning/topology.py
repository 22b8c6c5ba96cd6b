"""Questions about the wiring that the planner, checks and exporters all ask."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.entities import Role
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


def spines_of_plane(fabric: Fabric, plane: int | None) -> list[str]:
    """Spine ids a leaf of rail ``plane`` should reach (all spines when planes are shared)."""
    if fabric.settings.spine_planes != "per-rail":
        return [s.id for s in fabric.spines()]
    return [s.id for s in fabric.spines() if s.plane == plane]
