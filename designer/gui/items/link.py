"""A cable: a straight line in its rail's colour; red when it crosses rails or a check flags it."""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF
from PySide6.QtGui import QPainterPath, QPainterPathStroker, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyle

from .. import style


class LinkItem(QGraphicsItem):
    kind = "link"

    def __init__(self, model_id: str, rail: int | None, cross_rail: bool):
        super().__init__()
        self.model_id = model_id
        self.rail = rail
        self.cross_rail = cross_rail
        self.error = False
        self._line = QLineF()
        self.setFlags(QGraphicsItem.ItemIsSelectable)
        self.setZValue(0)

    @property
    def red(self) -> bool:
        return self.cross_rail or self.error

    def set_ends(self, a: tuple[float, float], b: tuple[float, float]) -> None:
        self.prepareGeometryChange()
        self._line = QLineF(QPointF(*a), QPointF(*b))

    def set_state(self, rail: int | None, cross_rail: bool) -> None:
        if (rail, cross_rail) != (self.rail, self.cross_rail):
            self.rail, self.cross_rail = rail, cross_rail
            self.update()

    def set_error(self, error: bool) -> None:
        if error != self.error:
            self.error = error
            self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(self._line.p1(), self._line.p2()).normalized().adjusted(-3, -3, 3, 3)

    def shape(self) -> QPainterPath:
        path = QPainterPath(self._line.p1())
        path.lineTo(self._line.p2())
        stroker = QPainterPathStroker()
        stroker.setWidth(5)
        return stroker.createStroke(path)

    def paint(self, painter, option, widget=None) -> None:
        selected = bool(option.state & QStyle.State_Selected)
        colour = style.SELECTED if selected else style.ERROR if self.red else style.rail_colour(self.rail)
        pen = QPen(colour, 2.5 if (selected or self.red) else 0)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.drawLine(self._line)
