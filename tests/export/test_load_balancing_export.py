"""The design's load-balancing mode drives the hosts' NCCL env and the switches' hash fields; SONiC's own
YANG (libyang) accepts every config_db.json each mode writes, and the default mode changes nothing."""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest

from designer.export.bundle import render_in_memory
from designer.export.load_balancing import FIVE_TUPLE, ROCE_QP_FIELD
from designer.export.registry import parts
from designer.model.entities import LoadBalancing
from designer.sonic.validate import validate
from designer.storage import dumps, loads
from tests.conftest import preset_fabric
from tests.sonic.yang_models import yang  # noqa: F401

PARTS = [p for p in parts() if p.name in ("switches", "ppd", "hosts")]


def _bundle(mode: str, qps: int = 4) -> dict[str, str]:
    fabric = preset_fabric("default")
    if mode != "default":
        fabric.set_settings(replace(fabric.settings, load_balancing=LoadBalancing(mode, qps)))
    return render_in_memory(fabric, PARTS)


def _env(files: dict, host: str = "su1-srv01") -> dict[str, str]:
    text = files[f"hosts/{host}/nccl.env"]
    return dict(line.split("=", 1) for line in text.splitlines() if line and not line.startswith("#"))


def _dbs(files: dict) -> dict[str, dict]:
    return {k: json.loads(v) for k, v in files.items() if k.endswith("/config_db.json")}


def test_ppd_set_explicitly_is_the_default_bundle_byte_for_byte():
    assert _bundle("ppd") == _bundle("default")


def test_qp_hash_sets_nccl_qps_and_the_five_tuple_hash_and_drops_the_pins():
    files = _bundle("qp-hash", 8)
    env = _env(files)
    assert env["NCCL_IB_QPS_PER_CONNECTION"] == "8" and env["NCCL_IB_SPLIT_DATA_ON_QPS"] == "1"
    assert "NCCL_IB_ADAPTIVE_ROUTING" not in env
    dbs = _dbs(files)
    assert dbs and all(db["SWITCH_HASH"] == {"GLOBAL": {"ecmp_hash": list(FIVE_TUPLE)}} for db in dbs.values())
    assert not any("ACL_TABLE" in db for db in dbs.values())
    assert not [k for k in files if k.endswith("ppd-pins.json") or k.endswith(".csv")]
    notes = files["switches/su1-leaf-r0/NOTES.txt"]
    assert ROCE_QP_FIELD in notes and "NCCL_IB_QPS_PER_CONNECTION=8" in notes
    assert "Proactive path definition" not in notes


def test_ecmp_hashes_the_five_tuple_with_nccls_one_qp():
    files = _bundle("ecmp")
    env = _env(files)
    assert not {"NCCL_IB_QPS_PER_CONNECTION", "NCCL_IB_ADAPTIVE_ROUTING"} & set(env)
    assert all("SWITCH_HASH" in db for db in _dbs(files).values())


def test_adaptive_writes_no_hash_table_and_says_what_the_switch_needs():
    files = _bundle("adaptive")
    assert _env(files)["NCCL_IB_ADAPTIVE_ROUTING"] == "1"
    dbs = _dbs(files)
    assert not any("SWITCH_HASH" in db or "ACL_TABLE" in db for db in dbs.values())
    notes = files["switches/spine-01/NOTES.txt"]
    assert "vendor feature" in notes and "Spectrum-X" in notes


@pytest.mark.parametrize("mode", ["ecmp", "qp-hash", "adaptive"])
def test_sonic_yang_accepts_every_config_db_of_each_mode(yang, mode):   # noqa: F811
    dbs = _dbs(_bundle(mode))
    bad = {path: [f"{p.where}: {p.message}" for p in problems] for path, db in dbs.items()
           if (problems := validate(yang, db))}
    assert bad == {}


def test_sonic_yang_here_has_no_roce_qp_hash_field(yang):                 # noqa: F811
    """Why qp-hash writes the 5-tuple: the models validated against refuse PR 27335's field."""
    db = _dbs(_bundle("qp-hash"))["switches/su1-leaf-r0/config_db.json"]
    with_qp = copy.deepcopy(db)
    with_qp["SWITCH_HASH"]["GLOBAL"]["ecmp_hash"].append(ROCE_QP_FIELD)
    problems = validate(yang, with_qp)
    assert [p.message for p in problems] == [f"Invalid enumeration value \"{ROCE_QP_FIELD}\"."]
    assert validate(yang, db) == []


def test_the_setting_is_saved_only_when_set():
    fabric = preset_fabric("default")
    plain = dumps(fabric)
    assert "load_balancing" not in plain
    fabric.set_settings(replace(fabric.settings, load_balancing=LoadBalancing("adaptive")))
    text = dumps(fabric)
    assert "  load_balancing:\n    mode: adaptive\n" in text and "qps" not in text
    again = loads(text)
    assert again.settings.load_balancing == LoadBalancing("adaptive") and dumps(again) == text


def test_new_sets_the_mode_and_bad_values_are_one_message(tmp_path, capsys):
    from designer.cli import main
    out = tmp_path / "q.fabric.yaml"
    assert main(["new", "-o", str(out), "--load-balancing", "qp-hash", "--qps", "8"]) == 0
    assert loads(out.read_text()).settings.load_balancing == LoadBalancing("qp-hash", 8)
    capsys.readouterr()
    assert main(["new", "-o", str(tmp_path / "bad.fabric.yaml"), "--load-balancing", "spray"]) == 2
    assert "'spray' is not one of: ppd, ecmp, qp-hash, adaptive" in capsys.readouterr().err
    assert not (tmp_path / "bad.fabric.yaml").exists()


def test_an_infiniband_design_refuses_a_mode_its_subnet_manager_would_ignore(tmp_path, capsys):
    from designer.cli import main
    assert main(["new", "--preset", "superpod-h100-ib", "-o", str(tmp_path / "ib.fabric.yaml"), "--sus", "1",
                 "--load-balancing", "qp-hash"]) == 2
    assert "applies to Ethernet (RoCE) fabrics" in capsys.readouterr().err
    fabric = preset_fabric("superpod-h100-ib", sus=1, servers_per_su=4)
    text = dumps(fabric).replace("  fabric_kind: infiniband\n", "  fabric_kind: infiniband\n  load_balancing:\n"
                                 "    mode: adaptive\n")
    from designer.storage.yamlio import FileFormatError
    with pytest.raises(FileFormatError, match=r"settings.load_balancing.mode: 'adaptive' applies to Ethernet"):
        loads(text)
