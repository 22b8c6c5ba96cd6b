"""settings.lossless: ECN / PFC watchdog overrides in the design file and in config_db.json."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from designer.export.bundle import render_in_memory
from designer.export.switches import PARTS
from designer.model.entities import LosslessSettings
from designer.model.lossless import DEFAULTS, lossless_problems, resolve
from designer.storage import FileFormatError, dumps, loads
from tests.conftest import preset_fabric

OVERRIDES = LosslessSettings(ecn_min_bytes=204800, ecn_max_bytes=2097152, ecn_mark_percent=10,
                             pfcwd_detection_ms=750, pfcwd_restoration_ms=750)


@pytest.fixture(scope="module")
def plain_text():
    return dumps(preset_fabric("default"))


def _with(text: str, settings: LosslessSettings) -> str:
    fabric = loads(text)
    fabric.set_settings(replace(fabric.settings, lossless=settings))
    return dumps(fabric)


def _leaf_db(fabric) -> dict:
    files = render_in_memory(fabric, [PARTS[0]])
    return json.loads(next(text for path, text in files.items() if path.endswith("su1-leaf-r0/config_db.json")))


def test_a_design_without_overrides_writes_no_lossless_section(plain_text):
    assert "lossless" not in plain_text
    assert dumps(loads(plain_text)) == plain_text
    assert loads(plain_text).settings.lossless == LosslessSettings()


def test_overrides_round_trip_and_only_the_set_ones_are_written(plain_text):
    text = _with(plain_text, OVERRIDES)
    assert "  lossless:\n    ecn:\n      min_bytes: 204800\n      max_bytes: 2097152\n      mark_percent: 10\n" \
           "    pfc_watchdog:\n      detection_ms: 750\n      restoration_ms: 750\n" in text
    assert "poll_ms" not in text and "action" not in text
    again = loads(text)
    assert again.settings.lossless == OVERRIDES
    assert dumps(again) == text


def test_config_db_carries_the_overrides_and_the_defaults_elsewhere(plain_text):
    plain, tuned = loads(plain_text), loads(_with(plain_text, OVERRIDES))
    wred = _leaf_db(tuned)["WRED_PROFILE"]["ROCE_LOSSLESS"]
    assert (wred["green_min_threshold"], wred["red_max_threshold"], wred["yellow_drop_probability"]) == \
           ("204800", "2097152", "10")
    wd = _leaf_db(tuned)["PFC_WD"]
    assert wd["GLOBAL"] == {"POLL_INTERVAL": "200"}
    assert {v["detection_time"] for k, v in wd.items() if k != "GLOBAL"} == {"750"}
    assert {v["action"] for k, v in wd.items() if k != "GLOBAL"} == {"drop"}
    before = _leaf_db(plain)
    assert before["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_min_threshold"] == str(DEFAULTS.ecn_min_bytes)
    assert {v["detection_time"] for k, v in before["PFC_WD"].items() if k != "GLOBAL"} == {"200"}


@pytest.mark.parametrize("block,where,words", [
    ("    ecn: {min_bytes: 0}\n", "settings.lossless.ecn.min_bytes", "out of range: use 1 to"),
    ("    ecn: {min_bytes: 4000000}\n", "settings.lossless.ecn.min_bytes", "not under max_bytes 1536000"),
    ("    ecn: {mark_percent: 101}\n", "settings.lossless.ecn.mark_percent", "use 0 to 100"),
    ("    ecn: {min_bytes: lots}\n", "settings.lossless.ecn.min_bytes", "should be a whole number"),
    ("    pfc_watchdog: {detection_ms: 50}\n", "settings.lossless.pfc_watchdog.detection_ms", "use 100 to 5000"),
    ("    pfc_watchdog: {poll_ms: 500}\n", "settings.lossless.pfc_watchdog.poll_ms", "under poll_ms 500"),
    ("    pfc_watchdog: {action: shutdown}\n", "settings.lossless.pfc_watchdog.action", "drop, forward, alert"),
    ("    pfc_watchdog: {detect_ms: 750}\n", "settings.lossless.pfc_watchdog.detect_ms", "unknown field"),
    ("    wred: {}\n", "settings.lossless.wred", "unknown field"),
])
def test_a_bad_override_is_one_located_message(plain_text, block, where, words):
    text = plain_text.replace("settings:\n", "settings:\n  lossless:\n" + block, 1)
    with pytest.raises(FileFormatError) as caught:
        loads(text)
    message = str(caught.value)
    assert where in message and words in message, message
    assert "Traceback" not in message and "\n" not in message.strip()


def test_problems_name_the_field_the_design_set():
    assert lossless_problems(LosslessSettings()) == []
    assert resolve(LosslessSettings()) == DEFAULTS
    (path, text), = lossless_problems(LosslessSettings(ecn_max_bytes=100000))
    assert path == ("settings", "lossless", "ecn", "max_bytes") and "min_bytes 153600" in text


def test_diff_names_an_override_with_the_default_it_replaces(plain_text):
    import designer
    report = designer.diff(loads(plain_text), loads(_with(plain_text, LosslessSettings(pfcwd_detection_ms=750))))
    assert [(c.key, c.old, c.new, c.disruptive) for c in report.fabric] == \
        [("lossless.pfcwd_detection_ms", 200, 750, True)]
