"""What every gesture shares: the scene it previews on, the document it pushes to, a status line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsLineItem

from ...checks.verdict import cable_verdict
from ..items import SwitchItem

OK = QColor("#2e7d32")
BAD = QColor("#c62828")
WARN = QColor("#f9a825")


class Interaction:
    """A gesture with start (construction), move, finish and cancel. Only finish edits (one command)."""

    def __init__(self, scene, document, status: Callable[[str], None]):
        self.scene = scene
        self.document = document
        self.status = status
        self._judged: tuple | None = None

    def preview(self, line: "PreviewLine", drop: "Drop | None", idle: str) -> None:
        """Show what a drop here would do on the line and in the status bar (``idle``: over nothing)."""
        if drop is None:
            line.set_ok(None)
            self.status(idle)
            return
        line.show(drop)
        self.status(drop.message)

    def judged(self, target: str, judge_it: Callable):
        """What ``judge_it()`` says about ``target``, asked once while the cursor stays over it (a
        verdict runs the checks' rules: at 64 SUs ~15 ms, too much for every mouse move)."""
        if self._judged is None or self._judged[0] != target:
            self._judged = (target, judge_it())
        return self._judged[1]

    def move(self, pos: QPointF) -> None:
        pass

    def finish(self, pos: QPointF) -> None:
        self.cancel()

    def cancel(self) -> None:
        pass

    def switch_at(self, pos: QPointF, exclude: str | None = None) -> SwitchItem | None:
        for item in self.scene.items(pos):
            if isinstance(item, SwitchItem) and item.model_id != exclude:
                return item
        return None


@dataclass(frozen=True)
class Drop:
    """What a drop on the target under the cursor would do: ``allowed`` (else nothing happens), the
    worst finding the checks would report for it (``severity``), and the status line."""

    allowed: bool
    severity: str | None
    message: str
    finding: str = ""            # "RD043: ..." of the worst finding the cable would have


def refuse(message: str) -> Drop:
    return Drop(False, None, message)


def judge(fabric, a: str, b: str, gone=None) -> Drop:
    """A cable a-b judged by the checks' own rules before it is drawn (`checks.verdict`)."""
    verdict = cable_verdict(fabric, a, b, gone)
    if verdict.ok:
        return Drop(True, None, verdict.message)
    return Drop(True, verdict.severity.value, verdict.message, f"{verdict.code}: {verdict.finding}")


def reported(drop: Drop | None) -> str:
    """What a status line adds after a drop the checks judged: the finding it now has."""
    if drop is None or not drop.finding:
        return ""
    return f"; the checks report {drop.finding}"


class PreviewLine:
    """A dashed rubber line from a start point to the cursor, green over a valid target."""

    def __init__(self, scene, start: QPointF):
        self.scene = scene
        self.start = start
        self.item = QGraphicsLineItem(start.x(), start.y(), start.x(), start.y())
        self.item.setZValue(10)
        self.set_ok(None)
        scene.addItem(self.item)

    def set_end(self, pos: QPointF) -> None:
        self.item.setLine(self.start.x(), self.start.y(), pos.x(), pos.y())

    def set_ok(self, ok: bool | None) -> None:
        """Grey: no target under the cursor; green: a good drop; red: refused."""
        self._pen(QColor("#757575") if ok is None else OK if ok else BAD)

    def show(self, drop: "Drop") -> None:
        """Green: the checks have nothing against the drop; amber: a warning; red: an error (the drop
        still draws it, and the checks then report it) or a drop that cannot be done."""
        severity = drop.severity if drop.allowed else "error"
        self._pen(OK if severity is None else WARN if severity == "warning" else BAD)

    def _pen(self, colour: QColor) -> None:
        pen = QPen(colour, 2, Qt.DashLine)
        pen.setCosmetic(True)
        self.item.setPen(pen)

    def remove(self) -> None:
        if self.item.scene() is not None:
            self.scene.removeItem(self.item)
