"""The canvas view: zoom (wheel, +/-), pan (middle button or arrow keys), fit (0 / F), rubber band,
the rail legend, and the hand-off of presses and drops to the interaction controller."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter
from PySide6.QtWidgets import QGraphicsView

from . import style
from .interactions import MIME
from .items import OVERVIEW_LOD

MIN_SCALE, MAX_SCALE = 0.01, 8.0
STEP = 1.2


class FabricView(QGraphicsView):
    def __init__(self, scene, parent=None):
        super().__init__(scene, parent)
        self.controller = None
        self._interaction = None
        self._pan_from: QPoint | None = None
        self.setDragMode(QGraphicsView.RubberBandDrag)
        self.setRubberBandSelectionMode(Qt.IntersectsItemShape)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.SmartViewportUpdate)
        self.setOptimizationFlags(QGraphicsView.DontAdjustForAntialiasing | QGraphicsView.DontSavePainterState)
        self.setRenderHint(QPainter.TextAntialiasing, True)
        self.setAcceptDrops(True)
        self.setFocusPolicy(Qt.StrongFocus)

    # ------------------------------------------------------------------ zoom and pan
    def zoom(self, factor: float) -> None:
        current = self.transform().m11()
        factor = max(MIN_SCALE / current, min(MAX_SCALE / current, factor))
        self.scale(factor, factor)
        self._follow_zoom()

    def fit(self) -> None:
        rect = self.scene().sceneRect()
        if not rect.isEmpty():
            self.fitInView(rect, Qt.KeepAspectRatio)
        self._follow_zoom()

    def _follow_zoom(self) -> None:
        """Switch the scene between detail and overview drawing at OVERVIEW_LOD."""
        self.scene().set_overview(self.transform().m11() < OVERVIEW_LOD)

    def centre_on_ids(self, ids) -> None:
        items = self.scene().select_ids(ids)
        if items:
            rect = QRectF()
            for item in items:
                rect = rect.united(item.sceneBoundingRect())
            if self.transform().m11() < 0.8:
                self.zoom(0.8 / self.transform().m11())
            self.centerOn(rect.center())

    def wheelEvent(self, event) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.zoom(STEP ** steps)
        event.accept()

    def keyPressEvent(self, event) -> None:
        key = event.key()
        if key in (Qt.Key_Plus, Qt.Key_Equal):
            self.zoom(STEP)
        elif key == Qt.Key_Minus:
            self.zoom(1 / STEP)
        elif key in (Qt.Key_0, Qt.Key_F):
            self.fit()
        elif key == Qt.Key_Escape and self._interaction is not None:
            self._interaction.cancel()
            self._interaction = None
        else:
            super().keyPressEvent(event)

    # ------------------------------------------------------------------ gestures
    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MiddleButton:
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.ClosedHandCursor)
            return
        if event.button() == Qt.LeftButton and self.controller is not None:
            pos = self.mapToScene(event.position().toPoint())
            item = self.itemAt(event.position().toPoint())
            interaction = self.controller.begin(item, pos, event.modifiers())
            if interaction is not None:
                if not event.modifiers() & Qt.ControlModifier:
                    self.scene().clearSelection()
                item.setSelected(True)
                self._interaction = interaction
                return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        if self._pan_from is not None:
            delta = event.position().toPoint() - self._pan_from
            self._pan_from = event.position().toPoint()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
            return
        if self._interaction is not None:
            self._interaction.move(self.mapToScene(event.position().toPoint()))
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if self._pan_from is not None and event.button() == Qt.MiddleButton:
            self._pan_from = None
            self.viewport().unsetCursor()
            return
        if self._interaction is not None and event.button() == Qt.LeftButton:
            interaction, self._interaction = self._interaction, None
            interaction.finish(self.mapToScene(event.position().toPoint()))
            return
        super().mouseReleaseEvent(event)

    # ------------------------------------------------------------------ palette drops
    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME) and self.controller is not None:
            self.controller.drop(event.mimeData(), self.mapToScene(event.position().toPoint()))
            event.acceptProposedAction()
        else:
            super().dropEvent(event)

    # ------------------------------------------------------------------ legend
    def drawForeground(self, painter, rect) -> None:
        fabric = self.scene().fabric
        if fabric is None or not fabric.rails:
            return
        painter.save()
        painter.resetTransform()
        font = QFont(self.font())
        font.setPixelSize(11)
        painter.setFont(font)
        rails = sorted(fabric.rails.values(), key=lambda r: r.index)
        width = 12 + max(painter.fontMetrics().horizontalAdvance(r.name) for r in rails) + 24
        box = QRectF(8, 8, width, 10 + 16 * len(rails) + 16)
        painter.fillRect(box, QColor(255, 255, 255, 220))
        painter.setPen(QColor("#90a4ae"))
        painter.setBrush(Qt.NoBrush)
        painter.drawRect(box)
        painter.setPen(style.TEXT)
        painter.drawText(QRectF(box.x() + 6, box.y() + 4, width, 14), Qt.AlignLeft, "Rails")
        for i, rail in enumerate(rails):
            y = box.y() + 22 + 16 * i
            painter.fillRect(QRectF(box.x() + 6, y + 2, 14, 10), style.rail_colour(rail.index))
            painter.drawText(QRectF(box.x() + 26, y, width, 14), Qt.AlignLeft | Qt.AlignVCenter, rail.name)
        painter.restore()
