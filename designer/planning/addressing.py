"""Deterministic IP allocation (DOMAIN.md section 4). Pinned values are kept. ASNs: `asns.py`.

Address keys: a NIC's id (``su1-srv01/nic0``); a switch port's endpoint
(``su1-leaf-r0/Ethernet0``, for /31 links); ``<leaf>/svi`` for the leaf's gateway in
the subnet-per-leaf scheme; ``<switch>/lo`` for loopbacks.

Pools: the rail supernet is carved into one pool per rail; the fabric pool holds the leaf-spine and
spine-core /31s (the upper tier takes the even address); the loopback pool the /32s. A multi-plane
design splits each pool into equal parts, one per fabric plane (the next power of two of them), so
every plane has its own addresses; a one-plane design uses each pool whole.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..model.addressing import cidr_str, parse_network, size, split_cidr
from ..model.errors import ModelError
from ..model.fabric import Fabric
from ..model.ids import endpoint
from .asns import plan_asns
from .errors import PlanningError
from .topology import LeafLinks, SpineLinks, all_leaf_links, all_spine_links


def svi_key(leaf_id: str) -> str:
    return f"{leaf_id}/svi"


def loopback_key(switch_id: str) -> str:
    return f"{switch_id}/lo"


@dataclass(frozen=True)
class PoolNeed:
    name: str          # e.g. "rail 3 pool"
    cidr: str
    needed: int        # addresses
    available: int
    detail: str        # what the addresses are for
    ids: tuple[str, ...] = ()   # the leaves whose servers draw on it (rail pools)

    @property
    def short(self) -> bool:
        return self.needed > self.available

    def message(self) -> str:
        return (f"{self.name} {self.cidr} is too small: it needs {self.needed:,} addresses ({self.detail}) "
                f"and has {self.available:,}")


def leaf_subnet_prefix(links: dict[str, LeafLinks]) -> int:
    """One subnet size for every leaf: fits the busiest leaf's NICs plus gateway, network, broadcast."""
    return hosts_prefix(max((len(l.downlinks) for l in links.values()), default=0))


def hosts_prefix(hosts: int) -> int:
    """The longest prefix (at most /30) whose subnet holds ``hosts`` NICs, the gateway, network and broadcast."""
    return min(30, 32 - math.ceil(math.log2(hosts + 3)))


def plane_part(cidr: str, what: str, plane: int, planes: int) -> tuple[int, int]:
    """(base, prefix) of fabric plane ``plane``'s part of a pool (the whole pool for one plane)."""
    base, prefix = parse_network(cidr, what)
    bits = math.ceil(math.log2(planes)) if planes > 1 else 0
    if prefix + bits > 32:
        raise ModelError(f"the {what} {cidr} cannot be split into {planes} plane parts")
    if not 0 <= plane < planes:
        raise ModelError(f"fabric plane {plane} is not one of the design's {planes} planes (0 to {planes - 1})")
    return base + plane * size(prefix + bits), prefix + bits


def rail_pool(fabric: Fabric, rail: int, plane: int = 0) -> tuple[int, int]:
    a = fabric.settings.addressing
    base, _ = plane_part(a.rail_supernet, "rail supernet", plane, fabric.settings.fabric_planes)
    return base + rail * size(a.rail_prefix), a.rail_prefix


def pool_name(name: str, plane: int, planes: int) -> str:
    return name if planes == 1 else f"plane {plane} {name}"


def switch_pool(fabric: Fabric, pool: str, plane: int) -> tuple[str, int, int]:
    """(name, base, prefix) of fabric plane ``plane``'s part of the "fabric pool" or "loopback pool"."""
    a, planes = fabric.settings.addressing, fabric.settings.fabric_planes
    cidr = a.fabric_pool if pool == "fabric pool" else a.loopback_pool
    base, prefix = plane_part(cidr, pool, plane, planes)
    return pool_name(pool, plane, planes), base, prefix


def _planes(fabric: Fabric) -> range:
    return range(fabric.settings.fabric_planes)


