"""A cable: a path (`cable_paths`: around the device boxes) in its rail's colour. What else it shows, strongest first: selected,
on a traced path, red (crosses rails or an error finding names it), a warning, an as-built
mismatch (dashed), an info finding, its load under a collision analysis, dimmed (another rail is
highlighted, or it is off the traced path), plain. Zoomed out, plain leaf-spine cables are a haze.

Painting is the hot path of a 16,000-cable design zoomed out: the bounding rect, the shape and the
pens are computed once, not per paint."""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPainterPathStroker, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from .. import style

_PENS: dict[tuple, QPen] = {}
_WIDE = {"selected", "red", "warning", "as-built", "path", "info"}
LAYER_KINDS = {"plain", "dim"}        # looks the cable layer draws; the item itself paints only the others
_FLAGS = QGraphicsItem.ItemIsSelectable | QGraphicsItem.ItemHasNoContents
_NO_CONTENTS = QGraphicsItem.ItemHasNoContents
_NO_LINE = QLineF()
_NO_RECT = QRectF()


def pen_for(key: tuple) -> QPen:
    pen = _PENS.get(key)
    if pen is None:
        kind, rail = key
        if kind.startswith("load"):
            colour = style.LOAD_COLOURS[int(kind[4:])]
        elif kind == "dim":
            colour = QColor(style.rail_colour(rail))
            colour.setAlpha(style.DIM_ALPHA)
        elif kind == "haze":
            colour = style.pale(style.rail_colour(rail), style.HAZE_SHARE)
        else:
            colour = {"selected": style.SELECTED, "red": style.ERROR, "warning": style.WARNING,
                      "as-built": style.AS_BUILT, "path": style.PATH, "info": style.INFO}.get(
                kind, style.rail_colour(rail))
        width = 4.0 if kind == "path" else 2.5 if kind in _WIDE or kind.startswith("load") else 0
        pen = QPen(colour, width)
        pen.setCosmetic(True)
        if kind in ("as-built", "info"):
            pen.setStyle(Qt.DashLine)
        _PENS[key] = pen
    return pen


class LinkItem(QGraphicsItem):
    kind = "link"
    # defaults as class attributes: a design has tens of thousands of cables, most never marked
    mark: str | None = None          # the worst severity of the findings that name it
    as_built: str | None = None      # an LLDP mismatch kind, when an as-built check flagged it
    overlay: str | None = None       # "path", or "load0".."load4" under a collision analysis
    dimmed = False
    fabric_tier = False              # both ends on switches (a leaf-spine or spine-core cable)
    planes = (0, 0)                  # the fabric planes of its two ends
    _layer = True                    # drawn by the cable layer (no contents of its own)
    _shape: QPainterPath | None = None
    _polygon: QPolygonF | None = None
    bucket = None                    # the part of the canvas it starts in (its cable layer's group)

    def __init__(self, model_id: str, rail: int | None, cross_rail: bool):
        super().__init__()
        self.model_id = model_id
        self.rail = rail
        self.cross_rail = cross_rail
        self._line = _NO_LINE
        self._points: tuple = ()
        self._bounds = _NO_RECT
        self.setFlags(_FLAGS)

    @property
    def red(self) -> bool:
        return self.cross_rail or self.mark == "error"

    def set_ends(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """A straight path from ``a`` to ``b`` (see `set_path`)."""
        return self.set_path((a, b))

    def set_path(self, points: tuple) -> bool:
        """Route it along ``points`` (its two ends first and last); False (and no geometry change, so
        no scene index update) when the path did not change."""
        if points == self._points:
            return False
        self.prepareGeometryChange()
        self._points = points
        (x1, y1), (x2, y2) = points[0], points[-1]
        self._line = QLineF(x1, y1, x2, y2)
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        x0, y0 = min(xs), min(ys)
        self._bounds = QRectF(x0 - 3, y0 - 3, max(xs) - x0 + 6, max(ys) - y0 + 6)
        self._shape = self._polygon = None
        return True

    def points(self) -> tuple:
        """The path's points, from the ``a`` end to the ``b`` end."""
        return self._points

    def _set(self, name: str, value, restyle: bool = True) -> bool:
        if getattr(self, name) == value:
            return False
        setattr(self, name, value)
        if restyle:
            self._sync_contents()
        self.update()
        return True

    def _sync_contents(self) -> None:
        """Paint only when the cable looks special; a plain one is drawn by the cable layer. (The
        scene calls this on selection changes too.)"""
        layer = self.pen_key()[0] in LAYER_KINDS
        if layer != self._layer:
            scene = self.scene()
            if layer and scene is not None:
                # its own update would be dropped: Qt skips the pending repaint of an item that has no
                # contents by the time it paints, and the cable stayed drawn as it was (Ctrl+A, a click)
                scene.update(self.sceneBoundingRect())
            self._layer = layer
            self.setFlag(_NO_CONTENTS, layer)

    def set_state(self, rail: int | None, cross_rail: bool) -> bool:
        changed = self._set("rail", rail, restyle=False)        # the colour, not the kind of look
        return self._set("cross_rail", cross_rail) or changed

    def set_mark(self, severity: str | None) -> bool:
        return self._set("mark", severity)

    def set_as_built(self, kind: str | None) -> bool:
        return self._set("as_built", kind)

    def set_overlay(self, overlay: str | None) -> bool:
        return self._set("overlay", overlay)

    def set_dimmed(self, dimmed: bool) -> bool:
        return self._set("dimmed", dimmed)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        if self._shape is None:
            path = QPainterPath()
            path.addPolygon(self.polygon())
            stroker = QPainterPathStroker()
            stroker.setWidth(5)
            self._shape = stroker.createStroke(path)
        return self._shape

    def pen_key(self) -> tuple:
        if self.isSelected():
            kind = "selected"
        elif self.overlay == "path":
            kind = "path"
        elif self.red:
            kind = "red"
        elif self.mark == "warning":
            kind = "warning"
        elif self.as_built:
            kind = "as-built"
        elif self.mark == "info":
            kind = "info"
        elif self.overlay:
            kind = self.overlay
        else:
            kind = "dim" if self.dimmed else "plain"
        return kind, self.rail if kind in ("plain", "dim") else None

    def overview_key(self) -> tuple:
        """The pen zoomed out: leaf-spine cables in plain colours become a faint haze there (thousands
        of them cross the whole canvas), so the SUs and their server cables stay readable."""
        key = self.pen_key()
        return ("haze", key[1]) if key[0] == "plain" and self.fabric_tier else key

    def line(self) -> QLineF:
        """From the ``a`` end to the ``b`` end (where the cable meets its devices)."""
        return self._line

    def distance_to(self, x: float, y: float) -> float:
        """How far (x, y) is from the path (scene units)."""
        best = float("inf")
        for (ax, ay), (bx, by) in zip(self._points, self._points[1:]):
            dx, dy = bx - ax, by - ay
            t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
            best = min(best, ((ax + t * dx - x) ** 2 + (ay + t * dy - y) ** 2) ** 0.5)
        return best

    def polygon(self) -> QPolygonF:
        if self._polygon is None:
            self._polygon = QPolygonF([QPointF(x, y) for x, y in self._points])
        return self._polygon

    def paint(self, painter, option, widget=None) -> None:
        painter.setPen(pen_for(self.pen_key()))
        painter.drawPolyline(self.polygon())
