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


def test_su_at_picks_the_su_block(default_fabric):
    out = geo.compute(default_fabric)
    for su, block in out.su_blocks.items():
        assert out.su_at(block.cx, block.cy) == su


def test_no_two_servers_overlap_in_a_large_design():
    f = preset_fabric("superpod-su", sus=2)
    out = geo.compute(f)
    boxes = sorted((out.boxes[s].x, out.boxes[s].y) for s in f.servers)
    assert len(set(boxes)) == len(boxes)


def test_many_sus_are_laid_out_in_a_grid_about_as_wide_as_a_window():
    f = preset_fabric("superpod-su", sus=32, servers_per_su=4, spine_planes="per-rail")
    out = geo.compute(f)
    assert 1.0 < out.width / out.height < 2.6                  # 32 SUs in one row were 34:1
    assert out.columns > 1 and len({round(b.y) for b in out.su_blocks.values()}) > 1
    blocks = sorted(out.su_blocks.values())
    for a, b in zip(blocks, blocks[1:]):                       # no two SU blocks overlap
        assert a.x + a.w <= b.x or a.y + a.h <= b.y or b.y + b.h <= a.y


def test_adding_a_server_moves_only_what_follows_it_in_its_su(default_fabric):
    from designer.planning.build import make_server
    f = default_fabric
    before = geo.compute(f)
    f.add_server(make_server(f.catalog, "su1-srv05", "gpu-4x400g", 1, 4))
    after = geo.compute(f)
    moved = {d for d in before.boxes if before.boxes[d] != after.boxes[d]}
    assert moved == set()
    f.remove_device("su1-srv02")
    later = geo.compute(f)
    assert {d for d in after.boxes if d in later.boxes and after.boxes[d] != later.boxes[d]} == \
        {"su1-srv03", "su1-srv04", "su1-srv05"}


def test_re_railing_a_leaf_onto_a_taken_lane_moves_only_that_leaf(default_fabric):
    f = default_fabric
    before = geo.compute(f)
    f.set_switch_rail("su1-leaf-r3", 2)
    after = geo.compute(f)
    assert {d for d in before.boxes if before.boxes[d] != after.boxes[d]} == {"su1-leaf-r3"}
    lane = after.lane_at(after.boxes["su1-leaf-r3"].cx, after.boxes["su1-leaf-r3"].cy)
    assert (lane.su, lane.rail) == (1, 2)


def test_a_collapsed_su_is_one_short_block_with_its_leaves_on_top_and_its_servers_hidden(default_fabric):
    f = default_fabric
    full = geo.compute(f)
    out = geo.compute(f, collapsed={2})
    block = out.collapsed[2]
    assert block.h < full.su_blocks[2].h / 2
    su2_servers = {s.id for s in f.servers.values() if s.su == 2}
    assert out.hidden == su2_servers and all(out.boxes[s] == block for s in su2_servers)
    assert not any(out.nic_box(n.id) for s in su2_servers for n in f.servers[s].nics)
    for leaf in (l for l in f.leaves() if l.su == 2):
        box = out.boxes[leaf.id]
        assert block.contains(box.cx, box.y) and geo.anchor(f, out, f"{leaf.id}/Ethernet0", {}, 0)[1] == box.y
    assert not [l for l in out.lanes if l.su == 2]            # nothing to drop onto there
    assert all(out.boxes[d] == full.boxes[d] for d in full.boxes if out.su_of.get(d) != 2 and d in f.servers)
