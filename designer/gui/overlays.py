"""Widgets that float over the canvas and stay put while it scrolls: the legend (rails, fabric
planes, and what the marks and overlays mean; click a rail or a plane to highlight it) and the
minimap (the whole design, the part in view outlined; click or drag to go there)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen
from PySide6.QtWidgets import QWidget

from . import style

ROW_H = 16
PAD = 6
MINIMAP_SIZE = QSize(220, 140)


class LegendWidget(QWidget):
    rail_clicked = Signal(object)          # the rail index clicked, or None (clicked the highlighted one again)
    plane_clicked = Signal(object)         # the fabric plane clicked, or None

    def __init__(self, view):
        super().__init__(view)
        self.view = view
        self.rails: list[tuple[int, str]] = []
        self.planes: list[int] = []                          # fabric planes (listed when there are two or more)
        self.highlighted: int | None = None
        self.highlighted_plane: int | None = None
        self.extra: list[tuple[QColor, str, bool]] = []     # (colour, text, dashed) for marks and overlays
        self.wanted = True                                   # View > Legend
        self.setCursor(Qt.PointingHandCursor)
        self.setToolTip("Click a rail (or a fabric plane) to highlight it; click it again to show them all")
        font = QFont(self.font())
        font.setPixelSize(11)
        self.setFont(font)

    def set_wanted(self, on: bool) -> None:
        self.wanted = on
        self._resize()

    def set_rails(self, rails: list[tuple[int, str]]) -> None:
        self.rails = rails
        if self.highlighted not in {r for r, _ in rails}:
            self.highlighted = None
        self._resize()

    def set_planes(self, count: int) -> None:
        self.planes = list(range(count)) if count > 1 else []
        if self.highlighted_plane not in self.planes:
            self.highlighted_plane = None
        self._resize()

    def set_extra(self, rows: list[tuple[QColor, str, bool]]) -> None:
        self.extra = rows
        self._resize()

    def _lines(self) -> list[tuple[str, object, str]]:
        """Every row, top down: (kind, value, text); kind "title", "rail", "plane", "gap" or "extra"."""
        rows = [("title", None, "Rails")] + [("rail", index, name) for index, name in self.rails]
        if self.planes:
            rows += [("gap", None, ""), ("title", None, "Fabric planes")]
            rows += [("plane", p, f"plane {p}" + (" (plain)" if p == 0 else "")) for p in self.planes]
        if self.extra:
            rows += [("gap", None, "")] + [("extra", i, text) for i, (_, text, _) in enumerate(self.extra)]
        return rows

    def _resize(self) -> None:
        fm = self.fontMetrics()
        lines = self._lines()
        width = 2 * PAD + 22 + max(fm.horizontalAdvance(text) for _, _, text in lines)
        self.setFixedSize(width, 2 * PAD + ROW_H * len(lines))
        self.setVisible(bool(self.rails or self.extra) and self.wanted)
        self.update()

    def place(self, viewport: QRect) -> None:
        self.move(viewport.x() + 8, viewport.y() + 8)

    def reserved_left(self) -> int:
        """How much of the viewport's left edge a fit leaves free for the legend."""
        return self.width() + 12 if self.isVisibleTo(self.parentWidget()) else 0

    def row_at(self, y: float) -> tuple[str, object] | None:
        lines = self._lines()
        row = int((y - PAD) // ROW_H)
        return lines[row][:2] if 0 <= row < len(lines) else None

    def rail_at(self, y: float) -> int | None:
        found = self.row_at(y)
        return found[1] if found and found[0] == "rail" else None

    def mousePressEvent(self, event) -> None:
        found = self.row_at(event.position().y())
        if found is None or found[0] not in ("rail", "plane"):
            return
        kind, value = found
        if kind == "rail":
            self.highlighted = None if value == self.highlighted else value
            self.update()
            self.rail_clicked.emit(self.highlighted)
        else:
            self.highlighted_plane = None if value == self.highlighted_plane else value
            self.update()
            self.plane_clicked.emit(self.highlighted_plane)

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(255, 255, 255, 235))
        p.setPen(QColor("#90a4ae"))
        p.drawRect(self.rect().adjusted(0, 0, -1, -1))
        for row, (kind, value, text) in enumerate(self._lines()):
            y = PAD + row * ROW_H
            chosen = (kind == "rail" and value == self.highlighted) or (kind == "plane" and value == self.highlighted_plane)
            if chosen:
                p.fillRect(QRectF(1, y, self.width() - 2, ROW_H), QColor("#e3f2fd"))
            chip = QRectF(PAD, y + 3, 14, 10)
            if kind == "rail":
                p.fillRect(chip, style.rail_colour(value))
            elif kind == "plane":
                p.fillRect(chip, style.NO_RAIL)
                style.hatch(p, chip, value)
            elif kind == "extra":
                colour, _, dashed = self.extra[value]
                p.setPen(QPen(colour, 2.5, Qt.DashLine if dashed else Qt.SolidLine))
                p.drawLine(QPointF(PAD, y + ROW_H / 2), QPointF(PAD + 14, y + ROW_H / 2))
            if kind == "gap":
                continue
            font = QFont(self.font())
            font.setBold(chosen)
            p.setFont(font)
            p.setPen(style.TEXT)
            left = PAD if kind == "title" else PAD + 20
            p.drawText(QRectF(left, y, self.width(), ROW_H), Qt.AlignLeft | Qt.AlignVCenter, text)
        p.end()


