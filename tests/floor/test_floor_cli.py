"""`rail-designer floor FILE`: each rack's place and fill, as text and JSON."""

from __future__ import annotations

import json

from designer.cli import main


def test_floor_lists_racks_with_their_fill(tmp_path, capsys):
    design = tmp_path / "d.fabric.yaml"
    assert main(["new", "--preset", "superpod-su", "--servers-per-su", "8", "-o", str(design)]) == 0
    capsys.readouterr()
    assert main(["floor", str(design)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["rack", "row", "slot"]
    row = next(line for line in lines if line.startswith("su1-r01 "))
    assert "32/48" in row and "40.8/45" in row and "su1-srv01@U1" in row
    assert main(["floor", str(design), "--format", "json"]) == 0
    racks = {r["rack"]: r for r in json.loads(capsys.readouterr().out)}
    assert racks["su1-net1"]["devices"][0] == {"id": "su1-leaf-r0", "unit": 1, "units": 2}
    assert racks["su1-r01"]["power_kw"] == 40.8 and racks["su1-r01"]["power_budget_kw"] == 45.0


def test_a_design_without_a_floor_says_so(tmp_path, capsys):
    design = tmp_path / "d.fabric.yaml"
    assert main(["new", "--preset", "default", "--floor", "none", "-o", str(design)]) == 0
    capsys.readouterr()
    assert main(["floor", str(design)]) == 0
    assert "has no floor" in capsys.readouterr().out
