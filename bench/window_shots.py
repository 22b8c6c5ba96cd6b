"""Screenshots for docs/WINDOW.md: superpod-su at 1, 2, 8 and 32 SUs, fitted, under a real X server:

    xvfb-run -a -s "-screen 0 1920x1200x24" env QT_QPA_PLATFORM=xcb python bench/window_shots.py
"""
import os, sys, time, tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from designer.gui.app import application, use_private_scope
from designer.gui.main_window import MainWindow
from designer.storage.presets import load_preset
from designer.planning.build import build
from designer.storage.catalog_file import builtin_catalog
from PySide6.QtCore import QSettings
app = application()
tmp = tempfile.mkdtemp(); use_private_scope(Path(tmp))
for sus in (1, 2, 8, 32):
    f = build(load_preset("superpod-su").spec(sus=sus), builtin_catalog())
    w = MainWindow(f, recovery_dir=Path(tmp) / f"r{sus}", settings=QSettings(str(Path(tmp) / "s.ini"), QSettings.IniFormat))
    w.resize(1600, 1000); w.show()
    for _ in range(30): app.processEvents(); time.sleep(0.02)
    w.checks.run_now()
    w.view.fit()
    for _ in range(30): app.processEvents(); time.sleep(0.02)
    out = str(Path(__file__).resolve().parent.parent / "docs" / "window" / f"superpod-su-{sus}su.png")
    w.view.viewport().grab().save(out)
    print(out, len(f.servers), "servers", len(f.links), "cables", "zoom %.2f" % w.view.scale_now())
    w.document.undo_stack.setClean(); w.close()
os._exit(0)
