"""The floor seen from above, to scale (1 scene unit = 1 mm): each rack's footprint (``rack_width_mm`` by
``rack_depth_mm``) at its place on the floor grid (`planning.cable_lengths`: slot along the row, row index
times depth + aisle across), with the aisles between the rows. Racks holding the selection are filled;
a click on a footprint asks the elevations to show that rack.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPen
from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsScene

from .floor_scene import HIGHLIGHT, RACK_EDGE, RACK_FILL

ROW_LABEL_MM = 250
CHOSEN_FILL = QColor("#ffe0b2")


class Footprint(QGraphicsRectItem):
    def __init__(self, rack_id: str, rect: QRectF):
        super().__init__(rect)
        self.rack_id = rack_id
        self.setBrush(QBrush(RACK_FILL))
        self.setPen(QPen(RACK_EDGE, 0))
        self.setToolTip(f"rack {rack_id}: click to show its elevation")

    def mousePressEvent(self, event) -> None:
        self.scene().rack_clicked.emit(self.rack_id)


class PlanScene(QGraphicsScene):
    rack_clicked = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.footprints: dict[str, Footprint] = {}
        self._chosen: set[str] = set()

    def build(self, fabric) -> None:
        self.clear()
        self.footprints, self._chosen = {}, set()
        floor = fabric.floor
        if floor is None:
            return
        s = floor.settings
        self._size = (s.rack_width_mm, s.rack_depth_mm, s.rack_depth_mm + s.aisle_mm)
        self._rows = {r.id: r.index for r in floor.rows}
        font = QFont()
        font.setPixelSize(ROW_LABEL_MM)
        for row in floor.rows:
            label = self.addSimpleText(row.id, font)
            label.setPos(-label.boundingRect().width() - ROW_LABEL_MM, row.index * self._size[2])
        for rack in floor.racks:
            item = Footprint(rack.id, QRectF(0, 0, s.rack_width_mm * 0.95, s.rack_depth_mm))
            self.addItem(item)
            self.footprints[rack.id] = item
            self._place(item, rack)

    def _place(self, item: Footprint, rack) -> None:
        width, _, pitch = self._size
        item.setPos((rack.position - 1) * width, self._rows.get(rack.row, 0) * pitch)

    def move(self, fabric, rack_ids) -> None:
        for rack_id in rack_ids:
            item, rack = self.footprints.get(rack_id), fabric.racks.get(rack_id)
            if item is not None and rack is not None:
                self._place(item, rack)

    def choose(self, rack_ids) -> None:
        """Fill the footprints of these racks (those holding the selection)."""
        rack_ids = set(rack_ids) & set(self.footprints)
        for rack_id in self._chosen ^ rack_ids:
            chosen = rack_id in rack_ids
            self.footprints[rack_id].setBrush(QBrush(CHOSEN_FILL if chosen else RACK_FILL))
            self.footprints[rack_id].setPen(QPen(HIGHLIGHT if chosen else RACK_EDGE, 0))
        self._chosen = rack_ids
