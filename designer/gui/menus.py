"""The window's menus and toolbar: every command once, as a named QAction (tests trigger them by
name; Help > Gestures and shortcuts lists them)."""

from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup, QKeySequence

from .view import MODES

MODE_TEXT = {"select": ("&Select", "S", "Select, drag NICs, leaves and cable ends"),
             "cable": ("&Cable", "C", "Drag from a switch or NIC to draw or move a cable"),
             "pan": ("&Pan", "H", "Drag to move the view")}


# Commands an InfiniBand design has no use for: it has no IP plan to re-address, no LLDP (ibnetdiscover is
# its as-built source: `rail-designer verify --ibnetdiscover`) and no switch or host dumps to drift from.
ETHERNET_ONLY = ("readdress", "verify_lldp", "check_drift")


def show_for_kind(window, infiniband: bool) -> None:
    """Hide the Ethernet-only commands while an InfiniBand design is open (and show them again after)."""
    for name in ETHERNET_ONLY:
        window.actions_by_name[name].setVisible(not infiniband)


def _add(window, menu, name: str, text: str, slot, shortcut=None, tip: str | None = None) -> QAction:
    action = QAction(text, window)
    action.setObjectName(name)
    if shortcut is not None:
        shortcuts = shortcut if isinstance(shortcut, list) else [shortcut]
        action.setShortcuts([QKeySequence(s) for s in shortcuts])
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)
    action.triggered.connect(lambda _checked=False: slot())
    menu.addAction(action)
    window.actions_by_name[name] = action
    return action


def _sot(window, push: bool) -> None:
    from .dialogs.sot import SotPullDialog, SotPushDialog
    fabric = window.document.fabric
    if push:
        SotPushDialog(fabric, parent=window).exec()
    else:
        out = window.files.output_folder() / f"{window.files.output_stem()}-pulled.fabric.yaml"
        SotPullDialog(fabric, out, parent=window).exec()


