"""The systemd units the bundle ships (host scripts at every boot, the leaf's PPD agent) pass
`systemd-analyze verify`, and the playbook installs and enables them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from designer.export.ansible import PARTS as ANSIBLE_PARTS
from designer.export.deploy import switch_global_files
from designer.export.hosts import HOST_UNITS, render_units

from tests.export.helpers_hosts import fabric, need_tool

SYSTEM_UNITS = Path("/usr/lib/systemd/system")


def units() -> dict[str, str]:
    files = {**render_units(fabric("default")), **switch_global_files()}
    return {Path(p).name: text for p, text in files.items() if p.endswith(".service")}


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """A root tree holding the system's own units (copied once: verify resolves targets in it)."""
    need_tool("systemd-analyze")
    tree = tmp_path_factory.mktemp("systemd-root")
    shutil.copytree(SYSTEM_UNITS, tree / "usr/lib/systemd/system", symlinks=True)
    return tree


def verify(root: Path, name: str, text: str) -> subprocess.CompletedProcess:
    """systemd-analyze verify of one unit in ``root``, with stand-ins for the programs it starts."""
    unit = root / "etc/systemd/system" / name
    unit.parent.mkdir(parents=True, exist_ok=True)
    unit.write_text(text)
    for line in text.splitlines():
        if line.startswith("ExecStart="):
            program = root / line.split("=", 1)[1].split()[0].lstrip("/")
            program.parent.mkdir(parents=True, exist_ok=True)
            if not program.exists():
                program.write_text("#!/bin/sh\n")
                program.chmod(0o755)
    return subprocess.run([shutil.which("systemd-analyze"), "verify", f"--root={root}", f"/etc/systemd/system/{name}"],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", ["rail-roce-qos.service", "rail-policy-routing.service", "rail-ppd-agent.service"])
def test_unit_passes_systemd_analyze_verify(root, name):
    text = units()[name]
    done = verify(root, name, text)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr
    assert "WantedBy=multi-user.target" in text


def test_verify_really_rejects_a_broken_unit(root):
    """Guards the check above: a verify that passed anything would prove nothing."""
    text = units()["rail-roce-qos.service"].replace("ExecStart=", "ExecStrat=")
    done = verify(root, "broken.service", text)
    assert done.returncode != 0 and "ExecStrat" in done.stderr


def test_playbook_installs_and_enables_the_host_units():
    site = yaml.safe_load(ANSIBLE_PARTS[0].render_global(fabric("default"))["ansible/site.yml"])
    [play] = [p for p in site if p["hosts"] == "gpu_servers"]
    installed = {Path(t["ansible.builtin.copy"]["dest"]).name for t in play["tasks"] if "ansible.builtin.copy" in t}
    enabled = {t["ansible.builtin.systemd_service"]["name"] for t in play["tasks"]
               if t.get("ansible.builtin.systemd_service", {}).get("enabled")}
    assert set(HOST_UNITS) <= installed and enabled == set(HOST_UNITS)
    handlers = {h["name"]: h for h in play["handlers"]}
    for unit in HOST_UNITS:                    # a change reruns the script through its unit, as a boot does
        restart = [h for h in handlers.values() if h.get("ansible.builtin.systemd_service", {}).get("name") == unit]
        assert restart and restart[0]["ansible.builtin.systemd_service"]["state"] == "restarted"
