"""Failure capacity per tier: a 1:1 design takes no failure, Meta's 1:1.125 (8 down, 9 up) takes one spine."""

from __future__ import annotations

import json

import pytest

from designer.checks import check
from designer.cli import main
from designer.planning.failures import failure_capacity, tolerated
from designer.storage import save
from tests.conftest import preset_fabric
from tests.export.shapes import new_shape


def _by_tier(fabric) -> dict[str, int]:
    return {r.tier: r.failures for r in failure_capacity(fabric)}


def test_tolerated_by_hand():
    assert tolerated(800, [100] * 8, 1.0) == 0
    assert tolerated(800, [100] * 9, 1.0) == 1
    assert tolerated(800, [100] * 12, 1.0) == 4
    assert tolerated(800, [400, 100, 100, 100, 100, 100, 100], 1.0) == 0   # the big one fails first
    assert tolerated(800, [100] * 7, 1.0) == -1                             # over 1:1 already
    assert tolerated(800, [100] * 4, 2.0) == 0 and tolerated(800, [100] * 5, 2.0) == 1


def test_one_to_one_takes_no_failure():
    fabric = preset_fabric("default", servers_per_su=8, spines=8)
    rows = failure_capacity(fabric)
    assert _by_tier(fabric) == {"leaf uplinks": 0, "spines": 0}
    assert all(r.down_gbps == r.up_gbps == 8 * 400 for r in rows)


def test_one_to_one_point_125_takes_one_spine():
    """8 servers (8 x 400G down) and 9 uplinks, one to each of 9 spines: one spine (or cable) can go."""
    fabric = preset_fabric("default", servers_per_su=8, spines=9, leaf_uplinks=9)
    rows = {r.tier: r for r in failure_capacity(fabric)}
    assert {t: r.failures for t, r in rows.items()} == {"leaf uplinks": 1, "spines": 1}
    spines = rows["spines"]
    assert (spines.down_gbps, spines.up_gbps, spines.parts) == (3200, 3600, 9)
    assert spines.text.startswith("spines: 1 spine failure (su1-leaf-r0: 3,200G down, 3,600G up over 9 spines")


def test_parallel_uplinks_to_a_spine_fail_together():
    """12 uplinks for 8 down over 2 spines: 4 cables may fail, but a spine takes 6 at once."""
    fabric = preset_fabric("default", sus=1, servers_per_su=8, spines=2, leaf_uplinks=12)
    assert _by_tier(fabric) == {"leaf uplinks": 4, "spines": 0}


def test_three_tiers_report_the_spines_against_their_cores():
    rows = _by_tier(new_shape("b200-three-tier-subnet"))
    assert set(rows) == {"leaf uplinks", "spines", "spine uplinks", "cores"} and set(rows.values()) == {0}


def test_rail_only_and_one_to_one_have_no_finding():
    fabric = preset_fabric("rail-only-32x4")
    assert failure_capacity(fabric) == []
    assert not [f for f in check(fabric) if f.code == "RD075"]
    assert not [f for f in check(preset_fabric("default")) if f.code == "RD075"]


def test_rd075_is_info_and_names_the_limiting_leaf():
    found = [f for f in check(preset_fabric("default", servers_per_su=8, spines=9, leaf_uplinks=9)) if f.code == "RD075"]
    assert len(found) == 1 and found[0].severity.value == "info"
    assert "spines: 1 spine failure" in found[0].message and found[0].ids == ("su1-leaf-r0",)


@pytest.mark.parametrize("fmt", ["table", "json"])
def test_cli(tmp_path, capsys, fmt):
    path = tmp_path / "d.fabric.yaml"
    save(preset_fabric("default", servers_per_su=8, spines=9, leaf_uplinks=9), path)
    assert main(["failures", str(path), "--format", fmt]) == 0
    out = capsys.readouterr().out
    if fmt == "json":
        assert [(r["tier"], r["failures"]) for r in json.loads(out)] == [("leaf uplinks", 1), ("spines", 1)]
    else:
        assert out.splitlines()[1].startswith("spines: 1 spine failure")


def test_three_tiers_at_1_to_1_point_125_per_spine_take_one_core():
    """8 leaf links down and 9 core uplinks, one to each of 9 cores, per spine: one core (or cable) can go,
    while the 1:1 leaves below still take none."""
    fabric = preset_fabric("b200-superpod", core_tier="on", sus=2, sus_per_group=1, servers_per_su=4, rails=2,
                           spine_uplinks=9, cores=9)
    rows = {r.tier: r for r in failure_capacity(fabric)}
    assert {t: r.failures for t, r in rows.items()} == {"leaf uplinks": 0, "spines": 0, "spine uplinks": 1, "cores": 1}
    cores = rows["cores"]
    assert (cores.down_gbps, cores.up_gbps, cores.parts) == (3200, 3600, 9)
