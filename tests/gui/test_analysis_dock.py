"""The CLI's analysis in the window: a path trace drawn hop by hop, collisions as load colours."""

from __future__ import annotations

from designer.analysis.collisions import analyze
from designer.analysis.flows import flows
from designer.analysis.paths import trace
from designer.analysis.routing import Forwarding
from designer.gui.analysis_worker import link_utilisation


def test_a_traced_path_is_drawn_hop_by_hop_and_the_rest_dimmed(window):
    dock, scene, f = window.analysis, window.scene, window.document.fabric
    window.nav.trace_path("su1-srv01:nic0")                     # the context menu's "Trace a path from here"
    assert dock.source.text() == "su1-srv01:nic0" and dock.isVisible()
    dock.target.setText("su2-srv03:nic0")
    assert dock.trace()
    expected = trace(Forwarding(f), "su1-srv01/nic0", "su2-srv03/nic0")
    hops = [h.device for h in expected.request.hops]
    assert hops[0] == "su1-srv01" and hops[-1] == "su2-srv03" and any("spine" in h for h in hops)
    on_path = {l for h in expected.request.hops + expected.reply.hops for l in h.links}
    assert {i for i, item in scene.links.items() if item.overlay == "path"} == on_path
    assert all(scene.links[i].dimmed for i in scene.links if i not in on_path)
    assert not scene.devices["su1-leaf-r0"].dimmed and scene.devices["su1-leaf-r1"].dimmed
    top = dock.hops.topLevelItem(0)
    assert top.text(0) == "su1-srv01/nic0 -> su2-srv03/nic0" and top.text(2) == "ok"
    assert [top.child(0).child(i).text(0).split(". ")[1] for i in range(top.child(0).childCount())] == hops
    dock.clear()
    assert not any(item.overlay or item.dimmed for item in scene.links.values())


def test_a_bad_trace_request_is_one_line_in_the_dock(window):
    dock = window.analysis
    dock.source.setText("no-such-host")
    dock.target.setText("su1-srv02")
    assert not dock.trace()
    assert "no server is called 'no-such-host'" in dock.trace_note.text()


def test_collision_analysis_runs_in_a_child_process_and_colours_the_cables_by_load(window, qtbot):
    dock, scene, f = window.analysis, window.scene, window.document.fabric
    dock.pattern.setCurrentText("rail-ring")
    dock.routing.setCurrentText("ecmp")
    dock.trials.setValue(5)
    assert dock.analyze() and dock.running()
    assert dock.wait(60_000), "the analysis child did not answer"
    assert not dock.running() and dock.result is not None, dock.analysis_note.text()
    expected = link_utilisation(f, analyze(Forwarding(f), flows(f, "rail-ring"), "ecmp", 5, 0, "rail-ring"))
    assert dock.result["utilisation"] == expected
    loaded = {i for i, item in scene.links.items() if item.overlay and item.overlay.startswith("load")}
    assert loaded == set(expected)
    assert "pattern rail-ring, routing ecmp" in dock.table.toPlainText()
    assert any(text.startswith("load") for _, text, _ in window.legend.extra)


def test_an_analysis_can_be_cancelled(window):
    dock = window.analysis
    dock.pattern.setCurrentText("alltoall")
    dock.trials.setValue(1000)
    assert dock.analyze()
    dock.cancel()
    assert not dock.running() and dock.analysis_note.text() == "analysis cancelled"


def test_compare_modes_draws_every_mode_of_the_collective_on_one_chart(window):
    """Compare modes runs in the child and the Modes tab's chart carries one bar per mode in each series,
    with the heights of the analysis run here on the same design."""
    from designer.analysis.chart import MODE_SERIES
    from designer.analysis.compare import compare
    dock, f = window.analysis, window.document.fabric
    dock.pattern.setCurrentText("alltoall")
    dock.trials.setValue(10)
    dock.qps.setValue(2)
    assert dock.compare() and dock.running()
    assert dock.wait(60_000), "the comparison child did not answer"
    assert not dock.running() and dock.tabs.currentWidget() is dock.modes, dock.analysis_note.text()
    series = dock.modes.series()
    expected = compare(Forwarding(f), flows(f, "alltoall"), 2, 10, 0, "alltoall")
    assert series["modes"] == ["ppd", "ecmp", "qp-hash x2", "adaptive"]
    assert series[MODE_SERIES[0]] == [r.fraction_mean for r in expected]
    assert series[MODE_SERIES[1]] == [r.uplink_load_mean for r in expected]
    assert series[MODE_SERIES[0]][-1] == 1.0                          # adaptive: the even-split ideal
    assert "qp-hash x2" in dock.modes.table.toPlainText()
    assert dock.analyze_button.isEnabled() and dock.compare_button.isEnabled()


def test_the_dock_runs_qp_hash_with_its_qp_count(window):
    dock = window.analysis
    assert [dock.routing.itemText(i) for i in range(dock.routing.count())] == ["ppd", "ecmp", "qp-hash", "adaptive"]
    dock.pattern.setCurrentText("rail-ring")
    dock.routing.setCurrentText("qp-hash")
    dock.qps.setValue(3)
    dock.trials.setValue(4)
    assert dock.analyze() and dock.wait(60_000), dock.analysis_note.text()
    assert "routing qp-hash (3 QPs per flow, each hashed)" in dock.table.toPlainText()
