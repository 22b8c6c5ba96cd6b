"""nccl-check on real nccl-tests logs from public sources (tests/data/real/nccl, each with its provenance in
its first line): every log is read as EXPECTED.json says a reader of it sees it, and no verdict is one the
design cannot stand behind (no NCCL-OK above the ceiling or for an unknown collective)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from designer.nccl import LogError
from designer.nccl.check import check_logs
from designer.nccl.parse import parse_file, scan_text
from tests.conftest import preset_fabric

REAL = Path(__file__).parent.parent / "data" / "real" / "nccl"
EXPECTED = {k: v for k, v in json.loads((REAL / "EXPECTED.json").read_text()).items() if not k.startswith("_")}
WITH_ROWS = sorted(k for k, v in EXPECTED.items() if "refused" not in v)
REFUSED = sorted(k for k, v in EXPECTED.items() if "refused" in v)


def test_every_sample_is_written_down_and_has_its_source():
    logs = sorted(p.name for p in REAL.glob("*.log"))
    assert logs == sorted(EXPECTED) and len(logs) >= 30
    for name in logs:
        first = (REAL / name).read_text().splitlines()[0]
        assert first.startswith("#% source: ") and " | hardware: " in first, name


@pytest.mark.parametrize("name", WITH_ROWS)
def test_rows_peak_average_and_collective_as_written_down(name):
    want = EXPECTED[name]
    (run,) = parse_file(REAL / name)
    assert len(run.rows) == want["rows"]
    assert [run.peak.size, run.peak.out_of_place.busbw] == want["peak"]
    assert run.avg_busbw == want["avg"]
    assert run.collective == want["collective"]
    assert run.collective_from == ("the result columns" if want.get("told_by_shape") else "")
    assert run.rank_count == want["ranks"] and run.hosts == want["hosts"]
    if "nccl_hosts" in want:
        assert sorted(run.nccl_hosts) == sorted(want["nccl_hosts"])
    if "connections" in want:
        assert len(run.connections) == want["connections"] and list(run.networks) == want["networks"]
    assert sum(r.wrong for r in run.rows) == want.get("wrong", 0)


@pytest.mark.parametrize("name", REFUSED)
def test_logs_without_a_result_are_refused_and_their_nccl_lines_still_read(name):
    want = EXPECTED[name]
    with pytest.raises(LogError) as exc:
        parse_file(REAL / name)
    assert want["refused"] in str(exc.value) and name in str(exc.value)
    runs = scan_text((REAL / name).read_text(), name)
    assert max(r.rank_count for r in runs) == want["ranks"]
    assert sum(len(r.connections) for r in runs) == want["connections"]
    if "networks" in want:
        assert [n for r in runs for n in r.networks] == want["networks"]
    if "nccl_hosts" in want:
        assert sorted(h for r in runs for h in r.nccl_hosts) == sorted(want["nccl_hosts"])
    if "nics" in want:
        assert [[n.host, n.index, n.rdma] for r in runs for n in r.nics] == want["nics"]
    assert sum(n.kind == "warn" for r in runs for n in r.notes) == want.get("warns", 0)


def _two_hosts(names: list[str], **spec):
    """A design of two same-SU servers carrying the log's host names."""
    fabric = preset_fabric("default", servers_per_su=2, **spec)
    for server, host in zip(["su1-srv01", "su1-srv02"], names):
        fabric.set_hostname(server, host)
    return fabric


def test_issue_319_two_hgx_h100_at_11_percent_is_slow_not_ok():
    fabric = _two_hosts(["lccn09", "lccn19"], server_model="hgx-h100-8x400g")
    result = check_logs(fabric, [REAL / "issue319-2x-hgx-h100-doca.log"])
    (j,) = result.judgements
    assert j.prediction.nics_per_host == 8 and j.prediction.line_gbs == 400.0      # 8 x 400G per host
    assert j.prediction.ceiling_gbs == 750.0                                      # x (15/16)/(1/2) inside
    assert j.verdict.code == "NCCL-SLOW-HOST-OR-RAIL" and not result.ok
    assert 0.10 < j.ratio < 0.12 and "44.3 GB/s is 11% of the design's 400.0 GB/s" in j.verdict.message


