"""Addresses for cables and switches added by hand (the window's edits, or any script): each gets
what `addressing.plan` gives its kind in a design built from a preset, from the same pools (in a
multi-plane design, its plane's part of each pool), and nothing else in the design is renumbered.

- NIC to leaf, ``p2p31``: a /31 from the leaf's rail pool, the leaf port the even address.
- NIC to leaf, ``subnet-per-leaf``: the lowest free host of the leaf's subnet (the subnet of its
  gateway ``<leaf>/svi``); a leaf without a gateway first gets the lowest free subnet of its rail's
  pool and the subnet's first host as gateway. The subnet is the size the design's other leaf
  subnets have, or larger when the leaf's SU has more NICs of its rail (and plane) than that holds;
  in a design with no leaf subnet yet (one drawn by hand), it is sized for every server port the
  leaf has (half its ports at the NIC's speed when the design has spines, 1:1), so the servers
  cabled one at a time after the first still find an address.
- Leaf to spine: a /31 from the fabric pool, the spine port the even address.
- Spine to core: a /31 from the fabric pool, the core port the even address.
- A switch: a /32 loopback from the loopback pool; an ASN as `asns.next_asn` says (a leaf its own,
  a spine its spine group's, a core the core ASN).

Pinned values are kept, and a pinned end of a /31 fixes its partner (as `plan` does). An end that
already holds a fitting, unique address keeps it, so re-drawing a cable where it was gives back the
addresses it had. Free means: not held by any key of the design. Cables between other tiers get
no address (the checks report the cable itself). A cable whose pool or leaf subnet is full is
left without an address and named in ``problems`` (the edit itself is not refused; the checks
report the missing address, and re-planning the whole design sizes the subnets afresh).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..model.addressing import PARSED, cidr_str, ip_str, network_of, parse_cidr, size, split_cidr
from ..model.errors import ModelError
from ..model.fabric import Fabric, asn_key
from ..model.ids import split_endpoint
from .addressing import hosts_prefix, leaf_subnet_prefix, loopback_key, pool_name, rail_pool, svi_key, switch_pool
from .asns import next_asn
from .errors import PlanningError
from .topology import all_leaf_links

Change = tuple[str | None, bool]          # (previous address or None, previously pinned)


@dataclass
class Addressed:
    changes: dict[str, Change] = field(default_factory=dict)   # key -> what it held before
    problems: list[str] = field(default_factory=list)          # cables left without an address, and why


def _common_text(first: str, last: str) -> str:
    """What every dotted address from ``first`` to ``last`` starts with ("10.252.0.0".."10.253.255.255"
    -> "10.25"): a /15 pool's addresses then need no parsing to be told from the rail pools'."""
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    return first[:n]


class _Pools:
    """The addresses the design holds, read once per call and kept up to date as it hands out more."""

    def __init__(self, fabric: Fabric):
        self.fabric = fabric
        self._held: dict[tuple[int, int], Counter] = {}
        # (base, prefix, length) -> no free block of that pool lies below this (until a release): many
        # cables addressed in one call would otherwise each scan the pool from its base again
        self._floor: dict[tuple[int, int, int], int] = {}

    def held(self, base: int, prefix: int) -> Counter:
        """address int -> how many keys hold it, for the addresses inside base/prefix."""
        key = (base, prefix)
        found = self._held.get(key)
        if found is None:
            end = base + size(prefix)
            text = _common_text(ip_str(base), ip_str(end - 1))     # a cheap filter before parsing
            found = Counter()
            for value in self.fabric.addresses.values():
                if value.startswith(text):
                    addr = (PARSED.get(value) or parse_cidr(value))[0]
                    if base <= addr < end:
                        found[addr] += 1
            self._held[key] = found
        return found

    def take(self, addr: int) -> None:
        for (base, prefix), held in self._held.items():
            if base <= addr < base + size(prefix):
                held[addr] += 1

    def release(self, cidr: str | None) -> None:
        if cidr is None:
            return
        addr = split_cidr(cidr)[0]
        for (base, prefix), held in self._held.items():
            if base <= addr < base + size(prefix) and held[addr] > 0:
                held[addr] -= 1
        self._lower_floors(addr)

    def _lower_floors(self, addr: int) -> None:
        for key, floor in self._floor.items():
            base, prefix, length = key
            if base <= addr < min(floor, base + size(prefix)):
                self._floor[key] = addr - (addr - base) % length

    def free_block(self, name: str, base: int, prefix: int, length: int, giving_up=()) -> int:
        """The lowest aligned block of ``length`` addresses in the pool that no key holds (the
        addresses in ``giving_up`` are about to be replaced, so they count as free)."""
        held = self.held(base, prefix)
        mine = Counter(split_cidr(c)[0] for c in giving_up if c)
        end = base + size(prefix)
        start = self._floor.get((base, prefix, length), base)
        for addr in mine:
            if base <= addr < start:
                start = addr - (addr - base) % length
        while start + length <= end:
            if not any(held.get(a, 0) - mine.get(a, 0) > 0 for a in range(start, start + length)):
                self._floor[(base, prefix, length)] = start
                return start
            start += length
        raise PlanningError([f"{name} {cidr_str(base, prefix)} has no free block of {length} addresses left; "
                             "widen the pool in the design's settings, or re-plan the whole design "
                             "(Design > Assign rails and addresses in the window, or rail-designer assign)"])


class _Writer:
    """Sets addresses through the Fabric's API and records what each key held before."""

    def __init__(self, fabric: Fabric, pools: _Pools):
        self.fabric, self.pools = fabric, pools
        self.changes: dict[str, Change] = {}

    def set(self, key: str, cidr: str) -> None:
        f = self.fabric
        old = f.addresses.get(key)
        if old == cidr:
            return
        self.changes.setdefault(key, (old, f.is_pinned(key)))
        self.pools.release(old)
        f.set_address(key, cidr, pinned=False)
        self.pools.take(split_cidr(cidr)[0])


