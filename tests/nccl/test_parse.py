"""nccl-tests output in its real shapes: new and old headers, launcher prefixes, NCCL INFO lines,
several runs in one file, and logs cut short or spliced together (located messages, no traceback)."""

from __future__ import annotations

from pathlib import Path

import pytest

from designer.nccl import LogError
from designer.nccl.parse import parse_file, parse_text
from designer.nccl import COLLECTIVES
from tests.conftest import preset_fabric
from tests.nccl.logsynth import Spec, make_log

DATA = Path(__file__).parent.parent / "data" / "nccl"
SERVERS = ["su1-srv01", "su2-srv01"]


@pytest.fixture(scope="module")
def fabric():
    return preset_fabric("default")


@pytest.mark.parametrize("collective", COLLECTIVES[:5])      # the ones logsynth writes
@pytest.mark.parametrize("tag", ["", "mpi", "srun"])
def test_every_collective_with_every_launcher_prefix(fabric, collective, tag):
    (run,) = parse_text(make_log(Spec(fabric, SERVERS, collective, tag=tag, info=True)), "x.log")
    assert run.collective == collective and run.concluded and not run.problems
    assert [r.host for r in run.ranks] == ["su1-srv01"] * 4 + ["su2-srv01"] * 4
    assert len(run.rows) == 31 and run.rows[0].size == 8 and run.rows[-1].size == 8 << 30
    assert run.rows[-1].in_place is not None and run.rows[-1].wrong == 0 and run.avg_busbw > 0
    assert {(n.host, n.rdma, n.speed_mbps) for n in run.nics} >= {("su2-srv01", "mlx5_3", 400000)}
    assert sum(c.direction == "send" for c in run.connections) == 8
    assert any(n.kind == "env" and n.name == "NCCL_IB_TC" and n.value == "106" for n in run.notes)


def test_old_format_without_root_group_or_collective_line():
    (run,) = parse_file(DATA / "all_reduce_perf-old.log")
    assert run.collective == "all_reduce_perf"          # from the mpirun line
    assert len(run.ranks) == 8 and run.ranks[4].host == "su2-srv03"
    row = run.rows[-1]
    assert (row.size, row.root, row.out_of_place.busbw, row.out_of_place.wrong) == (1073741824, None, 171.08, None)
    assert run.avg_busbw == 132.084 and not run.problems


def test_spliced_and_truncated_lines_are_located_and_skipped():
    (run,) = parse_file(DATA / "interleaved.log")
    assert run.collective == "alltoall_perf"
    assert [r.size for r in run.rows] == [67108864, 134217728, 268435456, 536870912]
    assert run.rows[1].in_place is None and run.rows[1].out_of_place.busbw == 49.17
    messages = [(p.where.line, p.message) for p in run.problems]
    assert (21, "result row is missing its in-place half (another process's output was spliced into it); "
                "its out-of-place numbers are used") in messages
    assert any(line == 23 and "without the '# Avg bus bandwidth'" in m for line, m in messages)
    assert [n.host for n in run.notes if n.kind == "warn"] == ["su1-srv03", "su1-srv02"]


def test_two_runs_in_one_file(fabric):
    text = make_log(Spec(fabric, SERVERS, "all_gather_perf")) + make_log(Spec(fabric, SERVERS, "sendrecv_perf"))
    runs = parse_text(text, "both.log")
    assert [r.collective for r in runs] == ["all_gather_perf", "sendrecv_perf"]
    assert runs[1].start.line > runs[0].rows[-1].where.line


def test_processes_that_each_ran_alone_are_named(fabric):
    text = make_log(Spec(fabric, ["su1-srv01"], "sendrecv_perf", gpus=1))
    rank_line = next(l for l in text.splitlines() if l.startswith("#  Rank"))
    doubled = text.replace(rank_line, rank_line + "\n" + rank_line.replace("su1-srv01", "su1-srv02"))
    (run,) = parse_text(doubled, "solo.log")
    assert any("rank 0 appears twice" in p.message and "MPI=1" in p.message for p in run.problems)


def test_cut_inside_the_table_keeps_the_rows_before(fabric):
    text = make_log(Spec(fabric, SERVERS))
    cut = text[:text.index("  1048576  ") + 60]
    (run,) = parse_text(cut, "cut.log")
    assert run.rows[-1].size == 524288
    assert any("cut short" in p.message for p in run.problems)


