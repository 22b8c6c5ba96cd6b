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
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from .. import style
from .link import LAYER_KINDS, LinkItem, pen_for

OVERVIEW_LOD = 0.3   # below this zoom the scene is drawn in overview mode
HAZE_LOD = 0.1       # below this zoom plain leaf-spine cables are not drawn at all (marked ones still are)
CULL_MIN = 64        # a group of fewer lines is drawn whole (the bounds test costs more than it saves)
TRUNK_PX = 11       # a trunk's count, in screen pixels
TRUNK_REACH = 400   # room for its text (scene units, left of and above where it ends)
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
        self.trunks: dict[tuple, tuple[float, float]] = {}  # bucket -> where its trunk's count is written
        self._order: list | None = None                     # the groups in drawing order (None: sort again)
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
        if group not in self._groups:
            self._groups[group], self._order = {}, None
        self._groups[group][item.model_id] = item.points()
        self._lists.pop(group, None)
        self._where[item.model_id] = (group, rect)
        bounds = self._group_bounds.get(group)
        self._group_bounds[group] = rect if bounds is None else bounds.united(rect)
        if not self._bounds.contains(rect):
            self.prepareGeometryChange()
            self._bounds = self._bounds.united(rect)
        self.update(rect)

    def show_new_links(self, items: list) -> None:
        """`show_link` for many cables this layer does not hold yet (a design just opened): one
        geometry change and one update for all of them."""
        groups, where, group_bounds = self._groups, self._where, self._group_bounds
        bounds = QRectF(self._bounds)
        for item in items:
            group, rect = (item.overview_key(), item.bucket), item.boundingRect()
            if group not in groups:
                groups[group], self._order = {}, None
            groups[group][item.model_id] = item.points()
            self._lists.pop(group, None)
            where[item.model_id] = (group, rect)
            known = group_bounds.get(group)
            group_bounds[group] = rect if known is None else known.united(rect)
        for rect in group_bounds.values():
            bounds = bounds.united(rect)
        if bounds != self._bounds:
            self.prepareGeometryChange()
            self._bounds = bounds
        self.update()

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
        if self._order is None:
            self._order = sorted(self._groups, key=lambda g: (g[0][0] != "haze", g[0][0] == "red", str(g[0]), str(g[1])))
        for group in self._order:
            key = group[0]
            if not self._groups[group] or not (self.overview or _layer_key(key)):
                continue                     # zoomed in, that cable's own item draws it
            if key[0] == "haze" and far:
                continue                     # a few pixels of gutter cannot show thousands of them
            if not self._group_bounds[group].intersects(area):
                continue
            cached = self._lists.get(group)
            if cached is None:
                cached = self._lists[group] = _Segments(self._groups[group])
            lines = cached.meeting(bounds, shortest, buses=self.overview and _layer_key(key))
            if lines:
                painter.setPen(pen_for(key if self.overview else _detail_key(key)))
                painter.drawLines(lines)
        if self.overview and self.trunks:
            self._trunk_counts(painter, lod, area)

    def set_trunk(self, bucket: tuple, at: tuple[float, float]) -> None:
        """Where the trunk of ``bucket`` is labelled (its text ends there; the layer's bounds take it in)."""
        if self.trunks.get(bucket) != at:
            self.trunks[bucket] = at
            x, y = at
            label = QRectF(x - TRUNK_REACH, y - TRUNK_REACH, TRUNK_REACH, TRUNK_REACH)
            if not self._bounds.contains(label):
                self.prepareGeometryChange()
                self._bounds = self._bounds.united(label)

    def trunk_counts(self) -> dict[tuple, int]:
        """Bucket (its cell and the tier it climbs to) -> the cables its trunk carries."""
        counts: dict[tuple, int] = {}
        for (_, bucket), links in self._groups.items():
            if bucket in self.trunks and links:
                counts[bucket] = counts.get(bucket, 0) + len(links)
        return counts

    def _trunk_counts(self, painter, lod: float, area: QRectF) -> None:
        """Zoomed out, each trunk says how many cables it carries (``128 to spines``)."""
        font = QFont(painter.font())
        font.setPixelSize(max(1, round(TRUNK_PX / max(lod, 1e-6))))
        painter.setFont(font)
        painter.setPen(QPen(style.TRUNK_TEXT))
        metrics = QFontMetricsF(font)
        for bucket, count in sorted(self.trunk_counts().items(), key=str):
            x, y = self.trunks[bucket]
            if area.contains(x, y):
                text = f"{count} to {bucket[1]}s"
                painter.drawText(QPointF(x - metrics.horizontalAdvance(text), y - 2 / lod), text)


class _Segments:
    """A group's distinct segments: their ends, bounds and lengths as arrays; the QLineF of a segment
    is made the first time it is drawn (zoomed out most are too short to draw at all)."""

    __slots__ = ("ends", "boxes", "lengths", "shared", "_lines")

    def __init__(self, group: dict[str, tuple]):
        # shared segments are the same floats (the router computes them alike): counted once each, sorted
        # so the drawing order (and the diagram export's bytes) does not depend on the edit history
        uses: dict[tuple, int] = {}
        for points in group.values():
            for p, q in zip(points, points[1:]):
                if p != q:
                    key = (*p, *q)
                    uses[key] = uses.get(key, 0) + 1
        flat = sorted(uses)
        ends = np.array(flat, dtype=float).reshape(-1, 4)
        self.shared = np.array([uses[key] > 1 for key in flat], dtype=bool)   # on a bus or trunk
        self.ends = ends
        self.boxes = np.column_stack((np.minimum(ends[:, 0], ends[:, 2]), np.minimum(ends[:, 1], ends[:, 3]),
                                      np.maximum(ends[:, 0], ends[:, 2]), np.maximum(ends[:, 1], ends[:, 3])))
        self.lengths = np.abs(ends[:, 2] - ends[:, 0]) + np.abs(ends[:, 3] - ends[:, 1])
        self._lines: list = [None] * len(ends)

    def __len__(self) -> int:
        return len(self._lines)

    def lines(self, indexes) -> list:
        lines, ends = self._lines, self.ends
        out = []
        for i in indexes:
            line = lines[i]
            if line is None:
                line = lines[i] = QLineF(*ends[i].tolist())
            out.append(line)
        return out

    def meeting(self, area: tuple[float, float, float, float], shortest: float = 0.0, buses: bool = False) -> list:
        """The segments whose bounds meet ``area`` (x0, y0, x1, y1), at least ``shortest`` long, and
        (``buses``) only those two or more cables share: a rail's bus, a trunk."""
        if len(self) < CULL_MIN and not shortest and not buses:
            return self.lines(range(len(self)))
        x0, y0, x1, y1 = area
        boxes = self.boxes
        keep = (boxes[:, 0] <= x1) & (boxes[:, 2] >= x0) & (boxes[:, 1] <= y1) & (boxes[:, 3] >= y0)
        if shortest:
            keep &= self.lengths >= shortest
        if buses:
            keep &= self.shared
        return self.lines(np.flatnonzero(keep).tolist())


def _segments(group: dict[str, tuple]) -> list:
    """Every distinct segment of a group's paths (shared ones once), as drawn."""
    segments = _Segments(group)
    return segments.lines(range(len(segments)))


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

    def show_new_links(self, items: list) -> None:
        """Cables neither layer holds yet, each to its layer (`LinkOverviewItem.show_new_links`)."""
        self.fabric.show_new_links([item for item in items if item.fabric_tier])
        self.host.show_new_links([item for item in items if not item.fabric_tier])

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
