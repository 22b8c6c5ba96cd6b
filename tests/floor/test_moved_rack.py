"""Issue 20's Done-when: move a rack, and the cable lengths, the media, the bill and CABLE_LENGTH in
config_db.json change together (through the public API and the exporters), and SONiC's YANG models
(sonic-cable-length, through designer/sonic validation) accept the lengths written."""

from __future__ import annotations

import csv
import io
import json

import designer
from designer.model.floor import Row
from tests.sonic.yang_models import yang  # noqa: F401


def _globals(fabric) -> dict:
    from designer.export.bundle import render_in_memory
    from designer.export.switches import PARTS
    return render_in_memory(fabric, PARTS[1:])


def leaf_cables(files: dict) -> dict:
    rows = csv.DictReader(io.StringIO(files["cabling.csv"]))
    return {r["a_port"]: r for r in rows if r["a_device"] == "su1-leaf-r0"}


def lengths(files: dict) -> dict:
    db = json.loads(files["switches/su1-leaf-r0/config_db.json"])
    return db["CABLE_LENGTH"]["AZURE"]


def bill(files: dict) -> dict:
    return {r["part"]: int(r["count"]) for r in csv.DictReader(io.StringIO(files["bom.csv"]))}


def test_moving_a_rack_changes_lengths_media_bill_and_cable_length_together(yang):
    fabric = designer.build(designer.spec("superpod-su", servers_per_su=8))
    before = {**_globals(fabric), **_device(fabric)}
    fabric.add_row(Row("row-far", "hall1", 14))
    fabric.move_rack("su1-r01", "row-far", 1)              # su1-srv01..04 now 13 rows further away
    after = {**_globals(fabric), **_device(fabric)}

    old, new = leaf_cables(before), leaf_cables(after)
    moved = {port for port, row in new.items() if row["b_rack"] == "su1-r01"}
    assert len(moved) == 4                                   # one NIC of each of the four servers
    for port in new:
        changed = port in moved
        assert (old[port]["length_m"] != new[port]["length_m"]) == changed
        assert int(new[port]["length_m"]) > int(old[port]["length_m"]) if changed else True
        # CABLE_LENGTH is the cabling plan's bought length, port by port, before and after, rounded up to
        # a length the platform's pg_profile_lookup.ini lists (generic-64x400g: a Tomahawk 4 table, static)
        assert lengths(before)[port] == _listed(old[port]["length_m"])
        assert lengths(after)[port] == _listed(new[port]["length_m"])
        assert (lengths(before)[port] != lengths(after)[port]) == changed
    assert {new[p]["media"] for p in moved} == {"optics-smf-mpo12"} != {old[p]["media"] for p in moved}
    assert {old[p]["media"] for p in moved} == {"aoc-400g-qsfpdd-osfp"}
    # the bill: the AOCs of those 32 cables (8 rails x 4 servers) become transceivers and fibres
    old_bill, new_bill = bill(before), bill(after)
    aoc = sum(old_bill.get(p, 0) for p in old_bill if p.startswith("AOC-QDD-OSFP"))
    assert aoc - sum(new_bill.get(p, 0) for p in new_bill if p.startswith("AOC-QDD-OSFP")) == 32
    assert new_bill["MMS4X00-NS400"] - old_bill.get("MMS4X00-NS400", 0) == 32   # DR4 at the NICs
    assert "set real" not in after["switches/su1-leaf-r0/NOTES.txt"]
    # SONiC's models take the lengths written
    from designer.sonic.validate import validate
    assert validate(yang, json.loads(after["switches/su1-leaf-r0/config_db.json"])) == []


def test_without_a_floor_cable_length_keeps_its_defaults():
    fabric = designer.build(designer.spec("superpod-su", servers_per_su=8, floor="none"))
    files = _device(fabric)
    assert set(lengths(files).values()) == {"5m", "40m"}
    assert "set real" in files["switches/su1-leaf-r0/NOTES.txt"]
    assert "bom.csv" not in _globals(fabric)


def _listed(length_m: str) -> str:
    from designer.export.lossless import table_length
    listed = table_length("generic-64x400g", "400000", int(length_m))
    assert listed is not None and int(listed[:-1]) >= int(length_m)
    return listed


def _device(fabric) -> dict:
    return designer.render_device(fabric, "su1-leaf-r0")
