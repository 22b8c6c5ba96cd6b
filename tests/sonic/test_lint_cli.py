"""`rail-designer lint`: exit codes, one readable line per problem, and the merge over a running config."""

from __future__ import annotations

import json

from designer.cli import main
from designer.export import export
from designer.sonic.lint import merge

from tests.sonic.factory import factory_config
from tests.sonic.yang_models import small_design, yang, yang_dir  # noqa: F401


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def bundle(tmp_path, preset="default"):
    out = tmp_path / "bundle"
    export(small_design(preset, "p2p31", "shared", 1.0), out, only=["switches"])
    return out


def test_clean_bundle_exits_0_and_counts_every_file(tmp_path, capsys, yang):
    out = bundle(tmp_path)
    code, stdout, _ = run(capsys, "lint", str(out), "--yang-dir", str(yang_dir()))
    files = sorted(out.glob("switches/*/config_db.json"))
    assert code == 0, stdout
    assert f"{len(files)} config_db.json file(s) checked" in stdout and f"{len(files)} valid, 0 with" in stdout


def test_problems_exit_1_with_file_object_and_reason(tmp_path, capsys, yang):
    out = bundle(tmp_path)
    path = out / "switches" / "su1-leaf-r0" / "config_db.json"
    db = json.loads(path.read_text())
    db["ACL_RULE"]["PPD|PIN_Ethernet0"] = {"PRIORITY": "5000", "PACKET_ACTION": "REDIRECT:10.254.0.0@Ethernet224"}
    path.write_text(json.dumps(db))
    (out / "switches" / "spine-01" / "config_db.json").write_text('{"PORT": {\n  "Ethernet0": }\n}')
    code, stdout, _ = run(capsys, "lint", str(out), "--yang-dir", str(yang_dir()))
    assert code == 1
    assert ("switches/su1-leaf-r0/config_db.json: ACL_RULE|PPD|PIN_Ethernet0 field PACKET_ACTION: "
            'Invalid enumeration value "REDIRECT:10.254.0.0@Ethernet224"') in stdout
    assert "switches/spine-01/config_db.json: line 2 column 16: not valid JSON" in stdout


def test_unusable_input_exits_2_with_one_line(tmp_path, capsys, yang):
    code, _, err = run(capsys, "lint", str(tmp_path), "--yang-dir", str(yang_dir()))
    assert code == 2 and "no switches/*/config_db.json" in err and "Traceback" not in err
    out = bundle(tmp_path)
    code, _, err = run(capsys, "lint", str(out), "--yang-dir", str(tmp_path / "none"))
    assert code == 2 and "no SONiC YANG models" in err and "/usr/local/yang-models" in err
    code, _, err = run(capsys, "lint", str(out), "--yang-dir", str(yang_dir()), "--running", str(tmp_path / "x.json"))
    assert code == 2 and "does not exist" in err


def test_merged_over_the_running_config_is_valid_and_keeps_the_switchs_own_tables(tmp_path, capsys, yang):
    out = bundle(tmp_path)
    leaf = out / "switches" / "su1-leaf-r0"
    ours = json.loads((leaf / "config_db.json").read_text())
    running = factory_config(ours["PORT"])
    (tmp_path / "running.json").write_text(json.dumps(running))
    code, stdout, _ = run(capsys, "lint", str(leaf), "--yang-dir", str(yang_dir()),
                          "--running", str(tmp_path / "running.json"))
    assert code == 0, stdout
    assert "0 standalone, 1 merged over a running config" in stdout
    merged = merge(running, ours)
    assert merged["MGMT_INTERFACE"] == running["MGMT_INTERFACE"]
    meta = merged["DEVICE_METADATA"]["localhost"]
    assert (meta["hwsku"], meta["mac"], meta["hostname"], meta["type"]) == (
        "Generic-64x400G", "52:54:00:12:34:56", "su1-leaf-r0", "ToRRouter")
    assert merged["BUFFER_PG"] == running["BUFFER_PG"]


def test_merged_check_finds_what_the_running_config_adds(tmp_path, capsys, yang):
    """A redirect pin the PPD agent wrote, saved by `config save`, would break the next reload."""
    out = bundle(tmp_path)
    ours = json.loads((out / "switches" / "su1-leaf-r0" / "config_db.json").read_text())
    running = factory_config(ours["PORT"])
    running["ACL_TABLE"] = {"PPD": {"type": "L3", "stage": "ingress", "ports": ["Ethernet0"]}}
    running["ACL_RULE"] = {"PPD|PIN_Ethernet0": {"PRIORITY": "5000", "PACKET_ACTION": "REDIRECT:10.254.0.0@Ethernet224"}}
    folder = tmp_path / "running"
    folder.mkdir()
    (folder / "su1-leaf-r0.json").write_text(json.dumps(running))
    code, stdout, _ = run(capsys, "lint", str(out), "--yang-dir", str(yang_dir()), "--running", str(folder))
    assert code == 1
    assert "su1-leaf-r0/config_db.json: ACL_RULE|PPD|PIN_Ethernet0 field PACKET_ACTION" in stdout
    assert "1 merged over a running config" in stdout
