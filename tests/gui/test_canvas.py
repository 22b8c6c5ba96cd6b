"""Real gestures on the canvas: palette drop, NIC drag to another leaf, leaf drag to another lane."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from designer.storage import dumps


def _point(view, item, dx=0.0, dy=0.0) -> QPoint:
    centre = item.sceneBoundingRect().center() + QPointF(dx, dy)
    return view.mapFromScene(centre)


def _drag(qtbot, view, start: QPoint, end: QPoint, modifier=Qt.NoModifier) -> None:
    vp = view.viewport()
    QTest.mousePress(vp, Qt.LeftButton, modifier, start)
    steps = 6
    for i in range(1, steps + 1):
        QTest.mouseMove(vp, start + (end - start) * i / steps)
    QTest.mouseRelease(vp, Qt.LeftButton, modifier, end)
    qtbot.wait(1)


def test_scene_has_one_item_per_device_nic_and_cable(window):
    f = window.document.fabric
    assert window.scene.counts() == {"devices": len(f.servers) + len(f.switches),
                                     "nics": sum(len(s.nics) for s in f.servers.values()), "links": len(f.links)}


def test_palette_drop_adds_an_auto_named_server_in_that_su(window):
    f = window.document.fabric
    palette = window.palette.list
    row = next(i for i in range(palette.count()) if palette.item(i).data(Qt.UserRole) == ("server", "gpu-4x400g"))
    mime = palette.mimeData([palette.item(row)])
    su2 = window.scene.layout.su_blocks[2]
    target = window.view.mapFromScene(QPointF(su2.cx, su2.y + su2.h - 5))
    vp = window.view.viewport()
    enter = QDragEnterEvent(target, Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(vp, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(target), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(vp, drop)
    assert "su2-srv05" in f.servers and f.servers["su2-srv05"].su == 2
    assert "su2-srv05" in window.scene.devices and "su2-srv05/nic3" in window.scene.nics
    window.document.undo_stack.undo()
    assert "su2-srv05" not in f.servers and "su2-srv05" not in window.scene.devices


def test_mouse_drag_of_a_nic_onto_another_rails_leaf_recables_it_red_and_undo_restores(window, qtbot):
    f = window.document.fabric
    before = dumps(f)
    nic = window.scene.nics["su1-srv01/nic0"]
    leaf = window.scene.devices["su1-leaf-r1"]
    _drag(qtbot, window.view, _point(window.view, nic), _point(window.view, leaf))
    peer = f.peer("su1-srv01/nic0")
    assert peer.startswith("su1-leaf-r1/"), window.statusBar().currentMessage()
    assert f.nic("su1-srv01/nic0").rail == 0           # the NIC keeps its GPU-affinity rail
    link_item = window.scene.links[f.link_at("su1-srv01/nic0").id]
    assert link_item.cross_rail and link_item.red
    assert "crosses rails" not in window.statusBar().currentMessage()   # the drop message replaced the preview
    assert window.windowTitle().startswith("*")
    window.document.undo_stack.undo()
    assert dumps(f) == before
    assert not window.scene.links[f.link_at("su1-srv01/nic0").id].red
    assert not window.windowTitle().startswith("*")


def test_nic_dropped_on_empty_canvas_changes_nothing(window, qtbot):
    f = window.document.fabric
    before = dumps(f)
    nic = window.scene.nics["su1-srv02/nic1"]
    start = _point(window.view, nic)
    _drag(qtbot, window.view, start, start + QPoint(0, 60))
    assert dumps(f) == before
    assert "not moved" in window.statusBar().currentMessage()
    assert window.document.undo_stack.count() == 0


def test_leaf_dragged_to_another_rail_lane_takes_that_rail(window, qtbot):
    f = window.document.fabric
    leaf = window.scene.devices["su1-leaf-r3"]
    lane = next(l for l in window.scene.layout.lanes if (l.su, l.rail) == (1, 1))
    target = window.view.mapFromScene(QPointF(lane.box.x + lane.box.w / 2, lane.box.y + lane.box.h / 2))
    _drag(qtbot, window.view, _point(window.view, leaf), target)
    assert f.switches["su1-leaf-r3"].rail == 1
    window.document.undo_stack.undo()
    assert f.switches["su1-leaf-r3"].rail == 3


def test_leaf_dropped_in_another_su_snaps_back(window, qtbot):
    f = window.document.fabric
    leaf = window.scene.devices["su1-leaf-r3"]
    home = leaf.pos()
    lane = next(l for l in window.scene.layout.lanes if (l.su, l.rail) == (2, 0))
    target = window.view.mapFromScene(QPointF(lane.box.x + lane.box.w / 2, lane.box.y + lane.box.h / 2))
    _drag(qtbot, window.view, _point(window.view, leaf), target)
    assert f.switches["su1-leaf-r3"].rail == 3
    assert leaf.pos() == home
    assert "belongs to SU1" in window.statusBar().currentMessage()


def test_shift_drag_between_switches_adds_a_cable(window, qtbot):
    f = window.document.fabric
    links = len(f.links)
    leaf = window.scene.devices["su2-leaf-r0"]
    spine = window.scene.devices["spine-02"]
    _drag(qtbot, window.view, _point(window.view, leaf), _point(window.view, spine), Qt.ShiftModifier)
    assert len(f.links) == links + 1, window.statusBar().currentMessage()
    assert len(window.scene.links) == links + 1


def test_one_layer_draws_the_plain_cables_zoomed_in_and_every_cable_zoomed_out(window):
    scene, view, fabric = window.scene, window.view, window.document.fabric
    view.zoom(0.01)                                     # far out: overview mode
    assert scene.overview_mode and scene.overview.overview
    assert not any(item.isVisible() for item in scene.nics.values())
    assert scene.overview.drawn() == set(fabric.links)
    painting = [i for i, item in scene.links.items() if not item.flags() & item.GraphicsItemFlag.ItemHasNoContents]
    assert painting == []                               # plain cables: only the layer paints
    from designer.gui.commands import MoveNicCommand
    window.document.execute(MoveNicCommand(fabric, "su1-srv01/nic0", "su1-leaf-r1"))
    moved = fabric.link_at("su1-srv01/nic0").id
    assert scene.overview.key_of(moved) == ("red", None) and scene.overview.drawn() == set(fabric.links)
    assert not scene.links[moved].flags() & scene.links[moved].GraphicsItemFlag.ItemHasNoContents
    view.zoom(1000)                                     # back in: the NICs return, the layer draws the plain cables
    assert not scene.overview_mode and not scene.overview.overview
    assert all(item.isVisible() for item in scene.nics.values())
    assert scene.overview.drawn() == {i for i, item in scene.links.items() if item.pen_key()[0] in ("plain", "dim")}
    assert moved not in scene.overview.drawn()
