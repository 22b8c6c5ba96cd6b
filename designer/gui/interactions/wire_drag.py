"""Shift-drag from one switch to another: cable a free port pair of a common speed."""

from __future__ import annotations

from PySide6.QtCore import QPointF

from ...model.errors import ModelError
from ...planning.wiring import free_port_pair
from ..commands import ConnectCommand
from .base import Interaction, PreviewLine


class WireDragInteraction(Interaction):
    def __init__(self, scene, document, status, switch_id: str, start: QPointF):
        super().__init__(scene, document, status)
        self.switch_id = switch_id
        self.line = PreviewLine(scene, scene.devices[switch_id].sceneBoundingRect().center())

    def _pair(self, pos: QPointF):
        target = self.switch_at(pos, exclude=self.switch_id)
        if target is None:
            return None, f"drop on another switch to cable {self.switch_id} to it"
        try:
            a, b = free_port_pair(self.scene.fabric, self.switch_id, target.model_id)
        except ModelError as exc:
            return None, str(exc)
        return (a, b), f"drop to cable {a} to {b}"

    def move(self, pos: QPointF) -> None:
        self.line.set_end(pos)
        pair, message = self._pair(pos)
        self.line.set_ok(pair is not None if self.switch_at(pos, self.switch_id) else None)
        self.status(message)

    def finish(self, pos: QPointF) -> None:
        self.line.remove()
        pair, message = self._pair(pos)
        if pair is None:
            self.status(f"no cable added: {message}")
            return
        error = self.document.execute(ConnectCommand(self.scene.fabric, *pair))
        self.status(f"no cable added: {error}" if error else f"cabled {pair[0]} to {pair[1]}")

    def cancel(self) -> None:
        self.line.remove()
