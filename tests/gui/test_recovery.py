"""Crash recovery per window (issue 23): each window autosaves to its own file under a lock; only
what a dead window left is offered; tests and benchmarks keep to their own settings scope."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from designer.gui.app import default_fabric
from designer.gui.commands import MoveNicCommand
from designer.gui.main_window import MainWindow
from designer.storage import dumps
from tests.gui.crash import crash


def _another(qtbot, window, tmp_path, name: str) -> MainWindow:
    other = MainWindow(default_fabric(), recovery_dir=window.recovery.folder,
                       settings=QSettings(str(tmp_path / f"{name}.ini"), QSettings.IniFormat))
    qtbot.addWidget(other)
    return other


def _edited(window) -> str:
    window.document.execute(MoveNicCommand(window.document.fabric, "su1-srv01/nic0", "su1-leaf-r1"))
    window.recovery.save_now()
    assert window.recovery.pending(), window.recovery.last_error
    return dumps(window.document.fabric)


def _answering(monkeypatch, answer) -> list[str]:
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda parent, title, text, *a: asked.append(text) or answer)
    return asked


def test_a_window_that_is_still_running_keeps_its_work_to_itself(qtbot, window, tmp_path, monkeypatch):
    _edited(window)
    asked = _answering(monkeypatch, QMessageBox.Yes)
    second = _another(qtbot, window, tmp_path, "second")
    assert second.files.offer_restore() is False and asked == []
    assert second.recovery.path != window.recovery.path
    assert window.recovery.pending()                        # the first window's copy is untouched
    _edited(second)                                         # and the second autosaves beside it
    assert second.recovery.pending() and window.recovery.pending()


def test_a_crashed_window_is_offered_once_and_its_file_is_taken_over(qtbot, window, tmp_path, monkeypatch):
    edited = _edited(window)
    crashed = window.recovery.path
    crash(window)
    asked = _answering(monkeypatch, QMessageBox.Yes)
    second = _another(qtbot, window, tmp_path, "second")
    assert second.files.offer_restore() and len(asked) == 1
    assert dumps(second.document.fabric) == edited and second.document.dirty
    assert not crashed.exists() and second.recovery.pending()    # its own copy now, the dead one's gone
    third = _another(qtbot, window, tmp_path, "third")
    assert third.files.offer_restore() is False and len(asked) == 1   # second is running: not offered


def test_declining_the_offer_discards_the_crashed_windows_file(qtbot, window, tmp_path, monkeypatch):
    _edited(window)
    crashed = window.recovery.path
    crash(window)
    _answering(monkeypatch, QMessageBox.No)
    second = _another(qtbot, window, tmp_path, "second")
    assert second.files.offer_restore() is False
    assert not crashed.exists() and not second.document.dirty


def test_closing_a_window_cleanly_leaves_no_file_and_no_lock(qtbot, window, tmp_path):
    _edited(window)
    lock = window.recovery.lock.fileName()
    window.document.undo_stack.setClean()
    window.close()
    assert not window.recovery.pending() and list(window.recovery.folder.iterdir()) == [], lock


def test_gui_tests_never_touch_the_users_settings_or_recovery_folder(window):
    from designer.gui.recovery import default_folder
    user = QSettings()                                      # what a window without its own settings uses
    scope = default_folder().parent
    assert user.fileName().startswith(str(scope)), user.fileName()
    assert window.recovery.folder != default_folder()       # the fixture's window: its test's own folder


def test_the_shared_recovery_file_of_earlier_versions_is_offered_once(qtbot, window, tmp_path, monkeypatch):
    from designer.storage import save
    f = window.document.fabric
    window.document.execute(MoveNicCommand(f, "su1-srv01/nic0", "su1-leaf-r1"))
    legacy = window.recovery.folder.parent / "recovery.fabric.yaml"
    save(f, legacy)
    asked = _answering(monkeypatch, QMessageBox.Yes)
    second = _another(qtbot, window, tmp_path, "second")
    assert second.files.offer_restore() and len(asked) == 1
    assert dumps(second.document.fabric) == dumps(f) and not legacy.exists()
    third = _another(qtbot, window, tmp_path, "third")
    assert third.files.offer_restore() is False and len(asked) == 1