@pytest.mark.parametrize("text, expected", [
    ("", "no nccl-tests result rows"),
    ("mpirun was unable to launch the specified application\n", "no nccl-tests result rows"),
    ("# nThread 1 nGpus 1\n#  Rank  0 Group  0 Pid 1 on su1-srv01 device  0 [0x18] H100\n"
     "su1-srv01: Test NCCL failure common.cu:1005 'unhandled system error (run with NCCL_DEBUG=INFO for details) / '\n",
     "bad.log:3: the test failed before printing any result"),
    ("\x00\xff garbage \x00\n" * 3, "no nccl-tests result rows"),
])
def test_unusable_logs_raise_one_located_message(text, expected):
    with pytest.raises(LogError) as exc:
        parse_text(text, "bad.log")
    assert expected in str(exc.value) and "bad.log" in str(exc.value)


def test_unreadable_file(tmp_path):
    with pytest.raises(LogError, match="cannot read it"):
        parse_file(tmp_path / "missing.log")


OLD_ALL_GATHER = """\
# nThread 1 nGpus 1 minBytes 1048576 maxBytes 4194304 step: 2(factor) warmup iters: 5 iters: 20 validation: 1
#   Rank  0 Pid  11 on      h1 device  0 [0x18] Tesla V100-SXM2-32GB
#   Rank  1 Pid  12 on      h1 device  1 [0x3b] Tesla V100-SXM2-32GB
#   Rank  2 Pid  21 on      h2 device  0 [0x18] Tesla V100-SXM2-32GB
#   Rank  3 Pid  22 on      h2 device  1 [0x3b] Tesla V100-SXM2-32GB
#                                             out-of-place                       in-place
#       size         count    type     time   algbw   busbw  error     time   algbw   busbw  error
#        (B)    (elements)             (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)
     1048576         65536   float   100.00   10.49    7.86  0e+00    99.00   10.59    7.94  0e+00
     2097152        131072   float   180.00   11.65    8.74  0e+00   179.00   11.72    8.79  0e+00
# Out of bounds values : 0 OK
# Avg bus bandwidth    : 8.33
"""


def test_2_0_era_all_gather_table_without_a_redop_column():
    """Laid out as nccl-tests 2.0 printed all_gather (no redop, no root, an error column); no public log of
    it was found, so the table is written here in that layout."""
    (run,) = parse_text("$ mpirun -np 4 ./build/all_gather_perf -b 1M -e 4M\n" + OLD_ALL_GATHER, "old.log")
    assert run.collective == "all_gather_perf" and [r.size for r in run.rows] == [1048576, 2097152]
    assert run.rows[0].redop == "" and run.rows[0].root is None and run.peak.out_of_place.busbw == 8.74
    assert run.rows[1].in_place.busbw == 8.79 and run.avg_busbw == 8.33 and not run.problems
    (anonymous,) = parse_text(OLD_ALL_GATHER, "old.log")
    assert anonymous.collective is None          # all_gather or alltoall: the columns cannot tell


def test_a_connection_line_that_cannot_be_read_is_reported_not_dropped():
    line = "h1:11:31 [0] NCCL INFO Channel 00/0 : 0[0] -> 2[0] [send] via NET/IB/GDRDMA\n"
    (run,) = parse_text(line + OLD_ALL_GATHER, "odd.log")
    assert not run.connections
    (problem,) = run.problems
    assert problem.where.line == 1 and "connection line nccl-check cannot read" in problem.message


@pytest.mark.parametrize("via, network, dev, proxy", [
    ("via NET/IB/0/GDRDMA", "IB", 0, None),
    ("via NET/IB/3(8)/GDRDMA", "IB", 3, 8),                         # PXN: rank 8's NIC carries it
    ("via NET/Socket/1", "Socket", 1, None),
    ("via NET/IBext_v8/2/GDRDMA/Shared", "IBext_v8", 2, None),       # HPC-X plugin, its own name
    ("via NET/NCCL RDMA Plugin v8/4/GDRDMA", "NCCL RDMA Plugin v8", 4, None),
    ("via NET/AWS Libfabric/0/GDRDMA comm 0x9bbf3b0 nRanks 16", "AWS Libfabric", 0, None),
])
def test_the_connection_lines_of_every_common_net_plugin(via, network, dev, proxy):
    line = f"h1:11:31 [0] NCCL INFO Channel 02/1 : 0[0] -> 2[0] [send] {via}\n"
    (run,) = parse_text(line + OLD_ALL_GATHER, "net.log")
    (c,) = run.connections
    assert (c.network, c.netdev, c.proxy, c.channel, c.conn, c.src_rank, c.dst_rank) == (network, dev, proxy, 2, 1, 0, 2)
    assert list(run.networks) == [network] and not run.problems
