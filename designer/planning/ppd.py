"""Proactive path definition (DOMAIN.md section 6): pin each leaf downlink to one uplink.

With D downlinks and U uplinks, n = ceil(D / U) and downlink i goes to uplink floor(i / n):
1:1 when D <= U, n:1 otherwise. Downlinks and uplinks are taken in front-panel order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..model.fabric import Fabric
from ..model.ids import endpoint, split_endpoint
from .topology import LeafLinks, all_leaf_links

# How many PPD rules one leaf can hold: the exporter numbers them in three SONiC ACL priority ranges
# (local destinations, per-destination exceptions, pins) that must never meet.
MAX_LOCAL, MAX_PINS = 999, 1500


@dataclass(frozen=True, slots=True)
class Binding:
    downlink: str          # leaf port name
    nic: str               # NIC id behind the downlink
    source: str | None     # the NIC's address (no prefix), None while unaddressed
    uplink: str            # leaf port name
    spine: str             # spine id
    spine_port: str
    next_hop: str | None   # the spine's address on that uplink (no prefix)


@dataclass(frozen=True, slots=True)
class LeafPpd:
    leaf: str
    n: int                               # downlinks per uplink (1 for 1:1)
    downlinks: int
    uplinks: int
    bindings: tuple[Binding, ...]


def _ip(fabric: Fabric, key: str) -> str | None:
    cidr = fabric.addresses.get(key)      # stored normalised (model.addressing.check_cidr)
    return cidr.partition("/")[0] if cidr else None


def group_size(downlinks: int, uplinks: int) -> int:
    return max(1, math.ceil(downlinks / uplinks)) if uplinks else 0


def leaf_ppd(fabric: Fabric, leaf_id: str, links: LeafLinks) -> LeafPpd:
    d, u = len(links.downlinks), len(links.uplinks)
    n = group_size(d, u)
    bindings = []
    if u:
        for i, (port, nic_id) in enumerate(links.downlinks):
            up_port, spine_ep = links.uplinks[i // n]
            spine, spine_port = split_endpoint(spine_ep)
            bindings.append(Binding(port.name, nic_id, _ip(fabric, nic_id), up_port.name, spine, spine_port,
                                    _ip(fabric, spine_ep)))
    return LeafPpd(leaf_id, n, d, u, tuple(bindings))


def ppd_plan(fabric: Fabric) -> dict[str, LeafPpd]:
    """Every leaf's PPD bindings, keyed by leaf id in natural order."""
    return {leaf_id: leaf_ppd(fabric, leaf_id, links) for leaf_id, links in all_leaf_links(fabric).items()}


def uplink_endpoint(leaf_id: str, binding: Binding) -> str:
    return endpoint(leaf_id, binding.uplink)
