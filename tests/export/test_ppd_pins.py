"""switches/<leaf>/ppd-pins.json (what rail-ppd-agent installs) and ppd/rail-ppd-agent.py in the bundle."""

from __future__ import annotations

import json

from designer.export import preview
from designer.export.bundle import preview as bundle_preview
from designer.export.ppd import AGENT, agent_source, render_agent
from designer.export.ppd_data import candidate_order
from designer.resources import resources_dir
from tests.conftest import preset_fabric
from tests.export.shapes import new_shape
from tests.ppd.agent_helpers import load_agent

agent = load_agent()


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


def test_three_tier_destinations_reach_other_spine_groups_through_the_cores():
    fabric = new_shape("b200-three-tier-p2p31")
    leaf = "su1-leaf-r0"
    pins = json.loads(bundle_preview(fabric, leaf)[f"switches/{leaf}/ppd-pins.json"])
    others = [l.id for l in fabric.leaves() if l.id != leaf]
    assert {fabric.switches[o].group for o in others} == {1, 2}
    assert pins["destinations"] == [p for o in others for p in pins_of_local(fabric, o)]
    assert {u["spine"] for u in pins["uplinks"].values()} == {s.id for s in fabric.spines() if s.group == 1}


def test_a_pin_whose_spine_lost_its_cores_sends_other_groups_by_the_spine_that_has_them(tmp_path):
    """Decisions of the shipped agent on the exported file: the pinned spine still has its own group's leaves
    but no way to the other group (its core is gone); only those destinations move, by exception."""
    fabric = new_shape("b200-three-tier-p2p31")
    leaf = "su1-leaf-r0"
    text = bundle_preview(fabric, leaf)[f"switches/{leaf}/ppd-pins.json"]
    (tmp_path / "pins.json").write_text(text)
    pins = agent.load_pins(str(tmp_path / "pins.json"))
    ups = pins["uplinks"]
    lost = ups[pins["pins"][0]["candidates"][0]["uplink"]]["spine"]        # the first pin's spine loses its cores
    kept = {u["next_hop"] for u in ups.values() if u["spine"] != lost}
    same_group = pins_of_local(fabric, "su1-leaf-r1")
    adverts = {p: ({u["next_hop"] for u in ups.values()} if p in same_group else kept) for p in pins["destinations"]}
    health = agent.Health(set(ups), {(port, u["next_hop"]) for port, u in ups.items()},
                          {u["next_hop"] for u in ups.values()}, adverts)
    rules = agent.decide(pins, health)
    hit = [p for p in pins["pins"] if p["candidates"][0]["spine"] == lost]
    assert hit and len(hit) < len(pins["pins"])
    for pin in pins["pins"]:
        primary = pin["candidates"][0]
        assert rules[pin["rule"]]["uplink"] == primary["uplink"]                # nobody leaves its primary
        moved = {r["destination"]: r["uplink"] for name, r in rules.items() if name.startswith(pin["rule"] + "_D")}
        fallback = next(c["uplink"] for c in pin["candidates"] if c["spine"] != lost)
        assert moved == ({p: fallback for p in pins["destinations"] if p not in same_group} if pin in hit else {})


def pins_of_local(fabric, leaf):
    return json.loads(bundle_preview(fabric, leaf)[f"switches/{leaf}/ppd-pins.json"])["local"]


def test_reachable_leaves_are_every_leaf_sharing_a_spine_or_a_core_in_natural_order():
    """The grouped answer (one per way of wiring a leaf) against the definition, leaf pair by leaf pair,
    also once a cut cable leaves one leaf wired unlike its rail."""
    from designer.export.ppd_data import _leaf_index, reachable_leaves
    from designer.planning.build import build
    from designer.storage.catalog_file import builtin_catalog
    from designer.storage.presets import load_preset
    from tests.export.shapes import NEW_SHAPES

    per_rail = build(load_preset("default").spec(sus=2, servers_per_su=4, rails=2, spine_planes="per-rail",
                                                 spines=2, oversubscription=2.0), builtin_catalog())
    cut = build(load_preset("default").spec(sus=2, servers_per_su=4, rails=2), builtin_catalog())
    port = next(port for port, far in cut.cabled_ports("su1-leaf-r1") if far.partition("/")[0] in cut.switches)
    cut.disconnect(cut.link_at(f"su1-leaf-r1/{port.name}").id)
    for fabric in [new_shape(name) for name in NEW_SHAPES] + [per_rail, cut]:
        index = _leaf_index(fabric)
        for leaf, (spines, cores, _) in index.items():
            expected = [o for o, (s, c, _) in index.items() if o != leaf and (spines & s or cores & c)]
            assert reachable_leaves(fabric, leaf) == expected
