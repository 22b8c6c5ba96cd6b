"""nccl-check names an injected fault: a design plus a synthetic log (real format) with one known fault."""

from __future__ import annotations

import pytest

from designer.nccl.check import check_text, judge_runs
from designer.nccl.parse import parse_text
from tests.conftest import preset_fabric
from tests.nccl.logsynth import Spec, make_log

TWO_SUS = ["su1-srv01", "su2-srv01"]
ONE_SU = ["su1-srv01", "su1-srv02"]
# Hostfile order alternating between the SUs: every ring hop crosses the spines.
INTERLEAVED = [f"su{su}-srv{n:02d}" for n in range(1, 5) for su in (1, 2)]
HALF = {256 << 20: 0.5}


@pytest.fixture(scope="module")
def fabric():
    return preset_fabric("default")


def verdict(fabric, spec: Spec, **options):
    result = check_text(fabric, make_log(spec), "test.log", **options)
    (j,) = result.judgements
    return result, j


@pytest.mark.parametrize("collective", ["all_reduce_perf", "all_gather_perf", "reduce_scatter_perf",
                                        "alltoall_perf", "sendrecv_perf"])
def test_a_healthy_run_of_every_collective_is_ok(fabric, collective):
    result, j = verdict(fabric, Spec(fabric, TWO_SUS, collective, info=True))
    assert j.verdict.code == "NCCL-OK" and result.ok
    assert 0.9 < j.ratio < 1.0
    ceiling = 200.0 if collective in ("all_reduce_perf", "all_gather_perf", "reduce_scatter_perf") else 50.0
    assert j.prediction.line_gbs == ceiling


def test_one_host_at_half_rate_is_named_from_the_nic_speed_nccl_reports(fabric):
    spec = Spec(fabric, TWO_SUS, info=True, peak=93.0, speeds={("su2-srv01", "mlx5_2"): 200000})
    result, j = verdict(fabric, spec)
    assert j.verdict.code == "NCCL-SLOW-NIC" and not result.ok
    assert "su2-srv01 mlx5_2 (su2-srv01/nic2, rail 2) runs at 200 Gb/s" in j.verdict.message
    assert j.verdict.ids[0] == "su2-srv01/nic2" and j.prediction.reported_gbs == 100.0


def test_one_host_at_half_rate_is_named_across_runs_of_different_host_sets(fabric):
    slow = "su1-srv03"
    logs = []
    for pair in (["su1-srv01", "su1-srv02"], ["su1-srv01", slow], ["su1-srv02", slow], ["su1-srv04", slow],
                 ["su1-srv02", "su1-srv04"]):
        logs.append(make_log(Spec(fabric, pair, "sendrecv_perf", peak=23.0 if slow in pair else None)))
    runs = [run for i, text in enumerate(logs) for run in parse_text(text, f"pair{i}.log")]
    result = judge_runs(fabric, runs)
    (finding,) = result.findings
    assert finding.code == "NCCL-SLOW-HOST" and finding.ids == (slow,)
    assert "in every one of the 3 run(s) that fall short" in finding.message
    # Alone, a slow run inside one SU cannot be a collision: no spine is on the path.
    assert result.judgements[1].verdict.code == "NCCL-SLOW-HOST-OR-RAIL"


def test_cross_rail_traffic_is_named_with_the_nics(fabric):
    result, j = verdict(fabric, Spec(fabric, TWO_SUS, info=True, cross_rail=True))
    assert j.verdict.code == "NCCL-CROSS-RAIL"
    assert "su1-srv01/nic0 (rail 0) -> su2-srv01/nic1 (rail 1)" in j.verdict.message
    assert j.verdict.message.startswith("test.log:")      # the channel line that shows it


def test_cross_rail_on_a_rail_only_fabric_has_no_path():
    fabric = preset_fabric("rail-only-32x4")
    _, j = verdict(fabric, Spec(fabric, ["su1-srv01", "su1-srv02"], info=True, cross_rail=True))
    assert j.verdict.code == "NCCL-CROSS-RAIL" and j.verdict.severity.value == "error"
    assert "the design has no path for them" in j.verdict.message


@pytest.mark.parametrize("info", [False, True])
def test_a_50_percent_collision_step_under_ecmp(fabric, info):
    _, j = verdict(fabric, Spec(fabric, INTERLEAVED, info=info, scale=HALF), routing="ecmp")
    assert j.verdict.code == "NCCL-COLLISION"
    assert "the 1/2 step" in j.verdict.message and "drops between 128 MiB and 256 MiB" in j.verdict.message
    assert j.prediction.fraction["min"] <= 0.5 < j.prediction.fraction["max"] + 1e-9


def test_the_same_step_where_ppd_pins_every_flow_points_at_a_missing_policy_rule(fabric):
    _, j = verdict(fabric, Spec(fabric, TWO_SUS, scale=HALF), routing="ppd")
    assert j.verdict.code == "NCCL-POLICY" and "a policy rule is missing" in j.verdict.message
    assert j.prediction.fraction["min"] == 1.0 and j.prediction.crosses_spines


