"""Dialogs: new design from a template, add servers, export bundle, move a rack, push to / pull from a source of
truth, gestures and shortcuts."""

from .add_servers import AddServersDialog
from .export_bundle import ExportDialog
from .help import ShortcutsDialog
from .move_rack import MoveRackDialog
from .new_preset import NewFromPresetDialog
from .sot import SotPullDialog, SotPushDialog

__all__ = ["AddServersDialog", "ExportDialog", "MoveRackDialog", "NewFromPresetDialog", "ShortcutsDialog", "SotPullDialog",
           "SotPushDialog"]
