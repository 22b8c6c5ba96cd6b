"""Every command: redo -> undo -> redo gives the same model snapshots (storage.dumps)."""

from __future__ import annotations

import pytest

from designer.gui import commands as c
from designer.gui.document import Document
from designer.model.entities import Role, Switch
from designer.planning.build import make_server
from designer.planning.wiring import free_port_pair

from designer.storage import dumps as snapshot


def _leaf_with_room(f, speed):
    return next(l.id for l in f.leaves() if f.free_ports(l.id, speed))


CASES = {
    "add server": lambda f: c.AddDeviceCommand(f, make_server(f.catalog, "su1-srv05", "gpu-4x400g", 1, 4)),
    "add server to a new SU": lambda f: c.AddDeviceCommand(f, make_server(f.catalog, "su7-srv01", "gpu-4x400g", 7, 4)),
    "nic rail to a new rail": lambda f: c.SetNicRailCommand(f, "su1-srv03/nic1", 6),
    "add leaf": lambda f: c.AddDeviceCommand(
        f, Switch("su1-leaf-r0-2", "su1-leaf-r0-2", Role.LEAF, "asterfusion-cx732q-n", su=1, rail=0)),
    "add spine": lambda f: c.AddDeviceCommand(
        f, Switch("spine-03", "spine-03", Role.SPINE, "asterfusion-cx732q-n")),
    "delete server": lambda f: c.RemoveDeviceCommand(f, "su1-srv02"),
    "delete leaf": lambda f: c.RemoveDeviceCommand(f, "su2-leaf-r1"),
    "connect": lambda f: c.ConnectCommand(f, *free_port_pair(f, "su1-leaf-r0", "spine-01")),
    "disconnect": lambda f: c.DisconnectCommand(f, f.link_at("su1-srv01/nic0").id),
    "move nic cross-rail": lambda f: c.MoveNicCommand(f, "su1-srv01/nic0", "su1-leaf-r1"),
    "move nic other su": lambda f: c.MoveNicCommand(f, "su1-srv01/nic2", "su2-leaf-r2"),
    "leaf rail": lambda f: c.SetSwitchRailCommand(f, "su1-leaf-r3", 2),
    "nic rail": lambda f: c.SetNicRailCommand(f, "su1-srv03/nic1", 3),
    "nic rail none": lambda f: c.SetNicRailCommand(f, "su1-srv03/nic1", None),
    "hostname": lambda f: c.SetHostnameCommand(f, "su1-srv01", "gpu-node-001"),
    "pinned address": lambda f: c.SetAddressCommand(f, "su1-srv01/nic0", "10.0.9.9/24", True),
    "clear address": lambda f: c.SetAddressCommand(f, "su1-srv01/nic0", None, False),
    "macro": lambda f: c.MacroCommand(f, "two edits", [c.SetHostnameCommand(f, "su1-srv04", "n4"),
                                                       c.RemoveDeviceCommand(f, "su2-srv04")]),
    "connect many": lambda f: c.ConnectCommand(f, pairs=[free_port_pair(f, "su1-leaf-r0", "spine-01"),
                                                         free_port_pair(f, "su1-leaf-r1", "spine-02")]),
    "re-home a cable end": lambda f: c.RehomeCommand(f, f.link_at("su1-srv01/nic0").id, f.peer("su1-srv01/nic0"),
                                                     "su2-leaf-r0/" + f.free_ports("su2-leaf-r0", 400)[0].name),
    "re-home the NIC end": lambda f: c.RehomeCommand(f, f.link_at("su1-srv01/nic0").id, "su1-srv01/nic0",
                                                     _uncabled_nic(f)),
    "recable two NICs": lambda f: c.RecableCommand(f, [("su1-srv01/nic0", "su1-leaf-r1"),
                                                       ("su1-srv02/nic0", "su1-leaf-r2")]),
    "re-address": lambda f: c.AddressCommand(f, [_misaddressed(f, "su1-srv01/nic0")], ["su1-leaf-r0"]),
    "add an SU (grow)": lambda f: c.GrowCommand(f),
    "add servers, cabled": lambda f: c.AddServersCommand(
        f, [make_server(f.catalog, f"su1-srv0{n}", "gpu-4x400g", 1, 4) for n in (5, 6)], cable=True),
}


def _misaddressed(f, nic_id):
    f.set_address(nic_id, "10.9.9.9/24")                    # before the command; re-addressing fixes it
    return f.link_at(nic_id).id


def _uncabled_nic(f):
    f.disconnect(f.link_at("su2-srv04/nic0").id)         # before the command: part of the "before" snapshot
    return "su2-srv04/nic0"


def _uplinkless(f, spine_id):
    """Take a spine's core uplinks away (before the command) and give back the spine."""
    for link in [l for l in f.links_of(spine_id) if "core" in l.id]:
        f.disconnect(link.id)
    return spine_id


def _connect_planned(f, spine_id):
    from designer.planning.bulk import core_mesh
    return c.ConnectCommand(f, pairs=core_mesh(f, [_uplinkless(f, spine_id)]).steps)


