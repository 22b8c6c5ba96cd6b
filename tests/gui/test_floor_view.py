"""The floor view (issue 20): racks and device boxes as `rack_contents()` has them, selection shared with
the canvas both ways, and racks moved (drag, dialog, command) as one undo step with lengths recomputed."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialog

from designer.gui.dialogs import MoveRackDialog
from designer.model.floor import UNIT_MM
from designer.planning.cable_plan import CablePlan


@pytest.fixture
def floor(window, qtbot):
    assert not window.floor.built and not window.floor.scene.items()        # nothing drawn until shown
    window.actions_by_name["floor_view"].trigger()
    qtbot.waitUntil(lambda: window.floor.isVisible())
    return window.floor


def test_the_view_draws_every_rack_and_device_box_as_the_model_places_them(window, floor):
    contents = window.document.fabric.rack_contents()
    assert set(floor.scene.racks) == {rack.id for rack, _ in contents}
    assert len(floor.scene.boxes) == sum(len(devices) for _, devices in contents) > 10
    for rack, devices in contents:
        item = floor.scene.racks[rack.id]
        assert item.rect().height() == pytest.approx(rack.height_u * UNIT_MM)
        assert [(c.model_id) for c in item.childItems() if hasattr(c, "model_id")] == [d for d, _, _ in devices]
        for device_id, unit, units in devices:
            box = floor.scene.boxes[device_id]
            assert box.parentItem() is item
            assert box.rect().height() == pytest.approx(units * UNIT_MM)
            assert box.rect().bottom() == pytest.approx((rack.height_u - unit + 1) * UNIT_MM)   # unit 1 at the bottom
    racks = window.document.fabric.racks
    x = {r: floor.scene.racks[r].pos().x() for r in racks}
    same_row = [r for r in racks if racks[r].row == "row-su1"]
    assert len(same_row) >= 2 and all(x[r] == pytest.approx((racks[r].position - 1) * 600) for r in same_row)


def test_a_box_selects_the_device_on_the_canvas_and_the_canvas_highlights_the_box(window, floor, qtbot):
    floor.scene.boxes["su1-leaf-r0"].setSelected(True)
    assert window.scene.selected_ids() == ["su1-leaf-r0"]
    assert window.inspector.selected == "su1-leaf-r0"
    window.scene.select_ids(["su1-srv02", "su2-srv01/nic0"])
    assert floor.scene.selected_ids() == ["su1-srv02", "su2-srv01"]
    assert floor.scene.boxes["su1-srv02"].pen().widthF() > 1              # drawn highlighted
    assert not floor.scene.boxes["su1-leaf-r0"].isSelected()
    assert set(window.scene.selected_ids()) == {"su1-srv02", "su2-srv01/nic0"}     # the floor did not echo back


def _metres_now(fabric, link_id):
    return CablePlan(fabric).metres(link_id)       # a fresh computation of everything, to compare with


def test_moving_a_rack_is_one_undo_step_and_its_cables_lengths_follow(window, floor):
    fabric, stack = window.document.fabric, window.document.undo_stack
    free = max(r.position for r in fabric.racks.values() if r.row == "row-su2") + 6
    assert floor.move_rack("su1-r01", "row-su2", free) is None
    assert (fabric.racks["su1-r01"].row, fabric.racks["su1-r01"].position) == ("row-su2", free)
    assert floor.scene.racks["su1-r01"].pos().x() == pytest.approx((free - 1) * 600)
    assert floor.last_change, "no cable changed length"
    link, old, new = floor.last_change[0]
    assert old != new and new == _metres_now(fabric, link) == floor.plan.metres(link)
    assert "changed length" in window.statusBar().currentMessage()
    assert stack.count() == 1 and "su1-r01" in stack.text(0)
    stack.undo()
    assert (fabric.racks["su1-r01"].row, fabric.racks["su1-r01"].position) == ("row-su1", 2)
    assert floor.plan.metres(link) == old == _metres_now(fabric, link)
    assert floor.scene.racks["su1-r01"].pos().x() == pytest.approx(600)


def test_a_refused_move_is_shown_and_changes_nothing(window, floor):
    fabric = window.document.fabric
    taken = next(r for r in fabric.racks.values() if r.row == "row-su2")
    refusal = floor.move_rack("su1-r01", "row-su2", taken.position)
    assert refusal and taken.id in refusal and taken.id in window.statusBar().currentMessage()
    assert "no row" in floor.move_rack("su1-r01", "row-nowhere", 1)
    assert fabric.racks["su1-r01"].row == "row-su1" and window.document.undo_stack.count() == 0


def test_dragging_a_rack_to_another_slot_moves_it_and_a_taken_slot_snaps_it_back(window, floor):
    fabric, scene = window.document.fabric, floor.scene
    item = scene.racks["su1-r01"]
    home = item.pos()
    target_y = scene.racks[next(r.id for r in fabric.racks.values() if r.row == "row-su2")].pos().y()
    item.setPos(7 * 600 + 40, target_y + 300)             # dropped near slot 8 of row-su2
    scene.dropped(item)
    assert (fabric.racks["su1-r01"].row, fabric.racks["su1-r01"].position) == ("row-su2", 8)
    assert item.pos().x() == pytest.approx(7 * 600) and item.pos().y() == pytest.approx(target_y)
    window.document.undo_stack.undo()
    assert item.pos() == home
    other = scene.racks["su1-net1"]
    item.setPos(other.pos())                                # onto a taken slot: refused, back home
    scene.dropped(item)
    assert item.pos() == home and fabric.racks["su1-r01"].position == 2
    assert "taken" in window.statusBar().currentMessage()


def test_the_move_rack_dialog_moves_the_selection_s_rack(window, monkeypatch):
    fabric = window.document.fabric
    seen = {}

    def answer(dialog):
        seen["rack"] = dialog.rack()
        dialog.row_box.setCurrentIndex(dialog.row_box.findData("row-su2"))
        taken = next(r for r in fabric.racks.values() if r.row == "row-su2")
        dialog.position_box.setValue(taken.position)
        seen["taken"] = (dialog.note.text(), dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled())
        dialog.position_box.setValue(20)
        return QDialog.Accepted

    monkeypatch.setattr(MoveRackDialog, "exec", answer)
    window.scene.select_ids(["su1-srv01"])
    window.actions_by_name["move_rack"].trigger()
    rack = fabric.servers["su1-srv01"].rack
    assert seen["rack"] == rack
    assert seen["taken"][0].startswith("taken by rack") and seen["taken"][1] is False
    assert (fabric.racks[rack].row, fabric.racks[rack].position) == ("row-su2", 20)
    window.document.undo_stack.undo()
    assert fabric.racks[rack].row == "row-su1"


def test_other_edits_redraw_the_floor_and_a_new_design_replaces_it(window, floor, qtbot):
    from designer.gui.commands import RemoveDeviceCommand
    fabric = window.document.fabric
    assert window.document.execute(RemoveDeviceCommand(fabric, "su1-srv01")) is None
    qtbot.waitUntil(lambda: "su1-srv01" not in floor.scene.boxes, timeout=3000)
    window.document.undo_stack.undo()
    qtbot.waitUntil(lambda: "su1-srv01" in floor.scene.boxes, timeout=3000)
    import designer
    small = designer.build(designer.spec("superpod-su", sus=1, servers_per_su=4))
    window.document.replace(small, None)
    assert set(floor.scene.racks) == set(small.racks) and "su2-srv01" not in floor.scene.boxes


def test_a_selected_device_s_cables_are_drawn_between_racks_with_their_lengths(window, floor):
    fabric = window.document.fabric
    window.scene.select_ids(["su1-srv01"])
    links = fabric.links_of("su1-srv01")
    assert len(floor.scene.runs) == len(links) > 0
    assert {item.model_link for item in floor.scene.runs} == {link.id for link in links}
    metres = sorted(CablePlan(fabric).metres(link.id) for link in links)
    assert floor.info.text().startswith(f"su1-srv01 in rack {fabric.servers['su1-srv01'].rack}")
    span = f"{metres[0]} m" if metres[0] == metres[-1] else f"{metres[0]}-{metres[-1]} m"
    assert f"{len(links)} cables, {span}" in floor.info.text()
    run = next(item for item in floor.scene.runs if item.model_link == links[0].id)
    path = run.path()
    ends = {(path.elementAt(0).x, path.elementAt(0).y), (path.elementAt(path.elementCount() - 1).x,
                                                           path.elementAt(path.elementCount() - 1).y)}
    for device in (links[0].a.split("/")[0], links[0].b.split("/")[0]):    # from one device's box to the other's
        assert any(floor.scene.boxes[device].sceneBoundingRect().contains(x, y) for x, y in ends), device
    assert str(CablePlan(fabric).metres(links[0].id)) + " m" in run.toolTip()
    window.scene.clearSelection()
    assert floor.scene.runs == []


def test_an_edit_that_moves_no_box_does_not_redraw_the_floor(window, floor, qtbot):
    from designer.gui.commands import SetNicRailCommand
    fabric = window.document.fabric
    box = floor.scene.boxes["su1-srv01"]
    nic = fabric.servers["su1-srv01"].nics[0].id
    assert window.document.execute(SetNicRailCommand(fabric, nic, 7)) is None
    qtbot.wait(400)                                       # past the redraw's debounce
    assert floor.scene.boxes["su1-srv01"] is box          # the same item: nothing was redrawn


def _mouse(view, kind, scene_point, buttons):
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication
    local = QPointF(view.mapFromScene(scene_point))
    button = Qt.LeftButton if kind != QMouseEvent.Type.MouseMove else Qt.NoButton
    event = QMouseEvent(kind, local, QPointF(view.viewport().mapToGlobal(local.toPoint())), button, buttons,
                        Qt.NoModifier)
    QApplication.sendEvent(view.viewport(), event)


def test_a_rack_dragged_with_the_mouse_through_the_view_moves(window, floor, qtbot):
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    fabric, view, scene = window.document.fabric, floor.view, floor.scene
    floor.resize(900, 600)
    view.fit()
    item = scene.racks["su1-r01"]
    grab = item.mapToScene(QPointF(item.rect().width() / 2, 20))            # the rack's empty top, no box
    assert scene.itemAt(grab, view.transform()) is item
    target = scene.racks[next(r.id for r in fabric.racks.values() if r.row == "row-su2")]
    delta = QPointF(6 * 600, target.pos().y() - item.pos().y())               # six slots on, one row down
    _mouse(view, QMouseEvent.Type.MouseButtonPress, grab, Qt.LeftButton)
    for step in (0.25, 0.5, 1.0):
        _mouse(view, QMouseEvent.Type.MouseMove, grab + delta * step, Qt.LeftButton)
    _mouse(view, QMouseEvent.Type.MouseButtonRelease, grab + delta, Qt.NoButton)
    assert (fabric.racks["su1-r01"].row, fabric.racks["su1-r01"].position) == ("row-su2", 8)
    assert window.document.undo_stack.count() == 1


def test_the_plan_stands_each_rack_on_the_floor_grid_and_follows_moves_and_the_selection(window, floor):
    fabric = window.document.fabric
    s = fabric.floor.settings
    plan = floor.plan_scene
    assert set(plan.footprints) == set(fabric.racks)
    for rack in fabric.racks.values():
        item = plan.footprints[rack.id]
        assert item.rect().height() == s.rack_depth_mm
        assert (item.pos().x(), item.pos().y()) == ((rack.position - 1) * s.rack_width_mm,
                                                    fabric.rows[rack.row].index * (s.rack_depth_mm + s.aisle_mm))
    window.scene.select_ids(["su2-srv01"])
    chosen = [r for r, item in plan.footprints.items() if item.brush().color() != plan.footprints["net-r01"].brush().color()]
    assert chosen == [fabric.servers["su2-srv01"].rack]
    assert floor.move_rack("su1-r01", "row-net", 9) is None
    assert plan.footprints["su1-r01"].pos().x() == 8 * s.rack_width_mm and plan.footprints["su1-r01"].pos().y() == 0
    plan.rack_clicked.emit("su2-r01")
    shown = floor.view.mapToScene(floor.view.viewport().rect()).boundingRect()
    rack = floor.scene.racks["su2-r01"].sceneBoundingRect()
    whole = floor.scene.itemsBoundingRect()
    assert shown.contains(rack) and shown.width() * shown.height() < whole.width() * whole.height() / 2   # zoomed in


def test_a_design_without_a_floor_says_so_and_move_rack_explains(window, floor, monkeypatch):
    opened = []
    monkeypatch.setattr(MoveRackDialog, "exec", lambda self: opened.append(1) or QDialog.Rejected)
    window.actions_by_name["new"].trigger()                # File > New: an empty design, no floor
    assert window.document.fabric.floor is None
    assert floor.built and not floor.scene.racks and floor.plan is None
    assert any("no floor" in getattr(item, "text", lambda: "")() for item in floor.scene.items())
    window.actions_by_name["move_rack"].trigger()
    assert not opened and "no racks" in window.statusBar().currentMessage()


def test_select_all_highlights_every_box_without_drawing_every_cable(window, floor, monkeypatch):
    from designer.gui.docks import floor as floor_dock
    monkeypatch.setattr(floor_dock, "MAX_RUN_DEVICES", 4)    # the small preset as if it were 1,024 servers
    window.actions_by_name["select_all"].trigger()
    assert floor.scene.selected_ids() == sorted(floor.scene.boxes)
    assert floor.scene.runs == [] and "devices selected" in floor.info.text()


def test_an_infiniband_design_has_its_floor_view_too(ib_window):
    ib_window.actions_by_name["floor_view"].trigger()
    contents = ib_window.document.fabric.rack_contents()
    assert set(ib_window.floor.scene.racks) == {rack.id for rack, _ in contents}
    assert set(ib_window.floor.scene.boxes) == {d for _, devices in contents for d, _, _ in devices}


def test_a_closed_floor_view_redraws_when_shown_again(window, floor, qtbot):
    from designer.gui.commands import RemoveDeviceCommand
    floor.close()
    assert window.document.execute(RemoveDeviceCommand(window.document.fabric, "su1-srv01")) is None
    qtbot.wait(400)
    assert "su1-srv01" in floor.scene.boxes                 # hidden: not redrawn meanwhile
    window.actions_by_name["floor_view"].trigger()
    qtbot.waitUntil(lambda: "su1-srv01" not in floor.scene.boxes, timeout=2000)
