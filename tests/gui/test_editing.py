"""Gestures people can find and bulk edits (issue 10 item 7): modes, context menus, cable ends
dragged with the mouse, bulk edits as one undo step, copy / paste / duplicate."""

from __future__ import annotations

import math

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest

from designer.gui.context_menu import context_menu
from designer.storage import dumps
from tests.conftest import preset_fabric


def _drag(qtbot, view, start: QPoint, end: QPoint, modifier=Qt.NoModifier) -> None:
    vp = view.viewport()
    QTest.mousePress(vp, Qt.LeftButton, modifier, start)
    for i in range(1, 7):
        QTest.mouseMove(vp, start + (end - start) * i / 6)
    QTest.mouseRelease(vp, Qt.LeftButton, modifier, end)
    qtbot.wait(1)


def _texts(menu) -> list[str]:
    return [a.text() for a in menu.actions() if not a.isSeparator()]


def _trigger(menu, starts: str) -> None:
    action = next(a for a in menu.actions() if a.text().startswith(starts))
    action.trigger()


def _one_undo_step(window, before: str) -> None:
    stack = window.document.undo_stack
    after = dumps(window.document.fabric)
    assert after != before and stack.count() == 1
    stack.undo()
    assert dumps(window.document.fabric) == before
    stack.redo()
    assert dumps(window.document.fabric) == after


def test_each_kind_of_object_has_its_context_menu(window):
    from PySide6.QtWidgets import QApplication
    QApplication.clipboard().clear()                          # no copied devices: no Paste entry
    scene = window.scene
    assert _texts(context_menu(window, "su1-srv01", QPointF()))[:3] == [
        "Cable its NICs to their rail leaves", "Trace a path from here…", "Show the config of su1-srv01"]
    leaf = _texts(context_menu(window, "su1-leaf-r2", QPointF()))
    assert "Connect to its spines" in leaf and "Highlight rail 2" in leaf and "Collapse SU1" in leaf
    nic = _texts(context_menu(window, "su1-srv01/nic1", QPointF()))
    assert nic[0] == "Cable to its rail leaf" and "Highlight rail 1" in nic
    cable = window.document.fabric.link_at("su1-srv01/nic0").id
    assert "Select both ends (su1-leaf-r0, su1-srv01)" in _texts(context_menu(window, cable, QPointF()))
    block = scene.layout.su_blocks[2]
    empty = _texts(context_menu(window, None, QPointF(block.cx, block.cy)))
    assert empty == ["Add servers to SU2…", "Collapse SU2", "Fit to window"]
    assert scene.selected_ids() == []


def test_context_menu_acts_on_the_whole_selection_when_the_object_is_part_of_it(window):
    window.scene.select_ids(["su1-srv01", "su1-srv02"])
    menu = context_menu(window, "su1-srv02", QPointF())
    assert "Duplicate 2 devices" in _texts(menu) and "Delete 2 objects" in _texts(menu)
    before = dumps(window.document.fabric)
    _trigger(menu, "Duplicate")
    f = window.document.fabric
    assert {"su1-srv05", "su1-srv06"} <= set(f.servers)
    assert window.scene.selected_ids() == ["su1-srv05", "su1-srv06"]
    _one_undo_step(window, before)


def test_cable_nics_to_their_rail_leaves_from_the_context_menu_is_one_undo_step(window):
    f = window.document.fabric
    for nic in f.servers["su2-srv03"].nics:
        f.disconnect(f.link_at(nic.id).id)
    window.document.undo_stack.clear()
    before = dumps(f)
    _trigger(context_menu(window, "su2-srv03", QPointF()), "Cable its NICs")
    assert all(f.peer(n.id).startswith(f"su2-leaf-r{n.rail}/") for n in f.servers["su2-srv03"].nics)
    assert all(n.id in f.addresses for n in f.servers["su2-srv03"].nics)
    _one_undo_step(window, before)


def test_connect_to_spines_meshes_a_new_leaf_and_addresses_its_uplinks(window):
    from designer.gui.commands import AddDeviceCommand
    from designer.model.entities import Role, Switch
    f = window.document.fabric
    window.document.execute(AddDeviceCommand(f, Switch("su1-leaf-r0-2", "su1-leaf-r0-2", Role.LEAF,
                                                       "asterfusion-cx732q-n", su=1, rail=0)))
    window.document.undo_stack.clear()
    before = dumps(f)
    _trigger(context_menu(window, "su1-leaf-r0-2", QPointF()), "Connect to its spines")
    uplinks = f.links_of("su1-leaf-r0-2")
    assert {l.other(next(e for e in (l.a, l.b) if e.startswith("su1-leaf-r0-2/"))).split("/")[0]
            for l in uplinks} == {"spine-01", "spine-02"}
    assert all(l.a in f.addresses and l.b in f.addresses for l in uplinks)
    _one_undo_step(window, before)


def test_add_servers_dialog_adds_them_cabled_in_one_undo_step(window, qtbot):
    from designer.gui.dialogs import AddServersDialog
    f = window.document.fabric
    big = preset_fabric("rail-optimized-64x4")     # leaves with room
    window.document.replace(big, None)
    f = window.document.fabric
    for nic in [n.id for s in list(f.servers.values())[-2:] for n in s.nics]:
        f.disconnect(f.link_at(nic).id)
    for server in list(f.servers)[-2:]:
        f.remove_device(server)
    before = dumps(f)
    dialog = AddServersDialog(f, 1, window)
    qtbot.addWidget(dialog)
    dialog.count.setValue(2)
    assert "su1-srv63 to su1-srv64" in dialog.preview.text()
    assert window.document.execute(dialog.command()) is None
    assert {"su1-srv63", "su1-srv64"} <= set(f.servers)
    assert all(f.peer(n.id) for s in ("su1-srv63", "su1-srv64") for n in f.servers[s].nics)
    _one_undo_step(window, before)


