"""A server's rail NIC: a small square in its rail's colour, drawn only when zoomed in."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPen
from PySide6.QtWidgets import QGraphicsItem

from .. import style
from .device import lod_of

PORT_LOD = 0.3


class NicItem(QGraphicsItem):
    kind = "nic"

    def __init__(self, model_id: str, size: float, rail: int | None, parent: QGraphicsItem):
        super().__init__(parent)
        self.model_id = model_id
        self._rect = QRectF(0, 0, size, size)
        self._bounds = self._rect.adjusted(-1, -1, 1, 1)
        self.rail = rail
        self.error = False
        self.setFlags(QGraphicsItem.ItemIsSelectable | QGraphicsItem.ItemUsesExtendedStyleOption)
        self.setZValue(3)
        self.setToolTip(model_id)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def set_rail(self, rail: int | None) -> None:
        if rail != self.rail:
            self.rail = rail
            self.update()

    def set_error(self, error: bool) -> None:
        if error != self.error:
            self.error = error
            self.update()

    def paint(self, painter, option, widget=None) -> None:
        if lod_of(painter, option) < PORT_LOD:
            return
        selected = self.isSelected()
        pen = QPen(style.SELECTED if selected else style.ERROR if self.error else style.rail_colour(self.rail).darker(160),
                   2 if (selected or self.error) else 1)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(style.rail_colour(self.rail))
        painter.drawRect(self._rect)