def build(window) -> None:
    w, files, edit, nav = window, window.files, window.edit, window.nav
    bar = w.menuBar()
    f = bar.addMenu("&File")
    _add(w, f, "new", "&New", files.new_empty, QKeySequence.New, "Start an empty design")
    _add(w, f, "new_from_template", "New from &template…", files.new_from_preset, "Ctrl+Shift+N",
         "Start from a preset: servers, rails, leaves and spines built and cabled")
    _add(w, f, "open", "&Open…", files.open_dialog, QKeySequence.Open)
    w.recent_menu = f.addMenu("Open &recent")
    _add(w, f, "save", "&Save", files.save, QKeySequence.Save)
    _add(w, f, "save_as", "Save &As…", files.save_as, "Ctrl+Shift+S")
    f.addSeparator()
    _add(w, f, "export_bundle", "&Export bundle…", files.export_bundle, "Ctrl+E",
         "Write every switch, host and cabling file of the design into a folder")
    _add(w, f, "export_diagram", "Export &diagram (SVG/PNG)…", files.export_diagram, "Ctrl+Shift+E",
         "The whole design as a picture with a legend and a title block")
    _add(w, f, "sot_push", "Push to source of &truth…", lambda: _sot(w, push=True),
         tip="Write the design into Nautobot or NetBox, after a dry run shows every change")
    _add(w, f, "sot_pull", "P&ull from source of truth…", lambda: _sot(w, push=False),
         tip="Read the design Nautobot or NetBox holds and see how it differs from this one")
    f.addSeparator()
    _add(w, f, "quit", "&Quit", w.close, QKeySequence.Quit)

    e = bar.addMenu("&Edit")
    undo = w.document.undo_stack.createUndoAction(w, "&Undo")
    undo.setObjectName("undo")
    undo.setShortcut(QKeySequence("Ctrl+Z"))
    redo = w.document.undo_stack.createRedoAction(w, "&Redo")
    redo.setObjectName("redo")
    redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
    e.addAction(undo)
    e.addAction(redo)
    w.actions_by_name.update(undo=undo, redo=redo)
    e.addSeparator()
    _add(w, e, "copy", "&Copy", edit.copy, QKeySequence.Copy, "Copy the selected devices and the cables among them")
    _add(w, e, "paste", "&Paste", w.paste_here, QKeySequence.Paste, "Paste into the SU under the cursor")
    _add(w, e, "paste_new_su", "Paste as a new S&U", lambda: edit.paste(new_su=True), "Ctrl+Shift+V",
         "Paste the copied devices into new SUs after the last one")
    _add(w, e, "duplicate", "D&uplicate", edit.duplicate, "Ctrl+D")
    _add(w, e, "delete", "&Delete selection", edit.delete_selection, [QKeySequence.Delete, "Backspace"])
    e.addSeparator()
    _add(w, e, "select_all", "Select &all", w.select_all, QKeySequence.SelectAll)
    _add(w, e, "select_none", "Select &none", w.scene.clearSelection, "Ctrl+Shift+A")

    d = bar.addMenu("&Design")
    _add(w, d, "add_servers", "&Add servers to an SU…", edit.add_servers, "Ctrl+Alt+N",
         "Add N servers of a model to an SU, cabled to its rail leaves")
    _add(w, d, "cable_rail_leaves", "&Cable NICs to their rail leaves", edit.cable_to_rail_leaves, "Ctrl+L",
         "Every rail NIC of the selected servers onto a leaf of its rail in its SU")
    _add(w, d, "mesh_spines", "Connect leaves to their &spines", edit.mesh_to_spines, "Ctrl+M",
         "Uplinks from each selected leaf to every spine it meshes with (its plane and spine group), evenly")
    _add(w, d, "mesh_cores", "Connect spines to their c&ores", edit.mesh_to_cores, "Ctrl+Shift+M",
         "Uplinks from each selected spine to every core of its core group, evenly")
    _add(w, d, "add_su", "Add S&U", edit.add_su, None,
         "One more SU as the design's plan places it (new ... --final-sus); nothing that exists is renumbered")
    _add(w, d, "readdress", "&Re-address the selection", edit.readdress, "Ctrl+R",
         "New addresses for the selected cables and devices' cables; pinned ones kept")
    _add(w, d, "move_rack", "&Move rack…", edit.move_rack, None,
         "Stand the selection's rack (and everything in it) at another row and slot; lengths follow")
    d.addSeparator()
    _add(w, d, "replan", "Assign rails and addresses (whole design)", edit.replan, None,
         "Rails back to GPU affinity, every unpinned address and ASN planned again")

    v = bar.addMenu("&View")
    _add(w, v, "fit", "&Fit to window", w.view.fit, ["Ctrl+0"])
    _add(w, v, "zoom_in", "Zoom &in", lambda: w.view.zoom(1.25), QKeySequence.ZoomIn)
    _add(w, v, "zoom_out", "Zoom &out", lambda: w.view.zoom(0.8), QKeySequence.ZoomOut)
    _add(w, v, "floor_view", "F&loor view", w.show_floor, "Ctrl+Shift+F",
         "Rows of racks to scale, each rack's devices by unit; selection shared with the canvas")
    _add(w, v, "find", "&Find…", nav.focus_find, QKeySequence.Find, "Find a device, host name or NIC by name")
    v.addSeparator()
    group = QActionGroup(w)
    w.mode_actions = {}
    for mode in MODES:
        text, key, tip = MODE_TEXT[mode]
        action = _add(w, v, f"mode_{mode}", f"{text} mode", lambda m=mode: w.view.set_mode(m), key, tip)
        action.setCheckable(True)
        action.setChecked(mode == w.view.mode)
        group.addAction(action)
        w.mode_actions[mode] = action
    v.addSeparator()
    _add(w, v, "collapse_su", "&Collapse the selection's SUs", nav.collapse_selection, "Ctrl+[",
         "Draw each SU as one block (its servers hidden)")
    _add(w, v, "expand_all", "&Expand every SU", nav.expand_all, "Ctrl+]")
    _add(w, v, "clear_highlight", "Clear &highlight and overlays", nav.clear_highlight, "Ctrl+Shift+H")
    w.legend_action = _add(w, v, "legend", "&Legend", nav.toggle_legend)
    w.minimap_action = _add(w, v, "minimap", "&Minimap", nav.toggle_minimap)
    for action in (w.legend_action, w.minimap_action):
        action.setCheckable(True)
        action.setChecked(True)
    v.addSeparator()
    docks = v.addMenu("&Docks")
    for dock in w.docks():
        docks.addAction(dock.toggleViewAction())

    t = bar.addMenu("&Tools")
    _add(w, t, "check_now", "Run &checks now", w.checks.start, "F5")
    _add(w, t, "next_finding", "&Next error", lambda: w.findings.step(1), "F8")
    _add(w, t, "previous_finding", "&Previous error", lambda: w.findings.step(-1), "Shift+F8")
    t.addSeparator()
    _add(w, t, "trace_path", "&Trace a path…", nav.trace_path, "Ctrl+T",
         "Trace a flow and its reply hop by hop, drawn on the canvas")
    _add(w, t, "analyze", "&Analyze collisions…", nav.analyze, "Ctrl+Shift+T",
         "Predict flow collisions of a collective; cables coloured by load")
    _add(w, t, "verify_lldp", "&Verify cabling against LLDP…", w.verify_lldp)
    _add(w, t, "compare_saved", "Compare with the &saved file", w.comparing.compare_saved, None,
         "What the edits change on each device since the design was saved (marked on the canvas)")
    _add(w, t, "compare_with", "Compare with a design or &bundle…", lambda: w.comparing.compare_with(), None,
         "What changed against a baseline design file or bundle, per device (marked on the canvas)")
    _add(w, t, "check_drift", "Check &drift against device dumps…", lambda: w.comparing.check_drift(), None,
         "What switches and hosts run (a folder of rail-switch-apply.py dump / rail-dump.sh dumps) against "
         "this design's bundle; drifted devices marked")

    h = bar.addMenu("&Help")
    _add(w, h, "shortcuts", "&Gestures and shortcuts", w.show_shortcuts, QKeySequence.HelpContents)

    short = {"mode_select": "Select", "mode_cable": "Cable", "mode_pan": "Pan", "fit": "Fit",
             "collapse_su": "Collapse SU", "expand_all": "Expand all", "previous_finding": "◀ Error",
             "next_finding": "Error ▶", "trace_path": "Trace path",
             "undo": "Undo", "redo": "Redo"}    # the menu says what (Undo Move NIC ...); a toolbar that grew moved
    for name, text in short.items():
        w.actions_by_name[name].setIconText(text)
    tb = w.addToolBar("Main")
    tb.setObjectName("MainToolBar")
    for name in ("new", "open", "save", None, "undo", "redo", None, "mode_select", "mode_cable", "mode_pan", None,
                 "fit", "collapse_su", "expand_all", None):
        if name is None:
            tb.addSeparator()
        else:
            tb.addAction(w.actions_by_name[name])
    tb.addWidget(w.find_bar)
    tb.addSeparator()
    for name in ("previous_finding", "next_finding", "trace_path"):
        tb.addAction(w.actions_by_name[name])
    w.toolbar = tb
    w.menus = [(m.title(), [a for a in m.actions() if not a.isSeparator() and a.menu() is None])
               for m in (f, e, d, v, t, h)]