def address_links(fabric: Fabric, link_ids) -> Addressed:
    """Address the cables ``link_ids`` like a built design's; returns each changed key's previous
    (address, pinned), so an undo can put it back, and the cables no address was left for."""
    pools = _Pools(fabric)
    out = _Writer(fabric, pools)
    problems: list[str] = []
    prefixes = _LeafPrefixes(fabric)
    for link_id in link_ids:
        link = fabric.links.get(link_id)
        if link is None:
            continue
        kind, lower_ep, upper_ep = _classify(fabric, link.a, link.b)
        try:
            if kind in ("uplink", "core-uplink"):          # the upper tier's port takes the even address
                plane = fabric.switches[split_endpoint(lower_ep)[0]].fabric_plane
                _pair(out, *switch_pool(fabric, "fabric pool", plane), upper_ep, lower_ep)
            elif kind == "downlink":
                leaf = fabric.switches[split_endpoint(lower_ep)[0]]
                if fabric.settings.addressing.scheme == "p2p31":
                    base, plen = rail_pool(fabric, leaf.rail, leaf.fabric_plane)
                    _pair(out, _rail_pool_name(fabric, leaf), base, plen, lower_ep, upper_ep)
                else:
                    _host(out, leaf, upper_ep, prefixes)
        except (PlanningError, ModelError) as exc:
            problems.extend(getattr(exc, "problems", None) or [str(exc)])
    return Addressed(out.changes, problems)


def address_switches(fabric: Fabric, switch_ids) -> Addressed:
    """Give switches without one a loopback (and an ASN, `asns.next_asn`); returns the changed
    address keys' previous values (the ASNs it set were unset before: undo clears them)."""
    pools = _Pools(fabric)
    out = _Writer(fabric, pools)
    used_asns = set(fabric.asns.values())
    problems: list[str] = []
    for switch_id in switch_ids:
        switch = fabric.switches.get(switch_id)
        if switch is None:
            continue
        key = loopback_key(switch_id)
        if key not in fabric.addresses:
            try:
                name, base, prefix = switch_pool(fabric, "loopback pool", switch.fabric_plane)
                out.set(key, cidr_str(pools.free_block(name, base, prefix, 1), 32))
            except (PlanningError, ModelError) as exc:
                problems.extend(getattr(exc, "problems", None) or [str(exc)])
        if switch_id in fabric.asns or fabric.is_pinned(asn_key(switch_id)):
            continue
        value = next_asn(fabric, switch, used_asns)
        fabric.set_asn(switch_id, value)
        used_asns.add(value)
    return Addressed(out.changes, problems)


def restore(fabric: Fabric, changes, asns_before: dict[str, int | None] | None = None) -> None:
    """Undo `address_links` / `address_switches` (their `Addressed`, or its ``changes``): every key
    back to what it held, and the ASNs in ``asns_before`` back to those values."""
    changes = changes.changes if isinstance(changes, Addressed) else changes or {}
    for key, (cidr, pinned) in changes.items():
        fabric.set_address(key, cidr, pinned)
    for switch_id, asn in (asns_before or {}).items():
        if switch_id in fabric.switches:
            fabric.set_asn(switch_id, asn)


# ---------------------------------------------------------------------------------------- kinds
_KINDS = {("leaf", "nic"): "downlink", ("leaf", "spine"): "uplink", ("spine", "core"): "core-uplink"}
_TIER = {"nic": 0, "leaf": 1, "spine": 2, "core": 3}


