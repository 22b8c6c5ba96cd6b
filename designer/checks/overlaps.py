"""RD008's work: interface subnets of different interfaces that overlap, and addresses or pools
that overlap another pool.

Each live address belongs to a *group* whose members legitimately share one subnet: a leaf's
gateway subnet (subnet-per-leaf), the two ends of one /31 cable, a loopback. NIC addresses in
the subnet-per-leaf scheme are left to RD014, which says which leaf subnet they miss.

CIDR blocks are either nested or disjoint, so each subnet X is reported against its *cover*: the
widest subnet containing X (of the same width: the one of the smallest group name), when that
belongs to another group; one finding per pair of groups, for the first such X by address. This is
what a sweep by start address finds, but it is kept in an `OverlapIndex` that the live checker
updates key by key: the enclosing blocks of X are found by masking X's start to each shorter
prefix length present, and the blocks inside X by bisecting per-prefix sorted starts.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort

from ..model.addressing import HOST_BITS, cidr_str, parse_network
from ..model.errors import ModelError
from ..model.ids import natural_key, natural_sorted
from .context import SPINE_CORE, network
from .registry import listing

_POOLS = (("rail", "rail supernet", "rail_supernet"), ("fabric", "fabric pool", "fabric_pool"),
          ("loopback", "loopback pool", "loopback_pool"))

Kind = tuple[str, "str | None"]            # (pool category, overlap group or None)
Entry = tuple[int, int, str]               # (subnet start, prefix, group)


def leaf_groups(leaf_id: str, links, p2p: bool) -> dict[str, Kind]:
    """The address keys one leaf's wiring puts into groups."""
    out = {f"{leaf_id}/svi": ("rail", leaf_id)}
    for port, nic_id in links.downlinks:
        key = f"{leaf_id}/{port.name}"
        out[key] = ("rail", key)
        if p2p:
            out[nic_id] = ("rail", key)
    for port, spine_ep in links.uplinks:
        key = f"{leaf_id}/{port.name}"
        out[key] = out[spine_ep] = ("fabric", key)
    return out


def key_groups(ctx) -> dict[str, Kind]:
    """Address key -> kind for every live key, from the wiring (stale keys on uncabled ports or
    removed devices are left out)."""
    p2p = ctx.scheme == "p2p31"
    out: dict[str, Kind] = {nic_id: ("rail", None) for nic_id in ctx.nics}
    for leaf_id, links in ctx.leaf_links.items():
        out.update(leaf_groups(leaf_id, links, p2p))
    for switch_id in ctx.switches:
        out[f"{switch_id}/lo"] = ("loopback", f"{switch_id}/lo")
    for _, (ep_a, _, kind_a, _), (ep_b, _, kind_b, _) in ctx.cables:
        if (kind_a, kind_b) in SPINE_CORE:
            group = ep_a if kind_a == "spine" else ep_b
            out[ep_a] = out[ep_b] = ("fabric", group)
    return out


def core_link_kind(fabric, key: str) -> Kind | None:
    """The kind of a spine-core /31 end (grouped by its spine end), or None when ``key`` is not one."""
    peer = fabric.peer(key) if "/" in key else None
    if peer is None:
        return None
    switches = fabric.switches
    here, there = switches.get(key.partition("/")[0]), switches.get(peer.partition("/")[0])
    if here is None or there is None or {here.role.value, there.role.value} != {"spine", "core"}:
        return None
    return "fabric", key if here.role.value == "spine" else peer


def pools_of(settings) -> dict[str, tuple[str, int, int]]:
    """category -> (description, first, last) for every pool that parses."""
    settings = settings.addressing
    out = {}
    for category, name, attr in _POOLS:
        cidr = getattr(settings, attr)
        try:
            base, prefix = parse_network(cidr, name)
        except ModelError:
            continue   # RD009 reports a pool that does not parse
        out[category] = (f"{name} {cidr}", *network(base, prefix))
    return out