def requirements(fabric: Fabric, links: dict[str, LeafLinks] | None = None,
                 spine_links: dict[str, SpineLinks] | None = None) -> list[PoolNeed]:
    """How many addresses each pool (each plane's part of it) must hold for this design, and how many it has."""
    links = all_leaf_links(fabric) if links is None else links
    a = fabric.settings.addressing
    planes = fabric.settings.fabric_planes
    _, super_prefix = parse_network(a.rail_supernet, "rail supernet")
    if a.rail_prefix < super_prefix or a.rail_prefix > 31:
        raise ModelError(f"rail pools of /{a.rail_prefix} cannot be carved from the rail supernet {a.rail_supernet}; "
                         f"use a prefix length from {super_prefix} to 31")
    spine_links = all_spine_links(fabric) if spine_links is None else spine_links
    per_leaf = leaf_subnet_prefix(links)
    needs = []
    for plane in _planes(fabric):
        part, part_prefix = plane_part(a.rail_supernet, "rail supernet", plane, planes)
        leaves = [l for l in fabric.leaves() if l.fabric_plane == plane]
        rails = sorted({l.rail for l in leaves if l.rail is not None})
        if rails:
            needs.append(PoolNeed(pool_name("rail supernet", plane, planes), cidr_str(part, part_prefix),
                                  (rails[-1] + 1) * size(a.rail_prefix), size(part_prefix),
                                  f"{rails[-1] + 1} rail pools of /{a.rail_prefix}"))
        for rail in rails:
            on_rail = [l for l in leaves if l.rail == rail]
            base, prefix = rail_pool(fabric, rail, plane)
            if a.scheme == "p2p31":
                nic_links = sum(len(links[l.id].downlinks) for l in on_rail)
                need, detail = 2 * nic_links, f"{nic_links:,} NIC links of /31"
            else:
                need, detail = len(on_rail) * size(per_leaf), f"{len(on_rail):,} leaf subnets of /{per_leaf}"
            needs.append(PoolNeed(pool_name(f"rail {rail} pool", plane, planes), cidr_str(base, prefix), need,
                                  size(prefix), detail, tuple(l.id for l in on_rail)))
        uplinks = sum(len(links[l.id].uplinks) for l in leaves)
        core_links = sum(len(spine_links[s.id].uplinks) for s in fabric.spines() if s.fabric_plane == plane)
        detail = f"{uplinks:,} leaf-spine" + (f" and {core_links:,} spine-core" if core_links else "") + " links of /31"
        base, prefix = plane_part(a.fabric_pool, "fabric pool", plane, planes)
        needs.append(PoolNeed(pool_name("fabric pool", plane, planes), cidr_str(base, prefix),
                              2 * (uplinks + core_links), size(prefix), detail))
        switches = sum(1 for s in fabric.switches.values() if s.fabric_plane == plane)
        base, prefix = plane_part(a.loopback_pool, "loopback pool", plane, planes)
        needs.append(PoolNeed(pool_name("loopback pool", plane, planes), cidr_str(base, prefix), switches,
                              size(prefix), f"{switches:,} switch loopbacks"))
    return needs


class _Cursor:
    """Hands out aligned blocks of a pool in order, skipping any block that holds a pinned address."""

    def __init__(self, name: str, base: int, prefix: int, taken: set[int]):
        self.name, self.base, self.end, self.taken = name, base, base + size(prefix), taken
        self.next = base
        self.cidr = cidr_str(base, prefix)

    def block(self, length: int) -> int:
        while True:
            start = self.next
            if start + length > self.end:
                raise PlanningError([f"{self.name} {self.cidr} ran out of addresses (pinned addresses use part of it)"])
            self.next += length
            if not self.taken or not any(start + i in self.taken for i in range(length)):
                return start


