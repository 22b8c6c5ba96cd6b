"""File menu: New (empty), Save As, crash recovery, recent files, the export folder (issue 10 items 3, 4, 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QMessageBox

from designer.gui.commands import MoveNicCommand
from designer.storage import dumps, load, save


def test_new_starts_an_empty_untitled_design_that_does_not_inherit_the_demos_name(window, tmp_path, monkeypatch):
    assert window.files.new_empty()
    f = window.document.fabric
    assert not f.servers and not f.switches and window.document.path is None
    assert f.settings.name == "untitled" and "untitled" in window.windowTitle()
    assert window.files.suggested_path().name == "untitled.fabric.yaml"
    assert window.files.output_stem() == "untitled"
    assert window.scene.counts() == {"devices": 0, "nics": 0, "links": 0}
    asked = {}
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda parent, title, start, filt: asked.setdefault("start", start) and ("", ""))
    window.files.save_as()
    assert Path(asked["start"]).name == "untitled.fabric.yaml"


def test_save_as_a_name_without_the_extension_does_not_overwrite_silently(window, tmp_path, monkeypatch):
    existing = tmp_path / "plan.fabric.yaml"
    existing.write_text("keep me\n")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "plan"), ""))
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda parent, title, text, *a: asked.append(text) or QMessageBox.No)
    assert window.files.save_as() is False
    assert existing.read_text() == "keep me\n"
    assert asked and "plan.fabric.yaml already exists" in asked[0]
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    assert window.files.save_as() is True
    assert dumps(load(existing)) == dumps(window.document.fabric)
    assert window.document.path == existing


def test_save_as_a_new_name_without_the_extension_adds_it(window, tmp_path, monkeypatch):
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "fresh"), ""))
    assert window.files.save_as()
    assert (tmp_path / "fresh.fabric.yaml").is_file() and not (tmp_path / "fresh").exists()


def _restarted(qtbot, window, tmp_path, monkeypatch) -> tuple:
    """A second window started after a "crash" of ``window``, answering Yes to the restore; returns
    (the window, the question it asked)."""
    from designer.gui.app import default_fabric as fresh
    from designer.gui.main_window import MainWindow
    from tests.gui.crash import crash
    crash(window)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda parent, title, text, *a: asked.append(text) or QMessageBox.Yes)
    second = MainWindow(fresh(), recovery_dir=window.recovery.folder,
                        settings=QSettings(str(tmp_path / "second.ini"), QSettings.IniFormat))
    qtbot.addWidget(second)
    assert second.files.offer_restore()
    return second, asked[0]


def test_recovery_names_the_design_and_save_goes_back_to_its_file(qtbot, window, tmp_path, monkeypatch):
    path = tmp_path / "mine.fabric.yaml"
    assert window.files.save_to(path)
    window.document.execute(MoveNicCommand(window.document.fabric, "su1-srv01/nic0", "su1-leaf-r1"))
    edited = dumps(window.document.fabric)
    window.recovery.save_now()
    second, asked = _restarted(qtbot, window, tmp_path, monkeypatch)
    assert "mine.fabric.yaml" in asked and str(path.resolve()) in asked and "autosaved 20" in asked
    assert second.document.path == path.resolve() and second.document.dirty
    assert dumps(second.document.fabric) == edited
    assert second.files.save()                              # Save, not Save As, and to that file
    assert dumps(load(path)) == edited and not second.recovery.pending()


def test_recovery_of_a_design_never_saved_says_so(qtbot, window, tmp_path, monkeypatch):
    window.recovery.save_now()                              # nothing unsaved: nothing kept
    assert not window.recovery.pending()
    window.document.execute(MoveNicCommand(window.document.fabric, "su1-srv01/nic0", "su1-leaf-r1"))
    window.recovery.save_now()
    second, asked = _restarted(qtbot, window, tmp_path, monkeypatch)
    assert "never saved to a file" in asked and second.document.path is None


def test_recent_files_lists_what_was_opened_and_saved_newest_first(window, tmp_path, monkeypatch):
    a, b = tmp_path / "a.fabric.yaml", tmp_path / "b.fabric.yaml"
    save(window.document.fabric, a)
    window.files.save_to(b)
    window.files.open_file(a, ask=False)
    assert window.files.recent()[:2] == [str(a.resolve()), str(b.resolve())]
    texts = [action.text() for action in window.recent_menu.actions()]
    assert texts[:2] == [str(a.resolve()), str(b.resolve())]
    b.unlink()
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: shown.append(text))
    assert window.files.open_recent(str(b.resolve())) is False
    assert str(b.resolve()) not in window.files.recent() and "no longer exists" in shown[0]
    window.recent_menu.actions()[-1].trigger()              # Clear the list
    assert window.files.recent() == [] and not window.recent_menu.isEnabled()


def test_export_folder_and_diagram_follow_the_design_file(window, tmp_path, monkeypatch):
    path = tmp_path / "rack-a.fabric.yaml"
    window.files.save_to(path)
    assert window.files.output_stem() == "rack-a" and window.files.output_folder() == tmp_path.resolve()
    from designer.gui.dialogs import ExportDialog
    seen = {}
    monkeypatch.setattr(ExportDialog, "exec", lambda self: seen.setdefault("folder", self.folder.text()))
    window.files.export_bundle()
    assert seen["folder"] == str(tmp_path.resolve() / "rack-a-bundle")


def test_saving_over_a_read_only_file_asks_and_keeps_it_when_told_no(window, tmp_path, monkeypatch):
    # the command line replaces a read-only design only with --force; the window asks instead
    import os
    import stat
    path = tmp_path / "locked.fabric.yaml"
    path.write_text("keep me\n")
    os.chmod(path, 0o444)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda parent, title, text, *a: asked.append(text) or QMessageBox.No)
    monkeypatch.setattr(QMessageBox, "critical", lambda *a: pytest.fail(f"an error box: {a[2]}"))
    assert window.files.save_to(path) is False
    assert path.read_text() == "keep me\n" and asked == [f"{path} is read-only (mode 0444). Replace it with this "
                                                           "design anyway? (The new file keeps its mode.)"]
    assert "not saved" in window.statusBar().currentMessage()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    assert window.files.save_to(path) is True
    assert dumps(load(path)) == dumps(window.document.fabric) and stat.S_IMODE(path.stat().st_mode) == 0o444
    assert window.document.path == path and window.document.undo_stack.isClean()
