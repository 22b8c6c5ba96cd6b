"""The scheduler part, read by a real slurmctld: `scontrol show topology` lists every switch with the
nodes and children the design says, for a two-tier and a three-tier design. The Kubernetes label
script is run against a stand-in kubectl (no Kubernetes API server runs here; see docs/scheduler.md):
what it proves is the script's own logic, backup, dry run, only its keys touched, and rollback."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

import designer
from designer.export.hostlist import compress
from designer.export.scheduler import LABELS, render_scheduler
from tests.ci import need

SHAPES = {
    "two-tier": ("superpod-su", dict(sus=2, servers_per_su=4)),
    "three-tier": ("default", dict(core_tier="on", sus=2, sus_per_group=1, servers_per_su=4, rails=2, spines=2)),
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(predicate, what: str, seconds: float = 15.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


class Slurm:
    """munged and slurmctld in a scratch folder, on free ports, stopped on close."""

    def __init__(self, folder: Path, hostnames: list[str], topology: str):
        self.folder = folder
        folder.chmod(0o700)
        (folder / "state").mkdir()
        key = folder / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o600)
        self.socket = folder / "munge.sock"
        subprocess.run(["munged", "-f", f"--socket={self.socket}", f"--key-file={key}",
                        f"--log-file={folder / 'munged.log'}", f"--pid-file={folder / 'munged.pid'}",
                        f"--seed-file={folder / 'munged.seed'}"], check=True)
        nodes = compress(hostnames)
        (folder / "slurm.conf").write_text("\n".join([
            "ClusterName=rd", f"SlurmctldHost={socket.gethostname().split('.')[0]}", "SlurmUser=root",
            "AuthType=auth/munge", f"AuthInfo=socket={self.socket}", "CredType=cred/munge",
            f"StateSaveLocation={folder / 'state'}", f"SlurmctldPidFile={folder / 'slurmctld.pid'}",
            f"SlurmctldLogFile={folder / 'slurmctld.log'}", f"SlurmctldPort={_free_port()}",
            f"SlurmdPort={_free_port()}", f"SlurmdSpoolDir={folder / 'spool'}", "MailProg=/bin/true",
            "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none", "SelectType=select/cons_tres",
            "MpiDefault=none", "TopologyPlugin=topology/tree",
            f"NodeName={nodes} NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN", "PartitionName=all Nodes=ALL Default=YES", ""]))
        (folder / "topology.conf").write_text(topology)
        self.env = {**os.environ, "SLURM_CONF": str(folder / "slurm.conf")}
        subprocess.run(["slurmctld", "-i", "-f", str(folder / "slurm.conf")], env=self.env, check=True)

    def scontrol(self, *args: str) -> str:
        return subprocess.run(["scontrol", *args], env=self.env, capture_output=True, text=True).stdout

    def close(self) -> None:
        for pid_file in ("slurmctld.pid", "munged.pid"):
            path = self.folder / pid_file
            if path.exists():
                try:
                    os.kill(int(path.read_text().split()[0]), 15)
                except (ProcessLookupError, ValueError):
                    pass


def _switches(slurm: Slurm) -> dict[str, dict[str, list[str]]]:
    """`scontrol show topology`, each switch's nodes and child switches expanded by Slurm itself."""
    text = _wait(lambda: slurm.scontrol("show", "topology").strip(), "scontrol show topology")
    found = {}
    for line in text.splitlines():
        fields = dict(item.split("=", 1) for item in line.split())
        found[fields["SwitchName"]] = {
            key: slurm.scontrol("show", "hostnames", fields[key]).split() if key in fields else []
            for key in ("Nodes", "Switches")}
    return found


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_slurmctld_reads_the_design_s_tree(shape, tmp_path):
    for tool in ("munged", "slurmctld", "scontrol"):
        need(shutil.which(tool), f"{tool} (Debian munge, slurmctld, slurm-client; .ci/run installs them)")
    preset, extra = SHAPES[shape]
    fabric = designer.build(designer.spec(preset, **extra))
    files = render_scheduler(fabric)
    hostnames = [s.hostname for s in fabric.sorted_servers()]
    slurm = Slurm(tmp_path, hostnames, files["scheduler/topology.conf"])
    try:
        switches = _switches(slurm)
    finally:
        slurm.close()
    sus = sorted({s.su for s in fabric.servers.values()})
    for su in sus:                                  # a switch per SU over exactly its servers
        assert switches[f"su{su}"] == {"Nodes": [s.hostname for s in fabric.sorted_servers() if s.su == su],
                                       "Switches": []}
    if shape == "two-tier":
        assert set(switches) == {*(f"su{su}" for su in sus), "spines"}
        assert switches["spines"]["Switches"] == [f"su{su}" for su in sus]
        assert switches["spines"]["Nodes"] == hostnames                   # Slurm adds up the nodes below
    else:
        groups = sorted({leaf.group for leaf in fabric.leaves()})
        assert len(groups) == 2 and set(switches) == {*(f"su{su}" for su in sus), *(f"sg{g}" for g in groups), "cores"}
        for group in groups:
            assert switches[f"sg{group}"]["Switches"] == sorted(
                {f"su{leaf.su}" for leaf in fabric.leaves() if leaf.group == group})
        assert switches["cores"]["Switches"] == [f"sg{g}" for g in groups]
        assert switches["cores"]["Nodes"] == hostnames