def plan(fabric: Fabric) -> tuple[dict[str, str], dict[str, int]]:
    """Compute every unpinned address and ASN. Raises PlanningError when a pool is too small.

    A design planned for a final size (`growth`) keeps every value its final size gives the devices
    and cables it holds as planned, whatever exists yet; only what was added otherwise is placed
    around them, as around pinned values."""
    fixed_addresses, fixed_asns = {}, {}
    if fabric.settings.growth is not None:
        from .growth import planned_values
        fixed_addresses, fixed_asns = planned_values(fabric)
    links, spine_links = all_leaf_links(fabric), all_spine_links(fabric)
    try:
        short = [n.message() for n in requirements(fabric, links, spine_links) if n.short]
    except ModelError as exc:
        raise PlanningError([str(exc)]) from None
    strays = [s.id for s in fabric.switches.values() if s.fabric_plane >= fabric.settings.fabric_planes]
    if strays:
        short.append(f"{', '.join(sorted(strays))} on a fabric plane the design does not have "
                     f"({fabric.settings.fabric_planes} planes)")
    if short:
        raise PlanningError(short)
    pinned = {k: v for k, v in fabric.addresses.items() if fabric.is_pinned(k)}
    pinned.update((k, v) for k, v in fixed_addresses.items() if k not in pinned)
    taken = {split_cidr(v)[0] for v in pinned.values()}
    out: dict[str, str] = {}
    a = fabric.settings.addressing
    for plane in _planes(fabric):
        leaves = [l for l in fabric.leaves() if l.fabric_plane == plane]
        if a.scheme == "p2p31":
            _plan_p2p(fabric, leaves, plane, links, pinned, taken, out)
        else:
            _plan_subnets(fabric, leaves, plane, links, pinned, taken, out)
        cursor = _Cursor(*switch_pool(fabric, "fabric pool", plane), taken)
        for leaf in leaves:
            for port, spine_ep in links[leaf.id].uplinks:
                _pair(cursor, spine_ep, endpoint(leaf.id, port.name), pinned, out)
        for spine in fabric.spines():
            if spine.fabric_plane == plane:
                for port, core_ep in spine_links[spine.id].uplinks:
                    _pair(cursor, core_ep, endpoint(spine.id, port.name), pinned, out)
        lo_cursor = _Cursor(*switch_pool(fabric, "loopback pool", plane), taken)
        for switch in fabric.cores() + fabric.spines() + fabric.leaves():
            key = loopback_key(switch.id)
            if switch.fabric_plane == plane and key not in pinned:
                out[key] = cidr_str(lo_cursor.block(1), 32)
    out.update((k, v) for k, v in fixed_addresses.items() if not fabric.is_pinned(k))
    return out, plan_asns(fabric, fixed_asns)


def _pair(cursor: _Cursor, even_key: str, odd_key: str, pinned: dict[str, str], out: dict[str, str]) -> None:
    """A /31: ``even_key`` takes the lower address. A pinned end keeps its value and fixes its partner."""
    if even_key in pinned or odd_key in pinned:
        known, other = (even_key, odd_key) if even_key in pinned else (odd_key, even_key)
        if other not in pinned:
            addr, _ = split_cidr(pinned[known])
            out[other] = cidr_str(addr ^ 1, 31)
        return
    start = cursor.block(2)
    out[even_key] = cidr_str(start, 31)
    out[odd_key] = cidr_str(start + 1, 31)


def _plan_p2p(fabric, leaves, plane, links, pinned, taken, out) -> None:
    planes = fabric.settings.fabric_planes
    for rail in sorted({l.rail for l in leaves}):
        base, prefix = rail_pool(fabric, rail, plane)
        cursor = _Cursor(pool_name(f"rail {rail} pool", plane, planes), base, prefix, taken)
        for leaf in (l for l in leaves if l.rail == rail):
            for port, nic_id in links[leaf.id].downlinks:
                _pair(cursor, endpoint(leaf.id, port.name), nic_id, pinned, out)


def _plan_subnets(fabric, leaves, plane, links, pinned, taken, out) -> None:
    prefix = leaf_subnet_prefix(links)
    for rail in sorted({l.rail for l in leaves}):
        base, _ = rail_pool(fabric, rail, plane)
        for i, leaf in enumerate(l for l in leaves if l.rail == rail):
            subnet = base + i * size(prefix)
            last = subnet + size(prefix) - 1           # broadcast
            gw_key = svi_key(leaf.id)
            if gw_key not in pinned:
                out[gw_key] = cidr_str(subnet + 1, prefix)
            used = {split_cidr(out.get(gw_key) or pinned[gw_key])[0]} | taken
            host = subnet + 1
            for _, nic_id in links[leaf.id].downlinks:
                if nic_id in pinned:
                    continue
                while host in used:
                    host += 1
                if host >= last:
                    raise PlanningError([f"leaf {leaf.id}'s subnet {cidr_str(subnet, prefix)} has no free address "
                                         f"left for {nic_id} (pinned addresses use part of it)"])
                out[nic_id] = cidr_str(host, prefix)
                used.add(host)


def assign_addresses(fabric: Fabric) -> None:
    """Re-plan every unpinned address and ASN, as one change."""
    addresses, asns = plan(fabric)
    fabric.replace_plan(addresses, asns)
