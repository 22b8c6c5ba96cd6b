"""Data that several rules need, computed at most once per `check()` call.

Everything is lazy (``cached_property``): a rule that never asks for the leaf links does not
pay for them, and a failure while computing shared data is reported against the rule that
asked (as RD000) instead of crashing the whole check.
"""

from __future__ import annotations

from functools import cached_property

from ..model.addressing import parse_cidrs
from ..model.entities import Link, Nic, Switch
from ..model.fabric import Fabric
from ..model.hardware import parse_breakout
from ..model.ids import natural_key
from ..planning.topology import LeafLinks, SpineLinks, all_leaf_links, all_spine_links, mesh_key

# (kind of one end, kind of the other) of the cables between two tiers, either way round: a rule asks
# this of every cable, and a tuple lookup costs less than comparing two sets
SPINE_CORE = frozenset({("spine", "core"), ("core", "spine")})
LEAF_CORE = frozenset({("leaf", "core"), ("core", "leaf")})
LEAF_SPINE = frozenset({("leaf", "spine"), ("spine", "leaf")})


def network(addr: int, prefix: int) -> tuple[int, int]:
    """First and last address of the network holding ``addr``."""
    span = (1 << (32 - prefix)) - 1
    start = addr & ~span & 0xFFFFFFFF
    return start, start + span


def valid_mode(mode: str) -> bool:
    try:
        parse_breakout(mode)
    except ValueError:
        return False
    return True


# One end of a cable: (endpoint, device id, kind, speed). ``kind`` is "leaf", "spine", "core", "nic" or None
# (unknown); ``speed`` is None when the port does not exist under the switch's breakouts. Plain
# tuples, not NamedTuples: a big design has ~10^5 of them and NamedTuple construction is 20x slower.
End = tuple[str, str, "str | None", "int | None"]
Cable = tuple[Link, End, End]


class Context:
    def __init__(self, fabric: Fabric):
        self.fabric = fabric
        self.settings = fabric.settings
        self.scheme = fabric.settings.addressing.scheme
        self.switches = fabric.switches
        self.servers = fabric.servers
        self.leaves: list[Switch] = fabric.leaves()
        self.spines: list[Switch] = fabric.spines()
        self.cores: list[Switch] = fabric.cores()
        self._expected: dict[tuple, frozenset[str]] = {}

    @cached_property
    def racks(self) -> list:
        """(rack, its devices) for every rack of the floor, both in natural order (the floor rules)."""
        found = self.fabric.rack_devices()
        return [(self.fabric.racks[rack_id], sorted(devices, key=lambda d: natural_key(d.id)))
                for rack_id, devices in sorted(found.items(), key=lambda kv: natural_key(kv[0]))]

    @cached_property
    def cable_plan(self):
        """Each cable's run and media (`planning.cable_plan`), for the floor rules; None without a floor."""
        from ..planning.cable_plan import cable_plan
        return cable_plan(self.fabric)

    @cached_property
    def leaf_links(self) -> dict[str, LeafLinks]:
        return all_leaf_links(self.fabric)

    @cached_property
    def leaf_bandwidth(self) -> dict[str, tuple[int, int]]:
        """Leaf id -> (downlink Gb/s, uplink Gb/s) from its cabled port speeds (RD003 reports a cable
        whose far end runs at another speed)."""
        return {leaf_id: (sum(port.speed for port, _ in links.downlinks), sum(port.speed for port, _ in links.uplinks))
                for leaf_id, links in self.leaf_links.items()}

    @cached_property
    def nics(self) -> dict[str, Nic]:
        return {nic.id: nic for server in self.servers.values() for nic in server.nics}

    @cached_property
    def cables(self) -> list[Cable]:
        """Every cable with what sits at its two ends, in one pass over the links."""
        return self.cables_for(self.fabric.links.values())

    def cables_for(self, links) -> list[Cable]:
        kinds = {switch_id: switch.role.value for switch_id, switch in self.switches.items()}
        tables = {switch_id: self.fabric.ports(switch_id) for switch_id in self.usable_switches}
        nics = self.nics

        def end(ep: str) -> End:
            device, _, port = ep.partition("/")
            kind = kinds.get(device)
            if kind is not None:
                found = tables[device].get(port) if device in tables else None
                return ep, device, kind, found.speed if found else None
            nic = nics.get(ep)
            return (ep, device, "nic", nic.speed) if nic else (ep, device, None, None)

        return [(link, end(link.a), end(link.b)) for link in links]

    @cached_property
    def usable_switches(self) -> frozenset[str]:
        """Switches whose model is in the catalog and whose breakouts parse and are supported."""
        catalog = self.fabric.catalog.switches
        verdicts: dict[tuple, bool] = {}            # switches of one model and breakout layout share one
        ok = set()
        for switch in self.switches.values():
            layout = (switch.model, switch.breakouts)
            if layout not in verdicts:
                model = catalog.get(switch.model)
                verdicts[layout] = model is not None and all(
                    1 <= cage <= model.ports and model.supports(mode) and valid_mode(mode)
                    for cage, mode in switch.breakouts)
            if verdicts[layout]:
                ok.add(switch.id)
        return frozenset(ok)

    @cached_property
    def cabled(self) -> frozenset[str]:
        """Every endpoint that has a cable."""
        return frozenset(ep for link in self.fabric.links.values() for ep in (link.a, link.b))

    @cached_property
    def addresses(self) -> dict[str, tuple[int, int]]:
        """Address key -> (address int, prefix length)."""
        return parse_cidrs(self.fabric.addresses)

    @cached_property
    def overlap_index(self):
        """RD008's subnets by group and pool (`overlaps.OverlapIndex`)."""
        from .overlaps import build_index     # overlaps uses this module's helpers
        return build_index(self)

    @cached_property
    def spine_links(self) -> dict[str, SpineLinks]:
        return all_spine_links(self.fabric)

    def expected_spines(self, leaf: Switch) -> frozenset[str]:
        """The spines ``leaf`` should reach: of its fabric plane, spine group and spine plane (cached by those)."""
        key = mesh_key(self.fabric, leaf)
        found = self._expected.get(key)
        if found is None:
            found = self._expected[key] = frozenset(s.id for s in self.spines if mesh_key(self.fabric, s) == key)
        return found
