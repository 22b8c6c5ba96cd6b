"""Drag one end of a cable onto another device: the cable is re-homed there, the other end stays.

- The switch end of a NIC's cable onto another switch: the NIC is re-cabled there, exactly like
  dragging the NIC itself (same verdict before the drop, same command).
- The NIC end onto another server's free NIC of the same speed: the switch port cables that NIC.
- An end of a switch-to-switch cable onto another switch: a free port of the cable's speed there.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF

from ...model.ids import split_endpoint
from ..commands import MoveNicCommand, RehomeCommand
from ..items import NicItem, SwitchItem
from .base import Interaction, PreviewLine, judge, refuse, reported
from .nic_drag import nic_verdict

GRAB_PX = 14          # how close (on screen) to a cable's end a press grabs that end


def grabbed_end(scene, link_id: str, pos: QPointF, scale: float) -> str | None:
    """The endpoint of ``link_id`` whose drawn end is within GRAB_PX of ``pos`` (None: the middle)."""
    item, link = scene.links.get(link_id), scene.fabric.links.get(link_id)
    if item is None or link is None:
        return None
    line = item.line()
    reach = GRAB_PX / max(scale, 1e-6)
    for ep, point in ((link.a, line.p1()), (link.b, line.p2())):
        if (point - pos).manhattanLength() <= reach:
            return ep
    return None


class CableEndDragInteraction(Interaction):
    def __init__(self, scene, document, status, link_id: str, moving: str):
        super().__init__(scene, document, status)
        self.link_id, self.moving = link_id, moving
        link = scene.fabric.links[link_id]
        self.fixed = link.other(moving)
        item = scene.links[link_id]
        start = item.line().p1() if link.a == self.fixed else item.line().p2()
        self.line = PreviewLine(scene, start)
        self.status(f"drag {moving} onto another device to move this end of the cable there; Esc cancels")

    def _target_at(self, pos: QPointF):
        """`_target`, judged once per device under the cursor while the mouse moves."""
        under = next((it.model_id for it in self.scene.items(pos) if isinstance(it, (NicItem, SwitchItem))), None)
        return self.judged(under, lambda: self._target(pos)) if under else (None, None)

    def _target(self, pos: QPointF):
        """(command or None, Drop or None) for a drop at ``pos`` (None, None: not over a device)."""
        f = self.scene.fabric
        link = f.links[self.link_id]
        moving_dev, fixed_dev = split_endpoint(self.moving)[0], split_endpoint(self.fixed)[0]
        for item in self.scene.items(pos):
            if isinstance(item, NicItem) and moving_dev in f.servers:
                nic = item.model_id
                if nic == self.moving:
                    return None, refuse(f"{nic} is where this end already is")
                if f.peer(nic) is not None:
                    return None, refuse(f"{nic} is already cabled to {f.peer(nic)}")
                if f.nic(nic).speed != link.speed:
                    return None, refuse(f"{nic} runs at {f.nic(nic).speed}G; this cable is {link.speed}G")
                return RehomeCommand(f, self.link_id, self.moving, nic), judge(f, self.fixed, nic, gone=link)
            if isinstance(item, SwitchItem) and moving_dev in f.switches and item.model_id != fixed_dev:
                target = item.model_id
                if fixed_dev in f.servers:
                    drop = nic_verdict(f, self.fixed, target)
                    return (MoveNicCommand(f, self.fixed, target) if drop.allowed else None), drop
                if target == moving_dev:
                    return None, refuse(f"this end is already on {target}")
                free = f.free_ports(target, link.speed)
                if not free:
                    return None, refuse(f"{target} has no free {link.speed}G port for this cable")
                new_end = f"{target}/{free[0].name}"
                return RehomeCommand(f, self.link_id, self.moving, new_end), judge(f, self.fixed, new_end, gone=link)
        return None, None

    def move(self, pos: QPointF) -> None:
        self.line.set_end(pos)
        self.preview(self.line, self._target_at(pos)[1],
                     f"drop on another device to move the {self.moving} end of the cable there")

    def finish(self, pos: QPointF) -> None:
        self.line.remove()
        command, drop = self._target(pos)
        if command is None:
            reason = drop.message if drop else f"drop on another device to move the {self.moving} end there"
            self.status(f"the cable was not moved: {reason}")
            return
        error = self.document.execute(command)
        self.status(f"the cable was not moved: {error}" if error else
                    f"moved the cable end: {self.fixed} is now cabled to {self.scene.fabric.peer(self.fixed)}"
                    + reported(drop))

    def cancel(self) -> None:
        self.line.remove()
