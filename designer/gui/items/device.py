"""Server and switch boxes. Zoomed out they draw as plain filled shapes (no labels, no ports)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from .. import style

LABEL_LOD = 0.55     # below this zoom, no text
OUTLINE_LOD = 0.2    # below this zoom, no outline either


def lod_of(painter, option) -> float:
    return QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())


class DeviceItem(QGraphicsItem):
    kind = "device"

    def __init__(self, model_id: str, w: float, h: float):
        super().__init__()
        self.model_id = model_id
        self._rect = QRectF(0, 0, w, h)
        self._bounds = self._rect.adjusted(-2, -2, 2, 2)
        self.label = model_id
        self.error = False
        self.fill = style.SERVER_FILL
        self.edge = style.SERVER_EDGE
        self.setFlags(QGraphicsItem.ItemIsSelectable | QGraphicsItem.ItemUsesExtendedStyleOption)
        self.setZValue(1)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def set_error(self, error: bool) -> None:
        if error != self.error:
            self.error = error
            self.update()

    def paint(self, painter, option, widget=None) -> None:
        lod = lod_of(painter, option)
        selected = self.isSelected()
        edge = style.SELECTED if selected else style.ERROR if self.error else self.edge
        if lod < OUTLINE_LOD:
            painter.fillRect(self._rect, edge if (selected or self.error) else self.fill)
            return
        pen = QPen(edge, 3 if (selected or self.error) else 1)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(QBrush(self.fill))
        painter.drawRect(self._rect)
        if lod >= LABEL_LOD:
            self.paint_label(painter)

    def paint_label(self, painter) -> None:
        painter.setPen(self.text_colour())
        font = painter.font()
        font.setPixelSize(9)
        painter.setFont(font)
        painter.drawText(self._rect.adjusted(2, 0, -2, -1), self.label_flags(), self.label)

    def label_flags(self):
        return Qt.AlignHCenter | Qt.AlignVCenter

    def text_colour(self):
        return style.TEXT


class ServerItem(DeviceItem):
    kind = "server"

    def __init__(self, model_id: str, w: float, h: float, label: str):
        super().__init__(model_id, w, h)
        self.label = label

    def label_flags(self):
        return Qt.AlignHCenter | Qt.AlignBottom


class SwitchItem(DeviceItem):
    """A leaf (filled in its rail's colour) or a spine."""

    kind = "switch"

    def __init__(self, model_id: str, w: float, h: float, label: str, role: str, rail: int | None):
        super().__init__(model_id, w, h)
        self.role = role
        self.setZValue(2)
        self.set_look(label, rail)

    def set_look(self, label: str, rail: int | None) -> None:
        self.label = label
        self.rail = rail
        self.fill = style.rail_colour(rail) if self.role == "leaf" else style.SPINE
        self.edge = self.fill.darker(150)
        self.update()

    def text_colour(self):
        return style.LABEL_ON_FILL
