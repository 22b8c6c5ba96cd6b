"""Colours and pens shared by the canvas items, the legend, the docks and the diagram export."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor

# Distinct, print-safe rail colours (rail k -> RAIL_COLOURS[k % len]).
_RAIL_HEX = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
             "#393b79", "#ad494a", "#637939", "#7b4173"]
RAIL_COLOURS = [QColor(h) for h in _RAIL_HEX]
NO_RAIL = QColor("#9e9e9e")
ERROR = QColor("#d62728")
WARNING = QColor("#f9a825")
INFO = QColor("#1565c0")
AS_BUILT = QColor("#6a1b9a")          # a cable the LLDP as-built check found not as planned (dashed)
PATH = QColor("#111111")              # a traced path, hop by hop
SPINE = QColor("#455a64")
CORE = QColor("#283593")              # the third tier (super-spines)
UPPER_TIER = -1                       # the "rail" a spine-core cable is drawn in (no rail: the cores' colour)
UPPER_CABLE = QColor("#b3b9e0")
TRUNK_TEXT = QColor("#37474f")           # a trunk's count of cables, zoomed out
POD_PLATE = QColor("#edf1f4")         # a spine group's pod (its spines and SUs)
POD_EDGE = QColor("#b0bec5")
POD_TITLE = QColor("#37474f")
BAND_PLATES = {"cores": QColor("#dfe2f3"), "spines": QColor("#dde4e8")}
BAND_TEXT = QColor("#455a64")
SERVER_FILL = QColor("#eceff1")
SERVER_EDGE = QColor("#607d8b")
SELECTED = QColor("#000000")
TEXT = QColor("#212121")
SU_TITLE = QColor("#546e7a")
LABEL_ON_FILL = QColor("#ffffff")
LANE_ALPHA = 28
DIM_ALPHA = 40                        # what is not highlighted (another rail, off the traced path)
HAZE_SHARE = 0.16                     # plain leaf-spine cables zoomed out: this much rail colour on white
# Link load (collision analysis): share of capacity asked, bucket upper bounds and colours.
LOAD_BUCKETS = (0.5, 0.9, 1.0 + 1e-9, 2.0 + 1e-9, float("inf"))
LOAD_COLOURS = [QColor(h) for h in ("#66bb6a", "#c0ca33", "#fb8c00", "#e53935", "#8e0000")]
LOAD_NAMES = ("under 50%", "50-90%", "90-100%", "over capacity (up to 2x)", "over 2x capacity")
MARK_COLOURS = {"error": ERROR, "warning": WARNING, "info": INFO}


def rail_colour(rail: int | None) -> QColor:
    if rail is None:
        return NO_RAIL
    if rail == UPPER_TIER:
        return UPPER_CABLE
    return RAIL_COLOURS[rail % len(RAIL_COLOURS)]


def lane_colour(rail: int) -> QColor:
    c = QColor(rail_colour(rail))
    c.setAlpha(LANE_ALPHA)
    return c


def pale(colour: QColor, share: float) -> QColor:
    """``colour`` mixed onto white (opaque: thousands of lines draw much faster than with alpha)."""
    return QColor(*(round(255 - (255 - c) * share) for c in (colour.red(), colour.green(), colour.blue())))


def load_bucket(utilisation: float) -> int:
    for i, bound in enumerate(LOAD_BUCKETS):
        if utilisation < bound:
            return i
    return len(LOAD_BUCKETS) - 1


# Fabric planes: plane 0 is drawn plain, plane p > 0 with white hatching of its own pattern over the
# fill (switches, NICs, the legend), so two planes of one rail stay apart at a glance.
PLANE_HATCH = QColor(255, 255, 255, 150)


_PATTERNS = (Qt.BDiagPattern, Qt.FDiagPattern, Qt.DiagCrossPattern, Qt.HorPattern, Qt.VerPattern, Qt.CrossPattern)


def plane_pattern(plane: int):
    """The brush pattern that marks fabric plane ``plane`` (None for plane 0)."""
    return None if not plane else _PATTERNS[(plane - 1) % len(_PATTERNS)]


def hatch(painter, rect, plane: int) -> None:
    """Hatch ``rect`` in fabric plane ``plane``'s pattern (nothing for plane 0)."""
    pattern = plane_pattern(plane)
    if pattern is not None:
        painter.fillRect(rect, QBrush(PLANE_HATCH, pattern))
