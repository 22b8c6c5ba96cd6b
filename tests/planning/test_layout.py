"""Canvas geometry without Qt: every device and NIC placed, lanes answer drop targets."""

from designer.planning import layout as geo
from tests.conftest import preset_fabric


def test_every_device_and_nic_has_a_box_and_tiers_are_ordered(default_fabric):
    out = geo.compute(default_fabric)
    f = default_fabric
    assert set(out.boxes) == set(f.servers) | set(f.switches)
    assert set(out.nic_boxes) == {n.id for n in f.nics()}
    spine_y = {out.boxes[s.id].y for s in f.spines()}
    leaf_y = {out.boxes[s.id].y for s in f.leaves()}
    server_y = {out.boxes[s.id].y for s in f.servers.values()}
    assert max(spine_y) < min(leaf_y) < min(server_y)


def test_leaf_sits_in_its_rail_lane_and_lane_at_finds_it(default_fabric):
    out = geo.compute(default_fabric)
    for leaf in default_fabric.leaves():
        box = out.boxes[leaf.id]
        lane = out.lane_at(box.cx, box.y + box.h / 2)
        assert (lane.su, lane.rail) == (leaf.su, leaf.rail)
    assert out.lane_at(-500, -500) is None


def test_su_at_picks_the_su_column(default_fabric):
    out = geo.compute(default_fabric)
    for su, block in out.su_blocks.items():
        assert out.su_at(block.cx) == su


def test_no_two_servers_overlap_in_a_large_design():
    f = preset_fabric("superpod-su", sus=2)
    out = geo.compute(f)
    boxes = sorted((out.boxes[s].x, out.boxes[s].y) for s in f.servers)
    assert len(set(boxes)) == len(boxes)
