"""Dock widgets around the canvas."""

from .findings import FindingsDock
from .history import HistoryDock
from .inspector import InspectorDock
from .palette import PaletteDock
from .preview import PreviewDock

__all__ = ["FindingsDock", "HistoryDock", "InspectorDock", "PaletteDock", "PreviewDock"]
