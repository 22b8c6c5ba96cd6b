"""The bundle's rail-ppd-agent on every pinned leaf: ``run --backend linux`` on the exported ppd-pins.json.

The agent file and the pins file are written unchanged and it runs with its shipped intervals (a pass every
2 s and on every link, route and neighbour event; 5 s wait-to-restore), as the bundle's unit runs it; the
only emulation-specific argument is how to reach this leaf's FRR (``--vtysh "vtysh --vty_socket <its
folder>"``). `wait_quiet` asks each leaf's agent
for its dry run (``plan``) until none has anything left to change.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time

from .errors import EmulationError
from .frr import Frr
from .plan import Plan, SwitchSetup

QUIET_TIMEOUT = 30.0


class Agents:
    def __init__(self, runner, frr: Frr):
        self.runner, self.frr = runner, frr
        self.procs: dict[str, subprocess.Popen] = {}

    @property
    def plan(self) -> Plan:
        return self.runner.plan

    def pinned(self) -> list[SwitchSetup]:
        return [leaf for leaf in self.plan.leaves() if "ppd-pins.json" in leaf.files]

    def argv(self, leaf: SwitchSetup, verb: str) -> list[str]:
        """The agent's command line, to run inside the leaf's namespace."""
        folder = self.runner.workdir / leaf.ns
        return [sys.executable, str(self.runner.workdir / "rail-ppd-agent.py"),
                verb, "--backend", "linux", "--pins", str(folder / "ppd-pins.json"),
                "--vtysh", shlex.join(self.frr.vtysh_argv(leaf))]

    def start(self, leaves: list[SwitchSetup] | None = None) -> None:
        """Start the agent on ``leaves`` (default: every pinned leaf); one already running there is stopped
        first, so a leaf whose pins changed runs the new ones (as the bundle's unit restarts it)."""
        (self.runner.workdir / "rail-ppd-agent.py").write_text(self.plan.agent)
        for leaf in self.pinned() if leaves is None else leaves:
            if leaf.ns in self.procs:
                self._stop(self.procs.pop(leaf.ns))
            (self.runner.workdir / leaf.ns).mkdir(exist_ok=True)
            (self.runner.workdir / leaf.ns / "ppd-pins.json").write_text(leaf.files["ppd-pins.json"])
            log = open(self.runner.workdir / leaf.ns / "rail-ppd-agent.log", "w")
            self.procs[leaf.ns] = subprocess.Popen(["ip", "netns", "exec", leaf.ns, *self.argv(leaf, "run")],
                                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            log.close()
            (self.runner.workdir / leaf.ns / "rail-ppd-agent.pid").write_text(f"{self.procs[leaf.ns].pid}\n")

    def pending(self) -> dict[str, str]:
        """Each agent's dry run, all at once: hostname -> what it would still change (quiet ones left out)."""
        leaves = self.pinned()
        out = {}
        for leaf, done in zip(leaves, self.runner.exec_all([(leaf.ns, self.argv(leaf, "plan")) for leaf in leaves])):
            lines = done.stdout.strip().splitlines()
            if not (done.returncode == 0 and lines and lines[-1] == "0 change(s)"):
                out[leaf.hostname] = " | ".join(lines[:-1])[:300] or (done.stderr.strip()[-300:]
                                                                      or f"exit {done.returncode}")
        return out

    def wait_quiet(self, timeout: float = QUIET_TIMEOUT) -> float:
        start = time.monotonic()
        while True:
            for ns, proc in self.procs.items():
                if proc.poll() is not None:
                    raise EmulationError(f"rail-ppd-agent on {self.plan.switches[ns].hostname} exited "
                                         f"({proc.returncode}): {self.log_tail(ns)}")
            waiting = self.pending()
            if not waiting:
                return time.monotonic() - start
            if time.monotonic() - start > timeout:
                host, what = next(iter(waiting.items()))
                raise EmulationError(f"rail-ppd-agent on {host} still had changes to make after {timeout:.0f} s: "
                                     f"{what}")
            time.sleep(0.2)

    def log_tail(self, ns: str) -> str:
        try:
            return (self.runner.workdir / ns / "rail-ppd-agent.log").read_text()[-400:].strip()
        except OSError:
            return ""

    def stop(self) -> None:
        for proc in self.procs.values():          # the agent and its `ip monitor` (one session each)
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs.values():
            self._stop(proc)
        self.procs = {}

    @staticmethod
    def _stop(proc: subprocess.Popen) -> None:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
