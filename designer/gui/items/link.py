"""A cable: a straight line in its rail's colour; red when it crosses rails or a check flags it.

Painting is the hot path of a 16,000-cable design zoomed out: the bounding rect and pens are
computed once, not per paint."""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QPainterPath, QPainterPathStroker, QPen
from PySide6.QtWidgets import QGraphicsItem

from .. import style

_PENS: dict[tuple, QPen] = {}


def pen_for(key: tuple) -> QPen:
    pen = _PENS.get(key)
    if pen is None:
        kind, rail = key
        colour = (style.SELECTED if kind == "selected" else style.ERROR if kind == "red"
                  else style.AS_BUILT if kind == "as-built" else style.rail_colour(rail))
        pen = QPen(colour, 2.5 if kind != "plain" else 0)
        pen.setCosmetic(True)
        if kind == "as-built":
            pen.setStyle(Qt.DashLine)
        _PENS[key] = pen
    return pen


class LinkItem(QGraphicsItem):
    kind = "link"

    def __init__(self, model_id: str, rail: int | None, cross_rail: bool):
        super().__init__()
        self.model_id = model_id
        self.rail = rail
        self.cross_rail = cross_rail
        self.error = False
        self.as_built: str | None = None      # an LLDP mismatch kind, when an as-built check flagged it
        self._line = QLineF()
        self._bounds = QRectF()
        self.setFlags(QGraphicsItem.ItemIsSelectable)
        self.setZValue(0)

    @property
    def red(self) -> bool:
        return self.cross_rail or self.error

    def set_ends(self, a: tuple[float, float], b: tuple[float, float]) -> None:
        self.prepareGeometryChange()
        self._line = QLineF(QPointF(*a), QPointF(*b))
        self._bounds = QRectF(self._line.p1(), self._line.p2()).normalized().adjusted(-3, -3, 3, 3)

    def set_state(self, rail: int | None, cross_rail: bool) -> None:
        if (rail, cross_rail) != (self.rail, self.cross_rail):
            self.rail, self.cross_rail = rail, cross_rail
            self.update()

    def set_error(self, error: bool) -> None:
        if error != self.error:
            self.error = error
            self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        path = QPainterPath(self._line.p1())
        path.lineTo(self._line.p2())
        stroker = QPainterPathStroker()
        stroker.setWidth(5)
        return stroker.createStroke(path)

    def set_as_built(self, kind: str | None) -> None:
        if kind != self.as_built:
            self.as_built = kind
            self.update()

    def pen_key(self) -> tuple:
        kind = ("selected" if self.isSelected() else "red" if (self.cross_rail or self.error)
                else "as-built" if self.as_built else "plain")
        return kind, self.rail if kind == "plain" else None

    def line(self) -> QLineF:
        return self._line

    def paint(self, painter, option, widget=None) -> None:
        painter.setPen(pen_for(self.pen_key()))
        painter.drawLine(self._line)
