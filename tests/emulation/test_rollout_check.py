"""The rollout's switch-side check (rail-rollout-check.py, `export --since`) against a real FRR: in the
emulation, the leaf's bgpd runs the bundle's frr.conf, and the check reads its `show bgp ipv4 unicast
summary json`. Skipped without root or FRR, failed under CI (CI runs as root with FRR installed)."""

import json
import os
import shutil
import sys
from pathlib import Path

import designer
from designer.emulation import emulate
from designer.export.rollout import expectations
from designer.resources import templates_dir
from tests.ci import need

CHECK = templates_dir() / "sonic" / "rail-rollout-check.py"


def test_the_check_passes_a_leaf_as_designed_and_names_a_wrong_peer_asn(tmp_path):
    need(os.geteuid() == 0, "not root")
    need(bool(shutil.which("ip")) and Path("/usr/lib/frr/zebra").exists(), "no iproute2 or FRR")
    fabric = designer.build(designer.spec("default", name="rollout-check", sus=1, servers_per_su=2, rails=2))
    expect = expectations(fabric, "su1-leaf-r0", set())
    assert len(expect["bgp"]) == 2                                         # its two spines
    (tmp_path / "good.json").write_text(json.dumps(expect))
    wrong = json.loads(json.dumps(expect))
    wrong["bgp"][0]["asn"] = 65001
    (tmp_path / "wrong.json").write_text(json.dumps(wrong))
    tmp_path.chmod(0o755)
    results = {}

    def check(runner):
        ns = runner.plan.ns_of("su1-leaf-r0")
        vtysh = f"vtysh --vty_socket {runner.workdir / ns / 'frr'}"
        for name in ("good", "wrong"):
            results[name] = runner.exec(ns, [sys.executable, str(CHECK), str(tmp_path / f"{name}.json"),
                                             "--wait", "60", "--vtysh", vtysh, "--lldpctl", ""], check=False)

    emulate(fabric, failover=False, after_setup=check)
    good, bad = results["good"], results["wrong"]
    assert good.returncode == 0 and "2 BGP sessions, LLDP not checked: as designed" in good.stdout, \
        good.stdout + good.stderr
    assert bad.returncode == 1 and f"designed AS 65001" in bad.stdout and "1 differ" in bad.stdout, bad.stdout
