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


class SetPlaceCommand(FabricCommand):
    """A server or switch stood in another rack or at another unit (the floor's units and budgets are
    the checks' to judge)."""

    def __init__(self, fabric, device_id: str, rack: str | None, position: int | None):
        device = fabric.device(device_id)
        super().__init__(fabric, f"Place {device_id} in {rack or 'no rack'} at unit {position}")
        self.device_id, self.target, self.origin = device_id, (rack, position), (device.rack, device.position)

    def apply(self) -> None:
        self.fabric.set_place(self.device_id, *self.target)   # refuses an unknown rack, a unit past its top

    def revert(self) -> None:
        self.fabric.set_place(self.device_id, *self.origin)


class SetMediaCommand(FabricCommand):
    """A cable's media chosen by hand (None: back to the choice by length)."""

    def __init__(self, fabric, link_id: str, media: str | None):
        super().__init__(fabric, f"Set media of {link_id} to {media or 'the choice by length'}")
        self.link_id, self.media, self.before = link_id, media, fabric.media_overrides.get(link_id)

    def apply(self) -> None:
        self.fabric.set_media(self.link_id, self.media)       # refuses a media the catalogue does not have

    def revert(self) -> None:
        self.fabric.set_media(self.link_id, self.before)
