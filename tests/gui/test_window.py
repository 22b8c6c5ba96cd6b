"""The window's files, checks, inspector and export, driven through the real widgets."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from designer.gui.commands import MoveNicCommand
from designer.storage import dumps, save


def test_corrupt_file_shows_one_line_error_and_keeps_the_design(window, tmp_path, monkeypatch):
    bad = tmp_path / "broken.fabric.yaml"
    bad.write_text("format_version: 1\nservers: [unclosed\n")
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text, *a: shown.append(text))
    before = dumps(window.document.fabric)
    fabric = window.document.fabric
    assert window.files.open_file(bad) is False
    assert len(shown) == 1 and "broken.fabric.yaml" in shown[0] and "\n" not in shown[0].strip()
    assert "Traceback" not in shown[0]
    assert window.document.fabric is fabric and dumps(fabric) == before


def test_save_then_open_round_trips_and_title_shows_unsaved_marker(window, tmp_path):
    f = window.document.fabric
    assert not window.windowTitle().startswith("*")
    window.document.execute(MoveNicCommand(f, "su1-srv01/nic0", "su1-leaf-r1"))
    assert window.windowTitle().startswith("*")
    path = tmp_path / "design.fabric.yaml"
    assert window.files.save_to(path)
    assert not window.windowTitle().startswith("*") and "design.fabric.yaml" in window.windowTitle()
    text = dumps(f)
    assert window.files.open_file(path)
    assert window.document.fabric is not f and dumps(window.document.fabric) == text
    assert window.scene.fabric is window.document.fabric


def test_open_over_unsaved_changes_asks_and_cancel_keeps_them(window, tmp_path, monkeypatch):
    other = tmp_path / "other.fabric.yaml"
    save(window.document.fabric, other)
    window.document.execute(MoveNicCommand(window.document.fabric, "su1-srv01/nic0", "su1-leaf-r1"))
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a) or QMessageBox.Cancel)
    fabric = window.document.fabric
    assert window.files.open_file(other) is False
    assert asked and window.document.fabric is fabric and window.document.dirty


def test_recovery_file_restores_an_unsaved_edit(qtbot, window, tmp_path, default_fabric, monkeypatch):
    from designer.gui.main_window import MainWindow
    f = window.document.fabric
    window.document.execute(MoveNicCommand(f, "su1-srv01/nic0", "su1-leaf-r1"))
    edited = dumps(f)
    window.recovery.save_now()
    assert window.recovery.path.is_file()
    # a crash: the next start finds the recovery file and offers it
    from tests.gui.crash import crash
    crash(window)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    from designer.gui.app import default_fabric as fresh
    from PySide6.QtCore import QSettings
    second = MainWindow(fresh(), recovery_dir=window.recovery.folder,
                        settings=QSettings(str(tmp_path / "second.ini"), QSettings.IniFormat))
    qtbot.addWidget(second)
    assert second.files.offer_restore()
    assert dumps(second.document.fabric) == edited
    assert second.document.dirty and second.windowTitle().startswith("*")
    assert second.document.fabric.peer("su1-srv01/nic0").startswith("su1-leaf-r1/")


def test_saving_removes_the_recovery_file(window, tmp_path):
    window.document.execute(MoveNicCommand(window.document.fabric, "su1-srv01/nic0", "su1-leaf-r1"))
    window.recovery.save_now()
    assert window.recovery.pending()
    window.files.save_to(tmp_path / "kept.fabric.yaml")
    assert not window.recovery.pending()


def test_inspector_refuses_a_bad_hostname_in_place(window, qtbot):
    window.scene.select_ids(["su1-srv01"])
    edit = window.inspector.fields["hostname"]
    edit.setText("bad name")
    edit.editingFinished.emit()
    assert window.document.fabric.servers["su1-srv01"].hostname == "su1-srv01"
    assert "not a valid host name" in window.inspector.error.text()
    assert "c62828" in edit.styleSheet() and edit.text() == "bad name"
    edit.setText("gpu-a01")
    edit.editingFinished.emit()
    assert window.document.fabric.servers["su1-srv01"].hostname == "gpu-a01"
    assert window.document.undo_stack.count() == 1


def test_inspector_pins_a_typed_address(window):
    window.scene.select_ids(["su1-srv02/nic1"])
    edit = window.inspector.fields["address"]
    edit.setText("10.1.0.250/24")
    edit.editingFinished.emit()
    f = window.document.fabric
    assert f.addresses["su1-srv02/nic1"] == "10.1.0.250/24" and f.is_pinned("su1-srv02/nic1")


def test_findings_update_after_an_edit(window, qtbot):
    window.checks.run_now()
    before = {(x.code, x.ids) for x in window.checks.findings}
    window.document.execute(MoveNicCommand(window.document.fabric, "su1-srv01/nic0", "su1-leaf-r1"))
    qtbot.waitUntil(lambda: not window.checks.pending(), timeout=3000)
    after = {(x.code, x.ids) for x in window.checks.findings}
    assert after != before
    assert any(code == "RD004" for code, _ in after - before)
    assert window.findings.tree.topLevelItemCount() == len(window.checks.findings)


def test_export_dialog_writes_a_bundle_off_the_gui_thread(window, qtbot, tmp_path):
    from designer.gui.dialogs import ExportDialog
    dialog = ExportDialog(window.document.fabric, tmp_path / "bundle", parent=window)
    qtbot.addWidget(dialog)
    dialog.force.setChecked(True)
    dialog.start()
    assert dialog.running()
    qtbot.waitUntil(lambda: not dialog.running(), timeout=20000)
    assert dialog.result is not None, dialog.label.text()
    out = Path(dialog.result.outdir)
    assert out.is_dir() and dialog.result.files
    for rel in dialog.result.files:
        assert (out / rel).is_file()
    assert "wrote" in dialog.label.text()


def test_export_dialog_writes_an_optional_part_when_it_is_ticked(window, qtbot, tmp_path):
    from designer.gui.dialogs import ExportDialog
    dialog = ExportDialog(window.document.fabric, tmp_path / "bundle", parent=window)
    qtbot.addWidget(dialog)
    assert not dialog.parts["aid-csv"].isChecked() and not dialog.parts["aid-yaml"].isChecked()
    assert dialog.parts["aid"].isChecked() and dialog.parts["aid-csv"].text() == "aid-csv (optional)"
    for name, check in dialog.parts.items():
        check.setChecked(name in ("aid", "aid-csv"))
    dialog.force.setChecked(True)
    dialog.start()
    qtbot.waitUntil(lambda: not dialog.running(), timeout=20000)
    assert dialog.result is not None, dialog.label.text()
    aid = sorted(p.name for p in (Path(dialog.result.outdir) / "aid").iterdir())
    assert aid == ["aid.schema.json", "devices.csv", "fabric.aid.json", "fabric.aid.xlsx", "interfaces.csv",
                   "ip-plan.csv", "links.csv"]


def test_preview_dock_shows_the_selected_devices_configs(window, qtbot):
    window.preview.show()
    window.scene.select_ids(["su1-leaf-r0"])
    window.preview.refresh()
    from designer.export import preview
    expected = preview(window.document.fabric, "su1-leaf-r0")
    assert list(window.preview.files) == sorted(expected)
    if expected:
        name = window.preview.choice.currentText()
        assert window.preview.text.toPlainText() == expected[name]
    assert "su1-leaf-r0" in window.preview.note.text()


def test_export_refusal_names_the_dialogs_checkbox_not_a_cli_flag(window, qtbot, tmp_path):
    from designer.gui.dialogs import ExportDialog
    window.document.execute(MoveNicCommand(window.document.fabric, "su1-srv01/nic0", "su1-leaf-r1"))
    dialog = ExportDialog(window.document.fabric, tmp_path / "bundle", parent=window)
    qtbot.addWidget(dialog)
    dialog.start()
    qtbot.waitUntil(lambda: not dialog.running(), timeout=20000)
    text = dialog.label.text()
    assert dialog.result is None and not (tmp_path / "bundle").exists()
    assert dialog.force.text() in text and "--force" not in text and "RD004" in text


def test_an_open_design_is_kept_out_of_the_collectors_walks_and_freed_once_replaced(window):
    # the collector's passes walked the whole loaded design on the first edits (0.27 s at 4,096 servers);
    # once open and checked it is frozen out of them, and thawed when another design replaces it
    import gc
    import weakref

    from tests.conftest import preset_fabric
    window.document.replace(preset_fabric("default"), None)      # (the fixture holds the first design)
    window.checks.run_now()
    assert gc.get_freeze_count() > 1000
    old = weakref.ref(window.document.fabric)
    window.document.replace(preset_fabric("default"), None)
    assert gc.get_freeze_count() == 0
    window.checks.run_now()                       # the new design's first check settles it in turn
    gc.collect()
    assert old() is None and gc.get_freeze_count() > 1000


def test_the_automatic_recheck_runs_off_the_gui_thread_and_an_edit_drops_its_result(window, qtbot):
    """The re-check after an edit runs on the worker's copy of the design; an edit while it runs makes
    its result stale (dropped), and the pass after it still ends with exactly the full check's findings."""
    from designer.checks import check
    f, runner = window.document.fabric, window.checks
    runner.run_now()
    shown: list = []
    runner.updated.connect(shown.append)
    window.document.execute(MoveNicCommand(f, "su1-srv01/nic0", "su1-leaf-r1"))
    runner.start()
    assert runner._busy                                                            # handed to the worker
    window.document.execute(MoveNicCommand(f, "su1-srv01/nic1", "su1-leaf-r0"))   # mid-pass
    qtbot.waitUntil(lambda: not runner.pending(), timeout=5000)
    assert runner.findings == check(f)
    assert shown and all(findings == check(f) for findings in shown)     # nothing shown for the stale state
    assert runner._copy is not f and runner._copy.servers["su1-srv01"] is f.servers["su1-srv01"]


