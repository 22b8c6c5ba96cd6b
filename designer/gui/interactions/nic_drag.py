"""Drag a NIC onto a switch: re-cable it there (or cable it, when it had no cable yet).

The NIC keeps its rail (its GPU affinity) and its fabric plane (its server model's port); dropping it
on another rail's or plane's leaf, or on a spine or core, is allowed and is exactly the mistake the
checks report, so the preview says so before the drop (`checks.verdict`: the rules themselves).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF

from ..commands import MoveNicCommand
from .base import Drop, Interaction, PreviewLine, judge, refuse, reported


def nic_verdict(fabric, nic_id: str, switch_id: str) -> Drop:
    """What dropping ``nic_id`` on ``switch_id`` would do: refused (already there, no free port of its
    speed), or the cable onto the port the drop takes, as the checks would judge it."""
    nic = fabric.nic(nic_id)
    peer = fabric.peer(nic_id)
    if peer and peer.startswith(switch_id + "/"):
        return refuse(f"{nic_id} is already cabled to {switch_id}")
    free = fabric.free_ports(switch_id, nic.speed)
    if not free:
        return refuse(f"{switch_id} has no free {nic.speed}G port for {nic_id}")
    return judge(fabric, nic_id, f"{switch_id}/{free[0].name}", gone=fabric.link_at(nic_id))


class NicDragInteraction(Interaction):
    def __init__(self, scene, document, status, nic_id: str, start: QPointF):
        super().__init__(scene, document, status)
        self.nic_id = nic_id
        item = scene.nics[nic_id]
        self.line = PreviewLine(scene, item.mapToScene(item.boundingRect().center()))

    def move(self, pos: QPointF) -> None:
        self.line.set_end(pos)
        target = self.switch_at(pos)
        drop = self.judged(target.model_id, lambda: nic_verdict(self.scene.fabric, self.nic_id, target.model_id)) \
            if target is not None else None
        self.preview(self.line, drop,
                     f"drop {self.nic_id} on a leaf of rail {self.scene.fabric.nic(self.nic_id).rail} to cable it there")

    def finish(self, pos: QPointF) -> None:
        self.line.remove()
        target = self.switch_at(pos)
        if target is None:
            self.status(f"{self.nic_id} was not moved: drop it on a leaf switch")
            return
        drop = nic_verdict(self.scene.fabric, self.nic_id, target.model_id)
        error = self.document.execute(MoveNicCommand(self.scene.fabric, self.nic_id, target.model_id))
        self.status(f"{self.nic_id} was not moved: {error}" if error else
                    f"cabled {self.nic_id} to {self.scene.fabric.peer(self.nic_id)}" + reported(drop))

    def cancel(self) -> None:
        self.line.remove()
