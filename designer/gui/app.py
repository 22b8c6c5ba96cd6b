"""Starting the designer: the Qt application, the window on the default design or a file."""

from __future__ import annotations

import atexit
import os
import sys
from pathlib import Path

APP_NAME = "rail-designer"


def application():
    """The one QApplication (created on first use)."""
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
        atexit.register(_release_clipboard)
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    return app


def use_private_scope(folder: Path) -> None:
    """Keep this process's settings (recent files, window state) and recovery files in ``folder``,
    never the user's: for tests, benchmarks and scripted runs. Call it before the first window."""
    from PySide6.QtCore import QSettings
    from .recovery import set_default_folder
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    QSettings.setDefaultFormat(QSettings.IniFormat)
    for scope in (QSettings.UserScope, QSettings.SystemScope):
        QSettings.setPath(QSettings.IniFormat, scope, str(folder / "settings"))
    set_default_folder(folder / "recovery")


def _release_clipboard() -> None:
    """Qt's offscreen platform (headless runs, tests, `render`) crashed the process at exit when the
    clipboard still held a copied selection: it is cleared first there. Other platforms keep it."""
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance()
    if app is not None and app.platformName() == "offscreen":
        app.clipboard().clear()


def default_fabric():
    """The bundled default design (the "default" preset, built)."""
    from ..planning.build import build
    from ..storage.catalog_file import builtin_catalog
    from ..storage.presets import DEFAULT_PRESET, load_preset
    return build(load_preset(DEFAULT_PRESET).spec(), builtin_catalog())


def run(path: str | None = None) -> int:
    app = application()
    from .main_window import MainWindow
    window = MainWindow(default_fabric())
    restored = window.files.offer_restore()
    if path and not restored:
        window.files.open_file(Path(path), ask=False)
    window.show()
    window.view.fit()
    return app.exec()


def render(path: str, out: str) -> dict[str, int]:
    """Headless diagram of a design file; raises FileFormatError / ValueError / OSError."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from ..storage import load
    fabric = load(Path(path))
    application()
    from .render import render_scene
    return render_scene(fabric, Path(out), Path(path))
