"""Path trace and collision analysis on InfiniBand over the routes OpenSM computed: ibnetdiscover and
dump_fts read back from the simulated fabric after OpenSM ran the exported opensm.conf. Each trace must
take the switches ibtracert (the real tool, asking the same fabric) reports, hop for hop."""

from __future__ import annotations

from pathlib import Path

import pytest

import designer
from designer.analysis import AnalysisError
from designer.cli import main
from designer.export.infiniband import SM_DIR
from designer.importers.ibnd import parse_ibnd
from designer.infiniband.diags import parse_tracert
from designer.infiniband.proof import same_rail_pairs
from designer.infiniband.routes import RoutesError, parse_fts
from designer.infiniband.sim import Subnet
from designer.model.guids import hca_node_guid
from designer.model.ids import split_endpoint
from tests.infiniband.mutate import swap
from tests.infiniband.subnet import export, ib_design, need_ibsim


def _run(fabric, bundle, workdir, pairs=()):
    """ibnetdiscover and dump_fts of the routed fabric in files, and ibtracert's switches for each pair."""
    sm = bundle / "infiniband"
    with Subnet(sm / "topology.ibnd", workdir) as net:
        net.run_sm(sm, SM_DIR)
        ibnd, fts = workdir / "ibnd.txt", workdir / "fts.txt"
        ibnd.write_text(net.run("ibnetdiscover"))
        fts.write_text(net.run("dump_fts", timeout=60))
        lids = {n.guid: n.lid for n in parse_ibnd(ibnd.read_text()).values() if n.lid}
        traced = {}
        for src, dst in pairs:
            a, b = (lids[hca_node_guid(split_endpoint(e)[0], fabric.nic(e).index)] for e in (src, dst))
            hops = parse_tracert(net.run("ibtracert", "-t", "1000", str(a), str(b)))
            traced[(src, dst)] = [h.description for h in hops if h.kind == "switch"]
    return (ibnd, fts), traced


@pytest.fixture(scope="module", params=["two-tier", "three-tier"])
def routed(request, tmp_path_factory):
    need_ibsim()
    tmp = tmp_path_factory.mktemp(request.param)
    fabric, bundle = export(request.param, tmp / "bundle")
    pairs = same_rail_pairs(fabric, 8)
    routes, traced = _run(fabric, bundle, tmp / "run", pairs)
    return request.param, fabric, routes, traced


def test_each_trace_takes_the_switches_ibtracert_reports(routed):
    shape, fabric, routes, traced = routed
    assert len(traced) == 8
    for (src, dst), switches in traced.items():
        (trace,) = designer.trace(fabric, src.replace("/", ":"), dst.replace("/", ":"), ib_routes=routes)
        assert trace.ok and trace.request.delivered and trace.reply.delivered, trace.flags
        hops = trace.request.hops
        assert (hops[0].device, hops[-1].device) == (split_endpoint(src)[0], split_endpoint(dst)[0])
        assert [fabric.switches[h.device].hostname for h in hops[1:-1]] == switches
        assert len(switches) == (5 if shape == "three-tier" else 3)
        assert all(h.links for h in hops[:-1]) and all("forwarding table" in h.decision for h in hops[1:-1])


def test_the_collisions_are_those_of_the_tables(routed):
    """A rail ring on ftree's tables: every flow alone on each link it takes (ftree spreads the destinations
    of a leaf over its uplinks), so the collective runs at full rate; all-to-all puts several flows on an
    uplink, each at its share of the NIC's rate."""
    _, fabric, routes, _ = routed
    ring = designer.analyze(fabric, "rail-ring", ib_routes=routes)
    assert ring.routing == "opensm" and ring.trials == 1 and not ring.unroutable
    assert ring.flows == 16 and ring.fraction == [1.0]
    up = [l for l in ring.links if l.tier == "up"]
    assert up and all(l.max_flows == 1 for l in up)
    a2a = designer.analyze(fabric, "alltoall", ib_routes=routes)
    assert not a2a.unroutable and max(l.max_flows for l in a2a.links if l.tier == "up") > 1
    hosts = sum(l.mean_flows for l in a2a.links if l.tier == "host" and l.link.split(" -> ")[0].count("nic"))
    assert hosts == a2a.flows                 # every flow leaves by its own HCA's cable, once


def test_a_trace_over_a_swapped_cable_is_flagged(tmp_path):
    need_ibsim()
    fabric, bundle = export("two-tier", tmp_path / "bundle")
    swap(bundle / "infiniband/topology.ibnd", ("su2-leaf-r0", 1), ("su2-leaf-r0", 2))
    routes, _ = _run(fabric, bundle, tmp_path / "run")
    (trace,) = designer.trace(fabric, "su1-srv01:nic0", "su2-srv01:nic0", ib_routes=routes)
    assert not trace.ok
    assert {f.code for f in trace.flags} == {"IB-PATH-UNPLANNED"}
    assert any("su2-leaf-r0/" in f.ids[0] for f in trace.flags)