def test_the_first_check_after_opening_runs_while_the_window_takes_input(window, qtbot, tmp_path, monkeypatch):
    """The pass runs on the worker: it is held until the GUI thread has handled an input event and a
    timer (had the pass run on the GUI thread, neither could happen and the gate would time out)."""
    import threading

    from PySide6.QtCore import QEvent, QTimer
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from designer.checks import check
    from designer.checks.incremental import LiveChecker
    gate, threads = threading.Event(), []
    real_run = LiveChecker.run

    def held_run(self):
        threads.append(threading.get_ident())
        assert gate.wait(5), "the GUI thread never handled its events while the check ran"
        return real_run(self)

    monkeypatch.setattr(LiveChecker, "run", held_run)
    path = tmp_path / "other.fabric.yaml"
    save(window.document.fabric, path)
    window.files.open_file(path, ask=False)
    window.checks.start()                               # the first check of the opened design
    keys: list = []
    window.find_bar.setFocus()
    QApplication.postEvent(window.find_bar, QKeyEvent(QEvent.KeyPress, Qt.Key_S, Qt.NoModifier, "s"))
    QTimer.singleShot(0, lambda: (keys.append(window.find_bar.text()), gate.set()))
    qtbot.waitUntil(lambda: not window.checks.pending(), timeout=8000)
    assert keys == ["s"] and threads and threads[0] != threading.get_ident()
    assert window.checks.findings == check(window.document.fabric)
