"""Zoomed out, every cable of the design drawn by one item: a `drawLines` call per colour.

Painting 16,000 cable items one Python call each took ~200 ms per repaint of a 1,024-server
design; one batched call per colour halves it (what is left is rasterising the lines). While the
view is zoomed out the scene hides the per-cable and per-NIC items (too small to point at anyway)
and shows this layer instead. Changes are applied per cable and repaint only the cable's area.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QGraphicsItem

from .link import LinkItem, pen_for

OVERVIEW_LOD = 0.3   # below this zoom the scene is drawn in overview mode


class LinkOverviewItem(QGraphicsItem):
    kind = "overview"

    def __init__(self):
        super().__init__()
        self._groups: dict[tuple, dict[str, object]] = {}   # pen key -> link id -> QLineF
        self._where: dict[str, tuple[tuple, QRectF]] = {}    # link id -> (pen key, bounds)
        self._bounds = QRectF()
        self.setZValue(0)
        self.setAcceptedMouseButtons(Qt.NoButton)

    def show_link(self, item: LinkItem) -> None:
        """Add or refresh one cable (new, moved, re-coloured or marked)."""
        key, rect = item.pen_key(), item.boundingRect()
        old = self._where.get(item.model_id)
        if old is not None:
            self._groups[old[0]].pop(item.model_id, None)
            self.update(old[1])
        self._groups.setdefault(key, {})[item.model_id] = item.line()
        self._where[item.model_id] = (key, rect)
        if not self._bounds.contains(rect):
            self.prepareGeometryChange()
            self._bounds = self._bounds.united(rect)
        self.update(rect)

    def hide_link(self, link_id: str) -> None:
        old = self._where.pop(link_id, None)
        if old is not None:
            self._groups[old[0]].pop(link_id, None)
            self.update(old[1])

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter, option, widget=None) -> None:
        # red (cross-rail or flagged) cables last, so they are drawn on top
        for key in sorted(self._groups, key=lambda k: (k[0] == "red", str(k))):
            lines = self._groups[key]
            if lines:
                painter.setPen(pen_for(key))
                painter.drawLines(list(lines.values()))
