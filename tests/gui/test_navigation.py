"""Findings that cross-probe, navigation at scale, and the smaller things of issue 10 (items 8-10)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from designer.gui.commands import MoveNicCommand
from designer.gui.tooltips import tooltip


def _findings_after(window, qtbot, command):
    window.document.execute(command)
    window.checks.run_now()
    qtbot.wait(1)


def test_a_click_on_a_finding_selects_centres_and_zooms_onto_its_objects(window, qtbot):
    _findings_after(window, qtbot, MoveNicCommand(window.document.fabric, "su1-srv01/nic0", "su1-leaf-r1"))
    window.view.fit()
    tree = window.findings.tree
    row = next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount()) if tree.topLevelItem(i).text(1) == "RD004")
    zoom_before = window.view.scale_now()
    rect = tree.visualItemRect(row)
    QTest.mouseClick(tree.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
    assert set(window.scene.selected_ids()) >= {"su1-srv01/nic0"}
    assert window.view.scale_now() > zoom_before
    nic = window.scene.nics["su1-srv01/nic0"].sceneBoundingRect().center()
    assert window.view.visible_scene_rect().contains(nic)


def test_next_and_previous_walk_the_errors_and_the_severity_buttons_filter(window, qtbot):
    f = window.document.fabric
    f.remove_device("su1-srv04")
    window.document.execute(MoveNicCommand(f, "su1-srv01/nic0", "su1-leaf-r1"))
    window.document.execute(MoveNicCommand(f, "su1-srv02/nic0", "su1-leaf-r2"))
    f.disconnect(f.link_at("su2-srv01/nic3").id)              # a warning (RD005)
    window.checks.run_now()
    dock = window.findings
    errors = [f for f in window.checks.findings if f.severity.value == "error"]
    assert len(errors) >= 2
    first = dock.step(1)
    second = dock.step(1)
    assert first is not second and first.data(1, Qt.UserRole) == second.data(1, Qt.UserRole) == "error"
    assert dock.step(-1) is first
    assert set(first.data(0, Qt.UserRole)) & set(window.scene.selected_ids())
    warnings = [r for r in dock.visible_rows() if r.data(1, Qt.UserRole) == "warning"]
    assert warnings
    dock.show_severity["warning"].setChecked(False)
    assert not [r for r in dock.visible_rows() if r.data(1, Qt.UserRole) == "warning"]
    dock.filter.setText("su1-srv02")
    assert all("su1-srv02" in " ".join(r.data(0, Qt.UserRole)) for r in dock.visible_rows())


def test_every_finding_that_names_objects_marks_them_by_severity(window, qtbot):
    f = window.document.fabric
    f.disconnect(f.link_at("su2-srv01/nic3").id)              # RD005 warning on the NIC
    _findings_after(window, qtbot, MoveNicCommand(f, "su1-srv01/nic0", "su1-leaf-r1"))
    assert window.scene.nics["su2-srv01/nic3"].mark == "warning"
    assert window.scene.links[f.link_at("su1-srv01/nic0").id].red
    named = {i for x in window.checks.findings for i in x.ids}
    marked = {mid for mid in window.marks.marks}
    for ident in named:
        item = window.scene.item_for_finding_id(ident)
        assert item is None or item.model_id in marked, ident


def test_find_selects_and_centres_by_id_hostname_or_nic(window, qtbot):
    from designer.gui.commands import SetHostnameCommand
    window.document.execute(SetHostnameCommand(window.document.fabric, "su2-srv03", "gpu-b03"))
    window.actions_by_name["find"].trigger()
    window.find_bar.setText("gpu-b03")
    assert window.find_bar.search() == ["su2-srv03"]
    assert window.scene.selected_ids() == ["su2-srv03"]
    assert window.view.visible_scene_rect().contains(window.scene.devices["su2-srv03"].sceneBoundingRect().center())
    window.find_bar.setText("su2-srv03/nic2")
    assert window.find_bar.search() == ["su2-srv03/nic2"]
    window.find_bar.setText("leaf-r3")
    assert window.find_bar.search() == ["su1-leaf-r3", "su2-leaf-r3"]
    window.find_bar.setText("nothing-like-this")
    assert window.find_bar.search() == [] and "nothing is called" in window.statusBar().currentMessage()


def test_clicking_a_rail_in_the_legend_highlights_it_and_the_legend_stays_put(window, qtbot):
    legend = window.legend
    assert legend.isVisible() and legend.rails[:2] == [(0, "rail0"), (1, "rail1")]
    where = legend.pos()
    QTest.mouseClick(legend, Qt.LeftButton, Qt.NoModifier, QPoint(20, 6 + 16 * 2 + 8))     # the second rail row
    assert window.marks.rail == 1
    scene = window.scene
    assert not scene.devices["su1-leaf-r1"].dimmed and scene.devices["su1-leaf-r0"].dimmed
    assert not scene.nics["su1-srv01/nic1"].dimmed and scene.nics["su1-srv01/nic0"].dimmed
    f = window.document.fabric
    assert scene.links[f.link_at("su1-srv01/nic0").id].dimmed and not scene.links[f.link_at("su1-srv01/nic1").id].dimmed
    window.view.zoom(3)
    window.view.horizontalScrollBar().setValue(window.view.horizontalScrollBar().value() + 300)
    assert legend.pos() == where                               # a widget over the canvas, not painted into it
    QTest.mouseClick(legend, Qt.LeftButton, Qt.NoModifier, QPoint(20, 6 + 16 * 2 + 8))
    assert window.marks.rail is None and not scene.devices["su1-leaf-r0"].dimmed


def test_an_su_collapses_into_one_block_and_expands_again(window):
    scene, f = window.scene, window.document.fabric
    window.scene.select_ids(["su2-srv01"])
    window.actions_by_name["collapse_su"].trigger()
    assert scene.collapsed == {2}
    assert not scene.devices["su2-srv01"].isVisible() and scene.devices["su2-leaf-r0"].isVisible()
    inside = f.link_at("su2-srv01/nic0").id
    uplink = next(l.id for l in f.links_of("su2-leaf-r0") if "spine" in l.id)
    assert not scene.links[inside].isVisible() and inside not in scene.overview.drawn()
    assert scene.links[uplink].isVisible()
    leaf_top = scene.devices["su2-leaf-r0"].sceneBoundingRect().top()
    block = scene.layout.collapsed[2]
    assert block.y <= leaf_top <= block.y + block.h
    window.find_bar.setText("su2-srv02")
    window.find_bar.search()                                   # finding something hidden expands its SU
    assert scene.collapsed == set() and scene.devices["su2-srv02"].isVisible()
    window.nav.collapse_selection({1, 2})
    window.actions_by_name["expand_all"].trigger()
    assert scene.collapsed == set() and all(item.isVisible() for item in scene.devices.values())


def test_fit_uses_the_window_beside_the_legend(window):
    window.view.fit()
    content = window.view.mapFromScene(window.scene.content_rect()).boundingRect()
    viewport = window.view.viewport().rect()
    assert content.width() >= 0.85 * (viewport.width() - window.legend.width() - 20) or \
        content.height() >= 0.85 * viewport.height()
    assert content.left() >= window.legend.geometry().right() - 2


def test_minimap_shows_when_zoomed_in_and_a_click_moves_the_view(window, qtbot):
    minimap, view = window.minimap, window.view
    view.fit()
    assert not minimap.isVisible()                             # everything is in view: nothing to navigate
    view.zoom(6)
    assert minimap.isVisible()
    before = view.visible_scene_rect().center()
    QTest.mouseClick(minimap, Qt.LeftButton, Qt.NoModifier, QPoint(minimap.width() - 12, minimap.height() // 2))
    after = view.visible_scene_rect().center()
    assert after.x() > before.x() + 50


def test_middle_button_pan_moves_the_view_even_at_fit(window, qtbot):
    view = window.view
    view.fit()
    vp = view.viewport()
    start = vp.rect().center()
    before = view.visible_scene_rect().center()
    QTest.mousePress(vp, Qt.MiddleButton, Qt.NoModifier, start)
    QTest.mouseMove(vp, start + QPoint(120, 60))
    QTest.mouseRelease(vp, Qt.MiddleButton, Qt.NoModifier, start + QPoint(120, 60))
    after = view.visible_scene_rect().center()
    assert after.x() < before.x() - 20 and after.y() < before.y() - 10


def test_a_nic_tooltip_says_address_rail_speed_and_peer_port(window):
    f = window.document.fabric
    text = tooltip(f, "su1-srv01/nic2", window.checks.run_now())
    assert f.addresses["su1-srv01/nic2"] in text and "rail 2" in text and "400G" in text
    assert f"cabled to: {f.peer('su1-srv01/nic2')}" in text
    assert window.scene.tooltip_for("su1-srv01/nic2") == text
    leaf = tooltip(f, "su1-leaf-r0")
    assert "loopback: 10.255." in leaf and "ASN 42" in leaf and "ports cabled" in leaf
    cable = tooltip(f, f.link_at("su1-srv01/nic2").id)
    assert "400G" in cable and f.addresses["su1-srv01/nic2"] in cable
    assert "drag onto a switch" in text and "drag an end" in cable


def test_escape_puts_an_inspector_field_back(window, qtbot):
    window.scene.select_ids(["su1-srv01"])
    edit = window.inspector.fields["hostname"]
    edit.setFocus()
    edit.setText("bad name")
    edit.editingFinished.emit()
    assert "c62828" in edit.styleSheet()
    QTest.keyClick(edit, Qt.Key_Escape)
    assert edit.text() == "su1-srv01" and edit.styleSheet() == "" and window.inspector.error.text() == ""
    assert window.document.fabric.servers["su1-srv01"].hostname == "su1-srv01"


def test_preview_dock_finds_in_the_file_and_copies_it(window):
    window.nav.show_config("su1-leaf-r0")
    preview = window.preview
    assert preview.files and preview.text.toPlainText()
    word = preview.text.toPlainText().split()[3]
    preview.search.setText(word)
    assert preview.find_next() and preview.text.textCursor().selectedText() == word
    assert preview.copy() == preview.text.toPlainText() == QGuiApplication.clipboard().text()
    assert preview.width() >= 300


def test_status_bar_shows_from_the_start_with_the_design_counts(window):
    assert window.statusBar().isVisible() and window.statusBar().currentMessage()
    assert "8 servers" in window.counts_label.text() and "cables" in window.counts_label.text()


def test_deleting_a_server_reroutes_only_the_cables_that_moved(window, monkeypatch):
    """Issue 10 item 2: every add, delete and leaf re-rail reset every cable's geometry."""
    from designer.gui.commands import RemoveDeviceCommand, SetSwitchRailCommand
    from designer.gui.items.link import LinkItem
    f = window.document.fabric
    window.view.zoom(1 / window.view.scale_now())
    moved = []
    original = LinkItem.prepareGeometryChange
    monkeypatch.setattr(LinkItem, "prepareGeometryChange", lambda self: moved.append(self.model_id) or original(self))
    later = [n.id for s in ("su1-srv03", "su1-srv04") for n in f.servers[s].nics]
    window.document.execute(RemoveDeviceCommand(f, "su1-srv02"))
    assert set(moved) == {f.link_at(n).id for n in later}             # the servers after it shift, nothing else
    moved.clear()
    window.document.execute(SetSwitchRailCommand(f, "su2-leaf-r3", 2))
    # its own cables, and those of the leaf it now stacks under (their last legs go round it)
    assert set(moved) <= {l.id for leaf in ("su2-leaf-r3", "su2-leaf-r2") for l in f.links_of(leaf)} and moved
    moved.clear()
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    could = {l.id for d in ("su2-leaf-r3", "su2-leaf-r2", "su1-srv02", "su1-srv03", "su1-srv04") for l in f.links_of(d)}
    assert set(moved) <= could and len(could) < len(f.links) / 2


def test_arrow_keys_pan_and_plus_minus_zoom_without_scroll_bars(window):
    view = window.view
    view.zoom(4)
    before = view.visible_scene_rect().center()
    for _ in range(5):
        QTest.keyClick(view, Qt.Key_Right)
    assert view.visible_scene_rect().center().x() > before.x()
    scale = view.scale_now()
    QTest.keyClick(view, Qt.Key_Plus)
    assert view.scale_now() > scale
    QTest.keyClick(view, Qt.Key_F)
    assert view.auto_fit
