"""GUI benchmark (offscreen): open + first paint of a 1,024-server x 8-rail design, and one NIC
re-rail edit including the re-check. Targets: open < 3 s, edit < 100 ms.

    QT_QPA_PLATFORM=offscreen python bench/bench_gui.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from designer.planning.build import build  # noqa: E402
from designer.planning.spec import BuildSpec  # noqa: E402
from designer.storage import save  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402

SPEC = BuildSpec(sus=32, servers_per_su=32, server_model="hgx-h100-8x400g", leaf_model="generic-64x400g",
                 spine_model="generic-64x400g", spine_planes="per-rail")


def main() -> int:
    from PySide6.QtWidgets import QApplication
    from designer.gui.app import application
    from designer.gui.commands import MoveNicCommand, RemoveDeviceCommand
    from designer.gui.main_window import MainWindow

    app = application()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.fabric.yaml"
        save(build(SPEC, builtin_catalog()), path)
        small = build(BuildSpec(sus=1, servers_per_su=1, server_model="gpu-4x400g"), builtin_catalog())
        window = MainWindow(small, recovery_path=Path(tmp) / "rec.yaml")
        window.resize(1600, 1000)
        window.show()
        app.processEvents()

        t0 = time.perf_counter()
        window.open_file(path, ask=False)          # load + scene build + fit
        window.view.viewport().repaint()            # first paint, synchronously
        app.processEvents()
        t_open = time.perf_counter() - t0
        f = window.document.fabric
        counts = window.scene.counts()

        # make room on the su1 leaves (every port of the generated design is used), not timed
        window.document.execute(RemoveDeviceCommand(f, "su1-srv32"))
        window.checks.run_now()
        app.processEvents()                         # let the re-layout after the removal paint first
        t0 = time.perf_counter()
        error = window.document.execute(MoveNicCommand(f, "su1-srv01/nic0", "su1-leaf-r1"))
        findings = window.checks.run_now()
        app.processEvents()                         # Qt repaints the changed region
        t_edit = time.perf_counter() - t0
        t0 = time.perf_counter()
        window.view.viewport().repaint()
        t_full = time.perf_counter() - t0
        assert error is None, error
        cross = window.scene.links[f.link_at("su1-srv01/nic0").id].red
        print(f"design: {len(f.servers)} servers, {len(f.switches)} switches, {len(f.links)} cables; "
              f"scene items: {counts}")
        print(f"open + first paint: {t_open * 1000:.0f} ms (target < 3000 ms)")
        print(f"one NIC re-rail edit + re-check + repaint: {t_edit * 1000:.1f} ms (target < 100 ms); "
              f"{len(findings)} findings, cable red: {cross}; checks: {window.checks.problem or 'ran'}")
        print(f"full repaint of the whole design zoomed out: {t_full * 1000:.0f} ms")
        window.document.undo_stack.setClean()
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
