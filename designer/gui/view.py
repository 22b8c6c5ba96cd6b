"""The canvas view: zoom (wheel, +/-), pan (middle button, the Pan mode, arrow keys), fit (0 / F),
rubber band, the three modes (select, cable, pan), and the hand-off of presses, drops and context
menus to the interaction controller. The legend and the minimap are widgets over the viewport, so
they stay put while the canvas scrolls under them."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QPainter, QTransform
from PySide6.QtWidgets import QGraphicsView

from .interactions import MIME
from .items import OVERVIEW_LOD

MIN_SCALE, MAX_SCALE = 0.005, 8.0
STEP = 1.2
FOCUS_MAX_SCALE = 1.5       # centring on a finding's objects zooms in at most this far
FIT_MAX_SCALE = 1.0         # a fit never enlarges: an empty or tiny design opened at 530 %
MODES = ("select", "cable", "pan")
MODE_CURSORS = {"select": Qt.ArrowCursor, "cable": Qt.CrossCursor, "pan": Qt.OpenHandCursor}


class FabricView(QGraphicsView):
    zoomed = Signal(float)               # the new scale
    scrolled = Signal()                  # the visible part of the scene moved (the minimap follows)
    mode_changed = Signal(str)
    context_requested = Signal(object, object, object)   # model id under the cursor (or None), scene pos, global pos

    def __init__(self, scene, parent=None):
        super().__init__(scene, parent)
        self.controller = None
        self.mode = "select"
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
        # no scroll bars: the minimap, the middle button, the Pan mode and the arrow keys move the view
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.overlays: list = []         # widgets kept in a corner of the viewport (legend, minimap)
        self.auto_fit = True             # until the user zooms or pans, a resize fits the design again

    # ------------------------------------------------------------------ modes
    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown canvas mode '{mode}'; modes: {', '.join(MODES)}")
        self.cancel_interaction()
        self.mode = mode
        self.setDragMode({"select": QGraphicsView.RubberBandDrag, "cable": QGraphicsView.NoDrag,
                          "pan": QGraphicsView.ScrollHandDrag}[mode])
        self.viewport().setCursor(MODE_CURSORS[mode])
        self.mode_changed.emit(mode)

    def cancel_interaction(self) -> bool:
        if self._interaction is None:
            return False
        self._interaction.cancel()
        self._interaction = None
        return True

    # ------------------------------------------------------------------ zoom and pan
    def scale_now(self) -> float:
        return self.transform().m11()

    def zoom(self, factor: float) -> None:
        self.auto_fit = False
        current = self.scale_now()
        factor = max(MIN_SCALE / current, min(MAX_SCALE / current, factor))
        self.scale(factor, factor)
        self._follow_zoom()

    def fit(self) -> None:
        """The whole design, as large as the window allows up to 100 %, beside the legend (not under it)."""
        self.auto_fit = True
        rect = self.scene().content_rect()
        vp = self.viewport().rect()
        left = max((o.reserved_left() for o in self.overlays), default=0)
        avail_w, avail_h = vp.width() - left - 8, vp.height() - 8
        if not rect.isEmpty() and avail_w > 10 and avail_h > 10:
            k = max(MIN_SCALE, min(FIT_MAX_SCALE, avail_w / rect.width(), avail_h / rect.height()))
            self.setTransform(QTransform.fromScale(k, k))
            shift = (vp.width() / 2 - (left + avail_w / 2)) / k
            self.centerOn(rect.center() + QPointF(shift, 0))
        self._follow_zoom()

    def show_rect(self, rect: QRectF, max_scale: float = FOCUS_MAX_SCALE) -> None:
        """Zoom so ``rect`` fills most of the window (no closer than ``max_scale``) and centre it."""
        self.auto_fit = False
        pad = max(rect.width(), rect.height()) * 0.15 + 40
        self.fitInView(rect.adjusted(-pad, -pad, pad, pad), Qt.KeepAspectRatio)
        if self.scale_now() > max_scale:
            factor = max_scale / self.scale_now()
            self.scale(factor, factor)
        self.centerOn(rect.center())
        self._follow_zoom()

    def _follow_zoom(self) -> None:
        """Switch the scene between detail and overview drawing at OVERVIEW_LOD."""
        self.scene().set_overview(self.scale_now() < OVERVIEW_LOD)
        self.zoomed.emit(self.scale_now())
        self.scrolled.emit()

    def centre_on_ids(self, ids) -> list:
        """Select the items ``ids`` name, zoom onto them and centre them; returns the items."""
        items = self.scene().select_ids(ids)
        if items:
            rect = QRectF()
            for item in items:
                rect = rect.united(item.sceneBoundingRect())
            self.show_rect(rect)
        return items

    def go_to(self, point) -> None:
        """Centre the view on a scene point (the minimap's click)."""
        self.auto_fit = False
        self.centerOn(point)

    def visible_scene_rect(self) -> QRectF:
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        self.scrolled.emit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.auto_fit and self.scene() is not None:
            self.fit()
        self.place_overlays()
        self.scrolled.emit()

    def place_overlays(self) -> None:
        vp = self.viewport().geometry()
        for overlay in self.overlays:
            overlay.place(vp)

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
        elif key in (Qt.Key_0, Qt.Key_F) and not event.modifiers() & Qt.ControlModifier:
            self.fit()
        elif key == Qt.Key_Escape and self.cancel_interaction():
            pass
        else:
            super().keyPressEvent(event)

    # ------------------------------------------------------------------ gestures
    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MiddleButton or self.mode == "pan":
            self.auto_fit = False
        if event.button() == Qt.MiddleButton:
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.ClosedHandCursor)
            event.accept()
            return
        if event.button() == Qt.LeftButton and self.controller is not None and self.mode != "pan":
            pos = self.mapToScene(event.position().toPoint())
            item = self.scene().item_at(pos, self.transform())     # of a bundle's cables, the nearest
            interaction = self.controller.begin(item, pos, event.modifiers(), self.mode, self.scale_now())
            if interaction is not None:
                if not event.modifiers() & Qt.ControlModifier:
                    self.scene().clearSelection()
                if item is not None:
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
            event.accept()
            return
        if self._interaction is not None:
            self._interaction.move(self.mapToScene(event.position().toPoint()))
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if self._pan_from is not None and event.button() == Qt.MiddleButton:
            self._pan_from = None
            self.viewport().setCursor(MODE_CURSORS[self.mode])
            event.accept()
            return
        if self._interaction is not None and event.button() == Qt.LeftButton:
            interaction, self._interaction = self._interaction, None
            interaction.finish(self.mapToScene(event.position().toPoint()))
            return
        super().mouseReleaseEvent(event)

    def contextMenuEvent(self, event) -> None:
        if self._interaction is not None:
            return
        item = self.itemAt(event.pos())
        self.context_requested.emit(getattr(item, "model_id", None), self.mapToScene(event.pos()), event.globalPos())

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
