"""GUI tests run offscreen on real widgets (pytest-qt)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402


@pytest.fixture
def window(qtbot, tmp_path, default_fabric, monkeypatch):
    """The real main window on the default design. pytest-qt closes it before fixtures end, so
    the unsaved-changes question (a modal) is answered Discard unless a test says otherwise."""
    yield from _window(qtbot, tmp_path, default_fabric, monkeypatch)


@pytest.fixture
def ib_window(qtbot, tmp_path, monkeypatch):
    """The real main window on a small InfiniBand design (2 SUs of 4 servers, 2 rails, 2 spines)."""
    import designer
    fabric = designer.build(designer.spec("superpod-h100-ib", sus=2, servers_per_su=4, rails=2, spines=2))
    yield from _window(qtbot, tmp_path, fabric, monkeypatch)


def _window(qtbot, tmp_path, fabric, monkeypatch):
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMessageBox
    from designer.gui.main_window import MainWindow
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Discard)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    w = MainWindow(fabric, recovery_dir=tmp_path / "recovery", settings=settings)
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    qtbot.waitExposed(w)
    w.view.fit()
    yield w
    w.recovery.discard()


@pytest.fixture(scope="session", autouse=True)
def _private_scope(tmp_path_factory):
    """No GUI test reads or writes the user's settings (recent files) or recovery files."""
    from designer.gui.app import use_private_scope
    use_private_scope(tmp_path_factory.mktemp("user-scope"))


@pytest.fixture(autouse=True)
def _clipboard_emptied_after(qapp):
    """A clipboard still holding a copy when the offscreen QApplication goes away crashes the
    interpreter at exit (exit code 139 after every test passed): running a copy test last, alone or
    in some order, did so on main too. Each GUI test leaves the clipboard empty."""
    yield
    from PySide6.QtWidgets import QApplication
    QApplication.clipboard().clear()
