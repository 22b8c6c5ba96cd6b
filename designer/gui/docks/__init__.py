"""Dock widgets around the canvas."""

from .analysis import AnalysisDock
from .asbuilt import AsBuiltDock
from .findings import FindingsDock
from .floor import FloorDock
from .history import HistoryDock
from .inspector import InspectorDock
from .palette import PaletteDock
from .preview import PreviewDock

__all__ = ["AnalysisDock", "AsBuiltDock", "FindingsDock", "FloorDock", "HistoryDock", "InspectorDock", "PaletteDock", "PreviewDock"]
