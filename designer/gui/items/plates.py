"""The SU plates: each SU block painted as an opaque plate with its rail lanes, between the
leaf-spine cables (below) and the SU's own devices and server cables (above), so cables from
other SUs pass behind it instead of across its servers."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem

from .. import style
from ...planning.layout import SU_TITLE
from .overview import PLATES_Z

PLATE = QColor("#f4f6f7")
COLLAPSED = QColor("#cfd8dc")
PAD = 8


class SuPlatesItem(QGraphicsItem):
    kind = "plates"

    def __init__(self):
        super().__init__()
        self.layout = None
        self._bounds = QRectF()
        self.setZValue(PLATES_Z)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption)

    def set_layout(self, layout) -> None:
        self.prepareGeometryChange()
        self.layout = layout
        self._bounds = QRectF(-PAD, -PAD, layout.width + 2 * PAD, layout.height + 2 * PAD)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter, option, widget=None) -> None:
        if self.layout is None:
            return
        exposed = option.exposedRect
        for su, b in self.layout.su_blocks.items():
            top = b.y + SU_TITLE                 # the leaves' top edge: their uplinks leave the plate there
            r = QRectF(b.x - PAD, top, b.w + 2 * PAD, b.y + b.h - top + PAD)
            if r.intersects(exposed):
                painter.fillRect(r, PLATE)
        for lane in self.layout.lanes:
            b = lane.box
            r = QRectF(b.x, b.y, b.w, b.h)
            if r.intersects(exposed):
                painter.fillRect(r, style.lane_colour(lane.rail))
        for b in self.layout.collapsed.values():
            r = QRectF(b.x, b.y, b.w, b.h)
            if r.intersects(exposed):
                painter.fillRect(r, COLLAPSED)
