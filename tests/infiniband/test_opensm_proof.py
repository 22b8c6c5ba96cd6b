"""The exported topology.ibnd loaded into ibsim and routed by OpenSM with the exported opensm.conf:
the engine the design chose, a LID per HCA, balanced up-routes per leaf, and ibtracert between
same-rail HCAs of different SUs along the path the design predicts (leaf > spine > leaf; through a
core in three tiers), every hop on a planned cable."""

from __future__ import annotations

import os

import pytest

from designer.infiniband.proof import prove
from designer.infiniband.sim import SimError, Subnet
from tests.infiniband.mutate import swap
from tests.infiniband.subnet import SHAPES, export, need_ibsim


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_opensm_routes_the_design_as_predicted(tmp_path, shape):
    need_ibsim()
    fabric, bundle = export(shape, tmp_path / "bundle")
    proof = prove(fabric, bundle, tmp_path / "run")
    print("\n".join(proof.lines()))
    assert proof.engine == proof.expected_engine == "ftree"
    assert proof.with_lid == proof.hcas == 16
    assert len(proof.balance) == len(fabric.leaves()) == 4
    assert all(proof.spread(leaf) <= 1 and sum(ports.values()) == 12 for leaf, ports in proof.balance.items())
    assert len(proof.traces) >= 8 and all(not t.problems for t in proof.traces), proof.lines()
    hops = 5 if shape == "three-tier" else 3
    assert {len(t.hops) for t in proof.traces} == {hops}
    assert len({t.hops[hops // 2] for t in proof.traces}) >= 2      # ftree spreads the pairs over the middle
    assert proof.ok


def test_a_routing_engine_the_design_did_not_choose_is_reported(tmp_path):
    need_ibsim()
    fabric, bundle = export("two-tier", tmp_path / "bundle")
    conf = bundle / "infiniband/opensm.conf"
    conf.write_text(conf.read_text().replace("routing_engine ftree,updn", "routing_engine minhop"))
    proof = prove(fabric, bundle, tmp_path / "run")
    assert proof.engine == "minhop" and proof.expected_engine == "minhop"
    conf.write_text(conf.read_text().replace("routing_engine minhop", "routing_engine updn"))
    proof = prove(fabric, bundle, tmp_path / "run2")
    assert proof.engine == "updn"


def test_a_trace_off_the_planned_cables_is_reported(tmp_path):
    """The fabric is the design with two HCA cables of a leaf swapped; the proof compares the traces
    with the design, so the two traces that end on them show the last hop off the plan."""
    need_ibsim()
    fabric, bundle = export("two-tier", tmp_path / "bundle")
    swap(bundle / "infiniband/topology.ibnd", ("su2-leaf-r0", 1), ("su2-leaf-r0", 2))
    proof = prove(fabric, bundle, tmp_path / "run")
    assert not proof.ok
    bad = {(t.source, t.target) for t in proof.traces if t.problems}
    assert bad == {("su1-srv01/nic0", "su2-srv01/nic0"), ("su1-srv02/nic0", "su2-srv02/nic0")}, proof.lines()
    assert all("not a planned cable" in t.problems[0] for t in proof.traces if t.problems)


def test_the_simulator_is_killed_when_the_work_fails(tmp_path):
    need_ibsim()
    _, bundle = export("two-tier", tmp_path / "bundle")
    with pytest.raises(SimError):
        with Subnet(bundle / "infiniband/topology.ibnd", tmp_path / "run") as net:
            pid = net._ibsim.pid
            net.run("ibroute", "-t", "200", "65000")       # no such LID: the tool fails
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_topology_ibsim_cannot_load_is_one_readable_error(tmp_path):
    need_ibsim()
    bad = tmp_path / "bad.ibnd"
    bad.write_text('Switch\t4 "S-1"\n[1]\t"H-9"[1]\n')
    with pytest.raises(SimError, match="ibsim did not load"):
        Subnet(bad, tmp_path / "run").start()
