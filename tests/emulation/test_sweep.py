"""emulate-sweep: what killed runs left (namespaces, the processes in them, work folders) is removed;
runs still going, runs kept on purpose and namespaces that are not the emulation's are not.

Needs root and `ip netns` (under CI a machine without them is a failure, not a skip)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import designer
from designer.cli import main
from designer.emulation.sweep import KEPT, OWNER, owner_text, process_start, sweep_problem
from tests.ci import need


@pytest.fixture(autouse=True)
def needs_netns():
    problem = sweep_problem()
    need(problem is None, problem)


def _dead_owner() -> str:
    """An owner line of a process that has ended (its pid and start time, as a killed run leaves)."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    line = f"{child.pid} {process_start(child.pid)}\n"
    child.kill()
    child.wait()
    return line


def _run(made: list, run_id: str, owner: str, kept: bool = False, sleeper: bool = False):
    """Namespaces and a work folder as a run leaves them (each noted in ``made``, to clean up); returns
    (folder, namespaces, sleeping process)."""
    folder = Path(tempfile.mkdtemp(prefix=f"{run_id}-"))
    made.append(str(folder))
    (folder / OWNER).write_text(owner)
    if kept:
        (folder / KEPT).write_text("kept\n")
    names = [f"{run_id}-h1", f"{run_id}-s1"]
    for name in names:
        subprocess.run(["ip", "netns", "add", name], check=True)
        made.append(name)
    subprocess.run(["ip", "link", "add", "va", "netns", names[0], "type", "veth", "peer", "name", "vb", "netns",
                    names[1]], check=True)
    proc = subprocess.Popen(["ip", "netns", "exec", names[1], "sleep", "600"]) if sleeper else None
    return folder, names, proc


def _namespaces() -> set[str]:
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return {line.split()[0] for line in out.splitlines() if line.split()}


def test_a_killed_run_is_swept_and_nothing_else_is(capsys):
    tag = f"{os.getpid() % 10000:04d}"
    dead, alive, kept, foreign = f"sweepd{tag}", f"sweepa{tag}", f"sweepk{tag}", f"sweepf{tag}-x"
    made = []
    try:
        dead_folder, dead_ns, sleeper = _run(made, dead, _dead_owner(), sleeper=True)
        alive_folder, alive_ns, _ = _run(made, alive, owner_text())          # this test process: still going
        kept_folder, kept_ns, _ = _run(made, kept, _dead_owner(), kept=True)
        subprocess.run(["ip", "netns", "add", foreign], check=True)      # no folder, no emulation run id
        made.append(foreign)

        found = {run.run_id: run for run in designer.sweep_emulations(dry_run=True)}
        assert (found[dead].state, found[alive].state, found[kept].state) == ("dead", "running", "kept")
        assert foreign.partition("-")[0] not in found
        assert found[dead].removed and not found[alive].removed and not found[kept].removed   # would be
        assert set(dead_ns) <= _namespaces() and dead_folder.exists()               # a dry run removes nothing

        assert main(["emulate-sweep"]) == 0
        out = capsys.readouterr().out
        assert f"{dead}" in out and "removed" in out and "add --kept" in out and "still running" in out
        assert not set(dead_ns) & _namespaces() and not dead_folder.exists()
        sleeper.wait(timeout=10)                                                    # the process inside is gone
        assert set(alive_ns + kept_ns + [foreign]) <= _namespaces() and alive_folder.exists() and kept_folder.exists()

        assert main(["emulate-sweep", "--kept"]) == 0
        assert not set(kept_ns) & _namespaces() and not kept_folder.exists()
        assert set(alive_ns + [foreign]) <= _namespaces()
    finally:
        for item in made:
            if item.startswith("/"):
                subprocess.run(["rm", "-rf", item])
            else:
                subprocess.run(["ip", "netns", "del", item], capture_output=True)


def test_a_run_records_its_owner_and_a_kept_run_says_so():
    from designer.emulation import environment_problem
    from tests.emulation.test_plan import small
    problem = environment_problem()
    need(problem is None, problem)
    result = designer.emulate(small("p2p31"), keep=True, failover=False)
    try:
        folders = list(Path(tempfile.gettempdir()).glob(f"{result.plan.run_id}-*"))
        assert len(folders) == 1 and (folders[0] / KEPT).exists()
        assert (folders[0] / OWNER).read_text() == owner_text()
        [run] = [r for r in designer.sweep_emulations(dry_run=True) if r.run_id == result.plan.run_id]
        assert run.state == "running"                       # its owner (this process) is alive: not swept
    finally:
        subprocess.run(["bash", "-c", result.removal_hint], capture_output=True)