def test_the_labels_name_the_same_tree_and_the_part_is_deterministic():
    preset, extra = SHAPES["three-tier"]
    fabric = designer.build(designer.spec(preset, **extra))
    files = render_scheduler(fabric)
    assert files == render_scheduler(fabric)
    labels = yaml.safe_load(files["scheduler/node-labels.yaml"])
    first = fabric.sorted_servers()[0]
    assert labels["nodes"][first.hostname.lower()] == {
        LABELS[0]: f"su{first.su}", LABELS[1]: f"sg{next(l.group for l in fabric.leaves() if l.su == first.su)}",
        LABELS[2]: "cores"}
    assert len(labels["nodes"]) == len(fabric.servers)


def test_an_uncabled_server_is_in_no_switch_and_named():
    fabric = designer.build(designer.spec("superpod-su", sus=2, servers_per_su=4))
    server = fabric.sorted_servers()[-1]
    for link in fabric.links_of(server.id):
        fabric.disconnect(link.id)
    conf = render_scheduler(fabric)["scheduler/topology.conf"]
    assert f"Not in any switch (no NIC cabled to a leaf): {server.hostname}" in conf
    assert f"Nodes={compress([s.hostname for s in fabric.sorted_servers() if s.su == server.su][:-1])}" in conf
    assert "tree of its own" not in conf


def test_an_su_without_uplinks_is_a_tree_of_its_own_and_said_so():
    fabric = designer.build(designer.spec("superpod-su", sus=2, servers_per_su=4))
    for leaf in fabric.leaves():
        if leaf.su == 2:
            for port, far in fabric.cabled_ports(leaf.id):
                if far.split("/")[0] in fabric.switches:
                    fabric.disconnect(fabric.link_at(f"{leaf.id}/{port.name}").id)
    conf = render_scheduler(fabric)["scheduler/topology.conf"]
    assert "SwitchName=spines Switches=su1\n" in conf
    assert "a tree of its own each (Slurm does not span jobs across trees): su2" in conf


# A stand-in for kubectl: nodes and their labels in a JSON file; `get nodes --no-headers -o
# custom-columns=...` and `label node N [--overwrite] [--dry-run=server] k=v k-`, as far as the script uses.
FAKE_KUBECTL = r'''
import json, sys
state_file = sys.argv[1]; args = sys.argv[2:]
nodes = json.load(open(state_file))
if args[:2] == ["get", "nodes"]:
    spec = next(a for a in args if a.startswith("custom-columns=")).split("=", 1)[1]
    paths = [c.split(":", 1)[1] for c in spec.split(",")]
    for name in sorted(nodes):
        row = [name] + [nodes[name].get(p.split(".metadata.labels.", 1)[1].replace("\\.", "."), "<none>")
                        for p in paths[1:]]
        print("   ".join(row))
elif args[:2] == ["label", "node"]:
    name = args[2]
    if name not in nodes:
        sys.exit(f'Error from server (NotFound): nodes "{name}" not found')
    if "--dry-run=server" in args:
        sys.exit(0)
    for a in args[3:]:
        if a.startswith("--"):
            continue
        if a.endswith("-"):
            nodes[name].pop(a[:-1], None)
        else:
            key, value = a.split("=", 1)
            nodes[name][key] = value
    json.dump(nodes, open(state_file, "w"))
else:
    sys.exit(f"fake kubectl: {args}")
'''


def test_label_script_backs_up_dry_runs_touches_only_its_keys_and_rolls_back(tmp_path):
    fabric = designer.build(designer.spec("superpod-su", sus=2, servers_per_su=4))
    folder = tmp_path / "scheduler"
    folder.mkdir()
    script = folder / "label-nodes.sh"
    script.write_text(render_scheduler(fabric)["scheduler/label-nodes.sh"])
    names = [s.hostname.lower() for s in fabric.sorted_servers()]
    before = {name: {"kubernetes.io/hostname": name} for name in names[:-1]}        # the last one has not joined
    before[names[0]][LABELS[0]] = "old-block"                                       # set earlier by hand
    state = tmp_path / "nodes.json"
    state.write_text(json.dumps(before))
    kubectl = tmp_path / "kubectl"
    kubectl.write_text(f"#!/bin/sh\nexec {sys.executable} {tmp_path / 'fake.py'} {state} \"$@\"\n")
    kubectl.chmod(0o755)
    (tmp_path / "fake.py").write_text(FAKE_KUBECTL)
    env = {**os.environ, "KUBECTL": str(kubectl)}

    def run(*args):
        return subprocess.run(["bash", str(script), *args], env=env, capture_output=True, text=True)

    dry = run("--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert json.loads(state.read_text()) == before and not (folder / "label-nodes.backup").exists()
    assert f"1 nodes are not in the cluster yet (run again when they join): {names[-1]}" in dry.stderr
    applied = run()
    assert applied.returncode == 0, applied.stderr
    after = json.loads(state.read_text())
    for name in names[:-1]:
        su = name.split("-")[0]
        assert after[name] == {"kubernetes.io/hostname": name, LABELS[0]: su, LABELS[1]: "spines"}
    again = run()
    assert again.returncode == 0 and "labelled 0 nodes" in again.stdout                 # nothing left to change
    rolled = run("--rollback")
    assert rolled.returncode == 0, rolled.stderr
    assert json.loads(state.read_text()) == before
    assert run("--rollback").returncode == 1                                            # nothing left to undo
