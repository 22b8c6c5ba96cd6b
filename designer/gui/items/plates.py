"""The plates under the devices.

- SU plates: each SU block painted as an opaque plate with its rail lanes, between the leaf-spine
  cables (below) and the SU's own devices and server cables (above), so cables from other SUs pass
  behind it instead of across its servers. In a multi-plane design each lane has a row of leaves
  per plane, named in the gutter left of the SU.
- Band plates, under everything (the cables too): a spine group's pod, and the bands of cores (one
  per core group) and spines (one per plane or spine group), each with its name."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from .. import style
from ...planning.layout import SU_TITLE
from ...planning.layout_tiers import BAND_LABEL
from .overview import BANDS_Z, PLATES_Z

PLATE = QColor("#f4f6f7")
COLLAPSED = QColor("#cfd8dc")
PAD = 8
LABEL_PX = 10          # band and plane names, in scene units
MIN_LABEL_PX = 5       # ... drawn once at least this big on screen
GUTTER = 44            # the plane names' room left of an SU


def band_names(painter, layout, rect) -> None:
    """Each band's name over its switches, in scene units (a pod's is the scene's, at any zoom)."""
    if not _label_pen(painter):
        return
    for band in layout.bands:
        b = band.box
        r = QRectF(b.x + 4, b.y, b.w * 3, BAND_LABEL)
        if band.kind != "pod" and band.label and r.intersects(rect):
            painter.drawText(r, Qt.AlignLeft | Qt.AlignVCenter, band.label)


def _label_pen(painter) -> bool:
    """Set the painter up for band and plane names; False when they would be too small to read."""
    lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
    if LABEL_PX * lod < MIN_LABEL_PX:
        return False
    font = QFont(painter.font())
    font.setPixelSize(LABEL_PX)
    painter.setFont(font)
    painter.setPen(style.BAND_TEXT)
    return True


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
        if self.layout.planes > 1:
            self._plane_names(painter, exposed)

    def _plane_names(self, painter, exposed) -> None:
        if not _label_pen(painter):
            return
        for lane in self.layout.lanes:
            if lane.rail:
                continue
            b = lane.box
            r = QRectF(b.x - GUTTER, b.y, GUTTER - 4, b.h)
            if r.intersects(exposed):
                painter.drawText(r, Qt.AlignRight | Qt.AlignVCenter, f"plane {lane.fabric_plane}")
                block = self.layout.su_blocks.get(lane.su)
                if lane.fabric_plane and block is not None:          # a rule between two planes' rows
                    painter.drawLine(QPointF(b.x, b.y), QPointF(block.x + block.w, b.y))


class BandPlatesItem(QGraphicsItem):
    """The pods of spine groups and the bands of cores and spines (their names are drawn by the
    scene, over the cables: `band_names`)."""

    kind = "bands"

    def __init__(self):
        super().__init__()
        self.bands = []
        self._bounds = QRectF()
        self.setZValue(BANDS_Z)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption)

    def set_layout(self, layout) -> None:
        self.prepareGeometryChange()
        self.bands = list(layout.bands)
        rect = QRectF()
        for band in self.bands:
            b = band.box
            rect = rect.united(QRectF(b.x - 1, b.y - 1, b.w + 2, b.h + 2))
        self._bounds = rect
        self.setVisible(bool(self.bands))         # nothing to paint (a two-tier, one-plane design)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter, option, widget=None) -> None:
        exposed = option.exposedRect
        edge = QPen(style.POD_EDGE, 1)
        edge.setCosmetic(True)
        for band in self.bands:
            b = band.box
            r = QRectF(b.x, b.y, b.w, b.h)
            if not r.intersects(exposed):
                continue
            if band.kind == "pod":
                painter.setPen(edge)
                painter.setBrush(style.POD_PLATE)
                painter.drawRect(r)
                continue
            painter.fillRect(r, style.BAND_PLATES.get(band.kind, style.POD_PLATE))
