"""RD060-RD063: what stands in the racks, on every preset clean and on each injected fault."""

from __future__ import annotations

import pytest

import designer
from designer.checks.incremental import LiveChecker
import designer.model.floor
from designer.model.floor import Rack
from designer.storage.presets import preset_names


def floor_findings(fabric):
    return [(f.code, f.message) for f in designer.check(fabric) if "RD060" <= f.code <= "RD069"]


@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_is_laid_out_and_its_floor_validates_clean(preset):
    fabric = designer.build(preset)
    assert fabric.floor is not None and fabric.racks
    assert floor_findings(fabric) == []


@pytest.fixture
def fabric():
    return designer.build(designer.spec("superpod-su", servers_per_su=8))


def test_overlapping_units_and_a_device_past_the_top(fabric):
    fabric.set_place("su1-srv02", "su1-r01", 5)           # on su1-srv01's units 1-8
    fabric.set_rack(Rack("su1-r02", "row-su1", fabric.racks["su1-r02"].position, 20, 45.0, 1500.0))
    found = floor_findings(fabric)
    assert ("RD060", "su1-srv02 and su1-srv01 both take unit 5 of rack su1-r01") in found
    assert ("RD060", "su1-srv07 takes units 17-24 of rack su1-r02, which has units 1-20") in found


def test_power_and_weight_over_budget(fabric):
    rack = fabric.racks["su1-r01"]
    fabric.set_rack(Rack(rack.id, rack.row, rack.position, 48, 30.0, 400.0))
    assert floor_findings(fabric) == [("RD061", "rack su1-r01 draws 40.8 kW, its budget is 30 kW"),
                                      ("RD062", "rack su1-r01 holds 522 kg, its budget is 400 kg")]


def test_a_device_without_a_place(fabric):
    fabric.set_place("spine-01", None, None)
    assert floor_findings(fabric) == [("RD063", "spine-01 has no rack on the floor")]


def test_the_live_checker_follows_floor_edits(fabric):
    live = LiveChecker(fabric)
    assert live.run() == designer.check(fabric)
    rack = fabric.racks["su1-r01"]
    fabric.set_rack(Rack(rack.id, rack.row, rack.position, 48, 30.0, 1500.0))
    assert live.run() == designer.check(fabric) and any(f.code == "RD061" for f in live.run())
    fabric.move_rack("su1-r01", "row-su1", 30)
    assert live.run() == designer.check(fabric)


def test_a_cable_past_its_media_and_media_that_does_not_fit(fabric):
    cable = fabric.link_at("su1-srv01/nic0")
    fabric.set_media(cable.id, "dac-400g-qsfpdd")              # QSFP-DD both ends: the NIC is OSFP
    assert floor_findings(fabric) == [
        ("RD065", f"cable {cable.a} -- {cable.b}: media dac-400g-qsfpdd does not fit 400G between qsfp-dd 400G "
                  "and osfp 400G")]
    fabric.set_media(cable.id, "aoc-400g-qsfpdd-osfp")         # fits, reaches 30 m
    assert floor_findings(fabric) == []
    fabric.add_row(designer.model.floor.Row("row-far", "hall2", 12))
    fabric.move_rack("su1-r01", "row-far", 1)                  # 11 rows of 2.4 m away
    found = floor_findings(fabric)
    assert [code for code, _ in found] == ["RD064"] and "aoc-400g-qsfpdd-osfp reaches 30 m, the cable needs" in found[0][1]
    fabric.set_media(cable.id, None)                           # back to the choice by length: optics reach
    assert floor_findings(fabric) == []
