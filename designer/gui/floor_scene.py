"""The floor drawn to scale (1 scene unit = 1 mm): every row one under another in floor order (row index),
each rack at its slot along the row (``rack_width_mm`` apart) as its front elevation, 44.45 mm a unit, and
the devices in it as boxes by their units. Plain rect and text items only (about 300 racks and 2,000
boxes at 1,024 servers).

A rack can be dragged to another row and slot: the drop asks ``on_drop(rack_id, row, position)`` (the
floor dock runs the undoable move); the rack goes back to its slot until the model says it moved.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainterPath, QPen
from PySide6.QtWidgets import (QGraphicsItem, QGraphicsPathItem, QGraphicsRectItem, QGraphicsScene,
                               QGraphicsSimpleTextItem)

from ..model.entities import Role
from ..model.floor import UNIT_MM
from . import style

ROW_GAP_MM = 900            # between one row's rack tops and the next row's labels
LABEL_MM = 160              # text height of a row label
RACK_LABEL_MM = 100         # and of a rack's (its id fits over a 600 mm rack)
ROW_LABEL_MM = 1400         # room left of slot 1 for the row's name
FILL = {"server": style.SERVER_FILL, Role.LEAF: QColor("#bbdefb"), Role.SPINE: QColor("#b0bec5"),
        Role.CORE: QColor("#c5cae9")}
RACK_FILL = QColor("#ffffff")
RACK_EDGE = QColor("#78909c")
HIGHLIGHT = QColor("#ff6f00")
RUN = QColor("#d81b60")
TRAY_MM = 250               # where a drawn run passes over the racks' tops
MAX_RUNS = 256              # cables drawn for a selection (a spine's 1,000 would hide the floor)


def _font(size: int = LABEL_MM) -> QFont:
    font = QFont()
    font.setPixelSize(size)
    return font


class DeviceBox(QGraphicsRectItem):
    """A device in its rack: selectable, shares its selection with the canvas."""

    def __init__(self, device_id: str, rect: QRectF, fill: QColor, parent):
        super().__init__(rect, parent)
        self.model_id = device_id
        self.setBrush(QBrush(fill))
        self.setPen(QPen(style.SERVER_EDGE, 0))
        self.setFlag(QGraphicsItem.ItemIsSelectable)
        self.setToolTip(device_id)

    def itemChange(self, change, value):
        if change == QGraphicsItem.ItemSelectedHasChanged:
            self.setPen(QPen(HIGHLIGHT, 30) if value else QPen(style.SERVER_EDGE, 0))
        return super().itemChange(change, value)


class RackItem(QGraphicsRectItem):
    """A rack's elevation; dragging it asks the scene to move it."""

    def __init__(self, rack, width: float, parent=None):
        super().__init__(QRectF(0, 0, width, rack.height_u * UNIT_MM), parent)
        self.rack_id = rack.id
        self.setBrush(QBrush(RACK_FILL))
        self.setPen(QPen(RACK_EDGE, 0))
        self.setFlag(QGraphicsItem.ItemIsMovable)
        self.setToolTip(f"rack {rack.id} ({rack.height_u}U, {rack.power_kw:g} kW): drag to another slot")
        label = QGraphicsSimpleTextItem(rack.id, self)
        label.setFont(_font(RACK_LABEL_MM))
        label.setPos(0, -RACK_LABEL_MM * 1.4)

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        scene = self.scene()
        if scene is not None and (event.buttonDownScenePos(Qt.LeftButton) - event.scenePos()).manhattanLength() > 1:
            scene.dropped(self)


