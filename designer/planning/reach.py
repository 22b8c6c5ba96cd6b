"""Which rails the network joins: rails whose leaves share a spine can reach each other.

A rail-only fabric (no spines) and a fabric with one spine plane per rail leave every rail on its
own: traffic between NICs of different rails has no network path and must cross the servers'
NVLink instead (NCCL's PXN). DOMAIN.md sections 2 and 3.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from ..model.entities import Role, Switch
from ..model.fabric import Fabric
from .topology import LeafLinks


def rail_groups(leaves: Iterable[Switch], links: Mapping[str, LeafLinks]) -> list[tuple[int, ...]]:
    """The rails, grouped by reachability through the spines as cabled (sorted, deterministic)."""
    parent: dict[int, int] = {}

    def root(rail: int) -> int:
        while parent[rail] != rail:
            parent[rail] = parent[parent[rail]]
            rail = parent[rail]
        return rail

    first_rail_of_spine: dict[str, int] = {}
    for leaf in leaves:
        if leaf.rail is None:
            continue
        parent.setdefault(leaf.rail, leaf.rail)
        for _, peer in links[leaf.id].uplinks:
            spine = peer.partition("/")[0]
            other = first_rail_of_spine.setdefault(spine, leaf.rail)
            a, b = root(other), root(leaf.rail)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for rail in sorted(parent):
        groups.setdefault(root(rail), []).append(rail)
    return sorted(tuple(g) for g in groups.values())


def rails_isolated_by_design(fabric: Fabric) -> bool:
    """True for a rail-only design or one spine plane per rail without a core tier (the design's intent;
    the check RD030 reports what the cabling really joins). Cores serve the spines of every rail plane,
    so a three-tier design joins its rails at the top."""
    if fabric.settings.spine_planes == "per-rail":
        return not fabric.cores()
    return not any(s.role is Role.SPINE for s in fabric.switches.values())   # runs once per host: no sort
