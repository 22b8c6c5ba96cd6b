"""Failure capacity: per tier, how many failures the fabric takes and every switch stays within its allowed
downlink:uplink ratio (at 1:1: non-blocking, downlink capacity <= the uplink capacity left).

For a leaf, a failed uplink cable takes its port's capacity and a failed spine takes every uplink the
leaf has to it. Failures can land anywhere, so the worst case for each leaf is that the k that fail are
its own largest: a leaf with downlink capacity D, allowed ratio r and uplink parts c1 >= c2 >= ... takes k
failures while (sum of the parts after the first k) * r >= D. A tier's answer is the smallest over its
switches, with the switch that sets it. Three tiers: the same for each spine against its cores (its
leaf-facing capacity against what its core uplinks keep, at the allowed spine ratio).

Meta sizes spines 1:1.125 for this: 8 down and 9 up per leaf is still non-blocking with one spine out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.fabric import Fabric
from ..model.ids import natural_key
from .topology import all_leaf_links, all_spine_links

_EPSILON = 1e-9


@dataclass(frozen=True, slots=True)
class TierCapacity:
    tier: str            # "leaf uplinks", "spines", "spine uplinks" or "cores"
    failures: int        # how many any switch of the tier below can lose; -1: over its ratio already
    limiting: str        # the switch that sets it (the first in natural order among equals)
    down_gbps: int       # that switch's downlink capacity
    up_gbps: int         # its uplink capacity with nothing failed
    parts: int           # its uplinks (cables) or upper switches
    ratio: float         # the allowed downlink:uplink ratio it is held to

    @property
    def text(self) -> str:
        what = "uplink cable" if self.tier.endswith("uplinks") else self.tier.rstrip("s")
        if self.failures < 0:
            return (f"{self.tier}: already over {self.ratio:g}:1 with nothing failed ({self.limiting}: "
                    f"{self.down_gbps:,}G down, {self.up_gbps:,}G up)")
        many = f"{self.failures} {what} failure{'s' if self.failures != 1 else ''}"
        return (f"{self.tier}: {many} ({self.limiting}: {self.down_gbps:,}G down, {self.up_gbps:,}G up over "
                f"{self.parts} {what}{'s' if self.parts != 1 else ''}; allowed {self.ratio:g}:1)")


def tolerated(down: int, parts: list[int], ratio: float) -> int:
    """Failures of the largest parts first that keep ``sum(parts left) * ratio >= down``; -1 when even none do."""
    left = sum(parts)
    if left * ratio + _EPSILON < down:
        return -1
    k = 0
    for part in sorted(parts, reverse=True):
        left -= part
        if left * ratio + _EPSILON < down:
            break
        k += 1
    return k


def _tier(tier: str, rows: list[tuple[str, int, list[int]]], ratio: float) -> TierCapacity | None:
    best = None
    for device, down, parts in sorted(rows, key=lambda r: natural_key(r[0])):
        if not down or not parts:
            continue
        k = tolerated(down, parts, ratio)
        if best is None or k < best.failures:
            best = TierCapacity(tier, k, device, down, sum(parts), len(parts), ratio)
    return best


def _parts(links_by_switch: dict) -> tuple[list, list]:
    """Per switch (its downlink Gb/s, its uplink cables' speeds) and (the same, its uplinks added up per
    switch above), from `LeafLinks` / `SpineLinks` by switch id."""
    by_cable, by_switch = [], []
    for switch_id, links in links_by_switch.items():
        down = sum(port.speed for port, _ in links.downlinks)
        per_peer: dict[str, int] = {}
        for port, peer in links.uplinks:
            above = peer.partition("/")[0]
            per_peer[above] = per_peer.get(above, 0) + port.speed
        by_cable.append((switch_id, down, [port.speed for port, _ in links.uplinks]))
        by_switch.append((switch_id, down, list(per_peer.values())))
    return by_cable, by_switch


def failure_capacity(fabric: Fabric, leaf_links: dict | None = None, spine_links: dict | None = None) -> list[TierCapacity]:
    """One row per tier that has uplinks: leaf uplinks, spines, and in three tiers spine uplinks, cores.
    ``leaf_links`` / ``spine_links``: `topology.all_leaf_links` / `all_spine_links` when already at hand."""
    s = fabric.settings
    by_cable, by_spine = _parts(all_leaf_links(fabric) if leaf_links is None else leaf_links)
    rows = [_tier("leaf uplinks", by_cable, s.max_oversubscription), _tier("spines", by_spine, s.max_oversubscription)]
    if fabric.cores():
        by_cable, by_core = _parts(all_spine_links(fabric) if spine_links is None else spine_links)
        ratio = s.max_spine_oversubscription
        rows += [_tier("spine uplinks", by_cable, ratio), _tier("cores", by_core, ratio)]
    return [r for r in rows if r is not None]
