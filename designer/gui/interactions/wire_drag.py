"""Shift-drag from one switch to another: cable a free port pair of a common speed; before the drop
the line and the status say what the checks would report for that cable (wrong tier, spine group,
plane...)."""

from __future__ import annotations

from PySide6.QtCore import QPointF

from ...model.errors import ModelError
from ...planning.wiring import free_port_pair
from ..commands import ConnectCommand
from .base import Drop, Interaction, PreviewLine, judge, refuse, reported as _reported


class WireDragInteraction(Interaction):
    def __init__(self, scene, document, status, switch_id: str, start: QPointF):
        super().__init__(scene, document, status)
        self.switch_id = switch_id
        self.line = PreviewLine(scene, scene.devices[switch_id].sceneBoundingRect().center())

    def _drop(self, pos: QPointF) -> tuple[tuple[str, str] | None, Drop | None]:
        """(the port pair a drop at ``pos`` cables, what the drop would do); (None, None) off a switch."""
        target = self.switch_at(pos, exclude=self.switch_id)
        if target is None:
            return None, None
        try:
            a, b = free_port_pair(self.scene.fabric, self.switch_id, target.model_id)
        except ModelError as exc:
            return None, refuse(str(exc))
        return (a, b), self.judged(target.model_id, lambda: judge(self.scene.fabric, a, b))

    def move(self, pos: QPointF) -> None:
        self.line.set_end(pos)
        self.preview(self.line, self._drop(pos)[1], f"drop on another switch to cable {self.switch_id} to it")

    def finish(self, pos: QPointF) -> None:
        self.line.remove()
        pair, drop = self._drop(pos)
        if pair is None:
            self.status(f"no cable added: {drop.message if drop else 'drop on another switch'}")
            return
        error = self.document.execute(ConnectCommand(self.scene.fabric, *pair))
        self.status(f"no cable added: {error}" if error else f"cabled {pair[0]} to {pair[1]}" + _reported(drop))

    def cancel(self) -> None:
        self.line.remove()
