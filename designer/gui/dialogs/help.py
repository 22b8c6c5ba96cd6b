"""Help > Gestures and shortcuts: what the mouse does on the canvas, and every menu command with
its keyboard shortcut (read from the window's actions, so the list cannot go stale)."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

GESTURES = [
    ("Click, rubber-band, Ctrl+click", "select devices, NICs and cables; the inspector shows one, the preview its configs"),
    ("Drag a NIC onto a switch", "cable (or re-cable) it there; before the drop the line turns red (amber) and the "
                                 "status bar names the rule when the checks would report the cable: another rail, "
                                 "plane, SU or tier"),
    ("Drag a leaf sideways onto another lane", "move the leaf to that rail (only inside its own SU)"),
    ("Drag either end of a cable", "re-home that end onto another switch or a free NIC; the other end stays"),
    ("Shift+drag from a switch to a switch", "draw a cable between free ports of a common speed (Cable mode: no Shift); "
                                             "red before the drop into another spine group, core group, plane or tier"),
    ("Drag a model from the palette", "add a server, leaf, spine or core where it is dropped (a leaf takes the lane's "
                                      "rail and plane, a spine the pod's spine group, a core the core group's band)"),
    ("Right-click anything", "what can be done with it: cable to rail leaves, connect to spines, duplicate, "
                             "delete, show its config, trace a path, collapse its SU"),
    ("Middle-drag, or Pan mode", "pan; the wheel zooms around the cursor"),
    ("Click a rail in the legend", "highlight that rail (click again for all)"),
    ("Click or drag in the minimap", "move the view there"),
    ("Click a finding", "select, centre and zoom onto what it names; F8 / Shift+F8 walk the errors"),
    ("Esc", "cancel a drag in progress; in the inspector, put a field back as it was"),
]


def _rows(pairs) -> str:
    return "".join(f"<tr><td style='padding-right:14px'><b>{a}</b></td><td>{b}</td></tr>" for a, b in pairs)


class ShortcutsDialog(QDialog):
    def __init__(self, menus, parent=None):
        """``menus``: (menu title, [QAction]) in menu order."""
        super().__init__(parent)
        self.setWindowTitle("Gestures and shortcuts")
        parts = ["<h3>On the canvas</h3><table>", _rows(GESTURES), "</table>"]
        for title, actions in menus:
            rows = [(a.text().replace("&", ""), " or ".join(s.toString(QKeySequence.NativeText) for s in a.shortcuts())
                     or "&nbsp;") for a in actions if a.text() and not a.isSeparator()]
            if rows:
                parts += [f"<h3>{title.replace('&', '')}</h3><table>", _rows(rows), "</table>"]
        self.text = QTextBrowser()
        self.text.setHtml("".join(parts))
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(720, 640)
