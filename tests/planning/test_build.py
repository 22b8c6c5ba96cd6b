import pytest

from designer.model import Role
from designer.model.ids import split_endpoint
from designer.planning.build import build
from designer.planning.errors import PlanningError
from designer.planning.spec import BuildSpec, size
from designer.planning.topology import all_leaf_links
from tests.conftest import preset_fabric


def _counts(fabric):
    server_links = sum(1 for l in fabric.links.values()
                       if split_endpoint(l.a)[0] in fabric.servers or split_endpoint(l.b)[0] in fabric.servers)
    return len(fabric.leaves()), len(fabric.spines()), server_links, len(fabric.links) - server_links


def test_superpod_four_sus_has_32_leaves_and_equal_tiers_at_1_to_1():
    fabric = preset_fabric("superpod-su", sus=4)
    leaves, spines, server_links, fabric_links = _counts(fabric)
    assert (leaves, server_links) == (32, 1024)
    assert fabric_links == server_links
    assert spines == 16


@pytest.mark.parametrize("preset, expected", [
    ("default", (8, 2, 32, 32)),
    ("rail-only-32x4", (4, 0, 128, 0)),
    ("rail-optimized-64x4", (4, 2, 256, 128)),
])
def test_presets_have_their_documented_shape(preset, expected):
    assert _counts(preset_fabric(preset)) == expected


def test_nic_k_of_every_server_goes_to_the_leaf_of_its_su_and_rail():
    fabric = preset_fabric("superpod-su", sus=2)
    for nic in fabric.nics():
        leaf = fabric.switches[split_endpoint(fabric.peer(nic.id))[0]]
        server = fabric.servers[nic.server_id]
        assert (leaf.su, leaf.rail) == (server.su, nic.rail)


def test_breakout_ports_carry_two_servers_per_800g_cage():
    fabric = preset_fabric("rail-optimized-64x4")
    port_a = fabric.port(fabric.peer("su1-srv01/nic0"))
    port_b = fabric.port(fabric.peer("su1-srv02/nic0"))
    assert port_a.cage == port_b.cage and (port_a.sub, port_b.sub) == (0, 1)
    assert port_a.breakout == "2x400G" and port_a.speed == 400


def test_per_rail_planes_wire_leaves_of_rail_k_only_to_plane_k():
    fabric = preset_fabric("superpod-su", sus=2, spine_planes="per-rail")
    for leaf_id, links in all_leaf_links(fabric).items():
        rail = fabric.switches[leaf_id].rail
        planes = {fabric.switches[split_endpoint(ep)[0]].plane for _, ep in links.uplinks}
        assert planes == {rail}


def test_uplinks_spread_evenly_over_the_spines():
    fabric = preset_fabric("superpod-su", sus=4)
    for links in all_leaf_links(fabric).values():
        per_spine = {}
        for _, ep in links.uplinks:
            per_spine[split_endpoint(ep)[0]] = per_spine.get(split_endpoint(ep)[0], 0) + 1
        assert len(per_spine) == 16 and set(per_spine.values()) == {2}


def test_not_enough_leaf_ports_says_by_how_much(catalog):
    spec = BuildSpec(servers_per_su=40, server_model="gpu-4x400g", leaf_model="asterfusion-cx732q-n", spines=2)
    with pytest.raises(PlanningError, match=r"each leaf needs 80 ports .*has 32: short by 48 ports"):
        build(spec, catalog)


def test_more_spines_than_uplinks_is_refused(catalog):
    spec = BuildSpec(sus=12, servers_per_su=32, leaf_model="generic-64x400g", spine_model="generic-64x400g")
    problems = size(spec, catalog).problems
    assert any("must reach all 48 spines" in p and "short by 16 uplinks" in p for p in problems)


def test_spines_that_cannot_take_the_uplinks_are_refused(catalog):
    spec = BuildSpec(sus=4, servers_per_su=32, leaf_model="generic-64x400g", spines=2)
    problems = size(spec, catalog).problems
    assert any("each spine needs 512 ports" in p and "short by 448 ports" in p for p in problems)


def test_speed_the_leaf_cannot_run_is_refused(catalog):
    spec = BuildSpec(server_model="gpu-4x400g", leaf_model="asterfusion-cx664d-n", spines=0)
    assert any("cannot run ports at 400G" in p for p in size(spec, catalog).problems)


def test_two_to_one_design_reports_its_ratio(catalog):
    s = size(BuildSpec(sus=1, servers_per_su=32, leaf_model="generic-64x400g", oversubscription=2), catalog)
    assert s.leaf_uplinks == 16 and s.ratio == 2.0 and not s.problems


def test_leaves_have_rails_and_spines_do_not():
    fabric = preset_fabric("default")
    assert all(l.role is Role.LEAF and l.rail is not None for l in fabric.leaves())
    assert all(s.rail is None for s in fabric.spines())