class OverlapIndex:
    """The addressed, grouped keys of a design, with each subnet's cover kept up to date."""

    def __init__(self, pools: dict[str, tuple[str, int, int]]):
        names = sorted(pools)
        self.pools = pools
        self.clashes = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
                        if pools[a][1] <= pools[b][2] and pools[b][1] <= pools[a][2]]
        clashing = {pair for a, b in self.clashes for pair in ((a, b), (b, a))}
        # category -> (other pool, first, last) of the pools its addresses must stay out of
        self.foreign = {category: tuple((other, pools[other][1], pools[other][2]) for other in pools
                                        if other != category and (category, other) not in clashing)
                        for category in pools}
        self.strays: dict[tuple[str, str], set[str]] = {}   # (category, other pool) -> keys inside it
        self.placed: dict[str, tuple] = {}                  # key -> (category, address, entry or None)
        self.keys_at: dict[Entry, set[str]] = {}
        self.groups_at: dict[tuple[int, int], set[str]] = {}
        self.starts: dict[int, list[int]] = {}              # prefix -> sorted starts present
        self.cover: dict[Entry, Entry] = {}                 # subnet -> cover of another group
        self.stale: set[Entry] = set()

    def place(self, key: str, kind: Kind | None, address: tuple[int, int] | None) -> None:
        """Record ``key``'s kind and parsed address (None for either: not a live address)."""
        old = self.placed.pop(key, None)
        if old is not None:
            self._unplace(key, *old)
        if kind is not None and address is not None:
            self._insert(((key, kind, address),), True)

    def _insert(self, items, index_entry: bool) -> None:
        """Record (key, kind, address) of keys not placed yet; ``index_entry`` False leaves new subnet
        entries to `_index_entries` (a whole design at once, 10^5 keys: hence the local names)."""
        keys_at, placed, strays, foreign, spans = self.keys_at, self.placed, self.strays, self.foreign, HOST_BITS
        for key, (category, group), (addr, prefix) in items:
            entry = None
            if group is not None:
                entry = (addr & ~spans[prefix], prefix, group)
                keys = keys_at.get(entry)
                if keys is None:
                    keys_at[entry] = {key}
                    if index_entry:
                        self._add_entry(entry)
                else:
                    keys.add(key)
            for other, first, last in foreign.get(category, ()):
                if first <= addr <= last:
                    strays.setdefault((category, other), set()).add(key)
            placed[key] = (category, addr, entry)

    def _index_entries(self) -> None:
        """Index every recorded subnet entry at once (each needs its cover worked out)."""
        for start, prefix, group in self.keys_at:
            groups = self.groups_at.get((start, prefix))
            if groups is None:
                self.groups_at[(start, prefix)] = {group}
                self.starts.setdefault(prefix, []).append(start)
            else:
                groups.add(group)
        for starts in self.starts.values():
            starts.sort()
        self.stale.update(self.keys_at)

    def _unplace(self, key: str, category: str, addr: int, entry: Entry | None) -> None:
        for other, _, _ in self.foreign.get(category, ()):
            self.strays.get((category, other), set()).discard(key)
        if entry is not None:
            keys = self.keys_at[entry]
            keys.discard(key)
            if not keys:
                del self.keys_at[entry]
                self._remove_entry(entry)

    def _add_entry(self, entry: Entry) -> None:
        start, prefix, group = entry
        groups = self.groups_at.setdefault((start, prefix), set())
        if not groups:
            insort(self.starts.setdefault(prefix, []), start)
        groups.add(group)
        self.stale.update(self._inside(start, prefix))

    def _remove_entry(self, entry: Entry) -> None:
        start, prefix, group = entry
        groups = self.groups_at[(start, prefix)]
        groups.discard(group)
        self.cover.pop(entry, None)
        self.stale.discard(entry)
        if not groups:
            del self.groups_at[(start, prefix)]
            starts = self.starts[prefix]
            del starts[bisect_left(starts, start)]
            if not starts:
                del self.starts[prefix]
        self.stale.update(self._inside(start, prefix))

    def _inside(self, start: int, prefix: int):
        """Every subnet entry inside (or equal to) the block ``start/prefix``."""
        end = start + HOST_BITS[prefix]
        for length, starts in self.starts.items():
            if length >= prefix:
                for inner in starts[bisect_left(starts, start):bisect_right(starts, end)]:
                    for group in self.groups_at[(inner, length)]:
                        yield inner, length, group

    def _find_cover(self, entry: Entry, lengths: list[int]) -> Entry | None:
        start, prefix, group = entry
        for length in lengths:                  # the prefix lengths present, shortest first
            if length > prefix:
                break
            block = (start & ~HOST_BITS[length], length)
            groups = self.groups_at.get(block)
            if groups:
                first = min(groups)
                if length < prefix or first < group:
                    return (*block, first) if first != group else None
        return None

    def issues(self, addresses: dict[str, str]):
        """RD008's ``(message, ids)`` pairs; ``addresses`` is the design's key -> CIDR text."""
        lengths = sorted(self.starts)
        shortest, groups_at = (lengths or [None])[0], self.groups_at
        for entry in self.stale:
            if entry[1] == shortest and len(groups_at[entry[:2]]) == 1:
                found = None                    # nothing is wider, and its block is its group's alone
            else:
                found = self._find_cover(entry, lengths)
            if found is None:
                self.cover.pop(entry, None)
            else:
                self.cover[entry] = found
        self.stale.clear()
        for a, b in self.clashes:
            yield f"the {self.pools[a][0]} overlaps the {self.pools[b][0]}", ()
        for (category, other), keys in sorted(self.strays.items()):
            if keys:
                keys = natural_sorted(keys)
                shown = listing(f"{k} {addresses[k]}" for k in keys)
                yield f"{len(keys)} {category} address(es) lie in the {self.pools[other][0]}: {shown}", keys
        first: dict[tuple[str, str], Entry] = {}
        for entry, outer in self.cover.items():
            pair = (outer[2], entry[2])
            if pair not in first or entry < first[pair]:
                first[pair] = entry
        for (_, _), entry in sorted(first.items(), key=lambda item: item[1]):
            outer = self.cover[entry]
            a, b = self._name(outer), self._name(entry)
            yield f"{a} ({cidr_str(outer[0], outer[1])}) overlaps {b} ({cidr_str(entry[0], entry[1])})", (a, b)

    def _name(self, entry: Entry) -> str:
        return min(self.keys_at[entry], key=natural_key)


def build_index(ctx) -> OverlapIndex:
    index = OverlapIndex(pools_of(ctx.settings))
    groups = key_groups(ctx)
    index._insert(((key, groups[key], address) for key, address in ctx.addresses.items() if key in groups), False)
    index._index_entries()
    return index
