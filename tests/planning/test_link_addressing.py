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


def _three_tier(**kw):
    return preset_fabric("b200-superpod", sus=4, core_tier="on", sus_per_group=2, **kw)


TIERED = {"three-tier": _three_tier, "twin-plane": lambda: preset_fabric("twin-plane-800g"),
          "twin-plane subnet-per-leaf": lambda: preset_fabric("twin-plane-800g", scheme="subnet-per-leaf"),
          "twin-plane three-tier": lambda: preset_fabric("twin-plane-800g", sus=2, servers_per_su=8, core_tier="on")}


@pytest.mark.parametrize("design", sorted(TIERED))
def test_a_cable_redrawn_by_hand_in_a_three_tier_or_twin_plane_design_gets_the_planners_addresses(design):
    fabric = TIERED[design]()
    planned = dict(fabric.addresses)
    kinds = set()
    for link in fabric.sorted_links()[::9]:
        a, b = link.a, link.b
        kinds.add(tuple(sorted(fabric.device(ep.split("/")[0]).__class__.__name__ if ep.split("/")[0] in fabric.servers
                               else fabric.switches[ep.split("/")[0]].role.value for ep in (a, b))))
        fabric.disconnect(link.id)
        fabric.set_address(a, None)
        fabric.set_address(b, None)
        redrawn = fabric.connect(a, b)
        assert not address_links(fabric, [redrawn.id]).problems
        assert dict(fabric.addresses) == planned, link.id
    expected = {("Server", "leaf"), ("leaf", "spine")} | ({("core", "spine")} if fabric.cores() else set())
    assert kinds == expected


@pytest.mark.parametrize("design", sorted(TIERED))
def test_a_switch_addressed_again_gets_its_planned_loopback_and_asn(design):
    fabric = TIERED[design]()
    planned, asns = dict(fabric.addresses), dict(fabric.asns)
    for switch in list(fabric.switches.values())[::3]:
        fabric.set_address(loopback_key(switch.id), None)
        fabric.set_asn(switch.id, None)
        address_switches(fabric, [switch.id])
        assert (dict(fabric.addresses), dict(fabric.asns)) == (planned, asns), switch.id


def test_a_spine_of_a_new_spine_group_and_a_new_core_get_the_asns_a_replan_would_give():
    from designer.planning.asns import plan_asns
    f = _three_tier()
    assert len({f.asns[s.id] for s in f.spines()}) == 2             # one per spine group (RFC 7938)
    for switch in (Switch("sg3-spine-01", "sg3-spine-01", Role.SPINE, "nvidia-sn5400", group=3),
                   Switch("cg99-core-01", "cg99-core-01", Role.CORE, "nvidia-sn5400", group=99)):
        f.add_switch(switch)
        address_switches(f, [switch.id])
        assert f.asns[switch.id] == plan_asns(f)[switch.id]
    assert f.asns["sg3-spine-01"] == f.settings.asn.spine_base + 2 and f.asns["cg99-core-01"] == f.settings.core_asn
    assert f.addresses[loopback_key("cg99-core-01")] not in [v for k, v in f.addresses.items() if k != "cg99-core-01/lo"]


def test_a_hand_drawn_spine_core_cable_takes_a_31_of_its_planes_fabric_pool_with_the_core_even():
    f = preset_fabric("twin-plane-800g", sus=2, servers_per_su=8, core_tier="on")
    spine = next(s for s in f.spines() if s.fabric_plane == 1)
    uplink = next(l for l in f.links_of(spine.id) if "core" in l.id)
    core_ep, spine_ep = (uplink.a, uplink.b) if "core" in uplink.a.split("/")[0] else (uplink.b, uplink.a)
    f.disconnect(uplink.id)
    for ep in (core_ep, spine_ep):
        f.set_address(ep, None)
    link = f.connect(core_ep, spine_ep)
    address_links(f, [link.id])
    from designer.planning.addressing import switch_pool
    from designer.model.addressing import split_cidr
    _, base, prefix = switch_pool(f, "fabric pool", 1)
    even, odd = split_cidr(f.addresses[core_ep])[0], split_cidr(f.addresses[spine_ep])[0]
    assert even % 2 == 0 and odd == even + 1 and base <= even < base + 2 ** (32 - prefix)
    assert not _address_findings(f)
