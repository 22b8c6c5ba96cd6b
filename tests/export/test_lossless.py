"""The lossless calculator against SONiC's own pg_profile_lookup.ini tables (tests/data/lossless)."""

from __future__ import annotations

from pathlib import Path

import pytest

from designer.export.lossless import (
    DYNAMIC, TRADITIONAL, dynamic_headroom, lossless_headroom, platform_for_model, platforms, static_headroom,
    table_length,
)
from designer.resources import resources_dir

DATA = Path(__file__).resolve().parents[1] / "data" / "lossless"
KEPT = sorted(p.name for p in DATA.glob("*.ini"))


def _rows(path: Path) -> list[list[str]]:
    """The table's rows: every line that is not a comment, split into words."""
    return [line.split() for line in path.read_text().splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _platforms_of(table: str):
    found = [p for p in platforms().values() if p.table == table]
    assert found, f"no platform of resources/lossless/platforms.yaml uses {table}"
    return found


@pytest.mark.parametrize("table", KEPT)
def test_every_row_of_every_kept_table_comes_out_exactly(table):
    rows = _rows(DATA / table)
    for platform in _platforms_of(table):
        listed = 0
        for speed, cable, size, xon, xoff, threshold, *offset in rows:
            got = static_headroom(platform, speed, cable)
            assert got.profile is not None, (platform.name, speed, cable, got.problem)
            expected = {"pool": "ingress_lossless_pool", "xon": xon, "xoff": xoff, "size": size,
                        "dynamic_th": threshold, **({"xon_offset": offset[0]} if offset else {})}
            assert got.profile.fields() == expected
            assert got.profile.name == f"pg_lossless_{speed}_{cable}_profile"
            assert table.removesuffix(".ini") in got.source or platform.name in got.source
            listed += 1
        assert listed == len(rows)


def test_the_calculators_tables_are_the_kept_ones():
    for platform in platforms().values():
        ours = (resources_dir() / "lossless" / "tables" / platform.table).read_bytes()
        assert ours == (DATA / platform.table).read_bytes(), platform.table


def test_a_length_the_table_does_not_list_gets_no_profile_and_says_which_it_lists():
    sn5600 = platform_for_model("nvidia-sn5600")
    got = static_headroom(sn5600, "400000", "7m")
    assert got.profile is None
    assert "no row for speed 400000 and cable length 7m" in got.problem
    assert "5m, 40m, 300m" in got.problem
    th5 = platforms()["Arista-7060X6-64PE"]
    empty = static_headroom(th5, "800000", "5m")
    assert empty.profile is None and "lists no length" in empty.problem


def test_catalogue_models_map_to_their_platforms():
    assert platform_for_model("nvidia-sn5600").name == "ACS-SN5600"
    assert platform_for_model("nvidia-sn5400").table == "ACS-SN5600.ini"       # SONiC links SN5400's to it
    assert platform_for_model("generic-64x400g").asic == "Broadcom Tomahawk 4"
    assert platform_for_model("asterfusion-cx864e-n") is None                  # no such platform in SONiC


def test_each_platform_runs_the_model_its_image_starts_with():
    sn5600, z9664 = platform_for_model("nvidia-sn5600"), platform_for_model("generic-64x400g")
    assert lossless_headroom(sn5600, "400000", "5m").buffer_model == DYNAMIC
    assert lossless_headroom(sn5600, "400000", "5m", buffer_model=TRADITIONAL).profile.size == 250880
    broadcom = lossless_headroom(z9664, "400000", "5m")
    assert broadcom.buffer_model == TRADITIONAL and broadcom.profile.xoff == 371348
    assert "no headroom plugin for broadcom" in dynamic_headroom(z9664, "400000", "5m").problem


def test_dynamic_profile_names_follow_buffermgrdyn():
    sn5600 = platform_for_model("nvidia-sn5600")
    assert dynamic_headroom(sn5600, "800000", "5m", "9100", 8).profile.name == "pg_lossless_800000_5m_profile"
    assert dynamic_headroom(sn5600, "400000", "5m", "9100", 8).profile.name == "pg_lossless_400000_5m_8lane_profile"
    assert dynamic_headroom(sn5600, "400000", "5m", "9100", 4).profile.name == "pg_lossless_400000_5m_profile"
    assert dynamic_headroom(sn5600, "400000", "40m", "4200", 4).profile.name == "pg_lossless_400000_40m_mtu4200_profile"
    assert dynamic_headroom(sn5600, "400000", "4.5m").profile is not None      # any length: it computes
    assert "not <number>m" in dynamic_headroom(sn5600, "400000", "far").problem


def test_table_length_rounds_a_real_length_up_to_one_the_static_table_lists():
    assert [table_length("generic-64x400g", "400000", m) for m in (0.5, 5, 7, 40, 41, 300)] == \
        ["5m", "5m", "40m", "40m", "300m", "300m"]
    assert table_length("generic-64x400g", "400000", 301) is None         # longer than any row
    assert table_length("generic-64x400g", "800000", 5) is None           # the TH4 table has no 800G rows
    assert table_length("nvidia-sn5600", "400000", 7) is None             # dynamic: any length computes
    assert table_length("asterfusion-cx732q-n", "400000", 7) is None
    cable = table_length("generic-64x400g", "400000", 7)
    assert static_headroom(platform_for_model("generic-64x400g"), "400000", cable).profile is not None
