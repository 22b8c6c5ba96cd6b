"""The window on three-tier and twin-plane designs (issue 11 phase B): the canvas, the inspector,
the gestures and the overlays."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFormLayout

from designer.cli import main
from designer.gui import style
from designer.gui.render import render_scene
from designer.storage import save
from tests.conftest import preset_fabric
from tests.gui.test_editing import _one_undo_step


def three_tier():
    """Two spine groups of two SUs under 16 cores (b200-superpod's shape, small)."""
    return preset_fabric("b200-superpod", sus=4, core_tier="on", sus_per_group=2)


def twin_plane():
    return preset_fabric("twin-plane-800g")


@pytest.fixture
def open_design(window):
    def _open(fabric):
        window.document.replace(fabric, None)
        window.view.fit()
        return window.document.fabric
    return _open


@pytest.mark.parametrize("make", [three_tier, twin_plane])
def test_the_window_draws_every_core_spine_and_plane_where_the_layout_puts_it(window, open_design, make):
    f = open_design(make())          # issue 11: a KeyError at the first core stopped the window here
    scene = window.scene
    assert scene.counts() == {"devices": len(f.servers) + len(f.switches),
                              "nics": sum(len(s.nics) for s in f.servers.values()), "links": len(f.links)}
    for switch in f.switches.values():
        item, box = scene.devices[switch.id], scene.layout.boxes[switch.id]
        assert item.isVisible() and (item.pos().x(), item.pos().y()) == (box.x, box.y)
        assert item.fabric_plane == switch.fabric_plane
    for core in f.cores():
        assert scene.devices[core.id].fill == style.CORE
    assert scene.bands.bands == scene.layout.bands and scene.bands.bands
    for nic in f.nics():
        assert scene.nics[nic.id].fabric_plane == nic.fabric_plane
    upper = [l for l in f.links.values() if l.a.split("/")[0] in f.switches and l.b.split("/")[0] in f.switches
             and "leaf" not in l.id]
    assert all(scene.links[l.id].rail == style.UPPER_TIER for l in upper)
    assert bool(upper) == bool(f.cores())


@pytest.mark.parametrize("make", [three_tier, twin_plane])
def test_render_draws_a_three_tier_and_a_twin_plane_design(qapp, tmp_path, make, capsys):
    f = make()
    out = tmp_path / "d.png"
    counts = render_scene(f, out)                 # issue 11: `render` stopped with a KeyError at the first core
    assert counts["devices"] == len(f.servers) + len(f.switches)
    image = QImage(str(out))
    colours = {image.pixel(x, y) for x in range(0, image.width(), 3) for y in range(0, image.height(), 3)}
    if f.cores():
        assert style.CORE.rgb() in colours
    design = tmp_path / "d.fabric.yaml"
    save(f, design)
    assert main(["render", str(design), "-o", str(tmp_path / "d.svg")]) == 0
    svg = (tmp_path / "d.svg").read_text()
    assert all(c.id in svg for c in f.cores()) and ("cores" in svg) == bool(f.cores())


def test_connect_spines_to_their_cores_is_one_undo_step_and_addresses_every_uplink(window, open_design):
    from PySide6.QtCore import QPointF
    from designer.gui.context_menu import context_menu
    from designer.storage import dumps
    f = open_design(three_tier())
    for spine in ("sg1-spine-02", "sg2-spine-02"):
        for link in [l for l in f.links_of(spine) if "core" in l.id]:
            f.disconnect(link.id)
    window.scene.select_ids(["sg1-spine-02", "sg2-spine-02"])
    menu = context_menu(window, "sg2-spine-02", QPointF())
    before = dumps(f)
    next(a for a in menu.actions() if a.text() == "Connect 2 spines to their cores").trigger()
    uplinks = [l for s in ("sg1-spine-02", "sg2-spine-02") for l in f.links_of(s) if "core" in l.id]
    assert len(uplinks) == 2 * 32 and {f.switches[l.a.split("/")[0]].group for l in uplinks} == {2}
    assert all(l.a in f.addresses and l.b in f.addresses for l in uplinks)
    _one_undo_step(window, before)
    window.document.undo_stack.undo()
    window.document.undo_stack.clear()
    window.scene.select_ids(["su1-leaf-r0"])
    assert not window.edit.mesh_to_cores()
    assert "select spines" in window.statusBar().currentMessage()


def _type(field, text: str) -> None:
    field.setText(text)
    field.editingFinished.emit()


def _form(inspector) -> dict[str, str]:
    form, out = inspector.form, {}
    for row in range(form.rowCount()):
        label = form.itemAt(row, QFormLayout.LabelRole)
        field = form.itemAt(row, QFormLayout.FieldRole)
        if label is not None and field is not None:
            widget = field.widget()
            out[label.widget().text()] = widget.text() if hasattr(widget, "text") else ""
    return out


def test_the_inspector_shows_a_cores_group_and_plane_and_edits_them_as_undoable_steps(window, open_design, qtbot):
    from designer.storage import dumps
    f = open_design(three_tier())
    window.scene.select_ids(["cg3-core-01"])
    shown = _form(window.inspector)
    assert shown["Role"] == "core (super-spine)" and shown["Core group"] == "3" and shown["Fabric plane"] == "0"
    assert shown["ASN"] == str(f.settings.core_asn)
    before = dumps(f)
    _type(window.inspector.fields["group"], "5")
    assert f.switches["cg3-core-01"].group == 5 and window.document.undo_stack.count() == 1
    assert window.document.undo_stack.text(0) == "Put cg3-core-01 in core group 5"
    window.document.undo_stack.undo()
    assert dumps(f) == before
    window.scene.select_ids(["su3-leaf-r0"])
    assert _form(window.inspector)["Spine group"] == "2"
    _type(window.inspector.fields["group"], "0")                        # "none"
    assert f.switches["su3-leaf-r0"].group is None
    assert window.inspector.fields["group"].text() == "none"
    ungrouped = dumps(f)
    window.inspector.fields["fabric_plane"].setText("1")      # a plane this one-plane design lacks (RD049)
    window.inspector.fields["fabric_plane"].editingFinished.emit()
    assert dumps(f) == ungrouped and "one fabric plane" in window.inspector.error.text()
    twin = open_design(twin_plane())
    window.scene.select_ids(["pl0-su1-leaf-r0"])
    _type(window.inspector.fields["fabric_plane"], "1")                  # twin-plane: plane 1 exists
    assert twin.switches["pl0-su1-leaf-r0"].fabric_plane == 1 and window.inspector.error.text() == ""


def test_the_inspector_shows_a_nics_fabric_plane(window, open_design):
    open_design(twin_plane())
    window.view.centre_on_ids(["su1-srv01"])              # zoomed in: NICs are drawn (and selectable)
    window.scene.select_ids(["su1-srv01/nic1"])
    shown = _form(window.inspector)
    assert shown["Fabric plane"].startswith("1")
    window.scene.select_ids(["pl1-su1-leaf-r0"])
    shown = _form(window.inspector)
    assert shown["Fabric plane"] == "1" and shown["Spine group"] == "none"


def _press_and_hover(qtbot, view, start, end, modifier):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    vp = view.viewport()
    QTest.mousePress(vp, Qt.LeftButton, modifier, start)
    for i in range(1, 7):
        QTest.mouseMove(vp, start + (end - start) * i / 6)
    qtbot.wait(1)


def _release(qtbot, view, end, modifier):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    QTest.mouseRelease(view.viewport(), Qt.LeftButton, modifier, end)
    qtbot.wait(1)


def _point(view, item):
    return view.mapFromScene(item.sceneBoundingRect().center())


def test_a_leaf_dragged_onto_another_spine_groups_spine_shows_the_checks_verdict_before_the_drop(window, open_design,
                                                                                              qtbot):
    from PySide6.QtCore import Qt
    from designer.gui.interactions.base import BAD, OK
    f = open_design(three_tier())
    for switch in ("su1-leaf-r0", "sg2-spine-01", "sg1-spine-01"):
        f.disconnect(f.links_of(switch)[-1].id)
    window.document.undo_stack.clear()
    scene, view = window.scene, window.view
    view.centre_on_ids(["su1-leaf-r0", "sg2-spine-01"])
    start, wrong = _point(view, scene.devices["su1-leaf-r0"]), _point(view, scene.devices["sg2-spine-01"])
    _press_and_hover(qtbot, view, start, wrong, Qt.ShiftModifier)
    message = window.statusBar().currentMessage()
    assert "RD043 would report" in message and "spine group 2" in message, message
    assert view._interaction.line.item.pen().color() == BAD
    right = _point(view, scene.devices["sg1-spine-01"])
    for i in range(1, 4):
        from PySide6.QtTest import QTest
        QTest.mouseMove(view.viewport(), wrong + (right - wrong) * i / 3)
    assert view._interaction.line.item.pen().color() == OK
    assert window.statusBar().currentMessage().startswith("drop to cable su1-leaf-r0/")
    _release(qtbot, view, right, Qt.ShiftModifier)
    assert window.document.undo_stack.count() == 1 and "the checks report" not in window.statusBar().currentMessage()


def test_a_nic_dragged_onto_the_other_planes_leaf_is_red_before_the_drop_and_reported_after(window, open_design, qtbot):
    from PySide6.QtCore import Qt
    from designer.gui.interactions.base import BAD
    f = open_design(twin_plane())
    f.disconnect(f.link_at("su1-srv02/nic0").id)            # room on plane 0's rail-0 leaf
    window.document.undo_stack.clear()
    scene, view = window.scene, window.view
    view.centre_on_ids(["su1-srv01", "pl0-su1-leaf-r0"])
    scene.clearSelection()
    nic = "su1-srv01/nic1"                                  # rail 0 on plane 1
    start, target = _point(view, scene.nics[nic]), _point(view, scene.devices["pl0-su1-leaf-r0"])
    _press_and_hover(qtbot, view, start, target, Qt.NoModifier)
    message = window.statusBar().currentMessage()
    assert "RD044 would report" in message and "fabric plane 1" in message, message
    assert view._interaction.line.item.pen().color() == BAD
    _release(qtbot, view, target, Qt.NoModifier)
    assert f.peer(nic).startswith("pl0-su1-leaf-r0/")
    assert "the checks report RD044" in window.statusBar().currentMessage()
    findings = window.checks.run_now()
    assert any(x.code == "RD044" and f.link_at(nic).id in x.ids for x in findings)
    assert scene.links[f.link_at(nic).id].mark == "error"


def _drop_model(window, kind, model_id, scene_point):
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtGui import QDragEnterEvent, QDropEvent
    from PySide6.QtWidgets import QApplication
    palette = window.palette.list
    row = next(i for i in range(palette.count()) if palette.item(i).data(Qt.UserRole) == (kind, model_id))
    mime = palette.mimeData([palette.item(row)])
    target = window.view.mapFromScene(scene_point)
    vp = window.view.viewport()
    QApplication.sendEvent(vp, QDragEnterEvent(target, Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier))
    QApplication.sendEvent(vp, QDropEvent(QPointF(target), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier))


def test_palette_cores_spines_and_leaves_land_in_the_group_and_plane_under_the_mouse(window, open_design):
    from PySide6.QtCore import QPointF
    f = open_design(three_tier())
    layout = window.scene.layout
    band = next(b for b in layout.bands if b.kind == "cores" and b.group == 3)
    window.view.show_rect(window.scene.devices["cg3-core-01"].sceneBoundingRect())
    _drop_model(window, "core", "nvidia-sn5400", QPointF(band.box.x + band.box.w - 2, band.box.cy))
    assert f.switches["cg3-core-02"].group == 3 and f.switches["cg3-core-02"].role.value == "core"
    assert f.asns["cg3-core-02"] == f.settings.core_asn and "cg3-core-02/lo" in f.addresses
    assert "core group 3" in window.statusBar().currentMessage()
    assert window.scene.layout.band_at(*(lambda b: (b.cx, b.cy))(window.scene.layout.boxes["cg3-core-02"]),
                                        "cores").group == 3
    pod = next(b for b in layout.bands if b.kind == "pod" and b.group == 2)
    spines = next(b for b in layout.bands if b.kind == "spines" and b.group == 2)
    window.view.fit()
    _drop_model(window, "spine", "nvidia-sn5400", QPointF(spines.box.cx, spines.box.cy))
    added = sorted(set(f.switches) - {s.id for s in three_tier().switches.values()} - {"cg3-core-02"})
    assert added == ["sg2-spine-17"] and f.switches["sg2-spine-17"].group == 2
    assert f.asns["sg2-spine-17"] == f.asns["sg2-spine-01"]                  # the group's shared ASN
    assert pod.box.contains(window.scene.layout.boxes["sg2-spine-17"].cx, window.scene.layout.boxes["sg2-spine-17"].cy)
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    assert "cg3-core-02" not in f.switches and "sg2-spine-17" not in f.switches


def test_a_leaf_dropped_on_a_plane_1_lane_is_a_plane_1_leaf_and_a_pasted_server_keeps_its_planes(window, open_design):
    from PySide6.QtCore import QPointF
    f = open_design(twin_plane())
    lane = next(l for l in window.scene.layout.lanes if (l.su, l.rail, l.fabric_plane) == (1, 3, 1))
    _drop_model(window, "leaf", "nvidia-sn5600", QPointF(lane.box.cx, lane.box.y + lane.box.h - 4))
    leaf = f.switches["pl1-su1-leaf-r3-2"]
    assert (leaf.rail, leaf.fabric_plane, leaf.su) == (3, 1, 1)
    clip = window.edit.copy(["su1-srv01"])
    assert window.edit.paste(su=1, clip=type(clip).from_json(clip.to_json()))
    pasted = f.servers["su1-srv65"]
    assert [n.fabric_plane for n in pasted.nics] == [n.fabric_plane for n in f.servers["su1-srv01"].nics]
    assert {n.fabric_plane for n in pasted.nics} == {0, 1}


def test_the_legend_lists_the_fabric_planes_and_a_click_shows_one_plane_alone(window, open_design):
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtTest import QTest
    from designer.gui.context_menu import context_menu
    f = open_design(twin_plane())
    legend, scene = window.legend, window.scene
    rows = legend._lines()
    assert [r[2] for r in rows if r[0] == "plane"] == ["plane 0 (plain)", "plane 1"]
    row = next(i for i, r in enumerate(rows) if r[:2] == ("plane", 1))
    QTest.mouseClick(legend, Qt.LeftButton, Qt.NoModifier, QPoint(20, 6 + 16 * row + 8))
    assert window.marks.plane == 1 and legend.highlighted_plane == 1
    assert scene.devices["pl0-su1-leaf-r0"].dimmed and not scene.devices["pl1-su1-leaf-r0"].dimmed
    assert scene.devices["pl0-spine-01"].dimmed and not scene.devices["su1-srv01"].dimmed
    assert scene.nics["su1-srv01/nic0"].dimmed and not scene.nics["su1-srv01/nic1"].dimmed
    assert scene.links[f.link_at("su1-srv01/nic0").id].dimmed and not scene.links[f.link_at("su1-srv01/nic1").id].dimmed
    uplink = next(l for l in f.links_of("pl1-su1-leaf-r0") if "spine" in l.id)
    assert not scene.links[uplink.id].dimmed
    QTest.mouseClick(legend, Qt.LeftButton, Qt.NoModifier, QPoint(20, 6 + 16 * row + 8))
    assert window.marks.plane is None and not scene.devices["pl0-su1-leaf-r0"].dimmed
    menu = context_menu(window, "pl1-spine-02", QPointF())
    next(a for a in menu.actions() if a.text() == "Show only fabric plane 1").trigger()
    assert window.marks.plane == 1 and scene.devices["pl0-spine-02"].dimmed
    window.actions_by_name["clear_highlight"].trigger()
    assert window.marks.plane is None and not scene.devices["pl0-spine-02"].dimmed
    open_design(three_tier())
    assert not [r for r in legend._lines() if r[0] == "plane"]          # one plane: nothing to choose


def test_hovering_a_core_spine_or_plane_port_says_its_group_and_plane(qapp):
    from designer.gui.tooltips import tooltip
    f = three_tier()
    core = tooltip(f, "cg2-core-01")
    assert "core, core group 2" in core and "Shift+drag to a spine" in core and str(f.settings.core_asn) in core
    assert "spine, spine group 2" in tooltip(f, "sg2-spine-01")
    t = twin_plane()
    assert "fabric plane 1" in tooltip(t, "su1-srv01/nic1") and "fabric plane 1" in tooltip(t, "pl1-spine-01")
    assert "fabric plane" not in tooltip(f, "su1-srv01/nic1")


def test_a_path_between_spine_groups_is_drawn_through_its_core_hop(window, open_design):
    from designer.analysis.paths import trace
    from designer.analysis.routing import Forwarding
    f = open_design(preset_fabric("b200-superpod", sus=4, core_tier="on", sus_per_group=2, servers_per_su=4))
    dock, scene = window.analysis, window.scene
    dock.source.setText("su1-srv01:nic0")
    dock.target.setText("su3-srv02:nic0")
    assert dock.trace()
    expected = trace(Forwarding(f), "su1-srv01/nic0", "su3-srv02/nic0")
    hops = [h.device for h in expected.request.hops]
    cores = [h for h in hops if h in f.switches and f.switches[h].role.value == "core"]
    assert len(cores) == 1 and hops.index(cores[0]) == 3                 # leaf, spine, core, spine, leaf
    on_path = {l for h in expected.request.hops + expected.reply.hops for l in h.links}
    spine_core = {l for l in on_path if "core" in l}
    assert spine_core and all(scene.links[l].overlay == "path" and not scene.links[l].dimmed for l in spine_core)
    nodes = {h.device for h in expected.request.hops + expected.reply.hops}
    assert all(scene.devices[c.id].dimmed != (c.id in nodes) for c in f.cores())
    top = dock.hops.topLevelItem(0).child(0)
    assert cores[0] in [top.child(i).text(0).split(". ")[1] for i in range(top.childCount())]


def test_collision_loads_colour_the_spine_core_cables(window, open_design, qtbot):
    from designer.analysis.collisions import analyze
    from designer.analysis.flows import flows
    from designer.analysis.routing import Forwarding
    from designer.gui.analysis_worker import link_utilisation
    f = open_design(preset_fabric("b200-superpod", sus=4, core_tier="on", sus_per_group=2, servers_per_su=4))
    dock, scene = window.analysis, window.scene
    dock.pattern.setCurrentText("alltoall")
    dock.routing.setCurrentText("ppd")
    dock.trials.setValue(2)
    assert dock.analyze() and dock.wait(60_000) and dock.result is not None, dock.analysis_note.text()
    expected = link_utilisation(f, analyze(Forwarding(f), flows(f, "alltoall"), "ppd", 2, 0, "alltoall"))
    assert dock.result["utilisation"] == expected
    upper = {l for l in expected if "core" in l}
    assert upper and all(scene.links[l].overlay.startswith("load") for l in upper)
    assert {i for i, item in scene.links.items() if item.overlay and item.overlay.startswith("load")} == set(expected)


def test_the_diagram_is_the_same_bytes_from_one_run_to_the_next(tmp_path):
    """The cable layers drew in the order of a set of ids, which changes with Python's hash seed, so two
    runs of `render` on one design wrote different files."""
    import os
    import subprocess
    import sys
    design = tmp_path / "d.fabric.yaml"
    save(three_tier(), design)
    outs = []
    for seed in ("1", "2"):
        out = tmp_path / f"d{seed}.svg"
        env = {**os.environ, "PYTHONHASHSEED": seed, "SOURCE_DATE_EPOCH": "1700000000", "QT_QPA_PLATFORM": "offscreen"}
        subprocess.run([sys.executable, "-m", "designer", "render", str(design), "-o", str(out)], env=env, check=True,
                       capture_output=True)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_a_cable_drawn_while_a_plane_is_shown_alone_is_dimmed_by_its_own_plane(window, open_design):
    from designer.gui.commands import MoveNicCommand
    f = open_design(twin_plane())
    window.nav.highlight_plane(1)
    scene = window.scene
    for nic, leaf in (("su1-srv01/nic0", "pl0-su1-leaf-r0"), ("su1-srv01/nic1", "pl1-su1-leaf-r0")):
        f.disconnect(f.link_at(nic).id)
        assert window.document.execute(MoveNicCommand(f, nic, leaf)) is None
        item = scene.links[f.link_at(nic).id]
        dim = nic.endswith("nic0")                        # plane 0: not the plane shown
        assert item.dimmed == dim
        assert scene.overview.key_of(item.model_id)[0] == ("dim" if dim else "plain")
