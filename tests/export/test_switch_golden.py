"""Golden files for the switch-side bundle parts, one case per preset and file.

After an intended change, regenerate and review the diff:
    UPDATE_GOLDEN=1 /work/venv/bin/python -m pytest -q tests/export/test_switch_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from designer.export.bundle import render_in_memory
from designer.export import ppd, switches
from designer.planning.build import build
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset

PARTS = switches.PARTS + ppd.PARTS

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"

CASES = {
    "default": ["switches/su1-leaf-r0/config_db.json", "switches/su1-leaf-r0/frr.conf",
                "switches/su1-leaf-r0/NOTES.txt", "switches/spine-01/config_db.json",
                "switches/spine-01/frr.conf", "switches/spine-01/NOTES.txt",
                "ppd/su1-leaf-r0.csv", "switches/su1-leaf-r0/ppd-pins.json", "cabling.csv", "topology.dot"],
    "rail-optimized-64x4": ["switches/su1-leaf-r0/config_db.json", "switches/su1-leaf-r0/frr.conf",
                            "ppd/su1-leaf-r0.csv", "switches/su1-leaf-r0/ppd-pins.json", "cabling.csv"],
}
_rendered: dict[str, dict[str, str]] = {}


def rendered(preset: str) -> dict[str, str]:
    if preset not in _rendered:
        _rendered[preset] = render_in_memory(build(load_preset(preset).spec(), builtin_catalog()), PARTS)
    return _rendered[preset]


@pytest.mark.parametrize("preset,path", [(p, f) for p, files in CASES.items() for f in files])
def test_matches_golden(preset, path):
    actual = rendered(preset)[path]
    golden = GOLDEN / preset / path
    if os.environ.get("UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(actual, encoding="utf-8", newline="")
    assert golden.exists(), f"no golden file {golden}; run with UPDATE_GOLDEN=1 and review it"
    assert actual == golden.read_text(encoding="utf-8"), f"{preset}/{path} differs from its golden file"
