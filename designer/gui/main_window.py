"""The designer window: canvas in the middle, docks around, menus and a toolbar; wires the parts
together. The work of the menus lives in `files` (File), `editing` (Edit, Design) and here (View,
the canvas's reactions)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QFileDialog, QLabel, QMainWindow, QMessageBox

from ..model.fabric import Fabric
from ..model.gcpause import thaw
from . import menus
from .check_runner import CheckRunner
from .comparing import ComparisonActions
from .context_menu import context_menu
from .docks import (AnalysisDock, AsBuiltDock, FindingsDock, FloorDock, HistoryDock, InspectorDock, PaletteDock,
                    PreviewDock)
from .document import Document
from .editing import EditActions
from .files import FileActions
from .interactions import InteractionController
from .marks import CanvasMarks
from .navigation import FindBar, ViewActions
from .overlays import LegendWidget, MinimapWidget
from .recovery import Recovery
from .scene import FabricScene
from .status_bar import StatusBar
from .tooltips import tooltip
from .view import FabricView

STATUS_MS = 8000
READY = "Ready. Drag NICs, leaves or cable ends; right-click for more; F1 lists every gesture and shortcut"


class MainWindow(QMainWindow):
    def __init__(self, fabric: Fabric, path: Path | None = None, recovery_dir: Path | None = None,
                 settings: QSettings | None = None):
        super().__init__()
        self.actions_by_name: dict = {}
        self.document = Document(fabric, path, self)
        self.scene = FabricScene(None, self)
        self.marks = CanvasMarks(self.scene)
        self.scene.tooltip_for = lambda model_id: tooltip(self.document.fabric, model_id, self.checks.findings)
        self.scene.set_fabric(fabric)
        self.view = FabricView(self.scene)
        self.view.controller = InteractionController(self.scene, self.document, self.status)
        self.legend = LegendWidget(self.view)
        self.minimap = MinimapWidget(self.view, self.scene)
        self.view.overlays = [self.legend, self.minimap]
        self.setCentralWidget(self.view)
        self.checks = CheckRunner(self.document, self)
        self.recovery = Recovery(self.document, recovery_dir, self)
        self.files = FileActions(self, settings)
        self.edit = EditActions(self)
        self.nav = ViewActions(self)
        self.comparing = ComparisonActions(self)
        self.find_bar = FindBar()
        self._make_docks()
        menus.build(self)
        self._make_status_bar()
        self._connect()
        self._fabric_shown(fabric)
        self._fill_recent(self.files.recent())
        self.update_title()
        self.resize(1500, 940)
        self.checks.schedule()
        self.recovery.start()

    # ------------------------------------------------------------------ construction
    def docks(self) -> list:
        return [self.palette, self.inspector, self.preview, self.findings, self.analysis, self.as_built, self.history,
                self.floor]

    def _make_docks(self) -> None:
        self.palette = PaletteDock(self)
        self.inspector = InspectorDock(self.document, self)
        self.findings = FindingsDock(self)
        self.preview = PreviewDock(self)
        self.history = HistoryDock(self.document.undo_stack, self)
        self.as_built = AsBuiltDock(self)
        self.analysis = AnalysisDock(self.document, self)
        self.floor = FloorDock(self.document, self)          # drawn when first shown (View > Floor view)
        self._floor_sync = False
        self.addDockWidget(Qt.LeftDockWidgetArea, self.palette)
        self.addDockWidget(Qt.LeftDockWidgetArea, self.history)
        self.addDockWidget(Qt.RightDockWidgetArea, self.inspector)
        self.addDockWidget(Qt.RightDockWidgetArea, self.preview)
        self.addDockWidget(Qt.BottomDockWidgetArea, self.findings)
        self.tabifyDockWidget(self.findings, self.analysis)
        self.tabifyDockWidget(self.findings, self.as_built)
        self.addDockWidget(Qt.BottomDockWidgetArea, self.floor)
        self.floor.hide()
        self.findings.raise_()
        self._docks_sized = False

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._docks_sized:            # dock sizes only take once the window has its size
            self._docks_sized = True
            QTimer.singleShot(0, self._size_docks)

    def _size_docks(self) -> None:
        """The canvas gets most of the window; the findings a strip under it."""
        self.resizeDocks([self.findings], [150], Qt.Vertical)
        self.resizeDocks([self.palette, self.inspector], [180, 400], Qt.Horizontal)
        self.resizeDocks([self.palette, self.history], [420, 200], Qt.Vertical)
        self.resizeDocks([self.inspector, self.preview], [300, 400], Qt.Vertical)

    def _make_status_bar(self) -> None:
        bar = StatusBar(self)
        self.setStatusBar(bar)
        self.counts_label = QLabel()
        self.zoom_label = QLabel()
        bar.addPermanentWidget(self.counts_label)
        bar.addPermanentWidget(self.zoom_label)
        bar.showMessage(READY)

    def _connect(self) -> None:
        d = self.document
        d.state_changed.connect(self.update_title)
        d.fabric_replaced.connect(self._fabric_replaced)
        d.model_changed.connect(self._model_changed)
        d.notice.connect(lambda text: QTimer.singleShot(0, lambda: self.status(f"done, but {text}")))
        self.scene.selectionChanged.connect(self._selection_changed)
        self.scene.reconciled.connect(self._update_counts)
        self.checks.updated.connect(self._findings_updated)
        self.findings.activated.connect(self.view.centre_on_ids)
        self.inspector.refused.connect(self.status)
        self.floor.message.connect(self.status)
        self.floor.selected.connect(self._floor_selected)
        self.as_built.activated.connect(self.view.centre_on_ids)
        self.as_built.cleared.connect(lambda: self.marks.show_as_built({}))
        self.analysis.path_traced.connect(self.nav.path_traced)
        self.analysis.loads_ready.connect(self.nav.loads_ready)
        self.analysis.cleared.connect(self.nav.clear_highlight)
        self.legend.rail_clicked.connect(self.nav.highlight_rail)
        self.legend.plane_clicked.connect(self.nav.highlight_plane)
        self.find_bar.found.connect(self.nav.found)
        self.view.context_requested.connect(self._context_menu)
        self.view.mode_changed.connect(lambda mode: self.mode_actions[mode].setChecked(True))
        self.view.zoomed.connect(lambda scale: self.zoom_label.setText(f"zoom {scale * 100:.0f}%"))
        self.files.recent_changed.connect(self._fill_recent)

    # ------------------------------------------------------------------ reactions
    def status(self, message: str) -> None:
        self.statusBar().showMessage(message, STATUS_MS)

    def update_title(self) -> None:
        self.setWindowTitle(self.document.title())

    def _model_changed(self, _event) -> None:
        self.inspector.schedule_refresh()
        self.preview.schedule()
        self._names_timer().start()

    def _names_timer(self) -> QTimer:
        if not hasattr(self, "_names"):
            self._names = QTimer(self)
            self._names.setSingleShot(True)
            self._names.setInterval(500)
            self._names.timeout.connect(self._refresh_names)
        return self._names

    def _refresh_names(self) -> None:
        fabric = self.document.fabric
        self.find_bar.refresh_names()
        self.analysis.set_hosts(sorted(fabric.servers))
        self.legend.set_rails([(r.index, r.name) for r in sorted(fabric.rails.values(), key=lambda r: r.index)])
        self.legend.set_planes(fabric.settings.fabric_planes)

    def _fabric_replaced(self, fabric: Fabric) -> None:
        self.as_built.clear()
        self.marks.reset()
        self.scene.set_fabric(fabric)
        self._fabric_shown(fabric)
        self.inspector.show_ids([])
        self.preview.show_device(fabric, None)
        self.view.fit()

    def _fabric_shown(self, fabric: Fabric) -> None:
        menus.show_for_kind(self, fabric.settings.infiniband)
        self.palette.set_catalog(fabric.catalog)
        self.find_bar.set_fabric(fabric)
        self._refresh_names()
        self._update_counts()

    def _update_counts(self) -> None:
        f = self.document.fabric
        self.counts_label.setText(f"{len(f.servers):,} servers · {len(f.switches):,} switches · "
                                  f"{len(f.links):,} cables")

    def _selection_changed(self) -> None:
        ids = self.scene.selected_ids()
        self.inspector.show_ids(ids)
        fabric = self.document.fabric
        devices = sorted({i.split("/")[0] for i in ids if fabric.has_device(i.split("/")[0]) and "~" not in i})
        self.preview.show_device(fabric, devices[0] if len(devices) == 1 else None)
        if not self._floor_sync:
            self.floor.show_selection(ids)

    def _floor_selected(self, ids: list[str]) -> None:
        """Devices chosen in the floor view: the same on the canvas (which does not echo back)."""
        self._floor_sync = True
        try:
            self.scene.select_ids(ids)
        finally:
            self._floor_sync = False        # the canvas's selectionChanged updated the inspector meanwhile

    def _findings_updated(self, findings: list) -> None:
        self.findings.show_findings(findings, self.checks.problem)
        self.marks.show_findings(findings)
        counts = self.findings.counts()
        self.findings.setWindowTitle(f"Findings ({counts['error']} errors, {counts['warning']} warnings)")

    def _context_menu(self, model_id, scene_pos, global_pos) -> None:
        menu = context_menu(self, model_id, scene_pos)
        if menu is not None:
            menu.exec(global_pos)

    def _fill_recent(self, files: list[str]) -> None:
        menu = self.recent_menu
        menu.clear()
        for path in files:
            menu.addAction(path, lambda p=path: self.files.open_recent(p))
        if files:
            menu.addSeparator()
            menu.addAction("Clear the list", self.files.clear_recent)
        menu.setEnabled(bool(files))

    # ------------------------------------------------------------------ view commands
    def select_all(self) -> None:
        """Edit > Select all: every shown device and cable, as one selection change (Qt announces each
        item's, and every announcement re-listed the whole selection: minutes at 1,024 servers)."""
        scene = self.scene
        blocked = scene.blockSignals(True)
        try:
            for item in (*scene.devices.values(), *scene.links.values()):
                if item.isVisible():
                    item.setSelected(True)
        finally:
            scene.blockSignals(blocked)
        scene.selectionChanged.emit()

    def paste_here(self) -> bool:
        """Edit > Paste: into the SU under the mouse when it is over the canvas, else where copied."""
        pos = self.view.viewport().mapFromGlobal(QCursor.pos())
        su = self.scene.su_at(self.view.mapToScene(pos)) if self.view.viewport().rect().contains(pos) else None
        return self.edit.paste(su=su)

    def show_floor(self) -> None:
        """View > Floor view: show the floor dock (drawn the first time) in front of its tab group."""
        first = not self.floor.built
        self.floor.show()
        self.floor.raise_()
        if not self.floor.built:
            self.floor.build()
        if first:                            # beside the findings, with most of the width and a third of the height
            self.resizeDocks([self.floor], [max(320, self.height() // 3)], Qt.Vertical)
            self.resizeDocks([self.findings, self.floor], [self.width() // 3, 2 * self.width() // 3], Qt.Horizontal)
        self.floor.show_selection(self.scene.selected_ids())

    def show_shortcuts(self):
        from .dialogs import ShortcutsDialog
        dialog = ShortcutsDialog(self.menus, self)
        dialog.exec()
        return dialog

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
        marked = self.marks.show_as_built(result.link_status())
        self.status(f"as-built check: {len(result.mismatches)} mismatch(es), {marked} cable(s) marked"
                    if marked or result.mismatches else "as-built check: cabled as planned")

    # ------------------------------------------------------------------ session
    def closeEvent(self, event) -> None:
        if not self.files.maybe_save():
            event.ignore()
            return
        self.analysis.cancel()
        self.recovery.close()
        self.checks.stop()           # no pass of the checks outlives the window (its slices are posted)
        self.scene.detach()
        thaw()                       # the design goes with the window: collectable again
        event.accept()
