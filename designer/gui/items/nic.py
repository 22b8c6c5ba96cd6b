"""A server's rail NIC: a small square in its rail's colour (hatched on fabric plane 1 and above),
drawn only when zoomed in."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPen
from PySide6.QtWidgets import QGraphicsItem

from .. import style
from .device import Marked, lod_of

PORT_LOD = 0.3
_FLAGS = (QGraphicsItem.ItemIsSelectable | QGraphicsItem.ItemUsesExtendedStyleOption
          | QGraphicsItem.ItemIgnoresParentOpacity)


class NicItem(Marked, QGraphicsItem):
    kind = "nic"

    def __init__(self, model_id: str, size: float, rail: int | None, parent: QGraphicsItem, fabric_plane: int = 0):
        super().__init__(parent)
        self.model_id = model_id
        self.fabric_plane = fabric_plane
        self._rect = QRectF(0, 0, size, size)
        self._bounds = self._rect.adjusted(-1, -1, 1, 1)
        self.rail = rail
        self.setFlags(_FLAGS)
        self.setZValue(3)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def set_rail(self, rail: int | None) -> None:
        if rail != self.rail:
            self.rail = rail
            self.update()

    def paint(self, painter, option, widget=None) -> None:
        if lod_of(painter, option) < PORT_LOD:
            return
        selected = self.isSelected()
        marked = style.MARK_COLOURS.get(self.mark)
        pen = QPen(style.SELECTED if selected else marked or style.rail_colour(self.rail).darker(160),
                   2 if (selected or marked) else 1)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(style.rail_colour(self.rail))
        painter.drawRect(self._rect)
        style.hatch(painter, self._rect, self.fabric_plane)
