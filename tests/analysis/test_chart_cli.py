"""The PNG writer (decoded back) and the paths/analyze commands end to end on saved design files."""

from __future__ import annotations

import json
import struct
import zlib

import pytest

from designer.analysis.chart import RED, BLUE, bar_chart
from designer.cli import main
from designer.storage import save
from tests.conftest import preset_fabric


def decode(png: bytes):
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        kind, data = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + length]
        assert struct.unpack(">I", png[pos + 8 + length:pos + 12 + length])[0] == zlib.crc32(kind + data)
        chunks[kind] = chunks.get(kind, b"") + data
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    raw = zlib.decompress(chunks[b"IDAT"])
    stride = 1 + 3 * width
    assert (depth, colour, len(raw)) == (8, 2, stride * height)
    pixels = {tuple(raw[r * stride + 1 + 3 * x:r * stride + 4 + 3 * x]) for r in range(height) for x in range(width)}
    return width, height, pixels


def test_bar_chart_decodes_with_both_colours():
    width, height, pixels = decode(bar_chart([0.5, 1.0, 2.0]))
    assert height == 240 and width > 3 and {RED, BLUE} <= pixels


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
    width, height, pixels = decode(chart.read_bytes())
    assert len(pixels) > 2
    assert main(["analyze", str(design), "--pattern", "rail-ring", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["routing"] == "ppd" and out["fraction"]["min"] == 1.0 and out["flows"] == 32
    assert main(["analyze", str(design), "--pattern", "rail-ring", "--chart", str(tmp_path / "no" / "x.png")]) == 2
    assert "folder does not exist" in capsys.readouterr().err
