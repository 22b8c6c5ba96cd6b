"""RD008's work: interface subnets of different interfaces that overlap, and addresses or pools
that overlap another pool. One sweep over sorted intervals, so it stays fast on big designs.

Each live address belongs to a *group* whose members legitimately share one subnet: a leaf's
gateway subnet (subnet-per-leaf), the two ends of one /31 cable, a loopback. NIC addresses in
the subnet-per-leaf scheme are left to RD014, which says which leaf subnet they miss.
"""

from __future__ import annotations

from ..model.addressing import cidr_str
from ..model.errors import ModelError
from ..model.addressing import parse_network
from ..model.ids import natural_sorted
from .context import network
from .registry import listing

_SPANS = [(1 << (32 - prefix)) - 1 for prefix in range(33)]
_POOLS = (("rail", "rail supernet", "rail_supernet"), ("fabric", "fabric pool", "fabric_pool"),
          ("loopback", "loopback pool", "loopback_pool"))


def _groups(ctx) -> dict[str, tuple[str, str | None]]:
    """Address key -> (pool category, overlap group or None) for every live key, from the wiring
    (stale keys on uncabled ports or removed devices are left out)."""
    p2p = ctx.scheme == "p2p31"
    out: dict[str, tuple[str, str | None]] = {nic_id: ("rail", None) for nic_id in ctx.nics}
    for leaf_id, links in ctx.leaf_links.items():
        out[f"{leaf_id}/svi"] = ("rail", leaf_id)
        for port, nic_id in links.downlinks:
            key = f"{leaf_id}/{port.name}"
            out[key] = ("rail", key)
            if p2p:
                out[nic_id] = ("rail", key)
        for port, spine_ep in links.uplinks:
            key = f"{leaf_id}/{port.name}"
            out[key] = out[spine_ep] = ("fabric", key)
    for switch_id in ctx.switches:
        out[f"{switch_id}/lo"] = ("loopback", f"{switch_id}/lo")
    return out


def _pools(ctx) -> dict[str, tuple[str, int, int]]:
    """category -> (description, first, last) for every pool that parses."""
    settings = ctx.settings.addressing
    out = {}
    for category, name, attr in _POOLS:
        cidr = getattr(settings, attr)
        try:
            base, prefix = parse_network(cidr, name)
        except ModelError:
            continue   # RD009 reports a pool that does not parse
        out[category] = (f"{name} {cidr}", *network(base, prefix))
    return out


def _pool_clashes(pools) -> list[tuple[str, str]]:
    names = sorted(pools)
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
            if pools[a][1] <= pools[b][2] and pools[b][1] <= pools[a][2]]


def overlap_issues(ctx):
    pools = _pools(ctx)
    clashing = set()
    for a, b in _pool_clashes(pools):
        clashing.update({(a, b), (b, a)})
        yield f"the {pools[a][0]} overlaps the {pools[b][0]}", ()
    foreign = {category: [(other, start, end) for other, (_, start, end) in pools.items()
                          if other != category and (category, other) not in clashing] for category in pools}
    members: dict[str, list[tuple[str, int]]] = {category: [] for category, _, _ in _POOLS}
    intervals: dict[tuple[int, int, str], str] = {}
    groups = _groups(ctx)
    for key, (addr, prefix) in ctx.addresses.items():
        kind = groups.get(key)
        if kind is None:
            continue
        members[kind[0]].append((key, addr))
        if kind[1] is not None:
            span = _SPANS[prefix]
            start = addr & ~span
            intervals.setdefault((start, -(start + span), kind[1]), key)
    for category in sorted(foreign):
        for other, start, end in foreign[category]:
            keys = [key for key, addr in members[category] if start <= addr <= end]
            if keys:
                yield from _strays(ctx, category, pools[other][0], keys)
    yield from _sweep(ctx, intervals)


def _strays(ctx, category: str, pool: str, keys: list[str]):
    keys = natural_sorted(keys)
    shown = listing(f"{k} {ctx.fabric.addresses[k]}" for k in keys)
    yield f"{len(keys)} {category} address(es) lie in the {pool}: {shown}", keys


def _sweep(ctx, intervals: dict[tuple[int, int, str], str]):
    """Walk the subnets by start (widest first); each one that starts inside the furthest-reaching
    subnet so far, of another group, overlaps it."""
    cover = None                       # (start, end, group, key)
    reported = set()
    for (start, neg_end, group), key in sorted(intervals.items()):
        end = -neg_end
        if cover is not None and start <= cover[1] and group != cover[2] and (cover[2], group) not in reported:
            reported.add((cover[2], group))
            prefix_a = ctx.addresses[cover[3]][1]
            yield (f"{cover[3]} ({cidr_str(cover[0], prefix_a)}) overlaps {key} "
                   f"({cidr_str(start, ctx.addresses[key][1])})", (cover[3], key))
        if cover is None or end > cover[1]:
            cover = (start, end, group, key)