def test_an_infiniband_design_needs_the_subnet_managers_routes():
    fabric = designer.build(designer.spec("superpod-h100-ib", sus=2, servers_per_su=4, rails=2, spines=2))
    with pytest.raises(AnalysisError, match="routed by its subnet manager"):
        designer.trace(fabric, "su1-srv01", "su2-srv01")
    with pytest.raises(AnalysisError, match="--ibnetdiscover DUMP and --fts DUMP"):
        designer.analyze(fabric, "rail-ring")
    ethernet = designer.build(designer.spec("superpod-su", sus=1))
    with pytest.raises(AnalysisError, match="for an InfiniBand design"):
        designer.analyze(ethernet, "rail-ring", ib_routes=("a", "b"))


def test_dump_fts_output_that_cannot_be_used_is_named():
    with pytest.raises(RoutesError, match="no switch forwarding table"):
        parse_fts("nothing here\n", "fts.txt")
    with pytest.raises(RoutesError, match=r"fts.txt, line 2: a route before any"):
        parse_fts("  Lid  Out   Destination\n0x0002 002 : (Channel Adapter portguid 0x1: 'a')\n", "fts.txt")
    tables = parse_fts("Unicast lids [0x0-0x2] of switch DR path slid 0; dlid 0; 0 guid 0x0002c9aa (leaf-1):\n"
                       "0x0002 061 : (Channel Adapter portguid 0x1: 'h mlx5_0')\n")
    assert tables == {0x2c9aa: {2: 61}}


def test_the_commands_take_the_fabrics_routes(routed, tmp_path, capsys):
    shape, fabric, (ibnd, fts), _ = routed
    design = tmp_path / "ib.fabric.yaml"
    designer.save(fabric, design)
    assert main(["paths", str(design), "--from", "su1-srv01:nic0", "--to", "su2-srv01:nic0",
                 "--ibnetdiscover", str(ibnd), "--fts", str(fts)]) == 0
    out = capsys.readouterr().out
    assert "forwarding table (subnet manager)" in out and "1 pairs traced, 0 with errors" in out
    assert main(["analyze", str(design), "--pattern", "rail-ring", "--ibnetdiscover", str(ibnd),
                 "--fts", str(fts)]) == 0
    assert "routing opensm" in capsys.readouterr().out
    assert main(["analyze", str(design), "--pattern", "rail-ring"]) == 2
    err = capsys.readouterr().err
    assert "routed by its subnet manager" in err and "Traceback" not in err
    assert main(["paths", str(design), "--from", "su1-srv01", "--to", "su2-srv01", "--fts", str(fts)]) == 2
    assert "give both --ibnetdiscover and --fts" in capsys.readouterr().err


def test_nccl_check_refuses_an_infiniband_design_instead_of_judging_it_by_ethernet_routing(tmp_path):
    fabric = designer.build(designer.spec("superpod-h100-ib", sus=2, servers_per_su=4, rails=2, spines=2))
    log = tmp_path / "all_reduce.log"
    log.write_text("# nccl-tests\n")
    with pytest.raises(AnalysisError, match="does not judge an InfiniBand fabric yet"):
        designer.nccl_check(fabric, log)


SAVED = Path(__file__).resolve().parents[1] / "data" / "infiniband" / "fabric"


def test_the_saved_dumps_trace_and_a_missing_table_entry_is_undelivered(tmp_path):
    """The real ibnetdiscover and dump_fts of the two-tier test fabric (tests/data/infiniband/fabric), read
    offline; then the spine's entry for the target's LID removed, as a switch that lost its table would."""
    fabric = ib_design("two-tier")
    ibnd, fts = SAVED / "ibnetdiscover-2su.txt", SAVED / "dump_fts-2su.txt"
    (trace,) = designer.trace(fabric, "su1-srv01:nic0", "su2-srv01:nic0", ib_routes=(ibnd, fts))
    assert trace.ok and [h.device for h in trace.request.hops] == [
        "su1-srv01", "su1-leaf-r0", trace.request.spines[0], "su2-leaf-r0", "su2-srv01"]
    spine = fabric.switches[trace.request.spines[0]].hostname
    lid = trace.request.hops[1].decision.split("LID ")[1].split(" ")[0]
    text, kept, inside = [], 0, False
    for line in fts.read_text().splitlines():
        if line.startswith("Unicast lids"):
            inside = f"({spine})" in line
        if inside and line.startswith(f"0x{int(lid):04x} "):
            kept += 1
            continue
        text.append(line)
    assert kept == 1
    broken = tmp_path / "fts.txt"
    broken.write_text("\n".join(text) + "\n")
    (trace,) = designer.trace(fabric, "su1-srv01:nic0", "su2-srv01:nic0", ib_routes=(ibnd, broken))
    assert not trace.ok and not trace.request.delivered and trace.reply.delivered
    assert [f.code for f in trace.flags] == ["IB-PATH-UNDELIVERED"]
    assert f"{spine} has no route to LID {lid}" in trace.flags[0].message


def test_a_cable_to_a_switch_the_dump_does_not_list_stops_the_trace_there():
    """The saved dump with su1-leaf-r0's record cut out (a fuzzer find: the trace raised KeyError)."""
    fabric = ib_design("two-tier")
    ibnd, fts = SAVED / "ibnetdiscover-2su-leaf-missing.txt", SAVED / "dump_fts-2su.txt"
    (trace,) = designer.trace(fabric, "su1-srv01:nic0", "su2-srv01:nic0", ib_routes=(ibnd, fts))
    assert not trace.request.delivered and "reached" in trace.request.problem
    assert [f.code for f in trace.flags if f.code == "IB-PATH-UNDELIVERED"]
