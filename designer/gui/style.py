"""Colours and pens shared by the canvas items, the legend and the docks."""

from __future__ import annotations

from PySide6.QtGui import QColor

# Distinct, print-safe rail colours (rail k -> RAIL_COLOURS[k % len]).
_RAIL_HEX = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
             "#393b79", "#ad494a", "#637939", "#7b4173"]
RAIL_COLOURS = [QColor(h) for h in _RAIL_HEX]
NO_RAIL = QColor("#9e9e9e")
ERROR = QColor("#d62728")
AS_BUILT = QColor("#6a1b9a")          # a cable the LLDP as-built check found not as planned (dashed)
SPINE = QColor("#455a64")
SERVER_FILL = QColor("#eceff1")
SERVER_EDGE = QColor("#607d8b")
SELECTED = QColor("#000000")
TEXT = QColor("#212121")
LABEL_ON_FILL = QColor("#ffffff")
LANE_ALPHA = 28


def rail_colour(rail: int | None) -> QColor:
    if rail is None:
        return NO_RAIL
    return RAIL_COLOURS[rail % len(RAIL_COLOURS)]


def lane_colour(rail: int) -> QColor:
    c = QColor(rail_colour(rail))
    c.setAlpha(LANE_ALPHA)
    return c
