"""The emulation's plan and expectations for three tiers and fabric planes, as data: no root, no namespaces."""

from __future__ import annotations

from designer.emulation.expect import Expectation, Failure
from designer.emulation.plan import make_plan
from tests.conftest import preset_fabric

# The designs tests/emulation/test_netns.py runs for real.
THREE_TIER = dict(core_tier="on", sus=2, sus_per_group=1, servers_per_su=2, rails=2, spines=2)
TWIN_PLANE = dict(sus=2, servers_per_su=2, rails=2, spines=2, uplink_speed=400)


def three_tier():
    return preset_fabric("b200-superpod", **THREE_TIER)


def twin_plane():
    return preset_fabric("twin-plane-800g", **TWIN_PLANE)


def test_cores_get_namespaces_sessions_and_asns_from_their_files():
    fabric = three_tier()
    plan = make_plan(fabric, "rd1")
    kinds = {n.device: n.kind for n in plan.namespaces}
    assert {kinds[c.id] for c in fabric.cores()} == {"core"} and len(fabric.cores()) == 2
    for core in fabric.cores():
        setup = plan.switches[plan.ns_of(core.id)]
        assert setup.asn == fabric.settings.core_asn and setup.server_prefixes == []
        assert {fabric.switches[s.peer].role.value for s in setup.sessions} == {"spine"}
    assert len(plan.cables) == len(fabric.links)


def test_pins_aim_across_spine_groups_and_pairs_cover_both_groups():
    plan = make_plan(three_tier(), "rd1")
    assert plan.pins and all(p.dest_leaf.split("-")[0] != p.leaf_id.split("-")[0] for p in plan.pins)
    across = [(a, b) for a, b in plan.probes() if a.group != b.group]
    assert across and len(across) < len(plan.probes())
    assert plan.cross_plane_probes() == []


def test_expected_routes_cross_the_cores_and_stop_where_bgp_would():
    plan = make_plan(three_tier(), "rd1")
    intact = Expectation(plan)
    leaves = [leaf.device for leaf in plan.leaves()]
    for setup in plan.switches.values():
        assert sorted(intact.reached(setup.device)) == sorted(x for x in leaves if x != setup.device)
    # A spine of group 1 down: its core group learns group 1 only from it, so group 2's spine at the same
    # position has no route there (its other way, through group 2's other spine, holds its own group's ASN).
    down = Failure("spine down", frozenset(), frozenset({"sg1-spine-01"}))
    broken = Expectation(plan, down)
    assert not broken.has_route("sg2-spine-01", "su1-leaf-r0") and broken.has_route("sg2-spine-02", "su1-leaf-r0")
    assert broken.has_route("sg2-spine-01", "su2-leaf-r1")
    pin = next(p for p in plan.pins if p.leaf_id == "su2-leaf-r0" and p.candidates[0].spine == "sg2-spine-01")
    assert intact.candidate(pin) == pin.candidates[0]
    assert broken.candidate(pin).spine == "sg2-spine-02"           # the agent's exception for group 1
    parts = intact.parts("sg2-spine-01", pin.dest_leaf)
    assert {"cg1-core-01", "sg1-spine-01", pin.dest_leaf} <= parts and "sg1-spine-02" not in parts


def test_twin_plane_probes_pair_each_plane_and_expect_nothing_across():
    fabric = twin_plane()
    plan = make_plan(fabric, "rd1")
    assert {e.plane for e in plan.endpoints} == {0, 1}
    assert all((a.rail, a.plane) == (b.rail, b.plane) for a, b in plan.probes())
    apart = plan.cross_plane_probes()
    assert len(apart) == len(plan.endpoints) and all(a.plane != b.plane and a.rail == b.rail for a, b in apart)
    intact = Expectation(plan)
    for setup in plan.switches.values():
        plane = fabric.switches[setup.device].fabric_plane
        assert {fabric.switches[x].fabric_plane for x in intact.reached(setup.device)} == {plane}
    assert all(fabric.switches[p.leaf_id].fabric_plane == fabric.switches[p.dest_leaf].fabric_plane
               for p in plan.pins)
