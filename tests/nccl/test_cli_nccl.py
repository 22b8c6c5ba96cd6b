"""rail-designer nccl-check end to end: table, JSON, plots (PNG/SVG, reproducible) and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from designer.cli import main
from tests.analysis.test_chart_cli import design  # noqa: F401  (the saved default design)
from tests.conftest import preset_fabric
from tests.nccl.logsynth import Spec, make_log

DATA = Path(__file__).parent.parent / "data" / "nccl"


def test_table_and_exit_codes(design, tmp_path, capsys):
    fabric = preset_fabric("default")
    good = tmp_path / "good.log"
    good.write_text(make_log(Spec(fabric, ["su1-srv01", "su2-srv01"], info=True)))
    assert main(["nccl-check", str(design), str(good)]) == 0
    out = capsys.readouterr().out
    assert "verdict: NCCL-OK" in out and "design rate 200.00 GB/s" in out
    bad = tmp_path / "bad.log"
    bad.write_text(make_log(Spec(fabric, ["su1-srv01", "su2-srv01"], scale={256 << 20: 0.5})))
    assert main(["nccl-check", str(design), str(good), str(bad)]) == 1
    assert "verdict: NCCL-POLICY" in capsys.readouterr().out


def test_json_and_both_plots_are_reproducible(design, tmp_path, capsys):
    logs = [str(DATA / "all_reduce_perf-old.log"), str(DATA / "interleaved.log")]
    png, svg = tmp_path / "busbw.png", tmp_path / "busbw.svg"
    assert main(["nccl-check", str(design), *logs, "--format", "json", "--plot", str(png)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [r["collective"] for r in out["runs"]] == ["all_reduce_perf", "alltoall_perf"]
    assert out["runs"][0]["verdict"]["code"] == "NCCL-OK" and out["ok"] is False
    assert out["runs"][1]["rows"][0] == {"size": 67108864, "count": 2097152, "type": "float", "redop": "none",
                                         "busbw_out_of_place": 47.16, "busbw_in_place": 47.21,
                                         "expected_busbw": 50.0, "judged": True, "line": 19}
    first = png.read_bytes()
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["nccl-check", str(design), *logs, "--plot", str(png)]) == 1
    assert png.read_bytes() == first
    assert main(["nccl-check", str(design), *logs, "--plot", str(svg)]) == 1
    text = svg.read_text()
    assert text.startswith("<?xml") and "<dc:date>" not in text
    assert main(["nccl-check", str(design), *logs, "--plot", str(tmp_path / "b2.svg")]) == 1
    assert (tmp_path / "b2.svg").read_text() == text


@pytest.mark.parametrize("content, message", [
    ("nothing useful\n", "no nccl-tests result rows"),
    ("su1-srv01: Test NCCL failure common.cu:1005 'remote process exited or there was a network error'\n",
     ":1: the test failed before printing any result"),
])
def test_unusable_log_is_one_line_exit_2(design, tmp_path, capsys, content, message):
    log = tmp_path / "x.log"
    log.write_text(content)
    assert main(["nccl-check", str(design), str(log)]) == 2
    err = capsys.readouterr().err
    assert message in err and str(log) in err and "Traceback" not in err


def test_bad_arguments(design, tmp_path, capsys):
    log = DATA / "interleaved.log"
    assert main(["nccl-check", str(design), str(log), "--plot", str(tmp_path / "no" / "x.png")]) == 2
    assert "folder does not exist" in capsys.readouterr().err
    assert main(["nccl-check", str(design), str(log), "--plot", str(tmp_path / "x.pdf")]) == 2
    assert "name it .png or .svg" in capsys.readouterr().err
    assert main(["nccl-check", str(tmp_path / "none.fabric.yaml"), str(log)]) == 2
