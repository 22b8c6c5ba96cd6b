"""Bulk wiring plans (cable NICs to their rail leaves, mesh leaves to spines) and copy/paste plans."""

from __future__ import annotations

import pytest

from designer.checks import check
from designer.model.entities import Role, Switch
from designer.planning.bulk import rail_cabling, spine_mesh
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
