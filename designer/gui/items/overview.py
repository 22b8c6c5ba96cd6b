"""The cable layers: items that draw the design's plain cables with a `drawLines` call per
colour, zoomed in and zoomed out; one for the leaf-spine cables, below the SU plates (so a cable
from a lower SU row passes behind the SUs above it and shows in the gaps, like a cable tray), one
for the server cables, above them.

Painting 16,000 cable items one Python call each took ~200 ms per repaint of a 1,024-server
design, and zoomed in on any SU a few thousand long leaf-spine cables still cross the view. So
a cable item paints itself only when it looks special (selected, red, marked, on a traced path,
loaded): a plain or dimmed one has no contents of its own and this layer draws it. Zoomed out the
scene hides the NIC items (too small to point at) and the layers draw every cable (plain leaf-spine
cables as a pale haze, and not at all below `HAZE_LOD`). Changes are applied per cable and repaint
only its area, and a paint draws only the cables whose bounds meet the exposed area (zoomed in on
one SU, a repaint drew all 16,000 lines and Qt clipped them: 40-50 ms of every edit's repaint).

Cables are routed paths (`cable_paths`), and the cables of one rail or one trunk share most of their
segments: a layer keeps, per look and per part of the canvas a cable starts in (its SU or pod: an
edit rebuilds only that part's list), each distinct segment once, so a rail's bus and an SU's trunk
to the spines are drawn as one line each. Zoomed out it leaves out the segments shorter than
`MIN_PX` on screen (the stubs into each NIC and port), so what shows is the buses and the trunks.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from .link import LAYER_KINDS, LinkItem, pen_for

OVERVIEW_LOD = 0.3   # below this zoom the scene is drawn in overview mode
HAZE_LOD = 0.1       # below this zoom plain leaf-spine cables are not drawn at all (marked ones still are)
CULL_MIN = 64        # a group of fewer lines is drawn whole (the bounds test costs more than it saves)
MIN_PX = 3.0         # zoomed out, segments shorter than this on screen are left out


BANDS_Z, FABRIC_Z, PLATES_Z, HOST_Z = -4, -3, -2, -1


class LinkOverviewItem(QGraphicsItem):
    kind = "overview"

    def __init__(self, z: float = HOST_Z):
        super().__init__()
        self._groups: dict[tuple, dict[str, tuple]] = {}    # (pen key, bucket) -> link id -> its path's points
        self._lists: dict[tuple, tuple] = {}                 # group -> (its distinct segments as drawn, their
        #                                                      bounds x0, y0, x1, y1 and lengths), rebuilt on change
        self._where: dict[str, tuple[tuple, QRectF]] = {}    # link id -> (group, bounds)
        self._group_bounds: dict[tuple, QRectF] = {}
        self._bounds = QRectF()
        self.overview = False            # zoomed out: draw every group; zoomed in: only the plain ones
        self.setZValue(z)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption)     # paint() gets the exposed area

    def set_overview(self, on: bool) -> None:
        if on != self.overview:
            self.overview = on
            self.update()

    def show_link(self, item: LinkItem) -> None:
        """Add or refresh one cable (new, moved, re-coloured or marked)."""
        group, rect = (item.overview_key(), item.bucket), item.boundingRect()
        old = self._where.get(item.model_id)
        if old is not None:
            self._groups[old[0]].pop(item.model_id, None)
            self._lists.pop(old[0], None)
            self.update(old[1])
        self._groups.setdefault(group, {})[item.model_id] = item.points()
        self._lists.pop(group, None)
        self._where[item.model_id] = (group, rect)
        bounds = self._group_bounds.get(group)
        self._group_bounds[group] = rect if bounds is None else bounds.united(rect)
        if not self._bounds.contains(rect):
            self.prepareGeometryChange()
            self._bounds = self._bounds.united(rect)
        self.update(rect)

    def hide_link(self, link_id: str) -> None:
        old = self._where.pop(link_id, None)
        if old is not None:
            self._groups[old[0]].pop(link_id, None)
            self._lists.pop(old[0], None)
            self.update(old[1])

    def drawn(self) -> set[str]:
        """The cable ids this layer draws at the current zoom."""
        return {i for group, links in self._groups.items() if self.overview or _layer_key(group[0]) for i in links}

    def key_of(self, link_id: str) -> tuple | None:
        where = self._where.get(link_id)
        return where[0][0] if where else None

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter, option, widget=None) -> None:
        lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        far = lod < HAZE_LOD
        pad = 3 / max(lod, 1e-6)                 # a pen's width, in scene units
        area = option.exposedRect.adjusted(-pad, -pad, pad, pad)
        bounds = (area.left(), area.top(), area.right(), area.bottom())
        shortest = MIN_PX / max(lod, 1e-6) if self.overview else 0.0
        # the leaf-spine haze first, red (cross-rail or flagged) cables last, so they are drawn on top
        for group in sorted(self._groups, key=lambda g: (g[0][0] != "haze", g[0][0] == "red", str(g[0]), str(g[1]))):
            key = group[0]
            if not self._groups[group] or not (self.overview or _layer_key(key)):
                continue                     # zoomed in, that cable's own item draws it
            if key[0] == "haze" and far:
                continue                     # a few pixels of gutter cannot show thousands of them
            if not self._group_bounds[group].intersects(area):
                continue
            cached = self._lists.get(group)
            if cached is None:
                cached = self._lists[group] = _segments(self._groups[group])
            lines = _meeting(*cached, bounds, shortest)
            if lines:
                painter.setPen(pen_for(key if self.overview else _detail_key(key)))
                painter.drawLines(lines)


def _segments(group: dict[str, tuple]) -> tuple[list, np.ndarray, np.ndarray]:
    """The distinct segments of a group's paths (shared ones once), their bounds and lengths."""
    flat = [(*p, *q) for points in group.values() for p, q in zip(points, points[1:]) if p != q]
    if not flat:
        return [], np.zeros((0, 4)), np.zeros(0)
    ends = np.unique(np.round(np.array(flat, dtype=float), 2), axis=0)
    lines = [QLineF(*row) for row in ends.tolist()]
    boxes = np.column_stack((np.minimum(ends[:, 0], ends[:, 2]), np.minimum(ends[:, 1], ends[:, 3]),
                             np.maximum(ends[:, 0], ends[:, 2]), np.maximum(ends[:, 1], ends[:, 3])))
    lengths = np.abs(ends[:, 2] - ends[:, 0]) + np.abs(ends[:, 3] - ends[:, 1])
    return lines, boxes, lengths


