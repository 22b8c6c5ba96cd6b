"""Drag a NIC onto a switch: re-cable it there (or cable it, when it had no cable yet).

The NIC keeps its rail (its GPU affinity); dropping it on another rail's leaf is allowed and is
exactly the cross-rail mistake the checks report, so the preview warns before the drop.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF

from ..commands import MoveNicCommand
from .base import Interaction, PreviewLine


def nic_verdict(fabric, nic_id: str, switch_id: str) -> tuple[bool, str]:
    """Whether ``nic_id`` may be cabled onto ``switch_id``, and what the status line says before the drop."""
    nic = fabric.nic(nic_id)
    switch = fabric.switches[switch_id]
    peer = fabric.peer(nic_id)
    if peer and peer.startswith(switch.id + "/"):
        return False, f"{nic_id} is already cabled to {switch.id}"
    if not fabric.free_ports(switch.id, nic.speed):
        return False, f"{switch.id} has no free {nic.speed}G port for {nic_id}"
    if switch.role.value == "leaf" and switch.rail != nic.rail:
        return True, (f"drop to cable {nic_id} (rail {nic.rail}) to {switch.id} (rail {switch.rail}): "
                      "this crosses rails")
    if switch.role.value == "spine":
        return True, f"drop to cable {nic_id} to spine {switch.id}: servers belong on their rail leaf"
    return True, f"drop to cable {nic_id} to {switch.id}"


class NicDragInteraction(Interaction):
    def __init__(self, scene, document, status, nic_id: str, start: QPointF):
        super().__init__(scene, document, status)
        self.nic_id = nic_id
        item = scene.nics[nic_id]
        self.line = PreviewLine(scene, item.mapToScene(item.boundingRect().center()))

    def move(self, pos: QPointF) -> None:
        self.line.set_end(pos)
        target = self.switch_at(pos)
        if target is None:
            self.line.set_ok(None)
            self.status(f"drop {self.nic_id} on a leaf of rail {self.scene.fabric.nic(self.nic_id).rail} to cable it there")
            return
        ok, message = nic_verdict(self.scene.fabric, self.nic_id, target.model_id)
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