def _classify(fabric: Fabric, a: str, b: str) -> tuple[str | None, str | None, str | None]:
    """(kind, lower endpoint, upper endpoint): ("downlink", leaf, NIC), ("uplink", leaf, spine),
    ("core-uplink", spine, core), or (None, ...) for a cable between other tiers."""
    roles = {}
    for ep in (a, b):
        dev = split_endpoint(ep)[0]
        roles[ep] = "nic" if dev in fabric.servers else fabric.switches[dev].role.value
    low, high = sorted((a, b), key=lambda ep: _TIER[roles[ep]])
    if roles[low] == "nic":                     # a NIC's cable: the leaf is "lower" in address terms
        low, high = high, low
        kind = _KINDS.get((roles[low], "nic"))
    else:
        kind = _KINDS.get((roles[low], roles[high]))
    return (kind, low, high) if kind else (None, None, None)


def _rail_pool_name(fabric: Fabric, leaf) -> str:
    return pool_name(f"rail {leaf.rail} pool", leaf.fabric_plane, fabric.settings.fabric_planes)


def _pair(out: _Writer, name: str, base: int, prefix: int, even_key: str, odd_key: str) -> None:
    """A /31 for two ends: a pinned end fixes its partner; a fitting pair already held is kept."""
    f = out.fabric
    pinned = [k for k in (even_key, odd_key) if f.is_pinned(k)]
    if pinned:
        known = pinned[0]
        other = odd_key if known == even_key else even_key
        if other not in pinned:
            addr = split_cidr(f.addresses[known])[0]
            out.set(other, cidr_str(addr ^ 1, 31))
        return
    held = (f.addresses.get(even_key), f.addresses.get(odd_key))
    if _fitting_pair(out.pools, *held, base, prefix):
        return
    start = out.pools.free_block(name, base, prefix, 2, giving_up=held)
    out.set(even_key, cidr_str(start, 31))
    out.set(odd_key, cidr_str(start + 1, 31))


def _fitting_pair(pools: _Pools, even: str | None, odd: str | None, base: int, prefix: int) -> bool:
    if even is None or odd is None:
        return False
    (ea, ep), (oa, op) = split_cidr(even), split_cidr(odd)
    held = pools.held(base, prefix)
    return (ep == op == 31 and ea % 2 == 0 and oa == ea + 1 and base <= ea < base + size(prefix)
            and held.get(ea) == 1 and held.get(oa) == 1)


class _LeafPrefixes:
    """The size of a new leaf subnet (see the module's docstring); the design's look is read once."""

    def __init__(self, fabric: Fabric):
        self.fabric = fabric
        gateways = (fabric.addresses.get(svi_key(leaf.id)) for leaf in fabric.leaves())
        counts = Counter(split_cidr(v)[1] for v in gateways if v)
        self.common = max(sorted(counts), key=lambda p: counts[p]) if counts else None
        self._busiest: int | None = None      # the prefix the busiest leaf's cables need
        self._nics: Counter | None = None

    def of(self, leaf, nic_speed: int) -> int:
        f = self.fabric
        if self._nics is None:               # NICs per (SU, rail, plane): read only when a subnet is new
            self._nics = Counter((server.su, nic.rail, nic.fabric_plane) for server in f.servers.values()
                                 for nic in server.nics if nic.rail is not None)
        on_rail = self._nics[(leaf.su, leaf.rail, leaf.fabric_plane)]
        if self.common is not None:
            return min(self.common, hosts_prefix(on_rail))
        if self._busiest is None:
            self._busiest = leaf_subnet_prefix(all_leaf_links(f))
        ports = sum(1 for p in f.ports(leaf.id).values() if p.speed == nic_speed)
        server_ports = ports // 2 if f.spines() else ports
        return min(hosts_prefix(on_rail), hosts_prefix(server_ports), self._busiest)


def _host(out: _Writer, leaf, nic_id: str, prefixes: _LeafPrefixes) -> None:
    f, pools = out.fabric, out.pools
    if f.is_pinned(nic_id):
        return
    gateway = f.addresses.get(svi_key(leaf.id))
    if gateway is None:
        prefix = prefixes.of(leaf, f.nic(nic_id).speed)
        base, plen = rail_pool(f, leaf.rail, leaf.fabric_plane)
        net = pools.free_block(_rail_pool_name(f, leaf), base, plen, size(prefix))
        gateway = cidr_str(net + 1, prefix)
        out.set(svi_key(leaf.id), gateway)
    net, plen = network_of(gateway)
    gw_addr = split_cidr(gateway)[0]
    last = net + size(plen) - 1
    current = f.addresses.get(nic_id)
    held = pools.held(net, plen)
    mine = None
    if current is not None:
        mine, cp = split_cidr(current)
        if cp == plen and net < mine < last and mine != gw_addr and held.get(mine) == 1:
            return
    for addr in range(net + 1, last):
        if addr != gw_addr and held.get(addr, 0) - (addr == mine) <= 0:
            out.set(nic_id, cidr_str(addr, plen))
            return
    raise PlanningError([f"leaf {leaf.id}'s subnet {cidr_str(net, plen)} has no free address left for {nic_id}; "
                         "re-plan the addresses (Design > Assign rails and addresses in the window, or rail-designer assign) "
                         "or pin one by hand"])

