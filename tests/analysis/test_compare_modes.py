"""Every load-balancing mode on the same flows: `analyze --compare` (table, JSON, chart) and the API."""

from __future__ import annotations

import json

import designer
from designer.analysis.chart import mode_chart
from designer.cli import main
from designer.storage import save
from tests.analysis.test_chart_cli import BLUE_RGB, RED_RGB, png_pixels
from tests.conftest import preset_fabric


def _design(tmp_path):
    path = tmp_path / "d.fabric.yaml"
    save(preset_fabric("default", servers_per_su=8, spines=8), path)
    return path


def test_modes_rank_as_the_model_says_on_alltoall():
    rows = {r.mode: r for r in designer.compare_modes(preset_fabric("default", servers_per_su=8, spines=8),
                                                      "alltoall", qps=4, trials=40)}
    assert list(rows) == ["ppd", "ecmp", "qp-hash", "adaptive"] and rows["qp-hash"].label == "qp-hash x4"
    assert rows["ppd"].trials == rows["adaptive"].trials == 1 and rows["ecmp"].trials == 40
    assert rows["ppd"].fraction_mean == rows["adaptive"].fraction_mean == 1.0
    # more hashed parts, less load on the busiest uplink; the even split is the floor
    assert rows["ecmp"].uplink_load_mean > rows["qp-hash"].uplink_load_mean > rows["adaptive"].uplink_load_mean
    assert rows["ecmp"].fraction_min < 1.0 and rows["ecmp"].collision_free_share < 1.0


def test_cli_compare_table_json_and_chart(tmp_path, capsys):
    path = _design(tmp_path)
    chart = tmp_path / "modes.png"
    assert main(["analyze", str(path), "--pattern", "alltoall", "--compare", "--trials", "20", "--qps", "2",
                 "--chart", str(chart)]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines()[2:6]] == ["ppd", "ecmp", "qp-hash", "adaptive"]
    assert "qp-hash x2" in out
    png = chart.read_bytes()
    assert {BLUE_RGB, RED_RGB} <= png_pixels(png)            # ecmp's busiest uplink is over 100 % in some trials
    assert main(["analyze", str(path), "--pattern", "alltoall", "--compare", "--trials", "20", "--qps", "2",
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [m["label"] for m in doc["modes"]] == ["ppd", "ecmp", "qp-hash x2", "adaptive"]


def test_cli_compare_refuses_a_routing(tmp_path, capsys):
    assert main(["analyze", str(_design(tmp_path)), "--pattern", "rail-ring", "--compare", "--routing", "ecmp"]) == 2
    assert "--compare runs every mode: leave out --routing" in capsys.readouterr().err


def test_mode_chart_is_reproducible():
    rows = designer.compare_modes(preset_fabric("default"), "rail-ring", trials=5)
    assert mode_chart(rows) == mode_chart(rows) and mode_chart(rows, "svg") == mode_chart(rows, "svg")


def test_the_design_setting_is_the_analysis_default(tmp_path, capsys):
    path = _design(tmp_path)
    text = path.read_text().replace("  spine_planes: shared\n",
                                    "  spine_planes: shared\n  load_balancing:\n    mode: qp-hash\n    qps: 8\n")
    path.write_text(text)
    assert main(["analyze", str(path), "--pattern", "rail-ring", "--trials", "3"]) == 0
    assert "routing qp-hash (8 QPs per flow, each hashed)" in capsys.readouterr().out
