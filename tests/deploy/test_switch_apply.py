"""The switch-side deploy script run for real against a stand-in SONiC (real redis CONFIG_DB, stub
commands that record their calls): backup first, a dry run that changes nothing, merge never
reload, the agent's pins kept out of the saved file, and a rollback to the complete backup."""

from __future__ import annotations

import json

import pytest

from designer.export import export

from tests.deploy.sonic_stubs import FakeSwitch
from tests.export.helpers_hosts import need_tool
from tests.sonic.factory import factory_config
from tests.sonic.yang_models import models, small_design

LEAF = "su1-leaf-r0"
PIN = "PPD|PIN_Ethernet0"


@pytest.fixture
def switch(tmp_path):
    need_tool("redis-server")
    need_tool("redis-cli")
    models()                                     # SONiC's YANG models and libyang: apply validates with them
    sw = FakeSwitch(tmp_path)
    yield sw
    sw.close()


@pytest.fixture
def bundle(tmp_path):
    out = tmp_path / "bundle"
    export(small_design("default", "subnet-per-leaf", "shared", 1.0), out, only=["switches"])
    return out


def prepared(switch, bundle, with_pin=True):
    """A switch in its factory state (plus, optionally, a pin the agent wrote earlier), and the stage."""
    ours = json.loads((bundle / "switches" / LEAF / "config_db.json").read_text())
    factory = factory_config(ours["PORT"])
    if with_pin:
        factory["ACL_TABLE"] = {"PPD": {"type": "L3", "stage": "ingress", "ports": ["Ethernet0"]}}
        factory["ACL_RULE"] = {PIN: {"PRIORITY": "5000", "PACKET_ACTION": "REDIRECT:10.254.0.0@Ethernet224"}}
    switch.seed(factory)
    (switch.root / "etc/sonic/config_db.json").write_text(json.dumps(factory))
    (switch.root / "etc/sonic/frr/frr.conf").write_text("! the switch's old frr.conf\n")
    stage = switch.stage(bundle, LEAF)
    (stage / LEAF / "ppd-pins.json").write_text('{"acl_table": "PPD", "sources": []}\n')
    return ours, switch.dump(), stage


def test_dry_run_changes_nothing_and_says_what_would(switch, bundle):
    ours, before, stage = prepared(switch, bundle)
    files = switch.files()
    done = switch.run(stage, "diff", str(stage / LEAF))
    assert done.returncode == 0, done.stderr
    calls = switch.calls()
    assert switch.dump() == before and switch.files() == files
    assert [c[0] for c in calls] == ["sonic-cfggen", "rail-ppd-agent.py"]
    assert calls[1][1:] == ["plan", "--backend", "sonic", "--pins", str(stage / LEAF / "ppd-pins.json")]
    assert '~ DEVICE_METADATA|localhost hostname: "sonic" -> "su1-leaf-r0"' in done.stdout
    assert "+ PFC_WD|GLOBAL" in done.stdout and "routing mode unified -> split-unified" in done.stdout
    assert "-! the switch's old frr.conf" in done.stdout and "dry run: nothing was changed" in done.stdout


