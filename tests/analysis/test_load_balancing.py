"""QP-hash ECMP and adaptive spraying in the collision analysis, held against the exact closed form
(`analysis.closed_form`) and an independent Monte Carlo of balls into bins."""

from __future__ import annotations

import math
import random
import statistics
from fractions import Fraction

import pytest

from designer.analysis import AnalysisError
from designer.analysis.closed_form import at_most, fullest_bin, qp_hash
from designer.analysis.collisions import analyze
from designer.analysis.flows import Flow, flows
from designer.analysis.routing import Forwarding
from tests.conftest import preset_fabric

TRIALS = 3000
SIGMAS = 4.5          # a correct sampler is outside this band about once in 150,000 runs


def _eight_to_eight():
    """8 flows su1-leaf-r0 -> su2-leaf-r0 over 8 uplinks, one per spine, each spine one link down."""
    fabric = preset_fabric("default", servers_per_su=8, spines=8)
    fw = Forwarding(fabric)
    assert sorted(len(p) for p in fw.uplinks["su1-leaf-r0"].values()) == [1] * 8
    return fw, [Flow(f"su1-srv0{i}/nic0", f"su2-srv0{i}/nic0", 400.0, 0) for i in range(1, 9)]


def _within(samples: list[float], exact: Fraction) -> None:
    mean, sd = statistics.fmean(samples), statistics.stdev(samples)
    error = sd / math.sqrt(len(samples))
    assert abs(mean - float(exact)) < SIGMAS * error + 1e-12, (mean, float(exact), error)


def test_closed_form_small_cases_by_hand():
    assert at_most(8, 8, 1) == Fraction(math.factorial(8), 8 ** 8)
    assert at_most(2, 2, 1) == Fraction(1, 2) and at_most(2, 2, 2) == 1
    law = fullest_bin(3, 2)                      # 3 balls, 2 bins: max 2 w.p. 6/8, max 3 w.p. 2/8
    assert law == {2: Fraction(3, 4), 3: Fraction(1, 4)}
    assert sum(fullest_bin(32, 8).values()) == 1
    # N = 2: all 16 QPs two per uplink, 16! / (2!^8 8^16)
    assert qp_hash(8, 8, 2)["collision_free"] == Fraction(math.factorial(16), 2 ** 8 * 8 ** 16)


@pytest.mark.parametrize("qps", [1, 2, 4])
def test_eight_to_eight_qp_hash_matches_the_closed_form_and_a_monte_carlo(qps):
    fw, flow_list = _eight_to_eight()
    a = analyze(fw, flow_list, "qp-hash", trials=TRIALS, seed=20 + qps, qps=qps)
    exact = qp_hash(8, 8, qps)
    assert a.trials == TRIALS and a.qps == qps
    _within(a.max_uplink_load, exact["expected_max_uplink_load"])
    _within(a.fraction, exact["expected_fraction"])
    p = float(exact["collision_free"])
    sigma = math.sqrt(TRIALS * p * (1 - p))
    assert abs(a.upstream_collision_free - TRIALS * p) <= SIGMAS * sigma + 1
    # every uplink carries 8N QPs / 8 on average, each at 400/N Gb/s
    up = [l for l in a.links if l.tier == "up"]
    assert len(up) == 8 and sum(l.mean_flows for l in up) == pytest.approx(8 * qps)
    assert sum(l.mean_demand for l in up) == pytest.approx(8 * 400.0)
    # an independent Monte Carlo of 8N balls into 8 bins agrees with the same closed form
    rnd = random.Random(1000 + qps)
    loads = []
    for _ in range(TRIALS):
        bins = [0] * 8
        for _ in range(8 * qps):
            bins[rnd.randrange(8)] += 1
        loads.append(max(bins) / qps)
    _within(loads, exact["expected_max_uplink_load"])


def test_more_qps_lower_the_expected_load():
    load = [qp_hash(8, 8, n)["expected_max_uplink_load"] for n in (1, 2, 4, 8)]
    assert load == sorted(load, reverse=True) and load[-1] > 1
    assert float(qp_hash(8, 8, 1)["expected_max_uplink_load"]) == pytest.approx(2.5972, abs=1e-4)


def test_qp_hash_with_one_qp_is_ecmp_draw_for_draw():
    fw, flow_list = _eight_to_eight()
    ecmp, one = analyze(fw, flow_list, "ecmp", 200, seed=5), analyze(fw, flow_list, "qp-hash", 200, seed=5, qps=1)
    assert ecmp.fraction == one.fraction and ecmp.max_uplink_load == one.max_uplink_load


def test_adaptive_is_the_ideal_one_exact_trial():
    fw, flow_list = _eight_to_eight()
    a = analyze(fw, flow_list, "adaptive", trials=500)
    assert a.trials == 1 and a.fraction == [1.0] and a.max_uplink_load == [pytest.approx(1.0)]
    up = [l for l in a.links if l.tier == "up"]
    assert len(up) == 8 and all(l.mean_demand == pytest.approx(400.0) and l.mean_flows == 8 for l in up)
    # on a 2:1 leaf even spraying cannot beat the ratio: every uplink is asked for twice its capacity
    fabric = preset_fabric("default", oversubscription=2.0)
    fw2 = Forwarding(fabric)
    two = [Flow(f"su1-srv0{i}/nic0", f"su2-srv0{i}/nic0", 400.0, 0) for i in range(1, 5)]
    b = analyze(fw2, two, "adaptive")
    assert b.fraction == [pytest.approx(0.5)] and b.max_uplink_load == [pytest.approx(2.0)]


def test_adaptive_alltoall_on_a_non_blocking_design_runs_at_full_rate():
    fabric = preset_fabric("default")
    a = analyze(Forwarding(fabric), flows(fabric, "alltoall"), "adaptive")
    assert a.fraction == [pytest.approx(1.0)] and a.upstream_collision_free == 1 and not a.unroutable


def test_qps_bounds():
    fw, flow_list = _eight_to_eight()
    for bad in (0, 129):
        with pytest.raises(AnalysisError, match="--qps must be between 1 and 128"):
            analyze(fw, flow_list, "qp-hash", qps=bad)
    assert analyze(fw, flow_list, "ecmp", trials=3, qps=4).qps == 1      # only qp-hash splits


def test_a_trace_follows_the_modes_pins_only_under_ppd():
    """A qp-hash design's bundle pins nothing, so its trace hashes at the leaf; the analysis can still ask ppd."""
    from dataclasses import replace

    from designer.analysis.paths import trace
    from designer.model.entities import LoadBalancing
    fabric = preset_fabric("default")
    pinned = trace(Forwarding(fabric), "su1-srv01/nic0", "su2-srv01/nic0").request.hops[1].decision
    assert pinned.startswith("PPD pin:")
    fabric.set_settings(replace(fabric.settings, load_balancing=LoadBalancing("qp-hash", 4)))
    fw = Forwarding(fabric)
    hashed = trace(fw, "su1-srv01/nic0", "su2-srv01/nic0").request.hops[1].decision
    assert hashed.startswith("BGP: su2-leaf-r0 via") and "ECMP over" in hashed
    flow = [Flow("su1-srv01/nic0", "su2-srv01/nic0", 400.0, 0)]
    a = analyze(fw, flow, "ppd", trials=20)
    assert not a.unroutable and len([l for l in a.links if l.tier == "up"]) == 1      # still its one pinned uplink
