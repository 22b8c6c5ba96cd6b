"""Dock widgets around the canvas."""

from .asbuilt import AsBuiltDock
from .findings import FindingsDock
from .history import HistoryDock
from .inspector import InspectorDock
from .palette import PaletteDock
from .preview import PreviewDock

__all__ = ["AsBuiltDock", "FindingsDock", "HistoryDock", "InspectorDock", "PaletteDock", "PreviewDock"]