# three tiers (two spine groups of two SUs under 16 cores) and two planes
TIERED_CASES = {
    "three-tier: spine group": lambda f: c.set_group_command(f, "sg1-spine-01", 2),
    "three-tier: no spine group": lambda f: c.set_group_command(f, "su1-leaf-r0", None),
    "three-tier: core group": lambda f: c.set_group_command(f, "cg1-core-01", 7),
    "three-tier: fabric plane": lambda f: c.set_plane_command(f, "sg2-spine-02", 1),
    "three-tier: add core": lambda f: c.AddDeviceCommand(
        f, Switch("cg1-core-02", "cg1-core-02", Role.CORE, "nvidia-sn5400", group=1)),
    "three-tier: add spine to group 2": lambda f: c.AddDeviceCommand(
        f, Switch("sg2-spine-09", "sg2-spine-09", Role.SPINE, "nvidia-sn5400", group=2)),
    "three-tier: spine-core cables": lambda f: _connect_planned(f, "sg2-spine-02"),
    "three-tier: delete core": lambda f: c.RemoveDeviceCommand(f, "cg2-core-01"),
    "three-tier: re-address a spine": lambda f: c.AddressCommand(f, [l.id for l in f.links_of("sg1-spine-02")],
                                                                  [_wrong_asn(f, "sg1-spine-02")]),
    "twin-plane: leaf to plane 0": lambda f: c.set_plane_command(f, "pl1-su1-leaf-r3", 0),
    "twin-plane: recable a plane-1 NIC": lambda f: c.MoveNicCommand(f, "su1-srv01/nic1", _room(f, "su1-srv02/nic3")),
}


def _wrong_asn(f, switch_id):
    f.set_asn(switch_id, 65001)                              # before the command; re-addressing fixes it
    return switch_id


def _room(f, nic_id):
    """Free the port a NIC is cabled to (before the command); returns that switch."""
    switch = f.peer(nic_id).split("/")[0]
    f.disconnect(f.link_at(nic_id).id)
    return switch


def _tiered(name):
    from tests.conftest import preset_fabric
    if name.startswith("twin-plane"):
        return preset_fabric("twin-plane-800g", servers_per_su=8)
    return preset_fabric("b200-superpod", sus=4, core_tier="on", sus_per_group=2, servers_per_su=4)


@pytest.mark.parametrize("name", sorted(CASES) + sorted(TIERED_CASES))
def test_command_round_trips(qapp, default_fabric, name):
    fabric = _tiered(name) if name in TIERED_CASES else default_fabric
    doc = Document(fabric)
    command = (TIERED_CASES.get(name) or CASES[name])(fabric)
    before = snapshot(fabric)
    assert doc.execute(command) is None
    after = snapshot(fabric)
    assert after != before
    assert doc.dirty
    doc.undo_stack.undo()
    assert snapshot(fabric) == before
    assert not doc.dirty
    doc.undo_stack.redo()
    assert snapshot(fabric) == after
    doc.undo_stack.undo()
    assert snapshot(fabric) == before


def test_replan_round_trips_and_fixes_a_wrong_rail(qapp, default_fabric):
    f = default_fabric
    doc = Document(f)
    assert doc.execute(c.SetNicRailCommand(f, "su1-srv01/nic0", 3)) is None
    assert doc.execute(c.SetAddressCommand(f, "su1-srv01/nic1", "10.1.200.7/24", False)) is None
    before = snapshot(f)
    assert doc.execute(c.ReplanCommand(f)) is None
    after = snapshot(f)
    assert f.nic("su1-srv01/nic0").rail == 0
    assert f.addresses["su1-srv01/nic1"] != "10.1.200.7/24"
    doc.undo_stack.undo()
    assert snapshot(f) == before
    doc.undo_stack.redo()
    assert snapshot(f) == after


def test_refused_edit_changes_nothing_and_is_not_on_the_stack(qapp, default_fabric):
    doc = Document(default_fabric)
    before = snapshot(default_fabric)
    error = doc.execute(c.SetHostnameCommand(default_fabric, "su1-srv01", "bad_name!"))
    assert "not a valid host name" in error
    error = doc.execute(c.SetHostnameCommand(default_fabric, "su1-srv01", "su1-srv02"))
    assert "already used by su1-srv02" in error
    assert snapshot(default_fabric) == before
    assert doc.undo_stack.count() == 0 and not doc.dirty


def test_a_cable_drawn_by_hand_is_addressed_in_the_same_undo_step(qapp, default_fabric):
    f = default_fabric
    doc = Document(f)
    a, b = free_port_pair(f, "su1-leaf-r0", "spine-01")
    assert a not in f.addresses and b not in f.addresses
    assert doc.execute(c.ConnectCommand(f, a, b)) is None
    assert f.addresses[a].endswith("/31") and f.addresses[b].endswith("/31")
    doc.undo_stack.undo()
    assert a not in f.addresses and b not in f.addresses and doc.undo_stack.count() == 1


def test_a_switch_added_by_hand_gets_its_loopback_and_asn_and_undo_takes_them_back(qapp, default_fabric):
    f = default_fabric
    doc = Document(f)
    before = snapshot(f)
    doc.execute(c.AddDeviceCommand(f, Switch("spine-03", "spine-03", Role.SPINE, "asterfusion-cx732q-n")))
    assert "spine-03/lo" in f.addresses and f.asns["spine-03"] == f.asns["spine-01"]     # shared spine ASN
    doc.undo_stack.undo()
    assert snapshot(f) == before


def test_add_su_adds_what_grow_adds_and_is_refused_with_the_reason_where_it_would_renumber(qapp, default_fabric):
    import designer
    f = default_fabric
    doc = Document(f)
    expected = snapshot(designer.grow(_copy(f), 3).fabric)
    assert doc.execute(c.GrowCommand(f)) is None
    assert snapshot(f) == expected and len(f.leaves()) == 12
    full = designer.build(designer.spec("superpod-su", sus=2, servers_per_su=4, spines=1))
    before = snapshot(full)
    error = Document(full).execute(c.GrowCommand(full))
    assert "not additive" in error and snapshot(full) == before


def _copy(fabric):
    from designer.storage.design_file import dumps, loads
    return loads(dumps(fabric))
