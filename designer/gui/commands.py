"""Undoable edits. Each command calls the Fabric's mutation API only; the scene follows the events.

A command is applied once by `Document.execute` (so a refused edit never reaches the stack);
the stack's first `redo()` after the push is then skipped.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from ..model.entities import Server, Switch
from ..model.fabric import Fabric


class FabricCommand(QUndoCommand):
    def __init__(self, fabric: Fabric, text: str):
        super().__init__(text)
        self.fabric = fabric
        self._skip_redo = False

    def apply(self) -> None:
        raise NotImplementedError

    def revert(self) -> None:
        raise NotImplementedError

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            return
        self.apply()

    def undo(self) -> None:
        self.revert()


class AddDeviceCommand(FabricCommand):
    def __init__(self, fabric: Fabric, device: Server | Switch):
        super().__init__(fabric, f"Add {device.id}")
        self.device = device

    def apply(self) -> None:
        if isinstance(self.device, Server):
            self.fabric.add_server(self.device)
        else:
            self.fabric.add_switch(self.device)

    def revert(self) -> None:
        self.fabric.remove_device(self.device.id)


class RemoveDeviceCommand(FabricCommand):
    def __init__(self, fabric: Fabric, device_id: str):
        super().__init__(fabric, f"Delete {device_id}")
        self.device_id = device_id
        self.removed = None

    def apply(self) -> None:
        self.removed = self.fabric.remove_device(self.device_id)

    def revert(self) -> None:
        device, links = self.removed
        with self.fabric.batch():
            AddDeviceCommand(self.fabric, device).apply()
            for link in links:
                self.fabric.connect(link.a, link.b)


class ConnectCommand(FabricCommand):
    def __init__(self, fabric: Fabric, a: str, b: str):
        super().__init__(fabric, f"Cable {a} to {b}")
        self.a, self.b = a, b
        self.link_id = None

    def apply(self) -> None:
        self.link_id = self.fabric.connect(self.a, self.b).id

    def revert(self) -> None:
        self.fabric.disconnect(self.link_id)


class DisconnectCommand(FabricCommand):
    def __init__(self, fabric: Fabric, link_id: str):
        super().__init__(fabric, f"Remove cable {link_id}")
        self.link_id = link_id
        self.link = None

    def apply(self) -> None:
        self.link = self.fabric.disconnect(self.link_id)

    def revert(self) -> None:
        self.fabric.connect(self.link.a, self.link.b)


class MoveNicCommand(FabricCommand):
    """Re-cable a NIC onto a switch (a free port of its speed); its rail is left as it is."""

    def __init__(self, fabric: Fabric, nic_id: str, switch_id: str, port: str | None = None):
        super().__init__(fabric, f"Move {nic_id} to {switch_id}")
        self.nic_id, self.switch_id, self.port = nic_id, switch_id, port
        self.old = self.new = None

    def apply(self) -> None:
        self.old, self.new = self.fabric.move_nic(self.nic_id, self.switch_id, self.port)
        self.port = self.new.other(self.nic_id).split("/", 1)[1]   # redo lands on the same port

    def revert(self) -> None:
        if self.old is not None and self.old.id == self.new.id:
            return
        with self.fabric.batch():
            self.fabric.disconnect(self.new.id)
            if self.old is not None:
                self.fabric.connect(self.old.a, self.old.b)


class SetSwitchRailCommand(FabricCommand):
    def __init__(self, fabric: Fabric, switch_id: str, rail: int):
        super().__init__(fabric, f"Move {switch_id} to rail {rail}")
        self.switch_id, self.rail = switch_id, rail
        self.before = fabric.switches[switch_id].rail if switch_id in fabric.switches else None

    def apply(self) -> None:
        self.fabric.set_switch_rail(self.switch_id, self.rail)

    def revert(self) -> None:
        self.fabric.set_switch_rail(self.switch_id, self.before)


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
    """Tools > Assign rails and addresses: the planner over the whole design, as one step."""

    def __init__(self, fabric: Fabric):
        super().__init__(fabric, "Assign rails and addresses")
        self.before = None

    def apply(self) -> None:
        from ..planning.addressing import assign_addresses
        from ..planning.rails import assign_rails
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


class MacroCommand(FabricCommand):
    """Several commands as one undo step (e.g. deleting a selection)."""

    def __init__(self, fabric: Fabric, text: str, parts: list[FabricCommand]):
        super().__init__(fabric, text)
        self.parts = parts

    def apply(self) -> None:
        done = []
        try:
            for part in self.parts:
                part.apply()
                done.append(part)
        except Exception:
            for part in reversed(done):
                part.revert()
            raise

    def revert(self) -> None:
        for part in reversed(self.parts):
            part.revert()
