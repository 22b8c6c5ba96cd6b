"""cabling.csv, topology.dot and ppd/<leaf>.csv, plus the prefix collapse the PPD relies on."""

from __future__ import annotations

import csv
import io
import ipaddress
import re
from functools import lru_cache

from hypothesis import given, strategies as st

from designer.export.floor_data import FLOOR_COLUMNS
from designer.export.cabling import COLUMNS, cable_rows, cabling_csv, columns, topology_dot
from designer.export.ppd_data import collapse
from designer.export import ppd, switches
from designer.export.ppd import leaf_ids_with_ppd
from designer.model.addressing import network_of
from designer.model.ids import natural_key
from designer.planning.build import build
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset

from tests.export.shapes import new_shape

PARTS = switches.PARTS + ppd.PARTS


@lru_cache(maxsize=None)
def fabric(preset: str):
    return build(load_preset(preset).spec(), builtin_catalog())


def test_one_row_per_cable_switch_first_in_working_order():
    f = fabric("rail-optimized-64x4")
    rows = list(csv.DictReader(io.StringIO(cabling_csv(cable_rows(f), columns(f)))))
    assert len(rows) == len(f.links)
    assert [r["cable"] for r in rows] == [f"C{n:04d}" for n in range(1, len(rows) + 1)]
    ends = {frozenset((f"{r['a_device']}/{r['a_port']}", f"{r['b_device']}/{r['b_port']}")) for r in rows}
    assert len(ends) == len(rows)
    for r in rows:
        assert r["a_device"] in f.switches                       # the A end is always a switch
    order = [(natural_key(r["a_device"]), int(r["a_cage"]), r["a_lane"]) for r in rows]
    assert order == sorted(order)
    leaf_rows = [r for r in rows if r["b_device"] in f.servers]
    assert {r["a_lane"] for r in leaf_rows} == {"0", "1"}         # 2 x 400G sub-ports
    assert all("2x400G breakout" in r["cable_type"] for r in leaf_rows)
    uplinks = [r for r in rows if r["b_device"] in f.switches]
    # with a floor a straight cable's type names the media chosen for it (without one: "800G DAC/AOC")
    assert uplinks and all(r["a_lane"] == "" and r["cable_type"] in ("800G DAC", "800G ACC", "800G AOC",
                                                                     "800G transceivers and fibre") for r in uplinks)
    assert all(r["rail"] == "0" for r in rows if r["a_device"] == "su1-leaf-r0")


def test_server_ends_use_the_os_interface_name():
    f = fabric("default")
    rows = cable_rows(f)
    nic = f.nic("su1-srv01/nic0")
    row = next(r for r in rows if r["b_device"] == "su1-srv01" and r["rail"] == nic.rail)
    assert row["b_port"] == nic.netdev


def test_topology_dot_has_one_edge_per_cable_in_ptm_form():
    f = fabric("default")
    rows = cable_rows(f)
    dot = topology_dot(rows)
    edges = re.findall(r'^  "([^"]+)":"([^"]+)" -- "([^"]+)":"([^"]+)";$', dot, re.M)
    assert dot.startswith("graph G {\n") and dot.endswith("}\n")
    assert len(edges) == len(f.links)
    assert edges[0] == (rows[0]["a_device"], rows[0]["a_port"], rows[0]["b_device"], rows[0]["b_port"])


def test_ppd_csv_one_row_per_downlink():
    f = fabric("rail-optimized-64x4")
    part = next(p for p in PARTS if p.name == "ppd")
    assert part.devices(f) == leaf_ids_with_ppd(f) == [l.id for l in f.leaves()]
    files = part.render_device(f, "su1-leaf-r1")
    rows = list(csv.DictReader(io.StringIO(files["ppd/su1-leaf-r1.csv"])))
    assert len(rows) == 64
    assert list(rows[0]) == ["downlink", "nic", "source", "uplink", "spine", "spine_port", "next_hop"]
    assert part.devices(fabric("rail-only-32x4")) == []               # nothing to pin without spines


_nets = st.lists(st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 32)), max_size=12)


@given(_nets)
def test_collapse_matches_ipaddress(nets):
    networks = [ipaddress.ip_network((addr >> (32 - p) << (32 - p) if p else 0, p)) for addr, p in nets]
    expected = [str(n) for n in ipaddress.collapse_addresses(networks)]
    assert collapse([network_of(str(n)) for n in networks]) == expected


def test_three_tier_cabling_lists_spine_core_cables_at_the_spine_with_their_tier():
    f = new_shape("b200-three-tier-p2p31")
    text = cabling_csv(cable_rows(f), columns(f))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert text.splitlines()[0].split(",")[:4] == ["cable", "su", "rail", "tier"] and "fabric_plane" not in text
    assert len(rows) == len(f.links)
    by_tier = {}
    for r in rows:
        by_tier.setdefault(r["tier"], []).append(r)
    counts = {"server-leaf": 0, "leaf-spine": 0, "spine-core": 0}
    for link in f.links.values():
        roles = sorted(f.switches[d].role.value if d in f.switches else "server"
                       for d in (link.a.split("/")[0], link.b.split("/")[0]))
        counts[{("leaf", "server"): "server-leaf", ("leaf", "spine"): "leaf-spine",
                ("core", "spine"): "spine-core"}[tuple(roles)]] += 1
    assert {t: len(r) for t, r in by_tier.items()} == counts and counts["spine-core"] > 0
    hosts = {s.hostname: s for s in f.switches.values()}
    for r in by_tier["spine-core"]:
        assert hosts[r["a_device"]].role.value == "spine" and hosts[r["b_device"]].role.value == "core"


def test_twin_plane_cabling_names_each_cables_plane():
    f = new_shape("twin-plane-p2p31")
    rows = list(csv.DictReader(io.StringIO(cabling_csv(cable_rows(f), columns(f)))))
    assert "tier" not in rows[0]
    hosts = {s.hostname: s for s in f.switches.values()}
    for r in rows:
        assert int(r["fabric_plane"]) == hosts[r["a_device"]].fabric_plane
        if r["b_device"] in hosts:
            assert hosts[r["b_device"]].fabric_plane == hosts[r["a_device"]].fabric_plane
    assert {r["fabric_plane"] for r in rows} == {"0", "1"}


def test_two_tier_cabling_keeps_its_columns():
    assert columns(build(load_preset("default").spec(floor="none"), builtin_catalog())) == COLUMNS
    f = fabric("default")                  # with a floor: each end's rack and unit, length, media, labels
    assert columns(f) == COLUMNS + FLOOR_COLUMNS
