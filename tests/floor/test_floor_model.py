"""The floor in the model and the design file: validation, one event per change, round trips."""

from __future__ import annotations

from pathlib import Path

import pytest

import designer
from designer.model import events as ev
from designer.model.errors import ModelError
from designer.model.floor import Rack, Row
from designer.planning.floor_layout import lay_out
from designer.storage.design_file import dumps, loads
from designer.storage.yamlio import FileFormatError

FLOORLESS = Path(__file__).resolve().parents[1] / "data" / "floorless"


@pytest.fixture
def fabric():
    return designer.build(designer.spec("superpod-su", servers_per_su=8))


def test_a_preset_places_every_device_in_a_rack_that_holds_it(fabric):
    assert fabric.floor is not None
    for device in (*fabric.servers.values(), *fabric.switches.values()):
        rack = fabric.racks[device.rack]
        assert 1 <= device.position <= rack.height_u - fabric.device_units(device) + 1
    contents = dict((r.id, d) for r, d in fabric.rack_contents())
    assert [d[0] for d in contents["su1-r01"]] == ["su1-srv01", "su1-srv02", "su1-srv03", "su1-srv04"]
    assert fabric.racks["su1-net1"].row == "row-su1" and fabric.racks["net-r01"].row == "row-net"


def test_each_floor_change_emits_one_event(fabric):
    seen = []
    fabric.subscribe(seen.append)
    fabric.move_rack("su1-r01", "row-su1", 9)
    fabric.set_place("su1-srv01", "su1-r02", 33)
    fabric.add_rack(Rack("spare-1", "row-net", 7))
    assert [(e.kind, e.ids) for e in seen] == [(ev.FLOOR_CHANGED, ("su1-r01",)),
                                               (ev.SERVER_CHANGED, ("su1-srv01",)),
                                               (ev.FLOOR_CHANGED, ("spare-1",))]


@pytest.mark.parametrize("edit, words", [
    (lambda f: f.add_rack(Rack("a/b", "row-net", 5)), "not a valid rack id"),
    (lambda f: f.add_rack(Rack("r9", "row-nowhere", 5)), "there is no row"),
    (lambda f: f.add_rack(Rack("r9", "row-net", 1)), "taken by rack net-r01"),
    (lambda f: f.move_rack("nope", "row-net", 3), "there is no rack"),
    (lambda f: f.set_place("su1-srv01", "su9-r99", 1), "the floor has no rack"),
    (lambda f: f.set_place("su1-srv01", "su1-r01", 42), "its lowest unit is 1 to 41"),
    (lambda f: f.set_place("spine-01", "net-r01", 48), "its lowest unit is 1 to 47"),
    (lambda f: f.add_row(Row("row-x", "hall1", 0)), "already stands at index 0"),
    (lambda f: f.remove_rack("su1-r01"), "still holds su1-srv01"),
])
def test_bad_floor_edits_are_one_readable_refusal(fabric, edit, words):
    before = dumps(fabric)
    with pytest.raises(ModelError, match=words):
        edit(fabric)
    assert dumps(fabric) == before


def test_a_floor_reads_back_byte_for_byte_with_switch_places(fabric):
    fabric.move_rack("net-r01", "row-net", 4)
    fabric.set_place("spine-01", "net-r01", 20)
    text = dumps(fabric)
    again = loads(text)
    assert dumps(again) == text
    assert again.switches["spine-01"].rack == "net-r01" and again.racks["net-r01"].position == 4


@pytest.mark.parametrize("name", sorted(p.name for p in FLOORLESS.glob("*.fabric.yaml")))
def test_an_old_file_without_a_floor_reads_and_writes_byte_identically(name):
    text = (FLOORLESS / name).read_text()
    fabric = loads(text, name)
    assert fabric.floor is None and not fabric.racks
    assert dumps(fabric) == text


def test_a_bad_rack_in_the_file_is_a_located_error(fabric):
    text = dumps(fabric).replace("- id: su1-r02\n", "- id: su1/r02\n", 1)
    with pytest.raises(FileFormatError, match="not a valid rack id") as info:
        loads(text, "d.fabric.yaml")
    assert info.value.line is not None


def test_lay_out_places_only_what_has_no_place(fabric):
    fabric.move_rack("su1-r02", "row-su1", 12)
    before = {d.id: (d.rack, d.position) for d in (*fabric.servers.values(), *fabric.switches.values())}
    assert lay_out(fabric) == []
    assert before == {d.id: (d.rack, d.position) for d in (*fabric.servers.values(), *fabric.switches.values())}


def test_grow_places_the_new_su_and_moves_nothing():
    fabric = designer.build(designer.spec("superpod-su", servers_per_su=8, final_sus=2))
    fabric.move_rack("su1-r02", "row-su1", 12)
    before = {d.id: (d.rack, d.position) for d in (*fabric.servers.values(), *fabric.switches.values())}
    designer.grow(fabric, 2)
    after = {d.id: (d.rack, d.position) for d in (*fabric.servers.values(), *fabric.switches.values())}
    assert all(after[k] == v for k, v in before.items())
    assert after["su2-srv01"][0] == "su2-r01" and after["su2-leaf-r0"][0] == "su2-net1"
    assert fabric.racks["su1-r02"].position == 12
    unplanned = designer.build(designer.spec("superpod-su", servers_per_su=8))
    unplanned = designer.grow(unplanned, 2, allow_renumber=True).fabric   # replaced: its floor is kept
    assert unplanned.floor is not None and unplanned.servers["su2-srv01"].rack == "su2-r01"


def test_a_floor_parameter_that_is_wrong_is_refused():
    with pytest.raises(designer.DesignerError, match="floor: 'hall' is not one of: none, superpod"):
        designer.build(designer.spec("default", floor="hall"))
    with pytest.raises(designer.DesignerError, match="servers_per_rack"):
        designer.build(designer.spec("default", servers_per_rack=0))


def test_an_inventory_naming_a_rack_the_floor_lacks_is_refused_and_changes_nothing(tmp_path, fabric):
    inventory = tmp_path / "inventory.csv"
    inventory.write_text("device,hostname,rack,position\nsu1-srv01,gpu-a01,R12,7\n")
    before = dumps(fabric)
    with pytest.raises(designer.DesignerError, match="inventory.csv:2: su1-srv01: the floor has no rack 'R12'"):
        designer.apply_inventory(fabric, inventory)
    assert dumps(fabric) == before
    inventory.write_text("device,rack,position\nsu1-srv01,su1-r02,41\n")
    designer.apply_inventory(fabric, inventory)
    assert (fabric.servers["su1-srv01"].rack, fabric.servers["su1-srv01"].position) == ("su1-r02", 41)


def test_diff_names_a_switch_that_moved_rack(fabric):
    from designer.storage.design_file import loads as reload
    moved = reload(dumps(fabric))
    moved.set_place("spine-01", "net-r01", 30)
    report = designer.diff(fabric, moved)
    spine = next(d for d in report.devices if d.device == "spine-01")
    assert [(c.kind, c.key, c.old, c.new) for c in spine.changes] == [("attribute", "position", 1, 30)]