class FloorScene(QGraphicsScene):
    refused = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.racks: dict[str, RackItem] = {}
        self.boxes: dict[str, DeviceBox] = {}
        self.runs: list[QGraphicsPathItem] = []     # the selection's cables, drawn rack to tray to rack
        self.fabric = None
        self.on_drop = None                 # callable(rack id, row id, position) -> refusal text or None
        self._rows: list = []               # rows in floor order
        self._pitch = self._band = 1.0

    # ------------------------------------------------------------------ building
    def forget(self) -> None:
        """Drop every item (the design went away)."""
        self.clear()
        self.racks, self.boxes, self.runs = {}, {}, []
        self.fabric = None

    def build(self, fabric) -> None:
        """Draw the whole floor from ``fabric.rack_contents()`` (again: everything replaced)."""
        self.forget()
        self.fabric = fabric
        floor = fabric.floor
        if floor is None:
            text = self.addSimpleText("this design has no floor (rail-designer new --floor superpod gives it one)")
            text.setFont(_font())
            return
        s = floor.settings
        self._pitch = s.rack_width_mm
        tallest = max([r.height_u for r in floor.racks] + [s.rack_height_u])
        self._band = tallest * UNIT_MM + ROW_GAP_MM
        self._rows = sorted(floor.rows, key=lambda r: r.index)
        font = _font()
        for n, row in enumerate(self._rows):
            label = self.addSimpleText(f"{row.id} ({row.hall})", font)
            label.setPos(-ROW_LABEL_MM, n * self._band + tallest * UNIT_MM / 2)
        width = s.rack_width_mm * 0.9
        for rack, devices in fabric.rack_contents():
            item = RackItem(rack, width)
            self.addItem(item)
            self.racks[rack.id] = item
            self._place(item, rack)
            for device_id, unit, units in devices:
                top = (rack.height_u - (unit - 1) - units) * UNIT_MM
                device = fabric.servers.get(device_id)
                fill = FILL["server"] if device is not None else FILL.get(fabric.switches[device_id].role, RACK_FILL)
                self.boxes[device_id] = DeviceBox(device_id, QRectF(0, top, width, units * UNIT_MM), fill, item)

    def _slot_pos(self, row_id: str, position: int):
        n = next((i for i, r in enumerate(self._rows) if r.id == row_id), 0)
        return (position - 1) * self._pitch, n * self._band

    def _place(self, item: RackItem, rack) -> None:
        x, y = self._slot_pos(rack.row, rack.position)
        item.setPos(x, y + self._band - ROW_GAP_MM - item.rect().height())   # racks stand on their row's line

    def move(self, fabric, rack_ids) -> bool:
        """Stand the named racks where the model has them; False when one is not drawn (rebuild)."""
        for rack_id in rack_ids:
            rack, item = fabric.racks.get(rack_id), self.racks.get(rack_id)
            if (rack is None) != (item is None) or (rack is not None and rack.row not in {r.id for r in self._rows}):
                return False
            if item is not None:
                self._place(item, rack)
        return True

    def shows(self, fabric, device_ids) -> bool:
        """Whether every named device's box is drawn where the model places it (False: redraw)."""
        for device_id in device_ids:
            device = fabric.servers.get(device_id) or fabric.switches.get(device_id)
            box = self.boxes.get(device_id)
            rack = fabric.racks.get(device.rack) if device is not None else None
            if box is None or rack is None:
                if box is not None or (rack is not None and device is not None):
                    return False
                continue
            units = fabric.device_units(device)
            if (box.parentItem().rack_id != rack.id or box.rect().height() != units * UNIT_MM
                    or box.rect().top() != (rack.height_u - (device.position or 0) + 1 - units) * UNIT_MM):
                return False
        return True

    # ------------------------------------------------------------------ dragging
    def slot_at(self, item: RackItem) -> tuple[str, int]:
        """The row and slot nearest to where ``item`` stands now."""
        bottom = item.pos().y() + item.rect().height() + ROW_GAP_MM
        n = min(max(round(bottom / self._band) - 1, 0), len(self._rows) - 1)
        return self._rows[n].id, max(1, round(item.pos().x() / self._pitch) + 1)

    def dropped(self, item: RackItem) -> None:
        row, position = self.slot_at(item)
        refusal = self.on_drop(item.rack_id, row, position) if self.on_drop is not None else "nothing moves racks"
        if refusal:
            self.refused.emit(refusal)
        if self.on_drop is None or refusal:
            self.snap_back(item)

    def snap_back(self, item: RackItem) -> None:
        rack = self.fabric.racks.get(item.rack_id) if self.fabric is not None else None
        if rack is not None:
            self._place(item, rack)

    # ------------------------------------------------------------------ selection
    def selected_ids(self) -> list[str]:
        return sorted(item.model_id for item in self.selectedItems() if isinstance(item, DeviceBox))

    def select_ids(self, ids) -> None:
        """Select exactly the boxes of these device ids (one selectionChanged)."""
        wanted = {i.split("/")[0] for i in ids}
        blocked = self.blockSignals(True)
        try:
            for device_id, box in self.boxes.items():
                box.setSelected(device_id in wanted)
        finally:
            self.blockSignals(blocked)
        self.selectionChanged.emit()

    # ------------------------------------------------------------------ cable runs
    def show_runs(self, cables) -> int:
        """Draw ``cables`` ((cable id, device a, device b, tooltip)) from box up over the racks, along and
        down to the far box (the drawing's route; the length is the routing model's); returns how many."""
        for item in self.runs:
            self.removeItem(item)
        self.runs = []
        pen = QPen(RUN, 0)
        for link_id, a, b, tip in cables[:MAX_RUNS]:
            ends = [self.boxes.get(a), self.boxes.get(b)]
            if None in ends:
                continue
            path = QPainterPath()
            points = []
            for box in ends:
                rack = box.parentItem()
                middle = box.rect().center()
                points.append((box.mapToScene(middle), rack.mapToScene(QPointF(middle.x(), -TRAY_MM))))
            (a_port, a_top), (b_port, b_top) = points
            path.moveTo(a_port)
            path.lineTo(a_top)
            path.lineTo(b_top.x(), a_top.y())
            path.lineTo(b_top)
            path.lineTo(b_port)
            item = QGraphicsPathItem(path)
            item.setPen(pen)
            item.setToolTip(tip)
            item.setZValue(5)
            item.model_link = link_id
            self.addItem(item)
            self.runs.append(item)
        return len(self.runs)
