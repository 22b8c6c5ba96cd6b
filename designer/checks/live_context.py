"""A `Context` kept between checks: after an edit only the shared data the edit can have changed
is recomputed. `Change` says what changed, found by comparing the design with the last snapshot
by identity (entities are frozen and replaced on change, so an unchanged one is the same object):
only at the keys the model's events named since (`events.Touched`), or everywhere when an event
did not say.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.addressing import PARSED as _PARSED, parse_cidr
from ..model.events import Touched
from ..planning.topology import leaf_links, mesh_key
from .context import Context
from .overlaps import core_link_kind, leaf_groups


@dataclass
class Change:
    devices: set[str] = field(default_factory=set)      # servers and switches added, removed or replaced
    links: dict[str, object] = field(default_factory=dict)   # link id -> old Link (None when new)
    addresses: set[str] = field(default_factory=set)
    asns: bool = False
    settings: bool = False
    floor: bool = False                                 # rows, racks or floor settings (the floor rules read them)
    old_servers: dict = field(default_factory=dict)     # a changed device's server before (when it was one)
    old_switches: dict = field(default_factory=dict)    # and its switch
    hints: Touched | None = None                        # what the events named (the cable plan refreshes by it)

    def facets(self) -> set[str]:
        return {name for name, changed in (("devices", self.devices), ("wiring", self.links),
                                           ("plan", self.addresses or self.asns), ("settings", self.settings),
                                           ("floor", self.floor))
                if changed}


def _changed(old: dict, new, keys) -> list:
    """The keys whose value is not the one ``old`` holds: among ``keys``, or all (None)."""
    if keys is None:
        return [key for key, value in new.items() if old.get(key) is not value] + \
            sorted(old.keys() - new.keys())
    return [key for key in sorted(keys) if old.get(key) is not new.get(key)]


def _put(table: dict, key, value) -> None:
    if value is None:
        table.pop(key, None)
    else:
        table[key] = value


class LiveContext(Context):
    """The shared data of the rules, updated in place by `refresh`. `hint` is told every model event."""

    def __init__(self, fabric):
        super().__init__(fabric)
        self._snapshot = None
        self._touched = Touched()                  # what the events named since the last `diff`
        self._pending = Touched()                  # and what `diff`s saw that no `refresh` applied yet
        self._leaf_links: dict = {}
        self._cables: dict = {}
        self._groups: dict[str, dict] = {}        # leaf id -> its `leaf_groups`
        self._owner: dict[str, str] = {}          # grouped key -> leaf id

    def hint(self, event) -> None:
        self._touched.add(event)

    def diff(self) -> Change | None:
        """What changed since the last `refresh` (None: the first time, everything)."""
        if self._snapshot is None:
            return None
        hints = self._pending
        hints.update(self._touched)
        self._touched = Touched()
        servers, switches, links, addresses, asns, settings = self._snapshot
        f = self.fabric
        every = hints.everything
        change = Change(settings=settings is not f.settings, floor=bool(hints.floor or hints.media) or every, hints=hints)
        devices = None if every else hints.devices
        for table, now, old in ((servers, f.servers, change.old_servers), (switches, f.switches, change.old_switches)):
            for key in _changed(table, now, devices):
                change.devices.add(key)
                old[key] = table.get(key)
        plan = None if every or hints.plan_all else hints.plan
        change.addresses.update(_changed(addresses, f.addresses, plan))
        change.asns = asns != f.asns if plan is None else any(asns.get(k) != f.asns.get(k) for k in plan)
        for link_id in _changed(links, f.links, None if every else hints.links):
            change.links[link_id] = links.get(link_id)
        return change

    def _take_snapshot(self, change: Change | None) -> None:
        """The design as this refresh sees it: copied the first time, then brought up to date at the
        keys that changed."""
        f = self.fabric
        self._pending = Touched()
        if change is None or self._snapshot is None:
            self._snapshot = (dict(f.servers), dict(f.switches), dict(f.links), dict(f.addresses), dict(f.asns),
                              f.settings)
            return
        servers, switches, links, addresses, asns, _ = self._snapshot
        for device in change.devices:
            _put(servers, device, f.servers.get(device))
            _put(switches, device, f.switches.get(device))
        for link_id in change.links:
            _put(links, link_id, f.links.get(link_id))
        for key in change.addresses:
            _put(addresses, key, f.addresses.get(key))
        self._snapshot = (servers, switches, links, addresses, dict(f.asns) if change.asns else asns, f.settings)

    def refresh(self, change: Change | None) -> set[str] | None:
        """Bring the shared data up to date; returns the leaves to re-check (None: all)."""
        f = self.fabric
        self._take_snapshot(change)
        full = change is None or change.settings
        # a spine added, removed or changed changes which spines the leaves sharing its mesh key (plane,
        # spine group, rail plane) must reach: those leaves are re-checked (all of them, in a two-tier
        # design with shared spines; one spine group's in a three-tier one)
        spine_keys = set() if full else {
            mesh_key(f, switch) for d in change.devices for switch in (f.switches.get(d), change.old_switches.get(d))
            if switch is not None and switch.role.value == "spine"}
        if full or change.devices or change.links or change.floor:
            self.__dict__.pop("racks", None)
            plan = self.__dict__.get("cable_plan")
            if full or plan is None or change.hints.everything or change.hints.settings:
                self.__dict__.pop("cable_plan", None)    # the floor rules' runs and media: recomputed when asked
            else:
                plan.refresh(change.hints)               # only the runs and media the edits can change
        self.settings, self.scheme = f.settings, f.settings.addressing.scheme
        self.switches, self.servers = f.switches, f.servers
        self.leaves, self.spines, self.cores = f.leaves(), f.spines(), f.cores()
        self._expected = {}
        stale = ("usable_switches", "nics", "leaf_bandwidth", "spine_links") if full or change.devices else \
            ("leaf_bandwidth", "spine_links") if change.links else ()     # the NICs and switches are as they were
        for name in stale:
            self.__dict__.pop(name, None)
        if full:
            self.__dict__.pop("addresses", None)
        else:
            addresses = self.addresses
            for key in change.addresses:
                cidr = f.addresses.get(key)
                if cidr is None:
                    addresses.pop(key, None)
                else:
                    addresses[key] = _PARSED.get(cidr) or parse_cidr(cidr)
        if full:
            self._cables = {cable[0].id: cable for cable in self.cables_for(f.links.values())}
            self._cabled = {ep for link in f.links.values() for ep in (link.a, link.b)}
            dirty = {leaf.id for leaf in self.leaves}
        else:
            dirty = self._touched_leaves(change)
            if spine_keys:
                dirty |= {leaf.id for leaf in self.leaves if mesh_key(f, leaf) in spine_keys}
            self._update_cables(change)
        self.cables = list(self._cables.values())
        self.cabled = self._cabled
        leaf_ids = {leaf.id for leaf in self.leaves}
        for leaf_id in list(self._leaf_links):
            if leaf_id not in leaf_ids:
                dirty.add(leaf_id)
        for leaf_id in dirty:
            self._leaf_links.pop(leaf_id, None)
            if leaf_id in leaf_ids:
                self._leaf_links[leaf_id] = leaf_links(f, leaf_id)
        self.leaf_links = {leaf.id: self._leaf_links[leaf.id] for leaf in self.leaves}
        self._update_overlaps(change, dirty, full)
        return None if full else dirty & leaf_ids

    def _touched_leaves(self, change: Change) -> set[str]:
        f, touched = self.fabric, set()
        old_servers = change.old_servers
        for device in change.devices:
            touched.add(device)                      # a leaf itself
            for server in (f.servers.get(device), old_servers.get(device)):
                for nic in server.nics if server else ():
                    touched.add(f.peer(nic.id) or "")
        for link_id, old in change.links.items():
            for link in (old, f.links.get(link_id)):
                if link is not None:
                    touched.update((link.a, link.b))
        for key in change.addresses:
            touched.add(key)
            touched.add(f.peer(key) or "")
        return {ep.partition("/")[0] for ep in touched} & (self._leaf_links.keys() | {l.id for l in self.leaves})

    def _update_cables(self, change: Change) -> None:
        f = self.fabric
        ids = set(change.links)
        for device in change.devices:
            if device in f.servers or device in f.switches:
                ids.update(link.id for link in f.links_of(device))
        for link_id, old in change.links.items():
            if old is not None:
                self._cabled.difference_update((old.a, old.b))
        for link_id in change.links:
            if link_id in f.links:
                self._cabled.update((f.links[link_id].a, f.links[link_id].b))
        for link_id in ids:
            self._cables.pop(link_id, None)
        fresh = self.cables_for([f.links[i] for i in ids if i in f.links])
        self._cables.update((cable[0].id, cable) for cable in fresh)

    def _update_overlaps(self, change: Change | None, dirty: set[str], full: bool) -> None:
        f = self.fabric
        if full:
            self.__dict__.pop("overlap_index", None)
            self._groups = {leaf_id: leaf_groups(leaf_id, self.leaf_links[leaf_id], self.scheme == "p2p31")
                            for leaf_id in self.leaf_links}
            self._owner = {key: leaf_id for leaf_id, groups in self._groups.items() for key in groups}
            return
        keys = set(change.addresses)
        for leaf_id in dirty:
            old = self._groups.pop(leaf_id, {})
            new = leaf_groups(leaf_id, self.leaf_links[leaf_id], self.scheme == "p2p31") \
                if leaf_id in self.leaf_links else {}
            for key in old:
                if self._owner.get(key) == leaf_id:
                    del self._owner[key]
            if new:
                self._groups[leaf_id] = new
                for key in new:
                    self._owner[key] = leaf_id
            keys.update(old, new)
        for link_id, old in change.links.items():    # spine-core /31s are grouped by their cable
            for link in (old, f.links.get(link_id)):
                if link is not None:
                    keys.update((link.a, link.b))
        for device in change.devices:
            keys.add(f"{device}/lo")
            for server in (f.servers.get(device), change.old_servers.get(device)):
                keys.update(nic.id for nic in server.nics) if server else None
        index = self.__dict__.get("overlap_index")
        if index is None:
            return
        for key in keys:
            index.place(key, self._kind(key), self.addresses.get(key))

    def _kind(self, key: str):
        device, _, rest = key.partition("/")
        if rest == "lo" and device in self.switches:
            return "loopback", key
        leaf_id = self._owner.get(key)
        if leaf_id is not None:
            return self._groups[leaf_id][key]
        if key in self.nics:
            return "rail", None
        return core_link_kind(self.fabric, key)

