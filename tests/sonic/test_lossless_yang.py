"""ECN / PFC watchdog overrides against SONiC's YANG: what the design file accepts, the models accept;
the limits the design file enforces are the ones the models enforce."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from designer.export.bundle import render_in_memory
from designer.export.switches import PARTS
from designer.model.entities import LosslessSettings
from designer.model.lossless import lossless_problems
from designer.planning.build import build
from designer.sonic.validate import validate
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset
from tests.sonic.yang_models import yang  # noqa: F401

EDGES = [
    LosslessSettings(ecn_min_bytes=1, ecn_max_bytes=1 << 30, ecn_mark_percent=100, pfcwd_detection_ms=5000,
                     pfcwd_restoration_ms=60000, pfcwd_poll_ms=1000, pfcwd_action="alert"),
    LosslessSettings(ecn_mark_percent=0, pfcwd_detection_ms=100, pfcwd_restoration_ms=100, pfcwd_poll_ms=100,
                     pfcwd_action="forward"),
    LosslessSettings(pfcwd_detection_ms=750, pfcwd_restoration_ms=750),          # Nokia EDA rocev2QoS
]
# just past each limit: the design file refuses them; so do the models
PAST = [LosslessSettings(ecn_mark_percent=101), LosslessSettings(pfcwd_detection_ms=99),
        LosslessSettings(pfcwd_restoration_ms=60001), LosslessSettings(pfcwd_poll_ms=1001, pfcwd_detection_ms=2000,
                                                                       pfcwd_restoration_ms=2000),
        LosslessSettings(pfcwd_poll_ms=300), LosslessSettings(pfcwd_action="shutdown")]


def _leaf_db(settings: LosslessSettings) -> dict:
    spec = load_preset("default").spec(sus=1, servers_per_su=2)
    fabric = build(spec, builtin_catalog())
    fabric.set_settings(replace(fabric.settings, lossless=settings))       # past validation, on purpose
    files = render_in_memory(fabric, [PARTS[0]])
    return json.loads(files["switches/su1-leaf-r0/config_db.json"])


@pytest.mark.parametrize("settings", EDGES)
def test_the_extremes_the_design_file_accepts_validate(yang, settings):
    assert lossless_problems(settings) == []
    assert validate(yang, _leaf_db(settings)) == []


@pytest.mark.parametrize("settings", PAST)
def test_what_the_design_file_refuses_the_models_refuse(yang, settings):
    assert lossless_problems(settings)
    problems = validate(yang, _leaf_db(settings))
    assert problems and {p.table for p in problems} <= {"PFC_WD", "WRED_PROFILE"}, problems
