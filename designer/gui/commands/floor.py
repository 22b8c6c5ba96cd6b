"""Floor edits: a rack (and everything in it) stood at another slot of the floor."""

from __future__ import annotations

from .base import FabricCommand


class MoveRackCommand(FabricCommand):
    def __init__(self, fabric, rack_id: str, row: str, position: int):
        rack = fabric.racks.get(rack_id)
        super().__init__(fabric, f"Move rack {rack_id} to {row} position {position}")
        self.rack_id, self.target = rack_id, (row, position)
        self.origin = (rack.row, rack.position) if rack is not None else None

    def apply(self) -> None:
        self.fabric.move_rack(self.rack_id, *self.target)     # refuses an unknown rack or row, a taken slot

    def revert(self) -> None:
        self.fabric.move_rack(self.rack_id, *self.origin)