def test_a_design_with_fewer_nics_than_the_cluster_is_a_model_error_not_ok():
    """GCP A3 Mega runs 8 NICs per host; a one-rail design cannot carry its 338 GB/s."""
    fabric = _two_hosts(["ztan-mig-235z", "ztan-mig-gq73"], server_model="hgx-h100-8x400g", rails=1)
    (j,) = check_logs(fabric, [REAL / "gcp-a3mega-2node-mpirun.log"]).judgements
    assert j.verdict.code == "NCCL-MODEL" and j.beyond_model and not j.healthy
    assert "1 NIC(s) of 400 Gb/s per host" in j.verdict.message and "16 ranks on 2 node(s)" in j.verdict.message
    assert "NVLink inside the node" in j.verdict.message


def test_two_node_all_reduce_above_the_nic_rate_but_within_the_ceiling_is_ok():
    """2 x 8 H100 at 338 GB/s on eight 400G NICs: 85% of the NICs' 400 GB/s."""
    fabric = _two_hosts(["ztan-mig-235z", "ztan-mig-gq73"], server_model="hgx-h100-8x400g")
    (j,) = check_logs(fabric, [REAL / "gcp-a3mega-2node-mpirun.log"]).judgements
    assert j.verdict.code == "NCCL-OK" and j.healthy and j.prediction.nics_per_host == 8


@pytest.mark.parametrize("name", WITH_ROWS)
def test_no_ok_above_the_ceiling_or_for_an_unknown_collective(name):
    """Judged against a design whose servers carry the log's host names (4 x 400G each), whatever the
    hardware really was: the verdict is never NCCL-OK where the ratio is above the ceiling or the
    collective unknown, and a log that names no host is not passed."""
    (run,) = parse_file(REAL / name)
    hosts = run.hosts or list(run.nccl_hosts)
    fabric = _two_hosts(hosts[:2]) if len(hosts) >= 2 else preset_fabric("default")
    result = check_logs(fabric, [REAL / name])
    for j in result.judgements:
        codes = {f.code for f in j.findings}
        if j.run.collective is None and len(j.placement.servers) > 1:
            assert "NCCL-UNKNOWN-COLLECTIVE" in codes
        if j.prediction.ceiling_gbs and j.plateau > j.prediction.ceiling_gbs:
            assert "NCCL-MODEL" in codes
        if "NCCL-OK" in codes:
            assert j.run.collective and j.plateau <= j.prediction.ceiling_gbs
        if not j.placement.servers:
            assert not result.ok


def test_the_report_labels_the_out_of_place_figure_and_shows_in_place_beside_it():
    """nccl/1244's H20 run: out-of-place peaks at 312.75 GB/s, in-place at 314.10 in the same row."""
    from designer.nccl.report import result_json, result_text
    fabric = _two_hosts(["ztan-mig-235z", "ztan-mig-gq73"], server_model="hgx-h100-8x400g")
    result = check_logs(fabric, [REAL / "gcp-a3mega-2node-mpirun.log", REAL / "nccl-1244-h20-2node-nvls.log"])
    text = result_text(result)
    assert "peak out-of-place busbw 338.82 GB/s at 8589934592 B (in-place 337.35)" in text
    assert "peak out-of-place busbw 312.75 GB/s at 536870912 B (in-place 314.10)" in text
    assert "busbw oop  in-place" in text and "collective all_reduce_perf: told by the result columns" in text
    runs = result_json(result)["runs"]
    assert runs[1]["peak"] == {"size": 536870912, "busbw_out_of_place": 312.75, "busbw_in_place": 314.1}
    assert runs[1]["verdict"]["code"] == "NCCL-NO-HOST" and runs[0]["prediction"]["ceiling_busbw"] == 750.0
