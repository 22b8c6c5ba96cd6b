"""`export --since OLD`: a change bundle of only what changed, and its rollout in waves (issue 17)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import designer
from designer.cli import main
from designer.export.rollout import expectations, parse_share, plan_waves
from designer.resources import templates_dir
from designer.storage.design_file import dumps, loads
from tests.ci import need

CHECK = templates_dir() / "sonic" / "rail-rollout-check.py"


def grown(sus=2, to=3, final=8, **extra):
    old = designer.build(designer.spec("superpod-su", sus=sus, final_sus=final, **extra))
    new = loads(dumps(old))
    designer.grow(new, to)
    return old, new


@pytest.fixture(scope="module")
def change(tmp_path_factory):
    old, new = grown(servers_per_su=4)
    out = tmp_path_factory.mktemp("since") / "change"
    result = designer.export_bundle(new, out, since=old, parts=["switches", "hosts", "ppd", "ansible"])
    return old, new, out, result


def test_the_change_bundle_holds_the_changed_device_folders_and_every_bundle_wide_file(change):
    old, new, out, result = change
    switches = {p.name for p in (out / "switches").iterdir() if p.is_dir()}
    hosts = {p.name for p in (out / "hosts").iterdir() if p.is_dir()}
    assert hosts == {s.id for s in new.servers.values() if s.su == 3}              # old hosts: unchanged
    assert {s for s in switches if s.startswith("su3-")} == {l.id for l in new.leaves() if l.su == 3}
    assert {s.id for s in new.spines()} <= switches                                # they gain the new leaves
    for rel in ("switches/rail-switch-apply.py", "switches/rail-rollout-check.py", "ansible/site.yml",
                "ansible/rollout.yml", "rollout/ROLLOUT.md", "rollout/rollout.json", "ppd/rail-ppd-agent.py"):
        assert (out / rel).is_file(), rel
    manifest = dict(reversed(line.split("  ", 1)) for line in (out / "MANIFEST.sha256").read_text().splitlines())
    files = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()} - {"MANIFEST.sha256"}
    assert set(manifest) == files
    assert all(hashlib.sha256((out / rel).read_bytes()).hexdigest() == digest for rel, digest in manifest.items())
    assert "change bundle" in (out / "README.txt").read_text()
    assert result.rollout == json.loads((out / "rollout" / "rollout.json").read_text())


def test_waves_put_new_devices_first_then_spines_within_the_drain_share_then_leaves_one_per_su(change):
    _, new, _, result = change
    waves = result.rollout["waves"]
    assert waves[0]["kind"] == "new" and not waves[0]["drain"]
    assert set(waves[0]["switches"]) == {l.hostname for l in new.leaves() if l.su == 3}
    spines = [w for w in waves if w["kind"] == "spines"]
    count = len(new.spines())
    share = max(1, count // 8)                                                     # 1/8 of the spines a wave
    assert len(spines) == -(-count // share) and all(len(w["switches"]) <= share and w["drain"] for w in spines)
    assert all(w["drained"] == {"the spines": f"{len(w['switches'])} of {count}"} for w in spines)
    assert sorted(s for w in spines for s in w["switches"]) == sorted(s.hostname for s in new.spines())
    leaves = [w for w in waves if w["kind"] == "leaves"]
    for wave in leaves:
        sus = [new.switches[new.hostname_owner(h)].su for h in wave["switches"]]
        assert len(sus) == len(set(sus))                                           # one leaf per SU at a time
    assert [w["kind"] for w in waves] == ["new"] + ["spines"] * len(spines) + ["leaves"] * len(leaves)


def test_a_larger_drain_share_gives_fewer_spine_waves_and_a_bad_share_is_refused():
    old, new = grown(servers_per_su=4)
    changed = {d for d in (*new.switches, *new.servers) if d not in old.switches and d not in old.servers}
    spines = {s.id for s in new.spines()}
    assert len(spines) == 4
    assert len(plan_waves(new, changed | spines, changed, parse_share("1/4"))) == 1 + 4     # one spine a wave
    assert len(plan_waves(new, changed | spines, changed, parse_share("1/2"))) == 1 + 2
    assert len(plan_waves(new, changed | spines, changed, parse_share("100%"))) == 1 + 1
    for bad in ("0", "2", "1/0", "lots"):
        with pytest.raises(ValueError, match="share"):
            parse_share(bad)


def test_since_a_bundle_folder_is_the_same_as_since_its_design(change, tmp_path):
    old, new, out, result = change
    old_bundle = tmp_path / "old"
    designer.export_bundle(old, old_bundle, parts=["switches", "hosts", "ppd", "ansible"])
    again = designer.export_bundle(new, tmp_path / "again", since=old_bundle, parts=["switches", "hosts", "ppd", "ansible"])
    assert {k: v for k, v in again.rollout.items() if k != "since"} == \
           {k: v for k, v in result.rollout.items() if k != "since"}


def test_a_design_since_itself_changes_nothing(tmp_path):
    fabric = designer.build(designer.spec("default"))
    result = designer.export_bundle(fabric, tmp_path / "none", since=fabric, parts=["switches", "hosts"])
    assert result.rollout["waves"] == [] and result.rollout["changed"] == []
    assert not [p for p in (tmp_path / "none" / "switches").iterdir() if p.is_dir()]


def test_export_since_on_the_command_line(tmp_path, capsys):
    old, new = tmp_path / "old.fabric.yaml", tmp_path / "new.fabric.yaml"
    assert main(["new", "--preset", "superpod-su", "--sus", "2", "--servers-per-su", "4", "--final-sus", "4",
                 "-o", str(old)]) == 0
    shutil.copy(old, new)
    assert main(["grow", str(new), "--sus", "3"]) == 0
    capsys.readouterr()
    code = main(["export", str(new), "-o", str(tmp_path / "b"), "--only", "switches,hosts,ansible",
                 "--since", str(old), "--max-drain", "1/4"])
    out = capsys.readouterr().out
    assert code == 0 and f"changed since {old}:" in out and "1. new devices (no traffic yet): 8 switches, 4 hosts" in out
    assert main(["export", str(new), "-o", str(tmp_path / "c"), "--since", str(old), "--max-drain", "2"]) == 2
    assert "--max-drain" in capsys.readouterr().err


def test_the_rollout_playbook_passes_ansible(change):
    ansible = shutil.which("ansible-playbook")
    need(ansible is not None, "no ansible-playbook (ansible-core)")
    out = change[2] / "ansible"
    done = subprocess.run([ansible, "-i", "inventory.yml", "rollout.yml", "--syntax-check"], cwd=out,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (out / "rollout.yml").read_text().count("- name: \"Wave ") == \
        sum(1 for w in change[3].rollout["waves"] if w["switches"])


def test_expectations_leave_out_sessions_to_switches_of_later_waves(change):
    _, new, _, _ = change
    leaf = next(l for l in new.leaves() if l.su == 3)
    spines = {s.id for s in new.spines()}
    assert expectations(new, leaf.id, spines)["bgp"] == []                       # its spines come later
    full = expectations(new, leaf.id, set())
    assert {n["name"] for n in full["bgp"]} == {new.switches[s].hostname for s in spines}
    assert {n["peer"] for n in full["lldp"]} == {new.switches[s].hostname for s in spines}


def _check(expect: dict, tmp_path, summary: dict, lldp: dict | None) -> subprocess.CompletedProcess:
    """Run the switch-side check with FRR's and lldpctl's answers given as files (python -c cat)."""
    (tmp_path / "expect.json").write_text(json.dumps(expect))
    (tmp_path / "bgp.json").write_text(json.dumps(summary))
    (tmp_path / "lldp.json").write_text(json.dumps(lldp or {}))
    show = f"{sys.executable} -c 'import sys; print(open(sys.argv[1]).read())' {tmp_path / 'bgp.json'}"
    lldpctl = f"{sys.executable} -c 'import sys; print(open(sys.argv[1]).read())' {tmp_path / 'lldp.json'}"
    return subprocess.run([sys.executable, str(CHECK), str(tmp_path / "expect.json"), "--wait", "0",
                           "--vtysh", show + " --", "--lldpctl", lldpctl if lldp is not None else ""],
                          capture_output=True, text=True)


def test_the_check_script_reports_each_difference_and_passes_what_is_as_designed(tmp_path):
    expect = {"hostname": "su1-leaf-r0", "bgp": [{"ip": "10.254.0.0", "asn": 4200100000, "name": "spine-01"},
                                                 {"ip": "10.254.0.2", "asn": 4200100000, "name": "spine-02"}],
              "lldp": [{"port": "Ethernet256", "peer": "spine-01", "peer_port": "Ethernet0"}]}
    good = {"peers": {"10.254.0.0": {"state": "Established", "remoteAs": 4200100000},
                      "10.254.0.2": {"state": "Established", "remoteAs": 4200100000}}}
    lldp = {"lldp": {"interface": [{"Ethernet256": {"chassis": {"spine-01": {"id": {}}},
                                                    "port": {"id": {"type": "ifname", "value": "Ethernet0"}}}}]}}
    done = _check(expect, tmp_path, good, lldp)
    assert done.returncode == 0 and "as designed" in done.stdout, done.stdout + done.stderr
    bad = {"peers": {"10.254.0.0": {"state": "Active", "remoteAs": 4200100000},
                     "10.254.0.2": {"state": "Established", "remoteAs": 65000}}}
    moved = {"lldp": {"interface": {"Ethernet256": {"chassis": {"name": {"value": "spine-02"}},
                                                    "port": {"id": {"type": "ifname", "value": "Ethernet0"}}}}}}
    done = _check(expect, tmp_path, bad, moved)
    assert done.returncode == 1
    assert "spine-01 (10.254.0.0) is Active" in done.stdout and "is AS 65000, designed AS 4200100000" in done.stdout
    assert "Ethernet256 sees spine-02 Ethernet0, designed spine-01 Ethernet0" in done.stdout
    assert _check(expect, tmp_path, {"peers": {}}, None).returncode == 1
    (tmp_path / "x.json").write_text("{")
    done = subprocess.run([sys.executable, str(CHECK), str(tmp_path / "x.json")], capture_output=True, text=True)
    assert done.returncode == 2 and "cannot read" in done.stderr


def test_three_tier_waves_drain_spines_per_spine_group_and_cores_per_core_group():
    fabric = designer.build(designer.spec("b200-superpod", sus=4, servers_per_su=4, core_tier="on", sus_per_group=2))
    spines, cores = fabric.spines(), fabric.cores()
    changed = {s.id for s in spines} | {c.id for c in cores}
    waves = plan_waves(fabric, changed, set(), parse_share("1/2"))
    assert [w.kind for w in waves] == ["spines"] * 2 + ["cores"] * 2
    for wave in waves[:2]:                          # a spine of each spine group at once: their leaves differ
        assert wave.shares == {"spine group 1": "1 of 2", "spine group 2": "1 of 2"}
        assert {fabric.switches[s].group for s in wave.switches} == {1, 2}
    for wave in waves[2:]:                          # never both cores: spine groups reach each other through all
        assert wave.shares == {"the cores of fabric plane 0": f"1 of {len(cores)}"} and len(wave.switches) == 1
    assert all(w.drain for w in waves)
    assert sorted(s for w in waves for s in w.switches) == sorted(changed)
