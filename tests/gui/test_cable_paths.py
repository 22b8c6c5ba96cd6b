"""Cables are drawn around the device boxes, never through one they do not end at (issue 21), on
the scene's own items: every preset's shape, a collapsed SU, a leaf stacked on another's lane."""

from __future__ import annotations

import pytest

from designer.gui.cable_paths import crossings
from designer.gui.items import LinkItem
from designer.gui.items.overview import _segments
from designer.gui.scene import FabricScene
from designer.planning.build import build
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset


def _design(preset: str, sus: int):
    return build(load_preset(preset).spec(sus=sus), builtin_catalog())


def _crossed(scene: FabricScene) -> dict[str, list[str]]:
    layout = scene.layout
    boxes = {d: b for d, b in layout.boxes.items() if d not in layout.hidden}
    out = {}
    for link_id, item in scene.links.items():
        if not item.isVisible():
            continue
        link = scene.fabric.links[link_id]
        own = {link.a.partition("/")[0], link.b.partition("/")[0]}
        hit = crossings(item.points(), boxes, own)
        if hit:
            out[link_id] = hit
    return out


@pytest.mark.parametrize("preset, sus", [("superpod-su", 2), ("twin-plane-800g", 2), ("b200-superpod", 4),
                                         ("rail-optimized-64x4", 2), ("superpod-h100-ib", 2), ("default", 2)])
def test_no_drawn_cable_passes_through_a_box_it_does_not_end_at(qapp, preset, sus):
    scene = FabricScene(_design(preset, sus))
    assert scene.links and _crossed(scene) == {}


def test_a_straight_line_would_cross_boxes_so_the_judge_can_fail(qapp):
    scene = FabricScene(_design("superpod-su", 1))
    item = scene.links[scene.fabric.link_at("su1-srv20/nic3").id]
    straight = (item.points()[0], item.points()[-1])
    boxes = scene.layout.boxes
    assert crossings(straight, boxes, {"su1-srv20", "su1-leaf-r3"})          # through the servers above it
    assert not crossings(item.points(), boxes, {"su1-srv20", "su1-leaf-r3"})


def test_a_collapsed_su_and_a_leaf_stacked_in_a_taken_lane_still_route_round_every_box(qapp):
    f = _design("superpod-su", 2)
    scene = FabricScene(f)
    f.set_switch_rail("su2-leaf-r3", 2)                 # now under su2-leaf-r2 in lane 2: cables go round it
    assert _crossed(scene) == {}
    scene.set_collapsed({1})
    assert _crossed(scene) == {}


def test_the_cables_of_one_rail_run_as_one_bus(qapp):
    """A rail's cables of one SU share their gutter and aisle segments: the cable layer draws each
    shared segment once, so it holds far fewer segments than the paths have."""
    scene = FabricScene(_design("superpod-su", 1))
    rail0 = {i: item.points() for i, item in scene.links.items()
             if isinstance(item, LinkItem) and not item.fabric_tier and item.rail == 0}
    drawn = _segments(rail0)
    every = sum(len(points) - 1 for points in rail0.values())
    assert len(rail0) == 32 and len(drawn) < every * 0.7


def test_every_drawn_segment_runs_across_or_down_the_canvas(qapp):
    """Paths are orthogonal: no leg runs at a slant (a slant is a leg the router forgot)."""
    for preset in ("superpod-su", "b200-superpod"):
        scene = FabricScene(_design(preset, 2))
        for item in scene.links.values():
            points = item.points()
            assert all(a[0] == b[0] or a[1] == b[1] for a, b in zip(points, points[1:])), (item.model_id, points)


def test_each_sus_uplinks_are_one_trunk_whose_count_is_its_cable_count(qapp):
    f = _design("b200-superpod", 4)                     # three tiers: SUs -> their pod's spines -> cores
    scene = FabricScene(f)
    counts = scene.overview.fabric.trunk_counts()
    by_su = {}
    for link in f.links.values():
        ends = [f.switches.get(ep.partition("/")[0]) for ep in (link.a, link.b)]
        roles = sorted(s.role.value for s in ends if s is not None)
        if roles == ["leaf", "spine"]:
            su = next(s.su for s in ends if s.role.value == "leaf")
            by_su[su] = by_su.get(su, 0) + 1
    to_spines = sorted(n for (cell, upper), n in counts.items() if upper == "spine")
    assert to_spines == sorted(by_su.values()) and len(to_spines) == 4
    assert sum(n for (cell, upper), n in counts.items() if upper == "core") == \
        sum(1 for l in f.links.values() if "core" in l.id)
