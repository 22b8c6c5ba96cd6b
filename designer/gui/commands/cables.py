"""Drawing, removing, re-cabling and re-homing cables; every cable drawn is addressed in the same
step (`planning.link_addressing`), like a cable of a design built from a preset."""

from __future__ import annotations

from ...model.errors import ModelError
from ...model.fabric import Fabric
from ...planning.link_addressing import address_links, restore
from .base import FabricCommand


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
