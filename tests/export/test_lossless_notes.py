"""NOTES.txt states what SONiC's buffer manager computes for the ports' speeds and lengths as config_db.json
writes them."""

from __future__ import annotations

import json

import pytest

from designer.export.config_db import config_db
from designer.export.lossless import dynamic_headroom, platform_for_model, static_headroom
from designer.export.lossless_notes import buffer_notes, buffer_ports
from designer.export.switch_data import switch_data
from designer.export.switches import render_switch
from tests.conftest import preset_fabric


@pytest.fixture(scope="module")
def sn5600():
    fabric = preset_fabric("twin-plane-800g", servers_per_su=4)
    leaf = next(s for s in sorted(fabric.switches) if "leaf" in s and fabric.switches[s].model == "nvidia-sn5600")
    return fabric, leaf


def _files(fabric, switch_id):
    files = render_switch(fabric, switch_id)
    notes = next(text for path, text in files.items() if path.endswith("NOTES.txt"))
    db = json.loads(next(text for path, text in files.items() if path.endswith("config_db.json")))
    return notes, db


def test_the_ports_come_from_config_dbs_cable_lengths(sn5600):
    fabric, leaf = sn5600
    _, db = _files(fabric, leaf)
    groups = buffer_ports(db)
    lengths = db["CABLE_LENGTH"]["AZURE"]
    assert sum(groups.values()) == len(lengths)
    for (speed, cable, mtu, lanes), count in groups.items():
        alike = [p for p, c in lengths.items() if c == cable and db["PORT"][p]["speed"] == speed
                 and len(db["PORT"][p]["lanes"].split(",")) == lanes]
        assert count == len(alike) and mtu == "9100"


def test_notes_state_the_calculators_profile_for_each_group(sn5600):
    fabric, leaf = sn5600
    notes, db = _files(fabric, leaf)
    platform = platform_for_model("nvidia-sn5600")
    assert "SONiC platform: ACS-SN5600" in notes and "buffer_model dynamic (what the platform's image starts with)" in notes
    for speed, cable, mtu, lanes in buffer_ports(db):
        dynamic = dynamic_headroom(platform, speed, cable, mtu, lanes).profile
        static = static_headroom(platform, speed, cable).profile
        head = f"    ports at {speed} Mb/s, {cable}, MTU {mtu}, {lanes} lanes: "
        assert f"{head}{dynamic.name}: xon {dynamic.xon} xoff {dynamic.xoff} size {dynamic.size} dynamic_th 0" in notes
        if static is not None:
            assert f"{head}{static.name}: xon {static.xon} xoff {static.xoff} size {static.size} dynamic_th 0" in notes
        else:               # a real length the SN5600's table does not list (the dynamic model, its default, needs none)
            assert f"{head}NO PROFILE" in notes


def test_a_length_written_differently_changes_the_notes_and_one_the_table_lacks_is_flagged(sn5600):
    """What a real cable length does: the notes follow CABLE_LENGTH as config_db.json has it."""
    fabric, leaf = sn5600
    db = config_db(switch_data(fabric, leaf))
    port = sorted(db["CABLE_LENGTH"]["AZURE"])[0]
    odd = "1999m"                                  # a length no port has (the floor gives real ones) and no table lists
    assert odd not in db["CABLE_LENGTH"]["AZURE"].values()
    db["CABLE_LENGTH"]["AZURE"][port] = odd
    notes = buffer_notes("nvidia-sn5600", db)
    dynamic, traditional = notes["models"]
    seven = [r for r in dynamic["rows"] if r["cable"] == odd]
    assert [r["ports"] for r in seven] == [1] and seven[0]["profile"].startswith(f"pg_lossless_{seven[0]['speed']}_{odd}")
    lacking = [r for r in traditional["rows"] if r["cable"] == odd]
    assert lacking[0]["profile"] is None and "creates no lossless PG" in lacking[0]["problem"]


def test_a_model_sonic_has_no_platform_for_says_so():
    fabric = preset_fabric("default")
    notes, _ = _files(fabric, "su1-leaf-r0")
    assert "sonic-buildimage has no platform for asterfusion-cx732q-n" in notes
    assert "the switch's own HWSKU decides the lossless\n  ports' headroom" in notes


def test_broadcom_runs_the_static_model_only():
    fabric = preset_fabric("superpod-su")
    spine = next(s for s in sorted(fabric.switches) if fabric.switches[s].model == "generic-64x400g")
    notes, _ = _files(fabric, spine)
    assert "DellEMC-Z9664f-O64" in notes and "It stands for the ASIC class" in notes
    assert "buffer_model dynamic:\n    does not run here: SONiC has no headroom plugin for broadcom" in notes
