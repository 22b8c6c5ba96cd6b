"""Edits of properties: a switch's rail, spine group or fabric plane, NIC rails, host names, addresses
(one, a selection, or the whole plan)."""

from __future__ import annotations

from ...model.fabric import Fabric, asn_key
from ...planning.addressing import assign_addresses, loopback_key
from ...planning.link_addressing import address_links, address_switches, restore
from ...planning.rails import assign_rails
from .base import FabricCommand


class AddressCommand(FabricCommand):
    """Re-address cables and switches: their unpinned addresses and ASNs planned afresh, pins kept (a
    switch moved to another spine group or plane gets that group's ASN and that plane's loopback)."""

    def __init__(self, fabric: Fabric, link_ids, switch_ids=(), text: str = "Re-address the selection"):
        super().__init__(fabric, text)
        self.link_ids, self.switch_ids = list(link_ids), list(switch_ids)
        self.before: dict = {}
        self.asns: dict = {}

    def keys(self) -> list[str]:
        f = self.fabric
        keys = [ep for link_id in self.link_ids if link_id in f.links for ep in (f.links[link_id].a, f.links[link_id].b)]
        return keys + [loopback_key(s) for s in self.switch_ids if s in f.switches]

    def apply(self) -> None:
        f = self.fabric
        with f.batch():
            cleared = {k: (f.addresses[k], False) for k in self.keys() if k in f.addresses and not f.is_pinned(k)}
            for key in cleared:
                f.set_address(key, None)
            self.asns = {s: f.asns.get(s) for s in self.switch_ids if s in f.switches}
            for switch_id, asn in self.asns.items():
                if asn is not None and not f.is_pinned(asn_key(switch_id)):
                    f.set_asn(switch_id, None)
            links = address_links(f, self.link_ids)
            switches = address_switches(f, self.switch_ids)
            self.problems = links.problems + switches.problems
            self.before = {**links.changes, **switches.changes, **cleared}

    def revert(self) -> None:
        with self.fabric.batch():
            restore(self.fabric, self.before, self.asns)


class SetSwitchCommand(FabricCommand):
    """Set one placement field of a switch: its rail (a leaf), spine or core group, or fabric plane."""

    SETTERS = {"rail": "set_switch_rail", "group": "set_switch_group", "fabric_plane": "set_switch_fabric_plane"}

    def __init__(self, fabric: Fabric, switch_id: str, field: str, value, text: str | None = None):
        super().__init__(fabric, text or f"Set {field.replace('_', ' ')} of {switch_id} to {value}")
        self.switch_id, self.field, self.value = switch_id, field, value
        self.before = None

    def apply(self) -> None:
        switch = self.fabric.switches.get(self.switch_id)
        self.before = getattr(switch, self.field, None)
        getattr(self.fabric, self.SETTERS[self.field])(self.switch_id, self.value)

    def revert(self) -> None:
        getattr(self.fabric, self.SETTERS[self.field])(self.switch_id, self.before)


class SetSwitchRailCommand(SetSwitchCommand):
    def __init__(self, fabric: Fabric, switch_id: str, rail: int):
        super().__init__(fabric, switch_id, "rail", rail, f"Move {switch_id} to rail {rail}")


def set_group_command(fabric: Fabric, switch_id: str, group: int | None) -> SetSwitchCommand:
    kind = "core" if fabric.switches[switch_id].role.value == "core" else "spine"
    text = f"Take {switch_id} out of its {kind} group" if group is None else f"Put {switch_id} in {kind} group {group}"
    return SetSwitchCommand(fabric, switch_id, "group", group, text)


def set_plane_command(fabric: Fabric, switch_id: str, plane: int) -> SetSwitchCommand:
    return SetSwitchCommand(fabric, switch_id, "fabric_plane", plane, f"Move {switch_id} to fabric plane {plane}")


class SetNicRailCommand(FabricCommand):
    def __init__(self, fabric: Fabric, nic_id: str, rail: int | None):
        super().__init__(fabric, f"Set rail of {nic_id} to {rail}")
        self.nic_id, self.rail = nic_id, rail
        self.before = None

    def apply(self) -> None:
        self.before = self.fabric.nic(self.nic_id).rail
        self.fabric.set_nic_rail(self.nic_id, self.rail)

    def revert(self) -> None:
        self.fabric.set_nic_rail(self.nic_id, self.before)


class SetHostnameCommand(FabricCommand):
    def __init__(self, fabric: Fabric, device_id: str, hostname: str):
        super().__init__(fabric, f"Rename {device_id} to {hostname}")
        self.device_id, self.hostname = device_id, hostname
        self.before = None

    def apply(self) -> None:
        self.before = self.fabric.device(self.device_id).hostname
        self.fabric.set_hostname(self.device_id, self.hostname)

    def revert(self) -> None:
        self.fabric.set_hostname(self.device_id, self.before)


class SetAddressCommand(FabricCommand):
    """Set (or clear with None) one address; ``pinned`` keeps it through re-planning."""

    def __init__(self, fabric: Fabric, key: str, cidr: str | None, pinned: bool):
        super().__init__(fabric, f"Set address of {key}")
        self.key, self.cidr, self.pinned = key, cidr, pinned
        self.before = None

    def apply(self) -> None:
        self.before = (self.fabric.addresses.get(self.key), self.fabric.is_pinned(self.key))
        self.fabric.set_address(self.key, self.cidr, self.pinned)

    def revert(self) -> None:
        self.fabric.set_address(self.key, *self.before)


class ReplanCommand(FabricCommand):
    """Design > Assign rails and addresses: the planner over the whole design, as one step."""

    def __init__(self, fabric: Fabric):
        super().__init__(fabric, "Assign rails and addresses")
        self.before = None

    def apply(self) -> None:
        f = self.fabric
        self.before = ({n.id: n.rail for n in f.nics()}, dict(f.addresses), dict(f.asns))
        try:
            with f.batch():
                assign_rails(f)
                assign_addresses(f)
        except Exception:
            self.revert()
            raise

    def revert(self) -> None:
        rails, addresses, asns = self.before
        f = self.fabric
        with f.batch():
            for nic in list(f.nics()):
                if nic.id in rails and nic.rail != rails[nic.id]:
                    f.set_nic_rail(nic.id, rails[nic.id])
            f.replace_plan(addresses, asns)
