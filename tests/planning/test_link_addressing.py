"""Cables and switches added by hand are addressed like a built design's (issue 10 item 5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from designer.checks import check
from designer.model.entities import Role, Switch
from designer.planning.addressing import loopback_key, svi_key
from designer.planning.link_addressing import address_links, address_switches, restore
from designer.planning.wiring import free_port_pair
from tests.conftest import preset_fabric

ADDRESS_CODES = {"RD007", "RD008", "RD009", "RD013", "RD014", "RD015"}


def _address_findings(fabric):
    return [f for f in check(fabric) if f.code in ADDRESS_CODES]


@pytest.mark.parametrize("preset", ["default", "rail-optimized-64x4", "superpod-su"])
def test_a_cable_redrawn_by_hand_gets_back_what_the_planner_gave_it(preset):
    fabric = preset_fabric(preset)            # subnet-per-leaf and p2p31, NIC and leaf-spine cables
    planned = dict(fabric.addresses)
    for link in fabric.sorted_links()[::5]:
        a, b = link.a, link.b
        fabric.disconnect(link.id)
        fabric.set_address(a, None)
        fabric.set_address(b, None)
        redrawn = fabric.connect(a, b)
        address_links(fabric, [redrawn.id])
        assert dict(fabric.addresses) == planned, link.id


def test_a_hand_drawn_uplink_gets_a_free_31_from_the_fabric_pool(default_fabric):
    f = default_fabric
    spine = Switch("spine-03", "spine-03", Role.SPINE, "asterfusion-cx732q-n")
    f.add_switch(spine)
    address_switches(f, ["spine-03"])
    a, b = free_port_pair(f, "su1-leaf-r0", "spine-03")
    link = f.connect(a, b)
    changes = address_links(f, [link.id]).changes
    spine_ep, leaf_ep = (b, a) if b.startswith("spine") else (a, b)
    assert set(changes) == {spine_ep, leaf_ep}
    even, odd = f.addresses[spine_ep], f.addresses[leaf_ep]
    assert even.startswith("10.254.") and even.endswith("/31") and odd.endswith("/31")
    assert int(even.split("/")[0].split(".")[-1]) + 1 == int(odd.split("/")[0].split(".")[-1])
    assert list(f.addresses.values()).count(even) == 1 and list(f.addresses.values()).count(odd) == 1
    assert not f.is_pinned(spine_ep)
    assert not _address_findings(f)


def test_a_pinned_end_is_kept_and_fixes_its_partner():
    f = preset_fabric("rail-optimized-64x4")          # p2p31
    nic = "su1-srv01/nic0"
    link = f.link_at(nic)
    leaf_ep = link.other(nic)
    f.disconnect(link.id)
    f.set_address(nic, "10.0.200.9/31", pinned=True)
    f.set_address(leaf_ep, None)
    redrawn = f.connect(nic, leaf_ep)
    address_links(f, [redrawn.id])
    assert f.addresses[nic] == "10.0.200.9/31" and f.is_pinned(nic)
    assert f.addresses[leaf_ep] == "10.0.200.8/31"


def test_a_nic_moved_to_another_leaf_takes_an_address_of_that_leaf_and_a_pinned_one_stays(default_fabric):
    f = default_fabric                        # subnet per leaf
    f.remove_device("su1-srv04")              # room on su1's leaves
    old, new = f.move_nic("su1-srv01/nic0", "su1-leaf-r1")
    address_links(f, [new.id])
    gateway = f.addresses[svi_key("su1-leaf-r1")]
    assert f.addresses["su1-srv01/nic0"].rsplit(".", 1)[0] == gateway.rsplit(".", 1)[0]
    assert not [x for x in check(f) if x.code in ("RD014", "RD007")]
    assert [x.code for x in check(f) if "su1-srv01/nic0" in x.ids] == ["RD004"]      # still cross-rail
    f.set_address("su1-srv02/nic0", "10.0.0.200/29", pinned=True)
    _, moved = f.move_nic("su1-srv02/nic0", "su1-leaf-r1")
    address_links(f, [moved.id])
    assert f.addresses["su1-srv02/nic0"] == "10.0.0.200/29"


def test_a_new_leaf_gets_its_own_subnet_loopback_and_asn(default_fabric):
    f = default_fabric
    leaf = Switch("su1-leaf-r0-2", "su1-leaf-r0-2", Role.LEAF, "asterfusion-cx732q-n", su=1, rail=0)
    f.add_switch(leaf)
    address_switches(f, [leaf.id])
    assert f.addresses[loopback_key(leaf.id)].endswith("/32") and leaf.id in f.asns
    assert f.asns[leaf.id] not in {v for k, v in f.asns.items() if k != leaf.id}
    _, link = f.move_nic("su1-srv03/nic0", leaf.id)
    address_links(f, [link.id])
    assert svi_key(leaf.id) in f.addresses
    assert not _address_findings(f)


def test_restore_puts_every_key_back(default_fabric):
    f = default_fabric
    f.remove_device("su2-srv04")
    f.set_address("su2-srv01/nic1", "10.9.9.9/24", pinned=False)
    before = (dict(f.addresses), f.pinned)
    _, link = f.move_nic("su2-srv01/nic1", "su2-leaf-r0")
    changes = address_links(f, [link.id])
    assert "su2-srv01/nic1" in changes.changes and f.addresses["su2-srv01/nic1"] != "10.9.9.9/24"
    restore(f, changes)
    assert (dict(f.addresses), f.pinned) == before


def test_a_full_pool_leaves_the_cable_unaddressed_with_one_readable_line_naming_the_pool():
    f = preset_fabric("rail-optimized-64x4")
    settings = f.settings
    f.set_settings(replace(settings, addressing=replace(settings.addressing, fabric_pool="10.254.0.0/25")))
    last_leaf = f.leaves()[-1].id                    # its uplinks' /31s lie past the shrunk pool
    uplink = [l for l in f.links_of(last_leaf) if "spine" in l.id][-1]
    f.disconnect(uplink.id)
    f.set_address(uplink.a, None)
    f.set_address(uplink.b, None)
    link = f.connect(uplink.a, uplink.b)
    result = address_links(f, [link.id])
    assert not result.changes and len(result.problems) == 1
    assert "fabric pool 10.254.0.0/25" in result.problems[0] and "Design > Assign rails and addresses" in result.problems[0]
    assert link.a not in f.addresses and link.b not in f.addresses
