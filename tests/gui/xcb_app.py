"""The real designer window on a real X display, steered from a test through files in a folder.

    python tests/gui/xcb_app.py FOLDER [--screenshot OUT.png] [--recovery DIR] [--open FILE] [--restore]

--recovery names the recovery folder the window shares with others (default FOLDER/recovery),
--open a design file to open, --restore makes the start's crash-recovery offer (app.run's).

With --screenshot it first makes the edit the README's picture shows (a NIC re-cabled onto
another rail's leaf, the finding selected), saves the window as OUT.png, then carries on.

Writes FOLDER/ready.json (screen positions of what the test will drag) once the window is up;
then answers each FOLDER/<name>.ask the test creates with FOLDER/<name>.json (the model's and
the view's state at that moment), and quits on FOLDER/quit.ask. Not a test module: the test
starts it as a separate process on the xcb platform, so Qt's real X11 input handling is used.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

NIC, LEAF = "su1-srv01/nic0", "su1-leaf-r1"


def main(argv: list[str]) -> int:
    folder = Path(argv[0])
    shot = Path(argv[argv.index("--screenshot") + 1]) if "--screenshot" in argv else None
    recovery = Path(argv[argv.index("--recovery") + 1]) if "--recovery" in argv else folder / "recovery"
    design = Path(argv[argv.index("--open") + 1]) if "--open" in argv else None
    from PySide6.QtCore import QPoint, QSettings, QTimer
    from designer.gui.app import application, default_fabric, use_private_scope
    from designer.gui.main_window import MainWindow
    app = application()
    use_private_scope(folder)
    window = MainWindow(default_fabric(), recovery_dir=recovery,
                        settings=QSettings(str(folder / "settings.ini"), QSettings.IniFormat))
    if design is not None:
        window.files.open_file(design, ask=False)
    if "--restore" in argv:                   # as app.run does, once the event loop runs (polls answer)
        QTimer.singleShot(0, window.files.offer_restore)
    window.setGeometry(0, 0, 1500, 940)
    window.show()
    window.raise_()
    window.activateWindow()

    def screen_point(item) -> list[int]:
        view = window.view
        p = view.viewport().mapToGlobal(view.mapFromScene(item.sceneBoundingRect().center()))
        return [p.x(), p.y()]

    def state() -> dict:
        f, view = window.document.fabric, window.view
        pixels = view.viewport().grab().toImage()
        digest = hashlib.sha256(bytes(pixels.constBits())).hexdigest()
        centre = view.visible_scene_rect().center()
        modal = app.activeModalWidget()
        return {"peer": f.peer(NIC), "rail": f.nic(NIC).rail, "undo": window.document.undo_stack.count(),
                "status": window.statusBar().currentMessage(), "platform": app.platformName(),
                "centre": [centre.x(), centre.y()], "pixels": digest,
                "red": window.scene.links[f.link_at(NIC).id].red if f.link_at(NIC) else None,
                "modal": modal.windowTitle() if modal is not None else None,
                "selected": len(window.scene.selectedItems()), "screen": on_screen(),
                "recovery": str(window.recovery.path) if window.recovery.pending() else None}

    def on_screen() -> str:
        """A digest of the canvas's pixels as the X server holds them (what the user sees), not a
        fresh render: a region Qt failed to repaint shows here as it was."""
        view = window.view.viewport()
        corner = view.mapToGlobal(view.rect().topLeft())
        shot = app.primaryScreen().grabWindow(0, corner.x(), corner.y(), view.width(), view.height())
        if os.environ.get("XCB_APP_SHOTS"):
            shot.save(str(folder / f"screen-{len(list(folder.glob('screen-*.png')))}.png"))
        return hashlib.sha256(bytes(shot.toImage().constBits())).hexdigest()

    def empty_point() -> list[int]:
        """A point of the canvas with no item and no overlay on it (a click there selects nothing)."""
        view = window.view
        covered = [w.geometry() for w in view.overlays if w.isVisible()]
        for y in range(20, view.viewport().height(), 20):
            for x in range(20, view.viewport().width(), 20):
                p = QPoint(x, y)
                if view.itemAt(p) is None and not any(r.contains(p) for r in covered):
                    g = view.viewport().mapToGlobal(p)
                    return [g.x(), g.y()]
        raise RuntimeError("no empty point on the canvas")

    def ready() -> None:
        window.view.fit()
        app.processEvents()
        scene = window.scene
        info = {"nic": screen_point(scene.nics[NIC]), "leaf": screen_point(scene.devices[LEAF]),
                "canvas": screen_point(scene.devices["su2-srv02"]), "empty": empty_point(), **state()}
        if shot is not None:
            from designer.gui.commands import MoveNicCommand
            window.document.execute(MoveNicCommand(window.document.fabric, "su2-srv02/nic1", "su2-leaf-r2"))
            window.checks.run_now()
            tree = window.findings.tree
            rows = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
            tree.setCurrentItem(next(r for r in rows if r.text(1) == "RD004"))
            window.scene.select_ids(["su2-srv02/nic1"])
            app.processEvents()
            window.grab().save(str(shot))
            window.document.undo_stack.undo()
        (folder / "ready.json").write_text(json.dumps(info))

    def answer() -> None:
        for ask in sorted(folder.glob("*.ask")):
            name = ask.stem
            ask.unlink()
            if name == "quit":
                window.document.undo_stack.setClean()
                window.close()
                app.quit()
                return
            if name == "edit":                # an unsaved edit, autosaved at once
                from designer.gui.commands import MoveNicCommand
                window.document.execute(MoveNicCommand(window.document.fabric, NIC, LEAF))
                window.recovery.save_now()
            (folder / f"{name}.json").write_text(json.dumps(state()))

    QTimer.singleShot(800, ready)
    poll = QTimer()
    poll.timeout.connect(answer)
    poll.start(50)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
