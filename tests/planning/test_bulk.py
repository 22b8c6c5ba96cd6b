"""Bulk wiring plans (cable NICs to their rail leaves, mesh leaves to spines) and copy/paste plans."""

from __future__ import annotations

import pytest

from designer.checks import check
from designer.model.entities import Role, Switch
from designer.planning.bulk import core_mesh, rail_cabling, spine_mesh
from designer.planning.copying import Clip, copy_devices, paste_plan
from designer.planning.topology import leaf_links
from tests.conftest import preset_fabric


def _apply_rail_plan(f, plan):
    for nic, port in plan.steps:
        switch, name = port.split("/", 1)
        f.move_nic(nic, switch, name)


def test_rail_cabling_puts_every_nic_back_on_its_rail_leaf(default_fabric):
    f = default_fabric
    built = {l.id for l in f.links.values()}
    nics = [n.id for n in f.servers["su1-srv02"].nics]
    for nic in nics:
        f.disconnect(f.link_at(nic).id)
    f.move_nic("su1-srv03/nic1", "su1-leaf-r2")              # one cross-rail cable to fix as well
    plan = rail_cabling(f, nics + ["su1-srv03/nic1", "su1-srv04/nic0"])
    assert plan.already == 1 and not plan.problems
    assert [nic for nic, _ in plan.steps] == nics + ["su1-srv03/nic1"]
    for nic, port in plan.steps:
        assert f.switches[port.split("/")[0]].rail == f.nic(nic).rail
    _apply_rail_plan(f, plan)
    assert not [x for x in check(f) if x.code in ("RD004", "RD005")]
    assert len(f.links) == len(built)


def test_rail_cabling_says_what_it_cannot_do(default_fabric):
    f = default_fabric
    f.remove_device("su2-leaf-r3")
    plan = rail_cabling(f, ["su2-srv01/nic3", "su1-srv01/nic0"])
    assert plan.already == 1 and not plan.steps
    assert plan.problems == ["SU2 has no leaf of rail 3 for su2-srv01/nic3; add one from the palette"]


def test_spine_mesh_gives_a_new_leaf_even_uplinks_for_its_servers(default_fabric):
    f = default_fabric
    f.add_switch(Switch("su1-leaf-r0-2", "su1-leaf-r0-2", Role.LEAF, "asterfusion-cx732q-n", su=1, rail=0))
    for server in ("su1-srv01", "su1-srv02"):                # two 400G NICs onto the new leaf
        f.move_nic(f"{server}/nic0", "su1-leaf-r0-2")
    plan = spine_mesh(f, ["su1-leaf-r0-2", "su1-leaf-r1"])
    assert plan.already == 1 and not plan.problems         # su1-leaf-r1 was meshed by the build
    spines = sorted(s.split("/")[0] for _, s in plan.steps)
    assert spines == ["spine-01", "spine-02"]              # 800G down at 1:1 over 400G ports: 2, one per spine
    for a, b in plan.steps:
        f.connect(a, b)
    links = leaf_links(f, "su1-leaf-r0-2")
    assert len(links.uplinks) == 2
    assert not [x for x in check(f) if x.code in ("RD001", "RD006", "RD017") and "su1-leaf-r0-2" in x.ids]


def test_spine_mesh_names_a_leaf_whose_plane_has_no_spines():
    f = preset_fabric("rail-only-32x4")
    plan = spine_mesh(f, ["su1-leaf-r0"])
    assert not plan.steps and plan.problems == ["the design has no spines for su1-leaf-r0; add spines from the palette"]


