"""Dialogs: new design from a template, add servers, export bundle, move a rack, gestures and shortcuts."""

from .add_servers import AddServersDialog
from .export_bundle import ExportDialog
from .help import ShortcutsDialog
from .move_rack import MoveRackDialog
from .new_preset import NewFromPresetDialog

__all__ = ["AddServersDialog", "ExportDialog", "MoveRackDialog", "NewFromPresetDialog", "ShortcutsDialog"]
