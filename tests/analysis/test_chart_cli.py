"""The PNG writer (decoded back) and the paths/analyze commands end to end on saved design files."""

from __future__ import annotations

import json
import pytest

from designer.analysis.chart import BLUE, RED, bar_chart
from designer.cli import main
from designer.storage import save
from tests.conftest import preset_fabric

RED_RGB, BLUE_RGB = (0xcc, 0, 0), (0x34, 0x65, 0xa4)


def png_pixels(png: bytes) -> set[tuple[int, int, int]]:
    """The distinct RGB colours of a PNG, decoded by matplotlib's own reader."""
    import io
    from matplotlib.image import imread
    image = imread(io.BytesIO(png), format="png")
    return {tuple(int(round(255 * c)) for c in px[:3]) for row in image for px in row}


def test_bar_chart_png_shows_both_colours_and_is_reproducible():
    png = bar_chart([0.5, 1.0, 2.0])
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and b"Software" not in png
    assert {RED_RGB, BLUE_RGB} <= png_pixels(png)
    assert bar_chart([0.5, 1.0, 2.0]) == png


def test_bar_chart_svg_is_reproducible_and_parses():
    import xml.etree.ElementTree as ET
    svg = bar_chart([0.5, 1.0, 2.0], "svg")
    assert svg == bar_chart([0.5, 1.0, 2.0], "svg")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and b"<dc:date>" not in svg
    assert RED.encode() in svg and BLUE.encode() in svg


@pytest.fixture
def design(tmp_path):
    path = tmp_path / "d.fabric.yaml"
    save(preset_fabric("default"), path)
    return path


def test_paths_command_json_and_exit_codes(design, tmp_path, capsys):
    assert main(["paths", str(design), "--from", "su1-srv01:nic0", "--to", "su2-srv04:ens1np0",
                 "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["errors"] == 0 and len(out["pairs"]) == 1
    assert [h["device"] for h in out["pairs"][0]["request"]["hops"]][:2] == ["su1-srv01", "su1-leaf-r0"]
    broken = preset_fabric("default")
    broken.set_address("su2-srv04/nic0", None)
    bad = tmp_path / "broken.fabric.yaml"
    save(broken, bad)
    assert main(["paths", str(bad), "--from", "su1-srv01", "--to", "su2-srv04"]) == 1
    text = capsys.readouterr().out
    assert "PATH-NO-ADDRESS" in text and "4 pairs traced, 1 with errors" in text


def test_paths_command_unknown_host(design, capsys):
    assert main(["paths", str(design), "--from", "nope", "--to", "su1-srv02"]) == 2
    assert "no server is called 'nope'" in capsys.readouterr().err


def test_analyze_command_table_json_chart(design, tmp_path, capsys):
    chart = tmp_path / "loads.png"
    assert main(["analyze", str(design), "--pattern", "alltoall", "--routing", "ecmp", "--trials", "20",
                 "--seed", "5", "--chart", str(chart)]) == 0
    text = capsys.readouterr().out
    assert "busiest link:" in text and "trials with no upstream collision:" in text
    assert BLUE_RGB in png_pixels(chart.read_bytes())
    svg = tmp_path / "loads.svg"
    assert main(["analyze", str(design), "--pattern", "alltoall", "--chart", str(svg)]) == 0
    assert svg.read_bytes().startswith(b"<?xml")
    capsys.readouterr()
    assert main(["analyze", str(design), "--pattern", "alltoall", "--chart", str(tmp_path / "x.gif")]) == 2
    assert "name it .png or .svg" in capsys.readouterr().err
    assert main(["analyze", str(design), "--pattern", "rail-ring", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["routing"] == "ppd" and out["fraction"]["min"] == 1.0 and out["flows"] == 32
    assert main(["analyze", str(design), "--pattern", "rail-ring", "--chart", str(tmp_path / "no" / "x.png")]) == 2
    assert "folder does not exist" in capsys.readouterr().err