@pytest.mark.parametrize("where", ["same", "su2", "new"])
def test_paste_makes_fresh_ids_and_keeps_the_cables_among_the_copies(default_fabric, where):
    f = default_fabric
    clip = copy_devices(f, ["su1-srv01", "su1-leaf-r0", "su1-srv01/nic0", "spine-01"])
    assert Clip.from_json(clip.to_json()) == clip
    su = {"same": None, "su2": 2, "new": None}[where]
    devices, links = paste_plan(f, clip, su=su, new_su=where == "new")
    ids = [d.id for d in devices]
    expected = {"same": ["spine-03", "su1-leaf-r0-2", "su1-srv05"], "su2": ["spine-03", "su2-leaf-r0-2", "su2-srv05"],
                "new": ["spine-03", "su3-leaf-r0", "su3-srv01"]}[where]
    assert ids == expected
    spine, leaf, server = expected
    assert (f"{leaf}/Ethernet1", f"{server}/nic0") in links or (f"{leaf}/Ethernet0", f"{server}/nic0") in links
    assert all(a.split("/")[0] in ids and b.split("/")[0] in ids for a, b in links)
    for device in devices:
        (f.add_server if device.id.startswith("su") and "srv" in device.id else f.add_switch)(device)
    for a, b in links:
        f.connect(a, b)


def test_a_clip_from_something_else_is_refused():
    with pytest.raises(ValueError):
        Clip.from_json('{"format": "other"}')
    with pytest.raises(ValueError):
        Clip.from_json('{"format": "rail-designer-clip/1", "servers": [{"id": 1}]}')


def _unmesh(f, switch_id, word):
    gone = [l for l in f.links_of(switch_id) if word in l.a.split("/")[0] + l.b.split("/")[0]]
    for link in gone:
        f.disconnect(link.id)
    return gone


def _tier_findings(f, ids, codes=("RD006", "RD017", "RD040", "RD041", "RD043", "RD044", "RD045")):
    return [x for x in check(f) if x.code in codes and set(ids) & set(x.ids)]


@pytest.mark.parametrize("leaf_id, design", [("su3-leaf-r5", "three-tier"), ("pl1-su1-leaf-r2", "twin-plane")])
def test_spine_mesh_cables_a_leaf_only_to_the_spines_of_its_group_and_plane(leaf_id, design):
    f = (preset_fabric("b200-superpod", sus=4, core_tier="on", sus_per_group=2) if design == "three-tier"
         else preset_fabric("twin-plane-800g"))
    gone = _unmesh(f, leaf_id, "spine")
    plan = spine_mesh(f, [leaf_id])
    assert not plan.problems and len(plan.steps) == len(gone)
    leaf = f.switches[leaf_id]
    for _, spine_ep in plan.steps:
        spine = f.switches[spine_ep.split("/")[0]]
        assert (spine.group, spine.fabric_plane) == (leaf.group, leaf.fabric_plane)
    for a, b in plan.steps:
        f.connect(a, b)
    assert not _tier_findings(f, [leaf_id])


def test_core_mesh_cables_a_spine_to_the_cores_of_its_core_group_evenly():
    f = preset_fabric("b200-superpod", sus=4, core_tier="on", sus_per_group=2)
    gone = _unmesh(f, "sg2-spine-03", "core")
    groups = {f.switches[ep.split("/")[0]].group for l in gone for ep in (l.a, l.b) if "core" in ep}
    assert groups == {3}
    plan = core_mesh(f, ["sg2-spine-03", "sg1-spine-01", "su1-leaf-r0"])
    assert plan.already == 1 and plan.problems == ["su1-leaf-r0 is a leaf; select spines to connect to the cores"]
    assert len(plan.steps) == len(gone)
    assert {f.switches[b.split("/")[0]].group for _, b in plan.steps} == {3}
    for a, b in plan.steps:
        f.connect(a, b)
    assert not _tier_findings(f, ["sg2-spine-03"])


def test_core_mesh_names_a_core_group_that_has_no_cores():
    f = preset_fabric("twin-plane-800g")
    plan = core_mesh(f, ["pl1-spine-02"])
    assert not plan.steps
    assert plan.problems == ["core group 2 of fabric plane 1 has no cores for pl1-spine-02; add cores from the palette"]
