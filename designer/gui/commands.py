"""Undoable edits. Each command calls the Fabric's mutation API (and planning functions that go
through it) only; the scene follows the events.

A command is applied once by `Document.execute` (so a refused edit never reaches the stack);
the stack's first `redo()` after the push is then skipped. A cable a command draws is addressed in
the same step (`planning.link_addressing`), like a cable of a design built from a preset; the undo
puts every address back.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from ..model.entities import Server, Switch
from ..model.errors import ModelError
from ..model.fabric import Fabric
from ..planning.link_addressing import address_links, address_switches, restore


class FabricCommand(QUndoCommand):
    def __init__(self, fabric: Fabric, text: str):
        super().__init__(text)
        self.fabric = fabric
        self._skip_redo = False
        self.problems: list[str] = []     # what the edit did not manage (e.g. a full leaf subnet); shown, not refused

    def apply(self) -> None:
        raise NotImplementedError

    def revert(self) -> None:
        raise NotImplementedError

    def run(self) -> None:
        """Apply, noting the SUs and rails the edit brought into the design (an undo drops them again)."""
        sus, rails = set(self.fabric.sus), set(self.fabric.rails)
        self.apply()
        self._made = (set(self.fabric.sus) - sus, set(self.fabric.rails) - rails)

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            return
        self.run()

    def undo(self) -> None:
        self.revert()
        made = getattr(self, "_made", None)
        if made and (made[0] or made[1]):
            self.fabric.forget_unused(*made)


class AddDeviceCommand(FabricCommand):
    """Add a server or a switch; a switch gets its loopback and ASN as a built one would."""

    def __init__(self, fabric: Fabric, device: Server | Switch):
        super().__init__(fabric, f"Add {device.id}")
        self.device = device
        self.addressing = None

    def apply(self) -> None:
        if isinstance(self.device, Server):
            self.fabric.add_server(self.device)
            return
        self.fabric.add_switch(self.device)
        try:
            self.addressing = address_switches(self.fabric, [self.device.id])
            self.problems = self.addressing.problems
        except Exception:
            self.fabric.remove_device(self.device.id)
            raise

    def revert(self) -> None:
        if isinstance(self.device, Switch):
            restore(self.fabric, self.addressing, {self.device.id: None})
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
    """Draw cables (one or many, as one step) and address them."""

    def __init__(self, fabric: Fabric, a: str | None = None, b: str | None = None, pairs=None, text: str | None = None):
        self.pairs = list(pairs) if pairs is not None else [(a, b)]
        super().__init__(fabric, text or (f"Cable {a} to {b}" if pairs is None else f"Draw {len(self.pairs)} cables"))
        self.a, self.b = self.pairs[0] if self.pairs else (None, None)
        self.link_ids: list[str] = []
        self.addressing = None

    @property
    def link_id(self) -> str | None:
        return self.link_ids[0] if self.link_ids else None

    def apply(self) -> None:
        f = self.fabric
        self.link_ids = []
        with f.batch():
            try:
                for a, b in self.pairs:
                    self.link_ids.append(f.connect(a, b).id)
                self.addressing = address_links(f, self.link_ids)
                self.problems = self.addressing.problems
            except Exception:
                for link_id in reversed(self.link_ids):
                    f.disconnect(link_id)
                raise

    def revert(self) -> None:
        with self.fabric.batch():
            restore(self.fabric, self.addressing)
            for link_id in reversed(self.link_ids):
                self.fabric.disconnect(link_id)


class DisconnectCommand(FabricCommand):
    def __init__(self, fabric: Fabric, link_id: str):
        super().__init__(fabric, f"Remove cable {link_id}")
        self.link_id = link_id
        self.link = None

    def apply(self) -> None:
        self.link = self.fabric.disconnect(self.link_id)

    def revert(self) -> None:
        self.fabric.connect(self.link.a, self.link.b)


class RecableCommand(FabricCommand):
    """Re-cable NICs onto switches (each onto a free port of its speed, or the port named); their
    rails are left as they are. A NIC without a cable is simply cabled."""

    def __init__(self, fabric: Fabric, moves, text: str | None = None):
        self.moves = [tuple(m) + (None,) * (3 - len(m)) for m in moves]
        super().__init__(fabric, text or f"Re-cable {len(self.moves)} NICs")
        self.done: list = []              # (old link or None, new link) per move
        self.addressing = None

    def apply(self) -> None:
        f = self.fabric
        self.done = []
        with f.batch():
            try:
                for i, (nic_id, switch_id, port) in enumerate(self.moves):
                    old, new = f.move_nic(nic_id, switch_id, port)
                    self.done.append((old, new))
                    self.moves[i] = (nic_id, switch_id, new.other(nic_id).split("/", 1)[1])   # redo: same port
                self.addressing = address_links(f, [new.id for _, new in self.done])
                self.problems = self.addressing.problems
            except Exception:
                self.revert_cabling()
                raise

    def revert_cabling(self) -> None:
        f = self.fabric
        with f.batch():
            for old, new in reversed(self.done):
                if old is not None and old.id == new.id:
                    continue
                f.disconnect(new.id)
                if old is not None:
                    f.connect(old.a, old.b)

    def revert(self) -> None:
        with self.fabric.batch():
            restore(self.fabric, self.addressing)
            self.revert_cabling()


class MoveNicCommand(RecableCommand):
    """Re-cable one NIC onto a switch (a NIC drag, or a cable's switch end dragged elsewhere)."""

    def __init__(self, fabric: Fabric, nic_id: str, switch_id: str, port: str | None = None):
        super().__init__(fabric, [(nic_id, switch_id, port)], f"Move {nic_id} to {switch_id}")
        self.nic_id, self.switch_id = nic_id, switch_id

    @property
    def old(self):
        return self.done[0][0] if self.done else None

    @property
    def new(self):
        return self.done[0][1] if self.done else None


class AddServersCommand(FabricCommand):
    """Add servers and (``cable``) cable every rail NIC of theirs onto a leaf of its rail, as one step."""

    def __init__(self, fabric: Fabric, servers, cable: bool = True):
        super().__init__(fabric, f"Add {len(servers)} servers")
        self.servers, self.cable = list(servers), cable
        self.recable: RecableCommand | None = None

    def apply(self) -> None:
        from ..planning.bulk import rail_cabling
        f = self.fabric
        added = []
        with f.batch():
            try:
                for server in self.servers:
                    f.add_server(server)
                    added.append(server.id)
                if self.cable:
                    plan = rail_cabling(f, [n.id for s in self.servers for n in s.nics if n.rail is not None])
                    self.problems = plan.problems
                    self.recable = RecableCommand(f, [(nic, *port.split("/", 1)) for nic, port in plan.steps])
                    self.recable.apply()
                    self.problems += self.recable.problems
            except Exception:
                for server_id in reversed(added):
                    f.remove_device(server_id)
                raise

    def revert(self) -> None:
        with self.fabric.batch():
            if self.recable is not None:
                self.recable.revert()
            for server in reversed(self.servers):
                self.fabric.remove_device(server.id)


class RehomeCommand(FabricCommand):
    """Move one end of a cable to another endpoint (a cable end dragged onto another device)."""

    def __init__(self, fabric: Fabric, link_id: str, moving: str, target: str):
        super().__init__(fabric, f"Move cable end {moving} to {target}")
        self.link_id, self.moving, self.target = link_id, moving, target
        self.old = None
        self.new_id = None
        self.addressing = None

    def apply(self) -> None:
        f = self.fabric
        link = f.links.get(self.link_id)
        if link is None:
            raise ModelError(f"there is no cable '{self.link_id}'", (self.link_id,))
        keep = link.other(self.moving)
        with f.batch():
            self.old = f.disconnect(self.link_id)
            self.new_id = None
            try:
                self.new_id = f.connect(keep, self.target).id
                self.addressing = address_links(f, [self.new_id])
                self.problems = self.addressing.problems
            except Exception:
                if self.new_id in f.links:
                    f.disconnect(self.new_id)
                f.connect(self.old.a, self.old.b)
                raise

    def revert(self) -> None:
        f = self.fabric
        with f.batch():
            restore(f, self.addressing)
            f.disconnect(self.new_id)
            f.connect(self.old.a, self.old.b)


class AddressCommand(FabricCommand):
    """Re-address cables and switches: their unpinned addresses planned afresh, pins kept."""

    def __init__(self, fabric: Fabric, link_ids, switch_ids=(), text: str = "Re-address the selection"):
        super().__init__(fabric, text)
        self.link_ids, self.switch_ids = list(link_ids), list(switch_ids)
        self.before: dict = {}
        self.asns: dict = {}

    def keys(self) -> list[str]:
        from ..planning.addressing import loopback_key
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
            links = address_links(f, self.link_ids)
            switches = address_switches(f, self.switch_ids)
            self.problems = links.problems + switches.problems
            self.before = {**links.changes, **switches.changes, **cleared}

    def revert(self) -> None:
        with self.fabric.batch():
            restore(self.fabric, self.before, self.asns)


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
        with self.fabric.batch():
            try:
                for part in self.parts:
                    part.apply()
                    done.append(part)
            except Exception:
                for part in reversed(done):
                    part.revert()
                raise

    def revert(self) -> None:
        with self.fabric.batch():
            for part in reversed(self.parts):
                part.revert()
