"""The designer window: canvas in the middle, docks around, menus; wires the parts together."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox

from ..model.fabric import Fabric
from .check_runner import CheckRunner
from .commands import DisconnectCommand, MacroCommand, RemoveDeviceCommand, ReplanCommand
from .dialogs import ExportDialog, NewFromPresetDialog
from .docks import AsBuiltDock, FindingsDock, HistoryDock, InspectorDock, PaletteDock, PreviewDock
from .document import Document
from .interactions import InteractionController
from .recovery import Recovery
from .render import write_scene
from .scene import FabricScene
from .view import FabricView

FILE_FILTER = "Fabric designs (*.fabric.yaml *.yaml);;All files (*)"
STATUS_MS = 8000


class MainWindow(QMainWindow):
    def __init__(self, fabric: Fabric, path: Path | None = None, recovery_path: Path | None = None):
        super().__init__()
        self.document = Document(fabric, path, self)
        self.scene = FabricScene(fabric, self)
        self.view = FabricView(self.scene)
        self.view.controller = InteractionController(self.scene, self.document, self.status)
        self.setCentralWidget(self.view)
        self.checks = CheckRunner(self.document, self)
        self.recovery = Recovery(self.document, recovery_path, self)
        self._make_docks()
        self._make_menus()
        self._connect()
        self.palette.set_catalog(fabric.catalog)
        self.update_title()
        self.resize(1400, 900)
        self.checks.schedule()
        self.recovery.start()

    # ------------------------------------------------------------------ construction
    def _make_docks(self) -> None:
        self.palette = PaletteDock(self)
        self.inspector = InspectorDock(self.document, self)
        self.findings = FindingsDock(self)
        self.preview = PreviewDock(self)
        self.history = HistoryDock(self.document.undo_stack, self)
        self.as_built = AsBuiltDock(self)
        self.addDockWidget(Qt.LeftDockWidgetArea, self.palette)
        self.addDockWidget(Qt.LeftDockWidgetArea, self.history)
        self.addDockWidget(Qt.RightDockWidgetArea, self.inspector)
        self.addDockWidget(Qt.RightDockWidgetArea, self.preview)
        self.addDockWidget(Qt.BottomDockWidgetArea, self.findings)
        self.tabifyDockWidget(self.findings, self.as_built)
        self.findings.raise_()
        self.resizeDocks([self.findings], [160], Qt.Vertical)
        self.resizeDocks([self.palette, self.inspector], [230, 320], Qt.Horizontal)

    def _action(self, menu, text, slot, shortcut=None) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _make_menus(self) -> None:
        bar = self.menuBar()
        f = bar.addMenu("&File")
        self._action(f, "&New from preset…", self.new_from_preset, QKeySequence.New)
        self._action(f, "&Open…", self.open_dialog, QKeySequence.Open)
        self._action(f, "&Save", self.save, QKeySequence.Save)
        self._action(f, "Save &As…", self.save_as, QKeySequence("Ctrl+Shift+S"))
        f.addSeparator()
        self._action(f, "&Export bundle…", self.export_bundle, QKeySequence("Ctrl+E"))
        self._action(f, "Export &diagram (SVG/PNG)…", self.export_diagram)
        f.addSeparator()
        self._action(f, "&Quit", self.close, QKeySequence.Quit)
        e = bar.addMenu("&Edit")
        undo = self.document.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence("Ctrl+Z"))
        redo = self.document.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        e.addAction(undo)
        e.addAction(redo)
        e.addSeparator()
        self._action(e, "&Delete selection", self.delete_selection, QKeySequence.Delete)
        self._action(e, "Select &all", lambda: [i.setSelected(True) for i in self.scene.items()],
                     QKeySequence.SelectAll)
        v = bar.addMenu("&View")
        self._action(v, "&Fit to window", self.view.fit, QKeySequence("Ctrl+0"))
        self._action(v, "Zoom &in", lambda: self.view.zoom(1.25), QKeySequence.ZoomIn)
        self._action(v, "Zoom &out", lambda: self.view.zoom(0.8), QKeySequence.ZoomOut)
        v.addSeparator()
        for dock in (self.palette, self.inspector, self.findings, self.preview, self.history, self.as_built):
            v.addAction(dock.toggleViewAction())
        t = bar.addMenu("&Tools")
        self._action(t, "Assign &rails and addresses", self.replan)
        self._action(t, "Run &checks now", self.checks.run_now, QKeySequence("F5"))
        self._action(t, "&Verify cabling against LLDP…", self.verify_lldp)

    def _connect(self) -> None:
        d = self.document
        d.state_changed.connect(self.update_title)
        d.fabric_replaced.connect(self._fabric_replaced)
        d.model_changed.connect(self._model_changed)
        self.scene.selectionChanged.connect(self._selection_changed)
        self.checks.updated.connect(self._findings_updated)
        self.findings.activated.connect(self.view.centre_on_ids)
        self.as_built.activated.connect(self.view.centre_on_ids)
        self.as_built.cleared.connect(lambda: self.scene.mark_as_built({}))

    # ------------------------------------------------------------------ reactions
    def status(self, message: str) -> None:
        self.statusBar().showMessage(message, STATUS_MS)

    def update_title(self) -> None:
        self.setWindowTitle(self.document.title())

    def _model_changed(self, _event) -> None:
        self.inspector.schedule_refresh()
        self.preview.schedule()

    def _fabric_replaced(self, fabric: Fabric) -> None:
        self.as_built.clear()
        self.scene.set_fabric(fabric)
        self.palette.set_catalog(fabric.catalog)
        self.inspector.show_ids([])
        self.preview.show_device(fabric, None)
        self.view.fit()

    def _selection_changed(self) -> None:
        ids = self.scene.selected_ids()
        self.inspector.show_ids(ids)
        fabric = self.document.fabric
        devices = sorted({i.split("/")[0] for i in ids if fabric.has_device(i.split("/")[0]) and "~" not in i})
        self.preview.show_device(fabric, devices[0] if len(devices) == 1 else None)

    def _findings_updated(self, findings: list) -> None:
        self.findings.show_findings(findings, self.checks.problem)
        self.scene.mark_errors(self.checks.error_ids())

    # ------------------------------------------------------------------ edits
    def delete_selection(self) -> None:
        f = self.document.fabric
        ids = self.scene.selected_ids()
        devices = [i for i in ids if f.has_device(i)]
        links = [i for i in ids if i in f.links and not any(i.startswith(d + "/") or f"~{d}/" in i
                                                                 for d in devices)]
        parts = [DisconnectCommand(f, l) for l in links] + [RemoveDeviceCommand(f, d) for d in devices]
        if not parts:
            self.status("select devices or cables to delete (NICs go with their server)")
            return
        error = self.document.execute(MacroCommand(f, f"Delete {len(parts)} objects", parts))
        self.status(f"nothing deleted: {error}" if error else f"deleted {len(parts)} objects")

    def verify_lldp(self, folder: str | None = None) -> None:
        """Compare a folder of LLDP dumps (one per device) with the design; list and mark mismatches."""
        if folder is None:
            folder = QFileDialog.getExistingDirectory(self, "Folder of LLDP dumps (one file per device)")
            if not folder:
                return
        from ..importers.lldp import read_lldp_dir
        from ..importers.verify import verify
        try:
            result = verify(self.document.fabric, read_lldp_dir(Path(folder)))
        except ValueError as exc:
            QMessageBox.warning(self, "Verify cabling", str(exc))
            return
        self.as_built.show_result(folder, result)
        self.as_built.show()
        self.as_built.raise_()
        marked = self.scene.mark_as_built(result.link_status())
        self.status(f"as-built check: {len(result.mismatches)} mismatch(es), {marked} cable(s) marked"
                    if marked or result.mismatches else "as-built check: cabled as planned")

    def replan(self) -> None:
        error = self.document.execute(ReplanCommand(self.document.fabric))
        self.status(f"re-planning refused: {error}" if error else "rails and addresses re-assigned")

    # ------------------------------------------------------------------ files
    def maybe_save(self) -> bool:
        """True when it is fine to drop the current design (saved, discarded, or nothing to save)."""
        if not self.document.dirty:
            return True
        answer = QMessageBox.question(
            self, "Unsaved changes", f"{self.document.display_name()} has unsaved changes. Save them first?",
            QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)
        if answer == QMessageBox.Save:
            return self.save()
        return answer == QMessageBox.Discard

    def new_from_preset(self) -> None:
        if not self.maybe_save():
            return
        dialog = NewFromPresetDialog(self.document.fabric.catalog, self)
        if dialog.exec():
            from ..planning.build import build
            try:
                fabric = build(dialog.spec(), self.document.fabric.catalog)
            except ValueError as exc:
                QMessageBox.critical(self, "Cannot build this design", str(exc))
                return
            self.document.replace(fabric, None)
            self.recovery.discard()

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open design", "", FILE_FILTER)
        if path:
            self.open_file(Path(path), ask=False)

    def open_file(self, path: Path, ask: bool = True) -> bool:
        """Open ``path``; a file that cannot be read is reported and the current design stays."""
        if ask and not self.maybe_save():
            return False
        from ..storage import FileFormatError
        try:
            self.document.open(Path(path))
        except FileFormatError as exc:
            QMessageBox.critical(self, "Cannot open the design", str(exc))
            return False
        except OSError as exc:
            QMessageBox.critical(self, "Cannot open the design", f"{path}: {exc.strerror or exc}")
            return False
        self.status(f"opened {path}")
        return True

    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, "Save design as", self.document.display_name(), FILE_FILTER)
        if not path:
            return False
        if not path.endswith((".yaml", ".yml")):
            path += ".fabric.yaml"
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            self.document.save(path)
        except (OSError, ValueError) as exc:
            QMessageBox.critical(self, "Cannot save the design", f"{path}: {exc}")
            return False
        self.recovery.discard()
        self.status(f"saved {path}")
        return True

    def export_bundle(self) -> None:
        ExportDialog(self.document.fabric, parent=self).exec()

    def export_diagram(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export diagram", f"{self.document.fabric.settings.name}.svg",
                                              "SVG (*.svg);;PNG (*.png)")
        if path:
            try:
                write_scene(self.scene, Path(path))
            except (OSError, ValueError) as exc:
                QMessageBox.critical(self, "Cannot export the diagram", str(exc))
                return
            self.status(f"diagram written to {path}")

    # ------------------------------------------------------------------ session
    def offer_restore(self) -> bool:
        """At start: a recovery file left by a crash is offered back; True when restored."""
        if not self.recovery.pending():
            return False
        answer = QMessageBox.question(
            self, "Restore unsaved work?",
            f"The designer did not close cleanly. Restore the unsaved design from {self.recovery.path}?",
            QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)
        if answer != QMessageBox.Yes:
            self.recovery.discard()
            return False
        try:
            fabric = self.recovery.load()
        except Exception as exc:
            QMessageBox.critical(self, "Cannot restore", str(exc))
            self.recovery.discard()
            return False
        self.document.replace(fabric, None, restored=True)
        self.status("restored the unsaved design; save it to keep it")
        return True

    def closeEvent(self, event) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self.recovery.discard()
        self.scene.detach()
        event.accept()
