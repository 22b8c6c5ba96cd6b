"""Dialogs: new design from a preset, export bundle."""

from .export_bundle import ExportDialog
from .new_preset import NewFromPresetDialog

__all__ = ["ExportDialog", "NewFromPresetDialog"]
