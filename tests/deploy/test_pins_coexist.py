"""The PPD agent's pins coexist with SONiC's own tools: with the agent running and its pins installed,
`config save` writes no pin, the saved file passes SONiC's YANG (so `config reload` of it validates), the
reload works and the agent pins again, and a GCU patch's target config validates. The control: the pins
where the agent before kept them (CONFIG_DB ACL_RULE) fail that same validation.

The switch is tests/deploy's stand-in (real redis, stub `config` doing what SONiC's does to it), the agent
the real one, orchagent the stand-in of tests/ppd/sonic_redis.py (orchagent cannot run here), and the
YANG checks real libyang on SONiC's own models."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import time

import pytest

from designer.export import export
from designer.sonic.validate import validate

from tests.deploy.sonic_stubs import FakeSwitch
from tests.export.helpers_hosts import need_tool
from tests.ppd.agent_helpers import AGENT_PATH, fake_vtysh
from tests.ppd.sonic_redis import Orchagent
from tests.sonic.factory import factory_config
from tests.sonic.yang_models import models, small_design

LEAF = "su1-leaf-r0"


class Leaf:
    """The stand-in switch with the bundle applied, APPL_DB as portsorch and neighsyncd fill it, and the
    real agent running with its shipped intervals."""

    def __init__(self, tmp_path):
        out = tmp_path / "bundle"
        export(small_design("default", "subnet-per-leaf", "shared", 1.0), out, only=["switches", "ppd"])
        self.pins_file = out / "switches" / LEAF / "ppd-pins.json"
        self.pins = json.loads(self.pins_file.read_text())
        self.switch = FakeSwitch(tmp_path)
        ours = json.loads((out / "switches" / LEAF / "config_db.json").read_text())
        self.switch.seed(factory_config(ours["PORT"]))
        stage = self.switch.stage(out, LEAF)
        done = self.switch.run(stage, "apply", str(stage / LEAF))
        assert done.returncode == 0, done.stdout + done.stderr
        self.fill_appl_db()
        hops = [u["next_hop"] for u in self.pins["uplinks"].values()]
        vtysh = fake_vtysh(tmp_path, {h: "Established" for h in hops}, {p: hops for p in self.pins["destinations"]})
        self.agent = subprocess.Popen([sys.executable, str(AGENT_PATH), "run", "--backend", "sonic",
                                       "--pins", str(self.pins_file), "--vtysh", vtysh,
                                       "--db-config", str(self.switch.db_config)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        self.orchagent = Orchagent(self)

    def cli(self, db, *args):                        # what Orchagent needs of a redis
        numbers = {"APPL_DB": "0", "CONFIG_DB": "4", "STATE_DB": "6"}
        return subprocess.run(["redis-cli", "-p", str(self.switch.port), "-n", numbers[db], *args],
                              capture_output=True, text=True).stdout

    def fill_appl_db(self):
        for port, uplink in self.pins["uplinks"].items():
            self.cli("APPL_DB", "HSET", f"PORT_TABLE:{port}", "oper_status", "up")
            self.cli("APPL_DB", "HSET", f"NEIGH_TABLE:{port}:{uplink['next_hop']}", "neigh", "02:00:00:00:00:01")

    def pinned(self, timeout=10.0):
        """Wait until orchagent holds every pin Active; returns the held rules."""
        deadline = time.monotonic() + timeout
        want = {p["rule"] for p in self.pins["pins"]}
        while time.monotonic() < deadline:
            self.orchagent.consume()
            held = self.cli("APPL_DB", "--raw", "KEYS", "ACL_RULE_TABLE:PPD:PIN_*").split()
            names = {k.rsplit(":", 1)[1].removesuffix("_ALT") for k in held}
            if names == want:
                return held
            time.sleep(0.1)
        raise AssertionError(f"the agent did not pin {sorted(want)} in {timeout} s")

    def config(self, *args):
        done = subprocess.run([str(self.switch.tmp / "bin" / "config"), *args], env=self.switch.env,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr

    def close(self):
        self.agent.terminate()
        self.agent.wait(timeout=10)
        self.switch.close()


@pytest.fixture
def leaf(tmp_path):
    need_tool("redis-server")
    need_tool("redis-cli")
    models()
    running = Leaf(tmp_path)
    yield running
    running.close()


def test_config_save_reload_and_a_gcu_patch_work_on_a_pinned_leaf(leaf):
    yang = models()
    assert len(leaf.pinned()) == len(leaf.pins["pins"])
    assert leaf.agent.poll() is None
    # `config save` dumps CONFIG_DB to the startup file: no pin is in it, and it passes SONiC's YANG, which
    # is what `config reload` checks before it loads a file.
    leaf.config("save", "-y")
    saved_path = leaf.switch.root / "etc/sonic/config_db.json"
    saved_text = saved_path.read_text()
    assert "REDIRECT" not in saved_text and "PIN_" not in saved_text
    saved = json.loads(saved_text)
    assert "PPD" in saved["ACL_TABLE"] and "PPD|LOCAL_1" in saved["ACL_RULE"]      # the bundle's own ACL is there
    assert validate(yang, saved) == []
    # The reload: CONFIG_DB flushed and loaded from the file; swss restarts, which empties APPL_DB and
    # STATE_DB, and portsorch and neighsyncd fill APPL_DB again. The running agent pins again.
    leaf.config("reload", "-y", str(saved_path))
    leaf.cli("APPL_DB", "FLUSHDB")
    leaf.cli("STATE_DB", "FLUSHDB")
    leaf.fill_appl_db()
    assert len(leaf.pinned(timeout=15)) == len(leaf.pins["pins"])      # within the shipped 2 s interval, and then some
    assert leaf.switch.dump() == saved                                 # CONFIG_DB: still no pin
    # GCU (`config apply-patch`) validates the whole target: the running CONFIG_DB with the patch applied.
    target = copy.deepcopy(leaf.switch.dump())
    target["PORT"]["Ethernet0"]["description"] = "patched by GCU"      # [{"op": "add", "path":
    #                                                                    "/PORT/Ethernet0/description", ...}]
    assert validate(yang, target) == []


def test_the_control_pins_in_config_db_fail_that_validation(leaf):
    """Where the agent before kept its pins: the saved file (and so `config reload`, and any GCU target)
    fails SONiC's YANG, on the REDIRECT action."""
    yang = models()
    leaf.pinned()
    running = leaf.switch.dump()
    pin = leaf.pins["pins"][0]
    uplink = pin["candidates"][0]
    running["ACL_RULE"][f"PPD|{pin['rule']}"] = {
        "PRIORITY": str(pin["priority"]), "SRC_IP": pin["source"],
        "PACKET_ACTION": f"REDIRECT:{leaf.pins['uplinks'][uplink]['next_hop']}@{uplink}"}
    problems = validate(yang, running)
    assert problems and all(p.table == "ACL_RULE" and p.key == f"PPD|{pin['rule']}" for p in problems)
    assert any("PACKET_ACTION" in (p.field + p.message) for p in problems)
