"""The window's status bar: a message too long for the room left of the counters is cut with an
ellipsis a gap short of them (Qt's own bar ran the text up to the first counter's edge: "...(l8
servers"), and the whole message is the bar's tool tip while it shows."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QStatusBar, QStyle, QStyleOption

GAP = 16            # pixels between the end of a message and the counters


class StatusBar(QStatusBar):
    def __init__(self, parent=None):
        super().__init__(parent)
        self._permanent: list = []
        self.messageChanged.connect(self._message_changed)

    def addPermanentWidget(self, widget, stretch: int = 0) -> None:
        super().addPermanentWidget(widget, stretch)
        self._permanent.append(widget)

    def message_room(self) -> tuple[int, int]:
        """(left, right) of the pixels a message may take."""
        right = self.width() - 12
        shown = [w.x() for w in self._permanent if w.isVisible()]
        if shown:
            right = min(right, min(shown) - GAP)
        return 6, max(6, right)

    def shown_text(self) -> str:
        """The message as drawn: whole, or cut to the room it has."""
        left, right = self.message_room()
        return self.fontMetrics().elidedText(self.currentMessage(), Qt.ElideRight, right - left)

    def _message_changed(self, message: str) -> None:
        self.setToolTip(message if message and self.shown_text() != message else "")

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._message_changed(self.currentMessage())

    def paintEvent(self, event) -> None:
        if not self.currentMessage():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        option = QStyleOption()
        option.initFrom(self)
        self.style().drawPrimitive(QStyle.PE_PanelStatusBar, option, painter, self)
        for widget in self._permanent:
            if widget.isVisible():
                frame = QStyleOption()
                frame.rect = widget.geometry().adjusted(-2, -1, 2, 1)
                frame.palette = self.palette()
                self.style().drawPrimitive(QStyle.PE_FrameStatusBarItem, frame, painter, widget)
        left, right = self.message_room()
        painter.setPen(self.palette().windowText().color())
        painter.drawText(left, 0, right - left, self.height(), Qt.AlignLeading | Qt.AlignVCenter | Qt.TextSingleLine,
                         self.shown_text())