def _meeting(lines: list, boxes: np.ndarray, lengths: np.ndarray, area: tuple[float, float, float, float],
             shortest: float = 0.0) -> list:
    """The segments whose bounds meet ``area`` (x0, y0, x1, y1) and that are at least ``shortest`` long."""
    if len(lines) < CULL_MIN and not shortest:
        return lines
    x0, y0, x1, y1 = area
    keep = (boxes[:, 0] <= x1) & (boxes[:, 2] >= x0) & (boxes[:, 1] <= y1) & (boxes[:, 3] >= y0)
    if shortest:
        keep &= lengths >= shortest
    hit = np.flatnonzero(keep)
    return lines if len(hit) == len(lines) else [lines[i] for i in hit.tolist()]


def _layer_key(key: tuple) -> bool:
    return key[0] in LAYER_KINDS or key[0] == "haze"


def _detail_key(key: tuple) -> tuple:
    return ("plain", key[1]) if key[0] == "haze" else key


class CableLayers:
    """The two layers as one: a cable goes to the fabric layer (leaf-spine, under the SU plates) or
    to the host layer (server cables, over them)."""

    def __init__(self, scene):
        self.fabric = LinkOverviewItem(FABRIC_Z)
        self.host = LinkOverviewItem(HOST_Z)
        for layer in (self.fabric, self.host):
            scene.addItem(layer)

    def _layer(self, item: LinkItem) -> LinkOverviewItem:
        return self.fabric if item.fabric_tier else self.host

    def show_link(self, item: LinkItem) -> None:
        layer = self._layer(item)
        (self.host if layer is self.fabric else self.fabric).hide_link(item.model_id)
        layer.show_link(item)

    def hide_link(self, link_id: str) -> None:
        self.fabric.hide_link(link_id)
        self.host.hide_link(link_id)

    def set_overview(self, on: bool) -> None:
        self.fabric.set_overview(on)
        self.host.set_overview(on)

    @property
    def overview(self) -> bool:
        return self.host.overview

    def drawn(self) -> set[str]:
        return self.fabric.drawn() | self.host.drawn()

    def key_of(self, link_id: str) -> tuple | None:
        return self.fabric.key_of(link_id) or self.host.key_of(link_id)
