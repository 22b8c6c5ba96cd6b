"""Cable runs from the floor, the media they get, and the incremental update against a fresh computation."""

from __future__ import annotations

import random

import pytest

import designer
from designer.model import events as ev
from designer.model.floor import Row
from designer.planning.cable_lengths import CableRuns
from designer.planning.cable_plan import CablePlan


@pytest.fixture
def fabric():
    return designer.build(designer.spec("superpod-su", servers_per_su=8))


def test_a_server_cable_runs_up_along_the_tray_and_down(fabric):
    # su1-srv01: rack su1-r01 (slot 1), units 1-8, ports at 4U; su1-leaf-r0: rack su1-net1 (slot 2), units 1-2
    cable = fabric.link_at("su1-srv01/nic0")
    run = CableRuns(fabric).runs[cable.id]
    up = 48 * 0.04445 - 4 * 0.04445
    down = 48 * 0.04445 - 1 * 0.04445
    routed = up + 0.5 + 0.6 + 0.5 + down
    assert run.routed_m == pytest.approx(routed, abs=1e-3)
    assert run.needed_m == pytest.approx(routed * 1.1 + 2 * 0.5, abs=1e-3)
    choice = CablePlan(fabric).choices[cable.id]
    # QSFP-DD leaf to an OSFP ConnectX-7: 7.2 m is past copper, so the AOC of the next sold length
    assert (choice.media, choice.length_m, choice.items) == ("aoc-400g-qsfpdd-osfp", 10.0,
                                                             (("AOC-QDD-OSFP-400G-10M", cable.id),))


def test_cables_inside_one_rack_run_the_vertical_manager(fabric):
    fabric.set_place("su1-leaf-r0", "su1-r01", 47)
    cable = fabric.link_at("su1-srv01/nic0")
    run = CableRuns(fabric).runs[cable.id]
    assert run.routed_m == pytest.approx((47 - 1 + 1 - 4) * 0.04445, abs=1e-3)
    choice = CablePlan(fabric).choices[cable.id]        # 3.06 m with the slack; no QSFP-DD to OSFP copper
    assert (choice.media, choice.length_m) == ("aoc-400g-qsfpdd-osfp", 5.0)


def test_a_cable_with_an_end_off_the_floor_has_no_run(fabric):
    fabric.set_place("su1-srv01", None, None)
    plan = CablePlan(fabric)
    cable = fabric.link_at("su1-srv01/nic0")
    assert plan.run(cable.id) is None and plan.choices[cable.id] is None and plan.metres(cable.id) is None


def test_moving_a_rack_recomputes_only_its_cables_and_matches_a_fresh_computation(fabric):
    plan = CablePlan(fabric)
    touched = ev.Touched()
    fabric.subscribe(touched.add)
    fabric.add_row(Row("row-far", "hall1", 9))
    rng = random.Random(20)
    racks = sorted(fabric.racks)
    for step in range(12):
        rack = rng.choice(racks)
        fabric.move_rack(rack, "row-far", 20 + step)
        if step % 3 == 0:
            server = rng.choice(sorted(fabric.servers))
            fabric.set_place(server, fabric.servers[server].rack, fabric.servers[server].position)
        if step % 4 == 1:
            cable = rng.choice(sorted(fabric.links))
            fabric.set_media(cable, "optics-smf-mpo12")
        plan.refresh(touched)
        touched = ev.Touched()
        fabric.unsubscribe(fabric._listeners[-1])
        fabric.subscribe(touched.add)
        fresh = CablePlan(fabric)
        assert plan.runs.runs == fresh.runs.runs and plan.choices == fresh.choices
    in_rack = {d.id for d in (*fabric.servers.values(), *fabric.switches.values()) if d.rack == "su1-r01"}
    fabric.move_rack("su1-r01", "row-far", 1)
    plan.refresh(touched)
    assert plan.runs.recomputed == sum(len(fabric.links_of(d)) for d in in_rack)