def test_a_third_is_also_a_collision_step(fabric):
    _, j = verdict(fabric, Spec(fabric, INTERLEAVED, scale={64 << 20: 1 / 3}), routing="ecmp")
    assert j.verdict.code == "NCCL-COLLISION" and "the 1/3 step" in j.verdict.message


def test_pfc_hints_and_data_errors(fabric):
    text = make_log(Spec(fabric, TWO_SUS, info=True, peak=60.0))
    address = fabric.addresses["su2-srv01/nic1"].split("/")[0]
    text = text.replace("NCCL_IB_TC set by environment to 106.", "NCCL_IB_TC set by environment to 96.", 1)
    text += (f"su1-srv01:4000:4090 [1] NCCL WARN NET/IB : Got completion from peer {address}<40122> with status=12 "
             "opcode=0 len=0 vendor err 129 (Send) localGid ::ffff:10.1.0.2 remoteGids::ffff:10.1.0.3\n")
    row = next(l for l in text.splitlines() if l.strip().startswith("4294967296"))
    text = text.replace(row, row[:-1] + "7")
    result = check_text(fabric, text, "pfc.log")
    codes = [f.code for f in result.judgements[0].findings]
    assert codes.count("NCCL-PFC") == 2 and "NCCL-WRONG-DATA" in codes
    pfc = [f for f in result.judgements[0].findings if f.code == "NCCL-PFC"]
    assert "DSCP 24" in pfc[0].message and "su2-srv01/nic1" in pfc[1].ids


def test_single_host_and_unknown_host(fabric):
    _, j = verdict(fabric, Spec(fabric, ["su1-srv01"]))
    assert j.verdict.code == "NCCL-SINGLE-HOST"
    text = make_log(Spec(fabric, TWO_SUS)).replace("su2-srv01", "gpu-node-17")
    (j,) = check_text(fabric, text, "x.log").judgements
    assert any(f.code == "NCCL-UNKNOWN-HOST" and "gpu-node-17" in f.message for f in j.findings)


def test_hosts_given_as_fqdn_map_to_servers(fabric):
    text = make_log(Spec(fabric, TWO_SUS)).replace(" su1-srv01 ", " su1-srv01.cluster.example ")
    (j,) = check_text(fabric, text, "x.log").judgements
    assert j.placement.servers == TWO_SUS and j.verdict.code == "NCCL-OK"


def _without_its_name(text: str) -> str:
    """The log with the lines that name the test removed (no public log with host names shows this)."""
    return "\n".join(line for line in text.splitlines()
                     if "_perf" not in line and "Collective test" not in line) + "\n"


def test_a_run_whose_collective_nothing_tells_is_not_ok(fabric):
    """all_gather and alltoall print the same columns: without the binary or the header, no verdict."""
    text = _without_its_name(make_log(Spec(fabric, TWO_SUS, "all_gather_perf")))
    result = check_text(fabric, text, "anon.log")
    (j,) = result.judgements
    assert j.run.collective is None and j.verdict.code == "NCCL-UNKNOWN-COLLECTIVE" and not result.ok
    assert "unknown collective: pass --collective" in j.verdict.message
    assert check_text(fabric, text, "anon.log", collective="all_gather_perf").judgements[0].verdict.code == "NCCL-OK"


def test_the_result_columns_tell_all_reduce_and_reduce_scatter(fabric):
    for collective in ("all_reduce_perf", "reduce_scatter_perf"):
        (j,) = check_text(fabric, _without_its_name(make_log(Spec(fabric, TWO_SUS, collective))), "x.log").judgements
        assert j.run.collective == collective and j.run.collective_from == "the result columns"
        assert j.verdict.code == "NCCL-OK"


def test_a_four_nic_design_cannot_explain_an_eight_nic_rate(fabric):
    """busbw above the ceiling (4 x 400G per host, 8 ranks on 2 nodes) is the model's error, never OK."""
    result = check_text(fabric, make_log(Spec(fabric, TWO_SUS, scale={s: 3.0 for s in (1 << k for k in range(3, 34))})),
                        "fast.log")
    (j,) = result.judgements
    assert j.verdict.code == "NCCL-MODEL" and not result.ok and j.ratio > 2
    assert "4 NIC(s) of 400 Gb/s per host" in j.verdict.message and "8 ranks on 2 node(s)" in j.verdict.message


def test_a_run_above_the_ceiling_is_no_evidence_against_its_hosts(fabric):
    """Runs the model cannot explain are left out of the slow-host comparison across runs."""
    fast = make_log(Spec(fabric, ["su1-srv01", "su2-srv01"], scale={8: 3.0}))
    fine = make_log(Spec(fabric, ["su1-srv02", "su2-srv01"]))
    result = judge_runs(fabric, parse_text(fast, "fast.log") + parse_text(fine, "fine.log"))
    assert [j.verdict.code for j in result.judgements] == ["NCCL-MODEL", "NCCL-OK"]
    assert not any(f.code == "NCCL-SLOW-HOST" for f in result.findings)