def test_re_address_the_selection_fixes_a_wrong_address_and_keeps_a_pinned_one(window):
    f = window.document.fabric
    f.set_address("su1-srv01/nic0", "10.99.0.1/24")
    f.set_address("su1-srv01/nic1", "10.99.0.2/24", pinned=True)
    before = dumps(f)
    window.scene.select_ids(["su1-srv01"])
    window.actions_by_name["readdress"].trigger()
    assert f.addresses["su1-srv01/nic0"].startswith("10.0.0.") and f.addresses["su1-srv01/nic1"] == "10.99.0.2/24"
    _one_undo_step(window, before)


def test_copy_then_paste_as_a_new_su_copies_the_cabling_among_the_copies(window):
    f = window.document.fabric
    su1 = [d for d in (*f.servers, *f.switches) if d.startswith("su1-")]
    window.scene.select_ids(su1)
    window.actions_by_name["copy"].trigger()
    before = dumps(f)
    window.actions_by_name["paste_new_su"].trigger()
    su3 = sorted(d for d in (*f.servers, *f.switches) if d.startswith("su3-"))
    assert len(su3) == len(su1) and f.sus[3].name == "SU3"
    inside = [l for l in f.links.values() if l.a.startswith("su3-") and l.b.startswith("su3-")]
    assert len(inside) == sum(1 for l in f.links.values() if l.a.startswith("su1-") and l.b.startswith("su1-"))
    nics = [ep for l in inside for ep in (l.a, l.b) if "/nic" in ep]
    assert len(nics) == len(inside) and all(n in f.addresses for n in nics)      # subnet per leaf: the NIC end
    _one_undo_step(window, before)
    errors = [x for x in window.checks.run_now() if x.severity.value == "error"]
    assert {x.code for x in errors} == {"RD001"} and all(i.startswith("su3-leaf") for x in errors for i in x.ids)
    window.scene.select_ids([l for l in su3 if "leaf" in l])              # the new SU's leaves have no uplinks yet
    window.actions_by_name["mesh_spines"].trigger()
    assert not [x for x in window.checks.run_now() if x.severity.value == "error"]


def test_dragging_a_cables_leaf_end_onto_another_leaf_rehomes_the_nic(window, qtbot):
    f, view, scene = window.document.fabric, window.view, window.scene
    f.remove_device("su1-srv04")                             # room on su1's leaves
    window.document.undo_stack.clear()
    view.centre_on_ids(["su1-leaf-r0", "su1-srv01"])
    link = f.link_at("su1-srv01/nic0")
    view.zoom(3 / view.scale_now())             # a leaf's cables run a port's width apart: zoomed in to pick one
    view.centerOn(scene.devices["su1-leaf-r0"].sceneBoundingRect().united(
        scene.devices["su1-leaf-r1"].sceneBoundingRect()).center())
    scene.clearSelection()
    points = scene.links[link.id].points()
    (ex, ey), (nx, ny) = points[-2:][::-1] if link.b.startswith("su1-leaf") else points[:2]
    leaf_end, along = QPointF(ex, ey), QPointF(nx - ex, ny - ey) / math.hypot(nx - ex, ny - ey)
    start = view.mapFromScene(leaf_end + along * (12 / view.scale_now()))    # on the cable's last leg, 12 px off the leaf
    target = view.mapFromScene(scene.devices["su1-leaf-r1"].sceneBoundingRect().center())
    before = dumps(f)
    _drag(qtbot, view, start, target)
    assert f.peer("su1-srv01/nic0").startswith("su1-leaf-r1/"), window.statusBar().currentMessage()
    assert scene.links[f.link_at("su1-srv01/nic0").id].red                  # now cross-rail, shown red
    _one_undo_step(window, before)


def test_cable_mode_draws_a_cable_without_shift(window, qtbot):
    f, view, scene = window.document.fabric, window.view, window.scene
    window.actions_by_name["mode_cable"].trigger()
    assert view.mode == "cable" and view.dragMode() == view.DragMode.NoDrag
    links = len(f.links)
    start = view.mapFromScene(scene.devices["su2-leaf-r1"].sceneBoundingRect().center())
    end = view.mapFromScene(scene.devices["spine-01"].sceneBoundingRect().center())
    _drag(qtbot, view, start, end)
    assert len(f.links) == links + 1, window.statusBar().currentMessage()
    window.actions_by_name["mode_pan"].trigger()
    assert view.dragMode() == view.DragMode.ScrollHandDrag
    _drag(qtbot, view, start, end)
    assert len(f.links) == links + 1                              # panning edits nothing
    window.actions_by_name["mode_select"].trigger()
    assert view.dragMode() == view.DragMode.RubberBandDrag


def test_a_headless_process_that_copied_a_selection_exits_cleanly(tmp_path):
    # Qt's offscreen platform crashed the process at exit (SIGSEGV) while the clipboard held a copy
    import os
    import subprocess
    import sys
    script = ("import os; os.environ['QT_QPA_PLATFORM'] = 'offscreen'\n"
              "from designer.gui.app import application, default_fabric\n"
              "from designer.gui.main_window import MainWindow\n"
              "app = application(); window = MainWindow(default_fabric()); window.show(); app.processEvents()\n"
              "window.edit.copy(sorted(window.document.fabric.servers)[:2])\n"
              "assert window.edit.clipboard() is not None\n"
              "window.document.undo_stack.setClean(); window.close(); print('copied')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "HOME": str(tmp_path)})
    assert done.returncode == 0 and "copied" in done.stdout, (done.returncode, done.stderr[-500:])
