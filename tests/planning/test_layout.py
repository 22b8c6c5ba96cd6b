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


def _three_tier():
    return preset_fabric("b200-superpod", sus=4, core_tier="on", sus_per_group=2)


def _overlaps(boxes) -> list:
    boxes = sorted(boxes)
    return [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:i + 40]
            if a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h]


def test_cores_sit_in_rows_above_the_spines_one_labelled_band_per_core_group():
    f = _three_tier()
    out = geo.compute(f)
    cores, spines, leaves = ([out.boxes[s.id] for s in tier] for tier in (f.cores(), f.spines(), f.leaves()))
    assert len(cores) == len(f.cores()) == 16 and min(b.y for b in cores) >= 0
    assert max(b.y for b in cores) < min(b.y for b in spines) < min(b.y for b in leaves)
    bands = [b for b in out.bands if b.kind == "cores"]
    assert sorted(b.group for b in bands) == sorted({c.group for c in f.cores()})
    for band in bands:
        members = [c for c in f.cores() if c.group == band.group]
        assert band.label == f"core group {band.group}"
        assert all(band.box.contains(out.boxes[c.id].cx, out.boxes[c.id].cy) for c in members)
    assert not _overlaps(out.boxes[s.id] for s in f.switches.values())


def test_each_spine_group_is_a_pod_holding_its_spines_above_its_sus():
    f = _three_tier()
    out = geo.compute(f)
    pods = {b.group: b for b in out.bands if b.kind == "pod"}
    assert sorted(pods) == [1, 2] and pods[1].label == "spine group 1: SU1-SU2" and pods[2].label.endswith("SU3-SU4")
    for spine in f.spines():
        box = out.boxes[spine.id]
        assert pods[spine.group].box.contains(box.cx, box.cy)
    for leaf in f.leaves():
        assert pods[leaf.group].box.contains(out.boxes[leaf.id].cx, out.boxes[leaf.id].cy)
        top = min(out.boxes[s.id].y for s in f.spines() if s.group == leaf.group)
        assert top < out.boxes[leaf.id].y
    p1, p2 = pods[1].box, pods[2].box
    assert p1.x + p1.w <= p2.x or p1.y + p1.h <= p2.y                     # pods do not overlap
    assert out.band_at(out.boxes["sg2-spine-01"].cx, out.boxes["sg2-spine-01"].cy).kind == "spines"
    assert out.band_at(out.boxes["sg2-spine-01"].cx, out.boxes["sg2-spine-01"].cy, "pod").group == 2


def test_a_twin_plane_design_has_a_row_of_leaves_per_plane_and_a_band_of_spines_per_plane():
    f = preset_fabric("twin-plane-800g")
    out = geo.compute(f)
    assert out.planes == 2
    for rail in range(8):
        top, below = out.boxes[f"pl0-su1-leaf-r{rail}"], out.boxes[f"pl1-su1-leaf-r{rail}"]
        assert top.x == below.x and top.y < below.y
        for plane, box in ((0, top), (1, below)):
            lane = out.lane_at(box.cx, box.cy)
            assert (lane.su, lane.rail, lane.fabric_plane) == (1, rail, plane)
    bands = {b.fabric_plane: b for b in out.bands if b.kind == "spines"}
    assert {p: b.label for p, b in bands.items()} == {0: "fabric plane 0", 1: "fabric plane 1"}
    for spine in f.spines():
        box = out.boxes[spine.id]
        assert out.band_at(box.cx, box.cy).fabric_plane == spine.fabric_plane
    assert not _overlaps(out.boxes[s.id] for s in f.switches.values())


def test_adding_deleting_or_regrouping_one_upper_switch_moves_no_other_device():
    from designer.model.entities import Role, Switch
    f = _three_tier()
    before = geo.compute(f)

    def moved(after):
        return {d for d in before.boxes if d in after.boxes and before.boxes[d] != after.boxes[d]}
    f.add_switch(Switch("cg3-core-02", "cg3-core-02", Role.CORE, "nvidia-sn5400", group=3))
    after = geo.compute(f)
    assert moved(after) == set()
    band = after.band_at(after.boxes["cg3-core-02"].cx, after.boxes["cg3-core-02"].cy, "cores")
    assert band.group == 3
    f.remove_device("sg1-spine-03")
    assert moved(geo.compute(f)) == set()
    f.set_switch_group("sg1-spine-05", 2)
    after = geo.compute(f)
    assert moved(after) == {"sg1-spine-05"}
    assert after.band_at(after.boxes["sg1-spine-05"].cx, after.boxes["sg1-spine-05"].cy, "pod").group == 2
    assert not _overlaps(after.boxes[s.id] for s in f.switches.values())


def test_collapsed_sus_of_a_pod_shrink_it_and_nothing_overlaps():
    f = _three_tier()
    full, out = geo.compute(f), geo.compute(f, collapsed={1, 2})
    pod = {b.group: b.box for b in out.bands if b.kind == "pod"}
    assert pod[1].h < {b.group: b.box for b in full.bands if b.kind == "pod"}[1].h
    assert all(out.boxes[s.id].y == full.boxes[s.id].y for s in f.spines() if s.group == 1)   # spines stay put
    blocks = sorted(out.su_blocks.values())
    assert not _overlaps(blocks) and not _overlaps(out.boxes[s.id] for s in f.switches.values())