def test_apply_backs_up_first_merges_never_reloads_and_saves_without_pins(switch, bundle):
    ours, before, stage = prepared(switch, bundle)
    done = switch.run(stage, "apply", str(stage / LEAF))
    assert done.returncode == 0, done.stdout + done.stderr
    calls = [" ".join(c) for c in switch.calls()]
    [folder] = [b for b in (switch.root / "etc/sonic/rail-designer/backups").iterdir() if b.is_dir()]
    assert calls == [
        "sonic-cfggen -d --print-data",                                   # read, then back up
        f"config load -y {folder / 'load-config_db.json'}",              # merge
        "systemctl restart bgp",                                          # routing mode and frr.conf changed
        "systemctl daemon-reload", "systemctl enable rail-ppd-agent.service",
        "systemctl restart rail-ppd-agent.service",
        "config save -y",
        "sonic-cfggen -d --print-data",                                   # verify
    ]
    assert not any(c.startswith("config reload") for c in calls)
    backups = sorted((switch.root / "etc/sonic/rail-designer/backups").iterdir())
    [folder] = [b for b in backups if b.is_dir()]
    assert json.loads((folder / "running-config_db.json").read_text()) == before
    assert (folder / "frr.conf").read_text() == "! the switch's old frr.conf\n"
    after = switch.dump()
    assert after["MGMT_INTERFACE"] == before["MGMT_INTERFACE"]                 # the merge kept the switch's own
    assert after["DEVICE_METADATA"]["localhost"]["hwsku"] == "Generic-64x400G"
    assert after["DEVICE_METADATA"]["localhost"]["hostname"] == LEAF
    assert after["BUFFER_PG"] == before["BUFFER_PG"]
    assert after["ACL_RULE"][PIN] == before["ACL_RULE"][PIN]                   # the agent's pin is live ...
    saved = json.loads((switch.root / "etc/sonic/config_db.json").read_text())
    assert PIN not in saved["ACL_RULE"] and "PPD|LOCAL_1" in saved["ACL_RULE"]  # ... but not saved
    assert saved["MGMT_INTERFACE"] == before["MGMT_INTERFACE"]
    assert (switch.root / "etc/sonic/frr/frr.conf").read_text() == (stage / LEAF / "frr.conf").read_text()
    assert (switch.root / "usr/local/bin/rail-ppd-agent.py").stat().st_mode & 0o111
    assert (switch.root / "etc/sonic/rail-ppd-pins.json").is_file()
    assert "ExecStart=/usr/bin/python3 /usr/local/bin/rail-ppd-agent.py run --backend sonic --pins " \
           "/etc/sonic/rail-ppd-pins.json" in (switch.root / "etc/systemd/system/rail-ppd-agent.service").read_text()


def test_rollback_reloads_only_the_complete_backup(switch, bundle):
    ours, before, stage = prepared(switch, bundle)
    assert switch.run(stage, "apply", str(stage / LEAF)).returncode == 0
    switch.calls_file.unlink()
    done = switch.run(stage, "rollback")
    assert done.returncode == 0, done.stdout + done.stderr
    calls = switch.calls()
    assert calls[0] == ["systemctl", "disable", "--now", "rail-ppd-agent.service"]   # stopped before
    assert calls[1][:2] == ["rail-ppd-agent.py", "remove"]                               # its rules go
    reloads = [c for c in calls if c[:2] == ["config", "reload"]]
    [[_, _, _, restored]] = reloads
    full = json.loads(open(restored).read())
    without_pin = {t: ({k: v for k, v in e.items() if k != PIN} if t == "ACL_RULE" else e) for t, e in before.items()}
    assert full == without_pin                                   # a whole config (the backup), not a partial file
    assert switch.dump() == {t: e for t, e in without_pin.items() if e}
    assert (switch.root / "etc/sonic/frr/frr.conf").read_text() == "! the switch's old frr.conf\n"
    assert not (switch.root / "etc/systemd/system/rail-ppd-agent.service").exists()
    assert ["systemctl", "disable", "--now", "rail-ppd-agent.service"] in calls


def test_apply_refuses_an_incomplete_stage_and_changes_nothing(switch, bundle):
    ours, before, stage = prepared(switch, bundle, with_pin=False)
    (stage / LEAF / "frr.conf").unlink()
    files = switch.files()
    done = switch.run(stage, "apply", str(stage / LEAF))
    assert done.returncode == 1 and "frr.conf is missing" in done.stderr
    assert switch.calls() == [] and switch.dump() == before and switch.files() == files
    done = switch.run(stage, "rollback")
    assert done.returncode == 1 and "no backup" in done.stderr


def test_a_failed_merge_says_how_to_roll_back(switch, bundle):
    ours, before, stage = prepared(switch, bundle, with_pin=False)
    broken = switch.tmp / "bin" / "config"
    broken.write_text(broken.read_text().replace('if verb == "load":', 'if verb == "load":\n    sys.exit(3)'))
    done = switch.run(stage, "apply", str(stage / LEAF))
    assert done.returncode == 1
    assert "config load -y" in done.stderr and "rollback" in done.stderr and "backups/" in done.stderr
    assert switch.dump() == before
