"""The facts the design diff compares per device, and the rule that judges a fact that differs.

A fact is one key with one value. Gained (the old side has no value) is additive; changed or gone is
disruptive. Breakouts are the one exception: a cage whose breakout changes is additive when none of
its old ports had a cable (only new ports appear), disruptive otherwise.
"""

from __future__ import annotations

import dataclasses
from typing import Mapping

from ..model.entities import Server, Switch
from ..model.fabric import Fabric
from ..model.ids import natural_key
from ..model.lossless import resolve
from ..planning.ppd import leaf_ppd
from ..planning.topology import leaf_links
from .report import Change


def fact_changes(kind: str, old: Mapping[str, object], new: Mapping[str, object]) -> list[Change]:
    """A change per key whose value differs (a missing key or a None value: no fact), in natural key order."""
    changes = []
    for key in old.keys() | new.keys():
        before, after = old.get(key), new.get(key)
        if before != after:
            changes.append(Change(kind, key, before, after, before is not None))
    return sorted(changes, key=lambda c: natural_key(c.key))


def switch_attributes(switch: Switch) -> dict[str, object]:
    return {"kind": "switch", "hostname": switch.hostname, "role": switch.role.value, "model": switch.model,
            "su": switch.su, "rail": switch.rail, "plane": switch.plane, "group": switch.group,
            "fabric plane": switch.fabric_plane, "rack": switch.rack, "position": switch.position}


def server_attributes(server: Server) -> dict[str, object]:
    facts: dict[str, object] = {
        "kind": "server", "hostname": server.hostname, "model": server.model, "su": server.su,
        "gpus": server.gpus, "rack": server.rack, "position": server.position, "gid index": server.gid_index}
    for nic in server.nics:
        facts.update({f"{nic.port} rail": nic.rail, f"{nic.port} netdev": nic.netdev,
                      f"{nic.port} rdma": nic.rdma, f"{nic.port} speed": nic.speed,
                      f"{nic.port} gpus": ",".join(map(str, nic.gpus)),
                      f"{nic.port} fabric plane": nic.fabric_plane})
    return facts


def attributes(device: Server | Switch) -> dict[str, object]:
    return server_attributes(device) if isinstance(device, Server) else switch_attributes(device)


def breakout_changes(old: Fabric, new: Fabric, switch_id: str) -> list[Change]:
    """A change per cage whose breakout mode differs (each side read against its own model's native mode)."""
    before, after = old.switches.get(switch_id), new.switches.get(switch_id)
    if not isinstance(before, Switch) or not isinstance(after, Switch) or before.breakouts == after.breakouts:
        return []
    old_native = old.catalog.switch(before.model).native_mode
    new_native = new.catalog.switch(after.model).native_mode
    cabled = {port.cage for port, _ in old.cabled_ports(switch_id)}
    changes = []
    for cage in sorted({c for c, _ in before.breakouts} | {c for c, _ in after.breakouts}):
        was, now = before.breakout_of(cage, old_native), after.breakout_of(cage, new_native)
        if was != now:
            changes.append(Change("breakout", f"cage {cage}", was, now, cage in cabled))
    return changes


def pin_map(fabric: Fabric, leaf_id: str) -> dict[str, str]:
    """A leaf's PPD pins (planning.ppd): downlink port -> 'uplink port -> spine endpoint'."""
    ppd = leaf_ppd(fabric, leaf_id, leaf_links(fabric, leaf_id))
    return {b.downlink: f"{b.uplink} -> {b.spine}/{b.spine_port}" for b in ppd.bindings}


def settings_facts(fabric: Fabric) -> dict[str, object]:
    """The design-wide facts: every setting (``addressing.scheme`` ..., ``lossless.pfcwd_detection_ms``
    with the default where the design sets none), rail and SU names."""
    facts: dict[str, object] = {}

    def flatten(prefix: str, value) -> None:
        if dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                flatten(f"{prefix}{f.name}" if not prefix else f"{prefix}.{f.name}", getattr(value, f.name))
        else:
            facts[prefix] = value

    # ECN / watchdog values as the switches get them: an override of a default is a changed value
    flatten("", dataclasses.replace(fabric.settings, lossless=resolve(fabric.settings.lossless)))
    facts.update({f"rail {i} name": rail.name for i, rail in fabric.rails.items()})
    facts.update({f"SU {i} name": su.name for i, su in fabric.sus.items()})
    return facts
