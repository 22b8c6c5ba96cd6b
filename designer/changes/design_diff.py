"""The design diff: two `Fabric`s compared on the model, device by device, without rendering a file.

Whole tables are compared first (cables by their ids, addresses and pins as sets of items, devices by
equality), so only what differs is looked at one by one: two 4,096-server designs that differ by an SU
compare in a small fraction of the time either takes to load. A leaf's PPD pin map is a function of its
own cabled ports and of its peers' roles, so it is recomputed only for leaves whose cables or
attributes changed, or that are cabled to a device whose attributes changed.
"""

from __future__ import annotations

from collections import defaultdict

from ..model.entities import Role
from ..model.fabric import Fabric
from ..model.gcpause import collector_paused
from ..model.ids import natural_key
from .facts import attributes, breakout_changes, fact_changes, pin_map, settings_facts
from .report import ADDED, REMOVED, Change, ChangeReport, DeviceChange, sorted_devices, status_of

# The order a device's changes are listed in.
KINDS = ("attribute", "breakout", "cable", "address", "asn", "pin", "ppd", "destination")


@collector_paused()
def diff_designs(old: Fabric, new: Fabric, old_name: str = "old", new_name: str = "new") -> ChangeReport:
    """Every device of either design with its status and changes, and the design-wide settings section.
    (The collector is paused: a diff that changes every address makes 10^5 changes beside two designs
    of 10^6 objects, and each collection on the way would walk them all.)"""
    changes: dict[str, list[Change]] = defaultdict(list)
    old_ids = old.servers.keys() | old.switches.keys()
    new_ids = new.servers.keys() | new.switches.keys()
    both = old_ids & new_ids

    reshaped = _attribute_changes(old, new, both, changes)
    cabled = _cable_changes(old, new, changes)
    _keyed_changes("address", old.addresses, new.addresses, changes)
    _keyed_changes("pin", dict.fromkeys(old.pinned, True), dict.fromkeys(new.pinned, True), changes)
    for device_id in old.asns.keys() | new.asns.keys():
        before, after = old.asns.get(device_id), new.asns.get(device_id)
        if before != after:
            changes[device_id].append(Change("asn", "asn", before, after, before is not None))
    _pin_map_changes(old, new, both, cabled | reshaped, reshaped, changes)
    if cabled or reshaped or old_ids != new_ids:
        _destination_changes(old, new, both, changes)

    devices = []
    for device_id in old_ids | new_ids:
        role = _role(new if device_id in new_ids else old, device_id)
        if device_id not in new_ids:
            devices.append(DeviceChange(device_id, role, REMOVED))
        elif device_id not in old_ids:
            devices.append(DeviceChange(device_id, role, ADDED))
        else:
            found = sorted(changes.get(device_id, ()), key=lambda c: (KINDS.index(c.kind), natural_key(c.key)))
            devices.append(DeviceChange(device_id, role, status_of(found), tuple(found)))
    settings = fact_changes("setting", settings_facts(old), settings_facts(new))
    # An address, pin or ASN keyed to a device neither design has: a design-wide change of its own.
    for owner in sorted(changes.keys() - old_ids - new_ids, key=natural_key):
        settings += [Change(c.kind, f"{owner}/{c.key}", c.old, c.new, c.disruptive) for c in changes[owner]]
    return ChangeReport("design", old_name, new_name, sorted_devices(devices), tuple(settings))


def _role(fabric: Fabric, device_id: str) -> str:
    switch = fabric.switches.get(device_id)
    return "server" if switch is None else switch.role.value


def _attribute_changes(old: Fabric, new: Fabric, both: set[str], changes) -> set[str]:
    """Attribute and breakout changes of the devices both designs have; returns the ids that had any."""
    reshaped = set()
    for device_id in both:
        before = old.servers.get(device_id) or old.switches[device_id]
        after = new.servers.get(device_id) or new.switches[device_id]
        if before == after:
            continue
        reshaped.add(device_id)
        changes[device_id].extend(fact_changes("attribute", attributes(before), attributes(after))
                                  + breakout_changes(old, new, device_id))
    return reshaped


def _cable_changes(old: Fabric, new: Fabric, changes) -> set[str]:
    """A change per cable end whose peer differs (a cable on a free port is additive); returns the ids
    of the devices with any."""
    # A cable's id names both its ends ('a~b'), so the ids alone say which cables differ (a speed
    # follows its ports', which are attributes: model, breakouts, NIC speed).
    ends = set()
    for link_id in old.links.keys() ^ new.links.keys():
        link = old.links.get(link_id) or new.links[link_id]
        ends.update((link.a, link.b))
    touched = set()
    for end in ends:
        before, after = old.peer(end), new.peer(end)
        if before != after:
            device, _, port = end.partition("/")
            changes[device].append(Change("cable", port, before, after, before is not None))
            touched.add(device)
    return touched


def _keyed_changes(kind: str, old: dict, new: dict, changes) -> None:
    """Changes of a table keyed ``<device id>/<name>`` (addresses, pins), filed under their device."""
    keys = {key for key, _ in old.items() ^ new.items()}
    for key in keys:
        before, after = old.get(key), new.get(key)
        device, _, name = key.partition("/")
        changes[device].append(Change(kind, name, before, after, before is not None))


def _pin_map_changes(old: Fabric, new: Fabric, both: set[str], touched: set[str], reshaped: set[str],
                     changes) -> None:
    """PPD pin changes of the leaves both designs have whose pin map can have changed."""
    suspects = set(touched)
    for device_id in reshaped:                  # a peer's role decides what is a downlink or an uplink
        for fabric in (old, new):
            if fabric.has_device(device_id):
                suspects.update(end.partition("/")[0] for link in fabric.links_of(device_id)
                                for end in (link.a, link.b))
    for leaf_id in suspects & both:
        if _is_leaf(old, leaf_id) and _is_leaf(new, leaf_id):
            found = fact_changes("ppd", pin_map(old, leaf_id), pin_map(new, leaf_id))
            changes[leaf_id].extend(found)


def _destination_changes(old: Fabric, new: Fabric, both: set[str], changes) -> None:
    """The leaves whose servers each leaf's PPD agent watches its spines for (ppd-pins.json's
    destinations, `reachable_leaves`): a leaf gained is additive (a new SU behind the spines), one lost
    disruptive."""
    from ..export.ppd_data import reach_groups
    old_groups, new_groups = reach_groups(old), reach_groups(new)
    judged: dict[tuple[int, int], tuple[set[str], set[str]]] = {}   # (old list, new list) -> (gained, lost)
    for leaf_id in both & old_groups.keys() & new_groups.keys():
        before, after = old_groups[leaf_id], new_groups[leaf_id]
        key = (id(before), id(after))
        if key not in judged:
            judged[key] = (set(after) - set(before), set(before) - set(after))
        gained, lost = judged[key]
        changes[leaf_id].extend(Change("destination", other, None, True, False) for other in gained - {leaf_id})
        changes[leaf_id].extend(Change("destination", other, True, None, True) for other in lost - {leaf_id})


def _is_leaf(fabric: Fabric, device_id: str) -> bool:
    switch = fabric.switches.get(device_id)
    return switch is not None and switch.role is Role.LEAF
