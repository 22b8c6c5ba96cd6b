"""Design > Add SU: grow the design by one SU as its plan places it (`planning.grow`), as one undo step."""

from __future__ import annotations

from ...model.fabric import Fabric
from ...planning.grow import current_size, grow
from .base import FabricCommand


class GrowCommand(FabricCommand):
    """Add ``count`` SUs (their leaves, servers, spines of new spine groups, cables, addresses and ASNs)
    without renumbering anything; refused, with what would change, where that cannot be additive."""

    def __init__(self, fabric: Fabric, count: int = 1):
        super().__init__(fabric, f"Add {count} SU" + ("s" if count > 1 else ""))
        self.count = count
        self.added: list[str] = []
        self.keys: list[str] = []
        self.racks: list[str] = []           # racks and rows the floor's layout added for them
        self.rows: list[str] = []
        self.settings = None

    def apply(self) -> None:
        self.settings = self.fabric.settings
        keys = set(self.fabric.addresses)
        racks, rows = set(self.fabric.racks), set(self.fabric.rows)
        sus, _ = current_size(self.fabric)
        self.added = grow(self.fabric, sus + self.count).added
        self.keys = [k for k in self.fabric.addresses if k not in keys]     # the new cables' far ends too
        self.racks = [r for r in self.fabric.racks if r not in racks]
        self.rows = [r for r in self.fabric.rows if r not in rows]

    def revert(self) -> None:
        f = self.fabric
        with f.batch():
            for device_id in sorted(self.added, key=lambda d: d in f.switches):   # servers, then switches
                f.remove_device(device_id)
            for key in self.keys:
                if key in f.addresses:
                    f.set_address(key, None)
            for rack in self.racks:
                f.remove_rack(rack)
            for row in self.rows:
                f.remove_row(row)
            if f.settings != self.settings:
                f.set_settings(self.settings)
