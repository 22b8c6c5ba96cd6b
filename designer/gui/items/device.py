"""Server and switch boxes. Zoomed out they draw as plain filled shapes (no labels, no ports).

Labels: the full name once it is readable (at least `FULL_LABEL_PX` on screen); before that a short
one (the name's last part: ``r3``, ``srv07``, ``01``) at a fixed on-screen size, while it fits."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QFont, QFontMetricsF, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from .. import style

LABEL_PX = 9          # the full label's size in scene units
FULL_LABEL_PX = 7.5   # ... drawn once it is at least this big on screen
SHORT_LABEL_PX = 10   # the short label's size on screen
SHORT_LOD = 0.12      # below this zoom, no text at all
OUTLINE_LOD = 0.2     # below this zoom, no outline either
DIM_OPACITY = 0.25
_FLAGS = QGraphicsItem.ItemIsSelectable | QGraphicsItem.ItemUsesExtendedStyleOption


def lod_of(painter, option) -> float:
    return QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())


def short_label(name: str) -> str:
    """The name without what the picture already says (its SU, its tier's word): ``su1-leaf-r3`` ->
    ``r3``, ``su1-srv07`` -> ``srv07``, ``p3-spine-01`` -> ``p3-01``, ``spine-01`` -> ``01``,
    ``sg2-spine-04`` -> ``sg2-04``, ``cg4-core-1`` -> ``cg4-1``, ``pl1-su1-leaf-r3`` -> ``pl1-r3``."""
    for word in ("spine-", "core-"):
        if word in name:
            head, _, number = name.rpartition(word)
            return f"{head}{number}" if head.endswith("-") else number
    plane, sep, rest = name.partition("-")
    if sep and plane.startswith("pl") and plane[2:].isdigit() and "-" in rest:
        return f"{plane}-{rest.rsplit('-', 1)[-1]}"
    return name.rsplit("-", 1)[-1] if "-" in name else name


class Marked:
    """What device and NIC items share: a finding's mark (redrawn) and dimming (by opacity)."""

    mark: str | None = None
    dimmed = False

    def set_mark(self, severity: str | None) -> bool:
        if severity == self.mark:
            return False
        self.mark = severity
        self.update()
        return True

    def set_dimmed(self, dimmed: bool) -> bool:
        if dimmed == self.dimmed:
            return False
        self.dimmed = dimmed
        self.setOpacity(DIM_OPACITY if dimmed else 1.0)
        return True


class DeviceItem(Marked, QGraphicsItem):
    kind = "device"

    def __init__(self, model_id: str, w: float, h: float):
        super().__init__()
        self.model_id = model_id
        self._rect = QRectF(0, 0, w, h)
        self._bounds = self._rect.adjusted(-2, -2, 2, 2)
        self.label = model_id
        self.fill = style.SERVER_FILL
        self.edge = style.SERVER_EDGE
        self.setFlags(_FLAGS)
        self.setZValue(1)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter, option, widget=None) -> None:
        lod = lod_of(painter, option)
        selected = self.isSelected()
        marked = style.MARK_COLOURS.get(self.mark)
        edge = style.SELECTED if selected else marked or self.edge
        if lod < OUTLINE_LOD:
            painter.fillRect(self._rect, edge if (selected or marked) else self.fill)
            self.paint_body(painter)
            return
        pen = QPen(edge, 3 if (selected or marked) else 1)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(QBrush(self.fill))
        painter.drawRect(self._rect)
        self.paint_body(painter)
        if lod >= SHORT_LOD:
            self.paint_label(painter, lod)

    def paint_body(self, painter) -> None:
        """Drawn over the fill, under the label (a switch's plane hatching)."""

    def paint_label(self, painter, lod: float) -> None:
        """The full name once it is readable and fits, else the short one (``pl0-sg1-spine-01`` is too
        long for its box at any size: ``pl0-sg1-01``)."""
        short = short_label(self.label)
        if LABEL_PX * lod >= FULL_LABEL_PX:
            choices = [(self.label, LABEL_PX), (short, LABEL_PX)]
        else:
            choices = [(short, SHORT_LABEL_PX / lod)]
        for text, px in choices:
            font = QFont(painter.font())
            font.setPixelSize(max(1, round(px)))
            if QFontMetricsF(font).horizontalAdvance(text) <= self._rect.width() - 2 and px <= self._rect.height():
                break
        else:
            return
        painter.setPen(self.text_colour())
        painter.setFont(font)
        painter.drawText(self._rect.adjusted(1, 0, -1, -1), self.label_flags(), text)

    def label_flags(self):
        return Qt.AlignHCenter | Qt.AlignVCenter

    def text_colour(self):
        return style.TEXT


class ServerItem(DeviceItem):
    kind = "server"

    def __init__(self, model_id: str, w: float, h: float, label: str):
        super().__init__(model_id, w, h)
        self.label = label

    def label_flags(self):
        return Qt.AlignHCenter | Qt.AlignBottom


class SwitchItem(DeviceItem):
    """A leaf (filled in its rail's colour), a spine or a core; hatched when on fabric plane 1 or above."""

    kind = "switch"
    FILLS = {"spine": style.SPINE, "core": style.CORE}

    def __init__(self, model_id: str, w: float, h: float, label: str, role: str, rail: int | None,
                 fabric_plane: int = 0):
        super().__init__(model_id, w, h)
        self.role = role
        self.setZValue(2)
        self.set_look(label, rail, fabric_plane)

    def set_look(self, label: str, rail: int | None, fabric_plane: int = 0) -> None:
        self.label = label
        self.rail = rail
        self.fabric_plane = fabric_plane
        self.fill = style.rail_colour(rail) if self.role == "leaf" else self.FILLS.get(self.role, style.SPINE)
        self.edge = self.fill.darker(150)
        self.update()

    def paint_body(self, painter) -> None:
        style.hatch(painter, self._rect, self.fabric_plane)

    def text_colour(self):
        return style.LABEL_ON_FILL