class MinimapWidget(QWidget):
    """The layout drawn small (SU blocks, lanes, devices), with the view's visible part outlined."""

    def __init__(self, view, scene):
        super().__init__(view)
        self.view, self.scene = view, scene
        self.image: QImage | None = None
        self._map = QRectF()             # where the content sits in the widget
        self.setFixedSize(MINIMAP_SIZE)
        self.setCursor(Qt.CrossCursor)
        self.setToolTip("Overview: click or drag to move the view there")
        self._redraw = QTimer(self)
        self._redraw.setSingleShot(True)
        self._redraw.setInterval(200)
        self._redraw.timeout.connect(self.rebuild)
        self.wanted = True                # View > Minimap
        scene.relaid.connect(self._redraw.start)
        view.scrolled.connect(self._follow)

    def place(self, viewport: QRect) -> None:
        self.move(viewport.right() - self.width() - 8, viewport.bottom() - self.height() - 8)

    def reserved_left(self) -> int:
        return 0

    def set_wanted(self, on: bool) -> None:
        self.wanted = on
        self._follow()

    def _follow(self) -> None:
        """Shown only while part of the design is out of view (there is somewhere to go)."""
        seen = self.view.visible_scene_rect()
        content = self.scene.content_rect().adjusted(20, 20, -20, -20)
        self.setVisible(self.wanted and not seen.contains(content))
        self.update()

    def rebuild(self) -> None:
        """Draw the layout into an image once; painting then only adds the view rectangle."""
        layout = self.scene.layout
        content = self.scene.content_rect()
        image = QImage(self.size(), QImage.Format_ARGB32_Premultiplied)
        image.fill(QColor(255, 255, 255, 230))
        if content.width() > 0 and content.height() > 0:
            k = min((self.width() - 8) / content.width(), (self.height() - 8) / content.height())
            w, h = content.width() * k, content.height() * k
            self._map = QRectF((self.width() - w) / 2, (self.height() - h) / 2, w, h)
            p = QPainter(image)
            p.translate(self._map.x(), self._map.y())
            p.scale(k, k)
            p.translate(-content.x(), -content.y())
            for lane in layout.lanes:
                b = lane.box
                p.fillRect(QRectF(b.x, b.y, b.w, b.h), style.lane_colour(lane.rail))
            for box in layout.collapsed.values():
                p.fillRect(QRectF(box.x, box.y, box.w, box.h), QColor("#cfd8dc"))
            for device_id, item in self.scene.devices.items():
                box = layout.boxes.get(device_id)
                if box is None or device_id in layout.hidden:
                    continue
                p.fillRect(QRectF(box.x, box.y, box.w, box.h), item.fill if item.kind == "switch" else style.SERVER_EDGE)
            p.end()
        self.image = image
        self.update()

    def _to_scene(self, pos: QPointF) -> QPointF:
        content = self.scene.content_rect()
        if self._map.width() <= 0:
            return content.center()
        fx = (pos.x() - self._map.x()) / self._map.width()
        fy = (pos.y() - self._map.y()) / self._map.height()
        return QPointF(content.x() + fx * content.width(), content.y() + fy * content.height())

    def mousePressEvent(self, event) -> None:
        self.view.go_to(self._to_scene(event.position()))

    def mouseMoveEvent(self, event) -> None:
        if event.buttons() & Qt.LeftButton:
            self.view.go_to(self._to_scene(event.position()))

    def paintEvent(self, _event) -> None:
        if self.image is None:
            self.rebuild()
        p = QPainter(self)
        p.drawImage(0, 0, self.image)
        p.setPen(QColor("#90a4ae"))
        p.drawRect(self.rect().adjusted(0, 0, -1, -1))
        content = self.scene.content_rect()
        if self._map.width() > 0 and content.width() > 0:
            k = self._map.width() / content.width()
            seen = self.view.visible_scene_rect().intersected(content)
            if not seen.isEmpty():
                r = QRectF(self._map.x() + (seen.x() - content.x()) * k, self._map.y() + (seen.y() - content.y()) * k,
                           seen.width() * k, seen.height() * k)
                p.setPen(QPen(style.ERROR, 1.5))
                p.drawRect(r)
        p.end()
