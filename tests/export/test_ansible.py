"""The Ansible inventory and playbook: groups from the design, and ansible-playbook --syntax-check for real."""

from __future__ import annotations

import os
import subprocess

import pytest
import yaml

from designer.export.ansible import PARTS

from tests.export.helpers_hosts import need_tool
from tests.export.shapes import design as fabric, new_shape


ANSIBLE = PARTS[0]


def test_inventory_groups_follow_the_design():
    f = fabric("default")
    inv = yaml.safe_load(ANSIBLE.render_global(f)["ansible/inventory.yml"])
    groups = inv["all"]["children"]
    assert sorted(groups) == ["gpu_servers", "leaves", "rail_0", "rail_1", "rail_2", "rail_3", "spines"]
    assert list(groups["gpu_servers"]["hosts"]) == [s.hostname for s in f.sorted_servers()]
    assert groups["gpu_servers"]["hosts"]["su2-srv03"]["host_dir"] == "hosts/su2-srv03"
    assert groups["spines"]["hosts"]["spine-01"]["switch_dir"] == "switches/spine-01"
    for rail in range(4):
        members = set(groups[f"rail_{rail}"]["hosts"])
        assert members == {s.hostname for s in f.sorted_servers()} | {l.hostname for l in f.leaves() if l.rail == rail}


def test_unrailed_server_nic_keeps_the_server_out_of_that_rail_group():
    f = fabric("default")
    f.set_nic_rail("su1-srv01/nic2", None)
    f.disconnect(f.link_at("su1-srv01/nic2").id)
    groups = yaml.safe_load(ANSIBLE.render_global(f)["ansible/inventory.yml"])["all"]["children"]
    assert "su1-srv01" not in groups["rail_2"]["hosts"] and "su1-srv01" in groups["rail_1"]["hosts"]


@pytest.mark.parametrize("preset", ["default", "rail-optimized-64x4", "b200-three-tier-p2p31", "twin-plane-p2p31"])
def test_ansible_playbook_syntax_check_passes(tmp_path, preset):
    playbook = need_tool("ansible-playbook")
    for name, text in ANSIBLE.render_global(fabric(preset)).items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    env = {**os.environ, "ANSIBLE_LOCAL_TEMP": str(tmp_path / "tmp"), "ANSIBLE_HOME": str(tmp_path / "home"),
           "ANSIBLE_NOCOLOR": "1"}
    run = subprocess.run([playbook, "--syntax-check", "-i", "inventory.yml", "site.yml"],
                         cwd=tmp_path / "ansible", capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    hosts = subprocess.run([playbook, "--list-hosts", "-i", "inventory.yml", "site.yml"],
                           cwd=tmp_path / "ansible", capture_output=True, text=True, env=env)
    assert hosts.returncode == 0, hosts.stderr
    f = fabric(preset)
    for device in list(f.servers.values()) + list(f.switches.values()):
        assert device.hostname in hosts.stdout


def test_three_tier_and_plane_groups():
    f = new_shape("b200-three-tier-p2p31")
    files = ANSIBLE.render_global(f)
    groups = yaml.safe_load(files["ansible/inventory.yml"])["all"]["children"]
    assert set(groups["cores"]["hosts"]) == {c.hostname for c in f.cores()}
    assert all(groups["cores"]["hosts"][c.hostname] == {"switch_dir": f"switches/{c.hostname}", "group": c.group}
               for c in f.cores())
    for g in (1, 2):
        assert set(groups[f"spine_group_{g}"]["hosts"]) == {w.hostname for w in f.leaves() + f.spines() if w.group == g}
    assert not any(name.startswith("fabric_plane_") for name in groups)
    assert [p["hosts"] for p in yaml.safe_load(files["ansible/site.yml"]) if "switch_files" in p.get("vars", {})] == [
        "leaves:spines:cores"]
    t = new_shape("twin-plane-p2p31")
    groups = yaml.safe_load(ANSIBLE.render_global(t)["ansible/inventory.yml"])["all"]["children"]
    assert "cores" not in groups
    for plane in (0, 1):
        switches = {w.hostname for w in t.switches.values() if w.fabric_plane == plane}
        assert set(groups[f"fabric_plane_{plane}"]["hosts"]) == switches | {s.hostname for s in t.sorted_servers()}
        assert all(groups["leaves"]["hosts"][h]["fabric_plane"] == plane for h in switches if h in groups["leaves"]["hosts"])


def test_syntax_check_catches_a_broken_playbook(tmp_path):
    playbook = need_tool("ansible-playbook")
    files = ANSIBLE.render_global(fabric("default"))
    (tmp_path / "inventory.yml").write_text(files["ansible/inventory.yml"])
    (tmp_path / "site.yml").write_text(files["ansible/site.yml"].replace("ansible.builtin.copy:", "ansible.builtin.copy_typo:", 1))
    env = {**os.environ, "ANSIBLE_LOCAL_TEMP": str(tmp_path / "tmp"), "ANSIBLE_HOME": str(tmp_path / "home")}
    run = subprocess.run([playbook, "--syntax-check", "-i", "inventory.yml", "site.yml"], cwd=tmp_path,
                         capture_output=True, text=True, env=env)
    assert run.returncode != 0


def _switch_play(f):
    site = yaml.safe_load(ANSIBLE.render_global(f)["ansible/site.yml"])
    [play] = [p for p in site if p["hosts"] == "leaves:spines"]
    return play


def test_switch_play_runs_the_readme_steps_and_never_reloads(tmp_path):
    """The playbook, README.txt and NOTES.txt say one thing: the same script commands, in order."""
    from designer.export import export
    from designer.export.deploy import ANSIBLE_HOST, SWITCH_STEPS
    f = fabric("default")
    play = _switch_play(f)
    commands = [t["ansible.builtin.command"] for t in play["tasks"] if "ansible.builtin.command" in t]
    out = tmp_path / "bundle"
    export(f, out, only=["switches", "ansible"])
    readme = (out / "README.txt").read_text()
    notes = (out / "switches" / "su1-leaf-r0" / "NOTES.txt").read_text()
    from_readme = [line.strip() for line in readme.splitlines() if "rail-switch-apply.py " in line and "sudo" in line]
    assert len(from_readme) == 3 and [s.verb for s in SWITCH_STEPS if s.verb] == ["diff", "apply", "rollback"]
    assert [c.replace(ANSIBLE_HOST, "<host>") for c in commands] == [c.removeprefix("sudo ") for c in from_readme]
    for command in from_readme:
        assert command.replace("<host>", "su1-leaf-r0") in notes
    text = ANSIBLE.render_global(f)["ansible/site.yml"]
    assert "config reload" not in text and "__RAIL_" not in text
    copied_to = [str(t["ansible.builtin.copy"]["dest"]) for t in play["tasks"] if "ansible.builtin.copy" in t]
    assert copied_to and not any(dest.startswith("/etc/sonic") for dest in copied_to)   # only the script writes there
