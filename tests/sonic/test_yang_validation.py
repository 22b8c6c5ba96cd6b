"""SONiC's own YANG models (libyang) accept every config_db.json the bundle writes, and reject what
SONiC would reject: the translator is proved by SONiC's known-good control, the validator by faults."""

from __future__ import annotations

import copy
import json

import pytest

from designer.export.bundle import render_in_memory
from designer.export.switches import PARTS
from designer.sonic.translate import translate
from designer.sonic.validate import validate

from tests.export.shapes import NEW_SHAPES, new_shape
from tests.sonic.yang_models import DESIGNS, small_design, yang_dir, yang  # noqa: F401

SWITCHES = PARTS[0]


def control() -> dict:
    return json.loads((yang_dir() / "sonic-sample-config_db.json").read_text())["SAMPLE_CONFIG_DB_JSON"]


def config_dbs(fabric) -> dict[str, dict]:
    return {path: json.loads(text) for path, text in render_in_memory(fabric, [SWITCHES]).items()
            if path.endswith("/config_db.json")}


def test_sonic_control_translates_and_validates_with_zero_errors(yang):
    config = control()
    assert len(config) == 198
    _, problems = translate(yang, config)
    assert problems == []
    assert validate(yang, config) == []


@pytest.mark.parametrize("preset,scheme,planes,ratio", DESIGNS,
                         ids=["-".join(map(str, d)) for d in DESIGNS])
def test_every_config_db_json_of_the_design_validates(yang, preset, scheme, planes, ratio):
    files = config_dbs(small_design(preset, scheme, planes, ratio))
    assert files
    bad = {path: [f"{p.where}: {p.message}" for p in problems]
           for path, db in files.items() if (problems := validate(yang, db))}
    assert bad == {}


@pytest.mark.parametrize("name", list(NEW_SHAPES))
def test_three_tier_and_twin_plane_config_db_json_validate(yang, name):
    """Cores (SpineRouter), spines with core uplinks, spine groups and fabric planes: SONiC's YANG
    accepts every file, and the file set has every tier."""
    fabric = new_shape(name)
    files = config_dbs(fabric)
    types = {db["DEVICE_METADATA"]["localhost"]["type"] for db in files.values()}
    assert len(files) == len(fabric.switches)
    assert types == ({"ToRRouter", "LeafRouter", "SpineRouter"} if fabric.cores() else {"ToRRouter", "LeafRouter"})
    bad = {path: [f"{p.where}: {p.message}" for p in problems]
           for path, db in files.items() if (problems := validate(yang, db))}
    assert bad == {}


def _leaf_db():
    files = config_dbs(small_design("default", "subnet-per-leaf", "shared", 1.0))
    return copy.deepcopy(files["switches/su1-leaf-r0/config_db.json"])


def test_models_reject_a_redirect_pin_as_sonic_does(yang):
    """The old PPD form: orchagent accepts it, SONiC's YANG does not (so `config reload` would fail)."""
    db = _leaf_db()
    db["ACL_RULE"]["PPD|PIN_Ethernet0"] = {"PRIORITY": "5000", "PACKET_ACTION": "REDIRECT:10.254.0.0@Ethernet224",
                                          "SRC_IP": "10.0.0.2/32"}
    [problem] = validate(yang, db)
    assert (problem.table, problem.key, problem.field) == ("ACL_RULE", "PPD|PIN_Ethernet0", "PACKET_ACTION")
    assert "REDIRECT:10.254.0.0@Ethernet224" in problem.message


def test_every_problem_is_reported_at_once_and_located(yang):
    db = _leaf_db()
    db["PORT"]["Ethernet0"]["speeed"] = "400000"
    db["PORT_QOS_MAP"]["Ethernet8"]["tc_to_pg_map"] = "NOPE"
    db["DEVICE_METADATA"]["localhost"]["type"] = "LeafSwitch"
    db["PFC_WD"]["Ethernet0"]["detection_time"] = "50"           # below POLL_INTERVAL and the range
    db["ACL_TABLES"] = {}
    found = {(p.table, p.key, p.field) for p in validate(yang, db)}
    assert found == {("PORT", "Ethernet0", "speeed"), ("PORT_QOS_MAP", "Ethernet8", "tc_to_pg_map"),
                     ("DEVICE_METADATA", "localhost", "type"), ("PFC_WD", "Ethernet0", "detection_time"),
                     ("ACL_TABLES", "", "")}


def test_a_map_entry_and_a_leaf_list_element_are_located(yang):
    db = _leaf_db()
    db["ACL_TABLE"]["PPD"]["ports"] = db["ACL_TABLE"]["PPD"]["ports"] + ["Ethernet999"]
    db["TC_TO_QUEUE_MAP"]["ROCE"]["3"] = "99"
    found = {(p.table, p.key, p.field) for p in validate(yang, db)}
    assert found == {("ACL_TABLE", "PPD", "ports"), ("TC_TO_QUEUE_MAP", "ROCE", "3")}
