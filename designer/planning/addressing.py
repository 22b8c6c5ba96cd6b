"""Deterministic IP and ASN allocation (DOMAIN.md section 4). Pinned values are kept.

Address keys: a NIC's id (``su1-srv01/nic0``); a switch port's endpoint
(``su1-leaf-r0/Ethernet0``, for /31 links); ``<leaf>/svi`` for the leaf's gateway in
the subnet-per-leaf scheme; ``<switch>/lo`` for loopbacks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..model.addressing import cidr_str, parse_network, size, split_cidr
from ..model.errors import ModelError
from ..model.fabric import Fabric, asn_key
from ..model.ids import endpoint
from .errors import PlanningError
from .topology import LeafLinks, all_leaf_links


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

    @property
    def short(self) -> bool:
        return self.needed > self.available

    def message(self) -> str:
        return (f"{self.name} {self.cidr} is too small: it needs {self.needed:,} addresses ({self.detail}) "
                f"and has {self.available:,}")


def leaf_subnet_prefix(links: dict[str, LeafLinks]) -> int:
    """One subnet size for every leaf: fits the busiest leaf's NICs plus gateway, network, broadcast."""
    busiest = max((len(l.downlinks) for l in links.values()), default=0)
    return min(30, 32 - math.ceil(math.log2(busiest + 3)))


def rail_pool(fabric: Fabric, rail: int) -> tuple[int, int]:
    a = fabric.settings.addressing
    base, _ = parse_network(a.rail_supernet, "rail supernet")
    return base + rail * size(a.rail_prefix), a.rail_prefix


def requirements(fabric: Fabric, links: dict[str, LeafLinks] | None = None) -> list[PoolNeed]:
    """How many addresses each pool must hold for this design, and how many it has."""
    links = all_leaf_links(fabric) if links is None else links
    a = fabric.settings.addressing
    needs = []
    super_base, super_prefix = parse_network(a.rail_supernet, "rail supernet")
    if a.rail_prefix < super_prefix or a.rail_prefix > 31:
        raise ModelError(f"rail pools of /{a.rail_prefix} cannot be carved from the rail supernet {a.rail_supernet}; "
                         f"use a prefix length from {super_prefix} to 31")
    rails = sorted({l.rail for l in fabric.leaves() if l.rail is not None})
    if rails:
        needs.append(PoolNeed("rail supernet", a.rail_supernet, (rails[-1] + 1) * size(a.rail_prefix),
                              size(super_prefix), f"{rails[-1] + 1} rail pools of /{a.rail_prefix}"))
    per_leaf = leaf_subnet_prefix(links)
    for rail in rails:
        leaves = [l for l in fabric.leaves() if l.rail == rail]
        base, prefix = rail_pool(fabric, rail)
        if a.scheme == "p2p31":
            nic_links = sum(len(links[l.id].downlinks) for l in leaves)
            need, detail = 2 * nic_links, f"{nic_links:,} NIC links of /31"
        else:
            need, detail = len(leaves) * size(per_leaf), f"{len(leaves):,} leaf subnets of /{per_leaf}"
        needs.append(PoolNeed(f"rail {rail} pool", cidr_str(base, prefix), need, size(prefix), detail))
    uplinks = sum(len(l.uplinks) for l in links.values())
    needs.append(PoolNeed("fabric pool", a.fabric_pool, 2 * uplinks,
                          size(parse_network(a.fabric_pool, "fabric pool")[1]), f"{uplinks:,} leaf-spine links of /31"))
    switches = len(fabric.switches)
    needs.append(PoolNeed("loopback pool", a.loopback_pool, switches,
                          size(parse_network(a.loopback_pool, "loopback pool")[1]), f"{switches:,} switch loopbacks"))
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
            if not any(start + i in self.taken for i in range(length)):
                return start


def plan(fabric: Fabric) -> tuple[dict[str, str], dict[str, int]]:
    """Compute every unpinned address and ASN. Raises PlanningError when a pool is too small."""
    links = all_leaf_links(fabric)
    short = [n.message() for n in requirements(fabric, links) if n.short]
    if short:
        raise PlanningError(short)
    pinned = {k: v for k, v in fabric.addresses.items() if fabric.is_pinned(k)}
    taken = {split_cidr(v)[0] for v in pinned.values()}
    out: dict[str, str] = {}
    a = fabric.settings.addressing
    if a.scheme == "p2p31":
        _plan_p2p(fabric, links, pinned, taken, out)
    else:
        _plan_subnets(fabric, links, pinned, taken, out)
    fabric_base, fabric_prefix = parse_network(a.fabric_pool, "fabric pool")
    fabric_cursor = _Cursor("fabric pool", fabric_base, fabric_prefix, taken)
    for leaf in fabric.leaves():
        for port, spine_ep in links[leaf.id].uplinks:
            _pair(fabric_cursor, spine_ep, endpoint(leaf.id, port.name), pinned, out)
    lo_base, lo_prefix = parse_network(a.loopback_pool, "loopback pool")
    lo_cursor = _Cursor("loopback pool", lo_base, lo_prefix, taken)
    for switch in fabric.spines() + fabric.leaves():
        key = loopback_key(switch.id)
        if key not in pinned:
            out[key] = cidr_str(lo_cursor.block(1), 32)
    return out, _plan_asns(fabric)


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


def _plan_p2p(fabric, links, pinned, taken, out) -> None:
    for rail in sorted({l.rail for l in fabric.leaves()}):
        base, prefix = rail_pool(fabric, rail)
        cursor = _Cursor(f"rail {rail} pool", base, prefix, taken)
        for leaf in (l for l in fabric.leaves() if l.rail == rail):
            for port, nic_id in links[leaf.id].downlinks:
                _pair(cursor, endpoint(leaf.id, port.name), nic_id, pinned, out)


def _plan_subnets(fabric, links, pinned, taken, out) -> None:
    prefix = leaf_subnet_prefix(links)
    for rail in sorted({l.rail for l in fabric.leaves()}):
        base, _ = rail_pool(fabric, rail)
        for i, leaf in enumerate(l for l in fabric.leaves() if l.rail == rail):
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


def _plan_asns(fabric: Fabric) -> dict[str, int]:
    s = fabric.settings.asn
    pinned = {v for k, v in fabric.asns.items() if fabric.is_pinned(asn_key(k))}
    out: dict[str, int] = {}
    value = s.leaf_base
    for leaf in fabric.leaves():
        if fabric.is_pinned(asn_key(leaf.id)):
            continue
        while value in pinned:
            value += 1
        out[leaf.id] = value
        value += 1
    for n, spine in enumerate(fabric.spines()):
        if fabric.is_pinned(asn_key(spine.id)):
            continue
        if s.spine_mode == "per-spine":
            out[spine.id] = s.spine_base + n
        elif s.spine_mode == "per-plane":
            out[spine.id] = s.spine_base + (spine.plane or 0)
        else:
            out[spine.id] = s.spine_base
    return out


def assign_addresses(fabric: Fabric) -> None:
    """Re-plan every unpinned address and ASN, as one change."""
    addresses, asns = plan(fabric)
    fabric.replace_plan(addresses, asns)
