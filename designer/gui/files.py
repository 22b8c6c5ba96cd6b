"""The File menu's work: new (empty or from a template), open, recent files, save, save as, the
crash-recovery offer, and the two exports. Every refusal is one dialog with one readable line."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QFileDialog, QMessageBox

from ..model.entities import DesignSettings
from ..model.fabric import Fabric

FILE_FILTER = "Fabric designs (*.fabric.yaml *.yaml);;All files (*)"
DESIGN_SUFFIX = ".fabric.yaml"
RECENT_KEY = "recent_files"
MAX_RECENT = 8
NEW_NAME = "untitled"


def design_stem(path: Path) -> str:
    """``a/b.fabric.yaml`` -> ``b``: the name a design file gives its bundle folder and diagram."""
    name = Path(path).name
    for suffix in (DESIGN_SUFFIX, ".yaml", ".yml"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def with_design_suffix(text: str) -> Path:
    """What a typed Save As name means: ``x`` is ``x.fabric.yaml``; a name ending .yaml/.yml is kept."""
    return Path(text if text.endswith((".yaml", ".yml")) else text + DESIGN_SUFFIX)


def empty_fabric() -> Fabric:
    from ..storage.catalog_file import builtin_catalog
    return Fabric(builtin_catalog(), DesignSettings(name=NEW_NAME))


class FileActions(QObject):
    recent_changed = Signal(list)      # the recent design files, newest first

    def __init__(self, window, settings: QSettings | None = None):
        super().__init__(window)
        self.window = window
        self.document = window.document
        self.settings = settings or QSettings()

    def status(self, text: str) -> None:
        self.window.status(text)

    # ------------------------------------------------------------------ new
    def maybe_save(self) -> bool:
        """True when it is fine to drop the current design (saved, discarded, or nothing to save)."""
        if not self.document.dirty:
            return True
        answer = QMessageBox.question(
            self.window, "Unsaved changes", f"{self.document.display_name()} has unsaved changes. Save them first?",
            QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)
        if answer == QMessageBox.Save:
            return self.save()
        return answer == QMessageBox.Discard

    def new_empty(self) -> bool:
        """File > New: an empty design with no file and no name of its own yet."""
        if not self.maybe_save():
            return False
        self.document.replace(empty_fabric(), None)
        self.window.recovery.discard()
        self.status("new empty design: drag servers, leaves and spines from the palette, or use File > New from template")
        return True

    def new_from_preset(self) -> bool:
        from .dialogs import NewFromPresetDialog
        if not self.maybe_save():
            return False
        dialog = NewFromPresetDialog(self.document.fabric.catalog, self.window)
        if not dialog.exec():
            return False
        from ..planning.build import build
        try:
            fabric = build(dialog.spec(), self.document.fabric.catalog)
        except ValueError as exc:
            QMessageBox.critical(self.window, "Cannot build this design", str(exc))
            return False
        self.document.replace(fabric, None)
        self.window.recovery.discard()
        self.status(f"new design {fabric.settings.name}: {len(fabric.servers)} servers, {len(fabric.links)} cables")
        return True

    # ------------------------------------------------------------------ open
    def open_dialog(self) -> bool:
        if not self.maybe_save():
            return False
        start = str(self.document.path.parent) if self.document.path else ""
        path, _ = QFileDialog.getOpenFileName(self.window, "Open design", start, FILE_FILTER)
        return bool(path) and self.open_file(Path(path), ask=False)

    def open_file(self, path: Path, ask: bool = True) -> bool:
        """Open ``path``; a file that cannot be read is reported and the current design stays."""
        if ask and not self.maybe_save():
            return False
        from ..storage import FileFormatError
        try:
            self.document.open(Path(path))
        except FileFormatError as exc:
            QMessageBox.critical(self.window, "Cannot open the design", str(exc))
            return False
        except OSError as exc:
            QMessageBox.critical(self.window, "Cannot open the design", f"{path}: {exc.strerror or exc}")
            return False
        self.remember(Path(path))
        self.status(f"opened {path}")
        return True

    # ------------------------------------------------------------------ recent files
    def recent(self) -> list[str]:
        value = self.settings.value(RECENT_KEY, [])
        if isinstance(value, str):            # QSettings gives one entry back as a plain string
            value = [value]
        return [str(v) for v in value or []]

    def remember(self, path: Path) -> None:
        text = str(Path(path).resolve())
        files = [text] + [p for p in self.recent() if p != text]
        self.settings.setValue(RECENT_KEY, files[:MAX_RECENT])
        self.recent_changed.emit(self.recent())

    def open_recent(self, path: str) -> bool:
        if not Path(path).is_file():
            files = [p for p in self.recent() if p != path]
            self.settings.setValue(RECENT_KEY, files)
            self.recent_changed.emit(files)
            QMessageBox.warning(self.window, "Open recent", f"{path} no longer exists; it was taken off the list")
            return False
        return self.open_file(Path(path))

    def clear_recent(self) -> None:
        self.settings.setValue(RECENT_KEY, [])
        self.recent_changed.emit([])

    # ------------------------------------------------------------------ save
    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self.save_to(self.document.path)

    def suggested_path(self) -> Path:
        doc = self.document
        if doc.path:
            return doc.path
        return Path.cwd() / f"{doc.fabric.settings.name or NEW_NAME}{DESIGN_SUFFIX}"

    def save_as(self) -> bool:
        text, _ = QFileDialog.getSaveFileName(self.window, "Save design as", str(self.suggested_path()), FILE_FILTER)
        if not text:
            return False
        path = with_design_suffix(text)
        # The file dialog asked about overwriting the name as typed; a suffix added here is a new name.
        if str(path) != text and path.exists() and QMessageBox.question(
                self.window, "Replace the file?", f"{path} already exists. Replace it with this design?",
                QMessageBox.Yes | QMessageBox.No, QMessageBox.No) != QMessageBox.Yes:
            self.status(f"not saved: {path} exists")
            return False
        return self.save_to(path)

    def save_to(self, path: Path) -> bool:
        from ..storage import SaveRefused
        try:
            try:
                self.document.save(path)
            except SaveRefused as refused:      # what the command line's --force is for: ask instead
                if QMessageBox.question(
                        self.window, "Replace the file?", f"{path} {refused.reason}. Replace it with this design "
                        "anyway? (The new file keeps its mode.)", QMessageBox.Yes | QMessageBox.No,
                        QMessageBox.No) != QMessageBox.Yes:
                    self.status(f"not saved: {path} {refused.reason}")
                    return False
                self.document.save(path, force=True)
        except (OSError, ValueError) as exc:
            QMessageBox.critical(self.window, "Cannot save the design", f"{path}: {exc}")
            return False
        self.window.recovery.discard()
        self.remember(path)
        self.status(f"saved {path}")
        return True

    # ------------------------------------------------------------------ export
    def output_stem(self) -> str:
        doc = self.document
        return design_stem(doc.path) if doc.path else (doc.fabric.settings.name or NEW_NAME)

    def output_folder(self) -> Path:
        doc = self.document
        return (doc.path.parent if doc.path else Path.cwd()).resolve()

    def export_bundle(self) -> None:
        from .dialogs import ExportDialog
        folder = self.output_folder() / f"{self.output_stem()}-bundle"
        ExportDialog(self.document.fabric, folder, parent=self.window).exec()

    def export_diagram(self, path: str | None = None) -> bool:
        from .render import write_diagram
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self.window, "Export diagram",
                                                  str(self.output_folder() / f"{self.output_stem()}.svg"),
                                                  "SVG (*.svg);;PNG (*.png)")
            if not path:
                return False
        try:
            write_diagram(self.window.scene, Path(path), self.document.path)
        except (OSError, ValueError) as exc:
            QMessageBox.critical(self.window, "Cannot export the diagram", str(exc))
            return False
        self.status(f"diagram written to {path}")
        return True

    # ------------------------------------------------------------------ crash recovery
    def offer_restore(self) -> bool:
        """At start: what a window that crashed left is offered back, newest first; True when one
        was restored. A window that is still running keeps its work to itself (its lock is held)."""
        recovery = self.window.recovery
        orphans = recovery.orphans()
        try:
            for orphan in orphans:
                answer = QMessageBox.question(
                    self.window, "Restore unsaved work?",
                    f"A designer window did not close cleanly. Restore its unsaved changes to "
                    f"{orphan.about.describe()}?", QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)
                if answer != QMessageBox.Yes:
                    orphan.discard()
                    continue
                return self._restore(orphan)
            return False
        finally:
            for orphan in orphans:
                orphan.release()              # the ones not asked about stay for a later start

    def _restore(self, orphan) -> bool:
        try:
            fabric = orphan.load()
        except Exception as exc:
            QMessageBox.critical(self.window, "Cannot restore", f"{orphan.path}: {exc}")
            orphan.discard()
            return False
        about = orphan.about
        self.document.replace(fabric, about.path, restored=True)
        self.window.recovery.save_now()       # this window's own copy first, then the crashed one's goes
        if self.window.recovery.last_error is None:
            orphan.discard()
        target = f"Save writes {about.path}" if about.path else "save it to keep it"
        self.status(f"restored the unsaved changes to {about.name}; {target}")
        return True
