"""switches/<leaf>/ppd-pins.json (what rail-ppd-agent installs) and ppd/rail-ppd-agent.py in the bundle."""

from __future__ import annotations

import json

from designer.export import preview
from designer.export.ppd import AGENT, agent_source, render_agent
from designer.export.ppd_data import candidate_order
from designer.resources import resources_dir
from tests.conftest import preset_fabric


def pins_of(fabric, leaf):
    return json.loads(preview(fabric, leaf)[f"switches/{fabric.switches[leaf].hostname}/ppd-pins.json"])


def test_candidates_start_with_the_primary_and_try_every_uplink_once():
    assert candidate_order(0, 0, 4) == [0, 1, 2, 3]
    assert candidate_order(2, 0, 4) == [2, 3, 0, 1]
    assert candidate_order(1, 1, 4) == [1, 3, 0, 2]        # the second source of uplink 1 falls back elsewhere
    assert candidate_order(0, 0, 1) == [0]


def test_pins_follow_the_csv_plan_and_name_known_uplinks():
    fabric = preset_fabric("default")
    pins = pins_of(fabric, "su1-leaf-r0")
    files = preview(fabric, "su1-leaf-r0")
    csv_rows = files["ppd/su1-leaf-r0.csv"].splitlines()[1:]
    assert [p["candidates"][0] for p in pins["pins"]] == [row.split(",")[3] for row in csv_rows]
    for pin in pins["pins"]:
        assert sorted(pin["candidates"]) == sorted(pins["uplinks"]) and pin["rule"] == f"PIN_{pin['downlink']}"
        assert pin["source"].endswith("/32") and pin["l3_interface"] == "Vlan1000"
        assert pin["exception_priority"] > pin["priority"]
    db = json.loads(files["switches/su1-leaf-r0/config_db.json"])
    local = [r for r in db["ACL_RULE"].values() if r["PACKET_ACTION"] == "FORWARD"]
    assert all(int(r["PRIORITY"]) > max(p["exception_priority"] for p in pins["pins"]) for r in local)
    assert pins["local"] == [r["DST_IP"] for r in local]


def test_destinations_are_the_other_leaves_behind_shared_spines_only():
    shared = preset_fabric("default", sus=2, servers_per_su=2, rails=2)
    assert len(pins_of(shared, "su1-leaf-r0")["destinations"]) == 3           # every other leaf
    per_rail = preset_fabric("default", sus=2, servers_per_su=4, rails=2, spine_planes="per-rail", spines=2,
                             oversubscription=2.0)
    pins = pins_of(per_rail, "su1-leaf-r0")
    other = pins_of(per_rail, "su2-leaf-r0")
    assert pins["destinations"] == other["local"]                              # only its own rail's plane
    p2p = preset_fabric("default", sus=2, servers_per_su=2, rails=2, scheme="p2p31")
    assert pins_of(p2p, "su1-leaf-r0")["pins"][0]["l3_interface"] == "Ethernet0"


def test_the_agent_ships_byte_for_byte_and_only_where_something_is_pinned():
    assert agent_source() == (resources_dir() / "ppd" / "rail-ppd-agent.py").read_bytes()
    assert render_agent(preset_fabric("default")) == {AGENT: agent_source()}
    assert render_agent(preset_fabric("rail-only-32x4")) == {}
