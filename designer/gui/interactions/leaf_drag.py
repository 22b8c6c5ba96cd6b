"""Drag a leaf sideways onto another rail lane of its SU: the leaf takes that rail.

The leaf item follows the cursor as the preview; a drop outside its SU's lanes snaps it back.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF

from ..commands import SetSwitchRailCommand
from .base import Interaction

MIN_DRAG = 4.0


class LeafDragInteraction(Interaction):
    def __init__(self, scene, document, status, leaf_id: str, start: QPointF):
        super().__init__(scene, document, status)
        self.leaf_id = leaf_id
        self.item = scene.devices[leaf_id]
        self.start = start
        self.origin = self.item.pos()
        self.moved = False

    def _target(self, pos: QPointF):
        leaf = self.scene.fabric.switches[self.leaf_id]
        lane = self.scene.lane_at(pos)
        if lane is None:
            return None, f"drop {self.leaf_id} on a rail lane of SU{leaf.su}"
        if lane.su != leaf.su:
            return None, f"{self.leaf_id} belongs to SU{leaf.su}; drop it on one of that SU's rail lanes"
        if lane.rail == leaf.rail:
            return None, f"{self.leaf_id} is already on rail {leaf.rail}"
        return lane.rail, f"drop to move {self.leaf_id} from rail {leaf.rail} to rail {lane.rail}"

    def move(self, pos: QPointF) -> None:
        delta = pos - self.start
        if not self.moved and abs(delta.x()) + abs(delta.y()) < MIN_DRAG:
            return
        self.moved = True
        self.item.setPos(self.origin + delta)
        self.status(self._target(pos)[1])

    def finish(self, pos: QPointF) -> None:
        if not self.moved:
            return
        rail, message = self._target(pos)
        self.scene.place(self.leaf_id)          # the model event moves it for real on success
        if rail is None:
            self.status(f"{self.leaf_id} was not moved: {message}")
            return
        error = self.document.execute(SetSwitchRailCommand(self.scene.fabric, self.leaf_id, rail))
        self.status(f"{self.leaf_id} was not moved: {error}" if error else f"{self.leaf_id} is now on rail {rail}")

    def cancel(self) -> None:
        self.scene.place(self.leaf_id)
