"""Collision analysis: PPD pins, ECMP odds against the exact probability, n:1 loads, determinism."""

from __future__ import annotations

import math

import pytest

from designer.analysis import AnalysisError
from designer.analysis.collisions import analyze
from designer.analysis.flows import Flow, flows, rail_members
from designer.analysis.report import analysis_json
from designer.analysis.routing import Forwarding
from tests.conftest import preset_fabric


def _eight_across():
    """Two SUs of 8 servers at 1:1: each leaf has 8 uplinks; 8 flows leave su1-leaf-r0 for su2-leaf-r0."""
    fabric = preset_fabric("default", servers_per_su=8)
    fw = Forwarding(fabric)
    assert sum(len(p) for p in fw.uplinks["su1-leaf-r0"].values()) == 8
    flow_list = [Flow(f"su1-srv0{i}/nic0", f"su2-srv0{i}/nic0", 400.0, 0) for i in range(1, 9)]
    return fw, flow_list


def test_pattern_flow_counts(default_fabric):
    servers, rails = len(default_fabric.servers), 4
    assert len(flows(default_fabric, "rail-ring")) == servers * rails
    assert len(flows(default_fabric, "allreduce-ring")) == 2 * servers * rails
    assert len(flows(default_fabric, "alltoall")) == rails * servers * (servers - 1)
    assert all(len(m) == servers for m in rail_members(default_fabric).values())
    with pytest.raises(AnalysisError, match="unknown pattern"):
        flows(default_fabric, "butterfly")


def test_one_to_one_ppd_has_no_upstream_collision():
    fw, flow_list = _eight_across()
    a = analyze(fw, flow_list, "ppd", trials=50, seed=3)
    assert a.upstream_collision_free == a.trials
    up = [l for l in a.links if l.tier == "up"]
    assert len(up) == 8 and all(l.max_flows == 1 for l in up)
    fabric = preset_fabric("default")
    a = analyze(Forwarding(fabric), flows(fabric, "alltoall"), "ppd", trials=20, seed=1)
    assert a.upstream_collision_free == a.trials and not a.unroutable


def test_ecmp_zero_collision_rate_matches_8_factorial_over_8_to_the_8():
    fw, flow_list = _eight_across()
    trials = 20_000
    a = analyze(fw, flow_list, "ecmp", trials=trials, seed=2024)
    p = math.factorial(8) / 8 ** 8                      # 0.0024
    sigma = math.sqrt(trials * p * (1 - p))
    assert abs(a.upstream_collision_free - trials * p) < 4.5 * sigma, (a.upstream_collision_free, trials * p)
    # a trial's fraction is 1/k for its worst link; the spines also hash over 4 parallel links each to
    # su2-leaf-r0, so even an upstream-clean trial is usually cut to 1/2 or less downstream
    assert set(a.fraction) <= {1.0, 1 / 2, 1 / 3, 1 / 4, 1 / 5, 1 / 6, 1 / 7, 1 / 8}
    assert sorted(a.fraction)[trials // 2] <= 0.5


def test_n_to_1_ppd_loads_are_exact():
    """2:1 leaves (4 NICs, 2 uplinks, n = 2): pinned pairs share an uplink, so every flow gets 1/2."""
    fabric = preset_fabric("default", oversubscription=2.0)
    fw = Forwarding(fabric)
    assert {p.n for p in fw.ppd.values()} == {2}
    flow_list = [Flow(f"su1-srv0{i}/nic0", f"su2-srv0{i}/nic0", 400.0, 0) for i in range(1, 5)]
    a = analyze(fw, flow_list, "ppd", trials=1)
    up = [l for l in a.links if l.tier == "up"]
    assert [l.mean_flows for l in up] == [2, 2]
    assert a.fraction == [0.5] and a.upstream_collision_free == 0


def test_n_to_1_with_800g_uplinks_carries_two_nics_per_uplink_at_full_rate():
    """rail-optimized-64x4 shape (400G NICs, 800G uplinks, n = 2) at 2 SUs x 16 servers, alltoall:
    uplink j carries the pinned NICs 2j and 2j+1, each sending 16 of its 31 flows to the other SU."""
    fabric = preset_fabric("rail-optimized-64x4", sus=2, servers_per_su=16)
    fw = Forwarding(fabric)
    assert {p.n for p in fw.ppd.values()} == {2}
    a = analyze(fw, flows(fabric, "alltoall"), "ppd", trials=3)
    up = [l for l in a.links if l.tier == "up"]
    assert len(up) == 8 * 8                                   # 8 leaves, 16 NICs over 8 pinned uplinks each
    assert all(l.max_flows == 2 * 16 and l.capacity == 800 for l in up)
    assert all(l.mean_demand == pytest.approx(2 * 16 * 400 / 31) for l in up)
    assert a.upstream_collision_free == a.trials and min(a.mean_flow_fraction) > 0.9


def test_rail_only_cross_leaf_flows_have_no_path():
    fabric = preset_fabric("rail-only-32x4", sus=2)
    a = analyze(Forwarding(fabric), flows(fabric, "rail-ring"), "ecmp", trials=5)
    assert len(a.unroutable) == 2 * 4            # two ring hops per rail cross SUs
    assert all("no uplinks" in why for _, _, why in a.unroutable)


def test_same_seed_same_result_different_seed_differs():
    fw, flow_list = _eight_across()
    one = analysis_json(analyze(fw, flow_list, "ecmp", trials=200, seed=7))
    assert one == analysis_json(analyze(fw, flow_list, "ecmp", trials=200, seed=7))
    assert one != analysis_json(analyze(fw, flow_list, "ecmp", trials=200, seed=8))


def test_deterministic_design_runs_one_trial():
    fabric = preset_fabric("rail-optimized-64x4")      # one SU: every flow stays on its leaf
    a = analyze(Forwarding(fabric), flows(fabric, "alltoall"), "ecmp", trials=100)
    assert a.trials == 1 and a.fraction == [1.0]
    assert not [l for l in a.links if l.tier != "host"]


def test_bad_arguments():
    fw, flow_list = _eight_across()
    with pytest.raises(AnalysisError, match="at least 1"):
        analyze(fw, flow_list, "ecmp", trials=0)
    with pytest.raises(AnalysisError, match="unknown routing"):
        analyze(fw, flow_list, "hash")
