"""Path traces and collision analysis across three tiers and across planes."""

from __future__ import annotations

import dataclasses

import pytest

from designer.analysis.collisions import analyze
from designer.analysis.flows import flows, rail_members
from designer.analysis.paths import trace
from designer.analysis.report import analysis_json
from designer.analysis.routing import Forwarding
from designer.analysis.select import pairs
from designer.cli import main
from designer.planning.addressing import assign_addresses
from designer.planning.build import build
from designer.planning.ppd import ppd_plan
from designer.planning.spec import BuildSpec
from designer.storage import save
from tests.conftest import preset_fabric

SMALL_THREE_TIER = dict(sus=4, servers_per_su=4, server_model="gpu-4x400g", leaf_model="asterfusion-cx732q-n",
                        core_tier="on", sus_per_group=2, cores=4, scheme="p2p31")


def codes(t):
    return {f.code for f in t.flags}


@pytest.fixture(scope="module")
def pod():
    return Forwarding(preset_fabric("b200-superpod", sus=16))


def test_across_spine_groups_the_flow_climbs_to_a_core_and_back(pod):
    t = trace(pod, "su1-srv03/nic5", "su13-srv30/nic5")
    assert t.ok and t.reply is not None
    req = t.request
    roles = [pod.fabric.switches[h.device].role.value if h.device in pod.fabric.switches else "host"
             for h in req.hops]
    assert roles == ["host", "leaf", "spine", "core", "spine", "leaf", "host"]
    pin = next(b for b in ppd_plan(pod.fabric)["su1-leaf-r5"].bindings if b.nic == "su1-srv03/nic5")
    assert req.hops[1].decision.startswith("PPD pin") and req.hops[2].device == pin.spine
    up = req.hops[2]
    assert "via cg" in up.decision and "ECMP over 32 links" in up.decision and len(up.links) == 32
    core = req.hops[3]
    assert core.device.startswith(f"cg{int(pin.spine.rsplit('-', 1)[1])}-core-")   # spine j -> core group j
    assert "via sg4-spine-" in core.decision and "ECMP over 16 links" in core.decision
    assert req.hops[4].decision.endswith("one link") and req.arrival_nic == "su13-srv30/nic5"
    assert req.cores == [core.device] and len(req.spines) == 2


def test_within_a_spine_group_the_flow_stays_below_the_cores(pod):
    t = trace(pod, "su1-srv01/nic0", "su4-srv01/nic0")
    assert t.ok and t.request.cores == [] and len(t.request.spines) == 1
    assert [h.device for h in t.request.hops][-2:] == ["su4-leaf-r0", "su4-srv01"]


def test_one_spine_asn_for_all_groups_loses_the_routes_between_groups(catalog):
    f = build(BuildSpec(**SMALL_THREE_TIER), catalog)
    f.set_settings(dataclasses.replace(f.settings, asn=dataclasses.replace(f.settings.asn, spine_mode="per-plane")))
    assign_addresses(f)
    fw = Forwarding(f)
    t = trace(fw, "su1-srv01/nic0", "su3-srv01/nic0")         # spine groups 1 and 2
    assert not t.ok and "PATH-NO-ROUTE" in codes(t)
    assert trace(fw, "su1-srv01/nic0", "su2-srv01/nic0").ok   # same group: one spine hop, no core
    a = analyze(fw, flows(f, "alltoall"), "ecmp", trials=5)
    assert a.unroutable and all("cannot reach" in why for _, _, why in a.unroutable)


def test_three_tier_collisions_sample_ecmp_above_the_pinned_leaf(catalog):
    f = build(BuildSpec(**SMALL_THREE_TIER), catalog)
    fw = Forwarding(f)
    a = analyze(fw, flows(f, "alltoall"), "ppd", trials=50, seed=3)
    assert not a.unroutable and a.trials == 50
    tiers = {l.tier for l in a.links}
    assert tiers == {"host", "up", "down", "up2", "dn2"}
    assert a.upstream_collision_free == 50                    # the leaf uplinks are pinned 1:1
    assert analysis_json(a) == analysis_json(analyze(fw, flows(f, "alltoall"), "ppd", trials=50, seed=3))
    ecmp = analyze(fw, flows(f, "rail-ring"), "ecmp", trials=200, seed=1)
    assert ecmp.trials == 200 and min(ecmp.fraction) < 1.0    # hashing collides somewhere


@pytest.fixture(scope="module")
def twin():
    return Forwarding(preset_fabric("twin-plane-800g", servers_per_su=4))


def test_each_plane_port_has_its_own_table_and_rule(twin):
    nics = twin.server_nics("su1-srv01")
    tables = {(h.plane, h.rail): (h.table, h.priority) for h in nics}
    assert tables[(0, 3)] == (103, 1003) and tables[(1, 3)] == (203, 1103)
    assert len({t for t, _ in tables.values()}) == 16


def test_a_flow_stays_in_its_plane(twin):
    t = trace(twin, "su1-srv01/nic3", "su1-srv02/nic3")       # NIC 1, port 1: plane 1, rail 1
    assert t.ok and all(h.device.startswith(("pl1-", "su1-srv")) for h in t.request.hops)
    t = trace(twin, "su1-srv01/nic2", "su1-srv02/nic3")       # plane 0 to plane 1
    assert not t.ok and "PATH-CROSS-PLANE" in codes(t) and "PATH-NO-ROUTE" in codes(t)
    assert "planes share no switch" in t.request.problem


def test_host_pairs_take_same_rail_same_plane_ports(twin):
    selected = pairs(twin, "su1-srv01", "su1-srv04")
    assert len(selected) == 16
    assert all(twin.fabric.nic(s).fabric_plane == twin.fabric.nic(d).fabric_plane for s, d in selected)


def test_rings_are_per_plane_and_rail(twin):
    members = rail_members(twin.fabric)
    assert sorted(members) == [(p, r) for p in (0, 1) for r in range(8)]
    flow_list = flows(twin.fabric, "rail-ring")
    assert all(twin.fabric.nic(f.src).fabric_plane == twin.fabric.nic(f.dst).fabric_plane == f.plane
               for f in flow_list)
    a = analyze(twin, flow_list, "ppd")
    assert not a.unroutable and a.fraction == [1.0]


def test_paths_and_analyze_commands_on_a_twin_plane_design(tmp_path, capsys):
    path = tmp_path / "twin.fabric.yaml"
    save(preset_fabric("twin-plane-800g", servers_per_su=4), path)
    assert main(["paths", str(path), "--from", "su1-srv01", "--to", "su1-srv03"]) == 0
    out = capsys.readouterr().out
    assert "16 pairs traced, 0 with errors" in out
    assert main(["analyze", str(path), "--pattern", "alltoall", "--format", "json"]) == 0
