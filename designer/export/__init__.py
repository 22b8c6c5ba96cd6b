"""Fabric -> per-device data -> templates -> the bundle on disk. No Qt."""

from .bundle import ExportCancelled, ExportRefused, ExportResult, export, preview
from .errors import ExportError

__all__ = ["ExportCancelled", "ExportError", "ExportRefused", "ExportResult", "export", "preview"]
