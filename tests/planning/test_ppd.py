from designer.planning.ppd import group_size, ppd_plan
from tests.conftest import preset_fabric


def test_one_to_one_binds_downlink_i_to_uplink_i():
    leaf = ppd_plan(preset_fabric("superpod-su"))["su1-leaf-r0"]
    assert leaf.n == 1 and leaf.downlinks == leaf.uplinks == 32
    assert len({b.uplink for b in leaf.bindings}) == 32


def test_n_to_one_groups_downlinks_by_ceil_d_over_u():
    fabric = preset_fabric("rail-optimized-64x4")            # 64 x 400G down, 32 x 800G up
    leaf = ppd_plan(fabric)["su1-leaf-r0"]
    assert leaf.n == 2
    uplinks = [b.uplink for b in leaf.bindings]
    assert uplinks[0] == uplinks[1] != uplinks[2] == uplinks[3]


def test_binding_next_hop_is_the_spine_address_of_that_uplink():
    fabric = preset_fabric("default")
    for b in ppd_plan(fabric)["su1-leaf-r0"].bindings:
        assert fabric.addresses[f"{b.spine}/{b.spine_port}"].split("/")[0] == b.next_hop
        assert fabric.addresses[b.nic].split("/")[0] == b.source


def test_group_size_rule():
    assert [group_size(d, 4) for d in (1, 4, 5, 8, 9)] == [1, 1, 2, 2, 3]
    assert group_size(10, 0) == 0
