"""What every gesture shares: the scene it previews on, the document it pushes to, a status line."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsLineItem

from ..items import SwitchItem

OK = QColor("#2e7d32")
BAD = QColor("#c62828")


class Interaction:
    """A gesture with start (construction), move, finish and cancel. Only finish edits (one command)."""

    def __init__(self, scene, document, status: Callable[[str], None]):
        self.scene = scene
        self.document = document
        self.status = status

    def move(self, pos: QPointF) -> None:
        pass

    def finish(self, pos: QPointF) -> None:
        self.cancel()

    def cancel(self) -> None:
        pass

    def switch_at(self, pos: QPointF, exclude: str | None = None) -> SwitchItem | None:
        for item in self.scene.items(pos):
            if isinstance(item, SwitchItem) and item.model_id != exclude:
                return item
        return None


class PreviewLine:
    """A dashed rubber line from a start point to the cursor, green over a valid target."""

    def __init__(self, scene, start: QPointF):
        self.scene = scene
        self.start = start
        self.item = QGraphicsLineItem(start.x(), start.y(), start.x(), start.y())
        self.item.setZValue(10)
        self.set_ok(None)
        scene.addItem(self.item)

    def set_end(self, pos: QPointF) -> None:
        self.item.setLine(self.start.x(), self.start.y(), pos.x(), pos.y())

    def set_ok(self, ok: bool | None) -> None:
        colour = QColor("#757575") if ok is None else OK if ok else BAD
        pen = QPen(colour, 2, Qt.DashLine)
        pen.setCosmetic(True)
        self.item.setPen(pen)

    def remove(self) -> None:
        if self.item.scene() is not None:
            self.scene.removeItem(self.item)
