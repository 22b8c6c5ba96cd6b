"""Drag a NIC onto a switch: re-cable it there (or cable it, when it had no cable yet).

The NIC keeps its rail (its GPU affinity); dropping it on another rail's leaf is allowed and is
exactly the cross-rail mistake the checks report, so the preview warns before the drop.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF

from ..commands import MoveNicCommand
from .base import Interaction, PreviewLine


class NicDragInteraction(Interaction):
    def __init__(self, scene, document, status, nic_id: str, start: QPointF):
        super().__init__(scene, document, status)
        self.nic_id = nic_id
        item = scene.nics[nic_id]
        self.line = PreviewLine(scene, item.mapToScene(item.boundingRect().center()))

    def _verdict(self, target) -> tuple[bool, str]:
        f = self.scene.fabric
        nic = f.nic(self.nic_id)
        switch = f.switches[target.model_id]
        peer = f.peer(self.nic_id)
        if peer and peer.startswith(switch.id + "/"):
            return False, f"{self.nic_id} is already cabled to {switch.id}"
        if not f.free_ports(switch.id, nic.speed):
            return False, f"{switch.id} has no free {nic.speed}G port for {self.nic_id}"
        if switch.role.value == "leaf" and switch.rail != nic.rail:
            return True, (f"drop to cable {self.nic_id} (rail {nic.rail}) to {switch.id} (rail {switch.rail}): "
                          "this crosses rails")
        return True, f"drop to cable {self.nic_id} to {switch.id}"

    def move(self, pos: QPointF) -> None:
        self.line.set_end(pos)
        target = self.switch_at(pos)
        if target is None:
            self.line.set_ok(None)
            return
        ok, message = self._verdict(target)
        self.line.set_ok(ok)
        self.status(message)

    def finish(self, pos: QPointF) -> None:
        self.line.remove()
        target = self.switch_at(pos)
        if target is None:
            self.status(f"{self.nic_id} was not moved: drop it on a leaf switch")
            return
        error = self.document.execute(MoveNicCommand(self.scene.fabric, self.nic_id, target.model_id))
        self.status(f"{self.nic_id} was not moved: {error}" if error else
                    f"cabled {self.nic_id} to {self.scene.fabric.peer(self.nic_id)}")

    def cancel(self) -> None:
        self.line.remove()
