"""The runner: turns a `plan.Plan` into namespaces, links, FRR instances and PPD agents, and removes them.

Everything it creates lives in namespaces named ``<run id>-...``; veth pairs are created directly
inside their namespaces (``ip link add A netns N1 type veth peer name B netns N2``), so the host's own
interfaces, addresses and routes are never touched. Deleting a namespace deletes its veth ends;
`Runner.down` first stops the agents and FRR daemons it started (by their processes and pid files in the
run's temporary folder), then deletes the namespaces it made.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from .errors import EmulationError
from .frr import Frr, frr_problem, wait_converged
from .plan import SWITCH_SYSCTLS, Plan
from .ppd_agents import Agents
from .sweep import OWNER, namespace_problem, namespaces_with_prefix, owner_text

TOOLS = ("ip", "bash", "sysctl")


def environment_problem() -> str | None:
    """Why the emulation cannot run here (not root, tools or `ip netns` missing), or None."""
    problem = namespace_problem("the emulation", "it creates network namespaces")
    if problem:
        return problem
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        return f"the emulation needs {', '.join(missing)} on PATH (iproute2, bash, procps)"
    probe = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True)
    if probe.returncode != 0:
        return f"`ip netns` is unavailable: {probe.stderr.strip() or 'exit status ' + str(probe.returncode)}"
    return frr_problem()


def free_run_id(base: str) -> str:
    """``base``, or ``base`` plus a letter when stale namespaces of an earlier run hold that prefix."""
    taken = {name.partition("-")[0] for name in namespaces_with_prefix(base)}
    for suffix in ["", *"abcdefghijklmnopqrstuvwxyz"]:
        if base + suffix not in taken:
            return base + suffix
    raise EmulationError(f"namespaces of 27 earlier runs named {base}* are left; remove them with "
                         f"`ip netns list | grep ^{base} | xargs -n1 ip netns del`")


NEIGH_SYSCTL = Path("/proc/sys/net/ipv4/neigh/default")
NEIGHBOUR_ENTRIES_PER_PAIR = 2          # each probed pair and cable end may hold an ARP entry at both ends


class Runner:
    def __init__(self, plan: Plan, log=None):
        self.plan = plan
        self.log = log or (lambda text: None)
        self.created: list[str] = []
        self.workdir: Path | None = None
        self._saved_limits: dict[Path, int] = {}
        self.frr = Frr(self)
        self.agents = Agents(self, self.frr)
        self.timings: dict[str, float] = {}

    # -- commands ------------------------------------------------------------------------------
    def run(self, argv: list[str], what: str, stdin: str | None = None) -> str:
        done = subprocess.run(argv, input=stdin, capture_output=True, text=True)
        if done.returncode != 0:
            detail = (done.stderr or done.stdout).strip().splitlines()
            raise EmulationError(f"{what} failed: {' | '.join(detail[-3:]) or 'exit ' + str(done.returncode)}")
        return done.stdout

    def exec(self, ns: str, argv: list[str], check: bool = True) -> subprocess.CompletedProcess:
        """Run ``argv`` inside namespace ``ns``."""
        done = subprocess.run(["ip", "netns", "exec", ns, *argv], capture_output=True, text=True)
        if check and done.returncode != 0:
            raise EmulationError(f"`{' '.join(argv)}` in {ns} failed: {(done.stderr or done.stdout).strip()}")
        return done

    def exec_all(self, jobs: list[tuple[str, list[str]]]) -> list[subprocess.CompletedProcess]:
        """Run each ``(namespace, argv)`` at once (independent commands), results in order. Interrupted (a
        signal, an error), it waits for every one it started, so none outlives the namespaces."""
        procs: list[subprocess.Popen] = []
        out = []
        try:
            for ns, argv in jobs:
                procs.append(subprocess.Popen(["ip", "netns", "exec", ns, *argv], stdout=subprocess.PIPE,
                                              stderr=subprocess.PIPE, text=True))
            for proc in procs:
                stdout, stderr = proc.communicate()
                out.append(subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr))
        finally:
            for proc in procs:
                if proc.returncode is None:
                    proc.communicate()
        return out

    def batch(self, ns: str | None, lines: list[str], what: str) -> None:
        if lines:
            self.run(["ip", *(["-n", ns] if ns else []), "-batch", "-"], what, "\n".join(lines) + "\n")

    # -- lifecycle -----------------------------------------------------------------------------
    def up(self) -> None:
        plan = self.plan
        started = time.monotonic()
        self.workdir = Path(tempfile.mkdtemp(prefix=f"{plan.run_id}-"))
        self.workdir.chmod(0o755)                    # FRR's daemons run as user frr and keep their sockets here
        (self.workdir / OWNER).write_text(owner_text())   # whose run this is, should it be killed (sweep.py)
        self._raise_neighbour_limits()
        self.log(f"creating {len(plan.namespaces)} namespaces")
        for ns in plan.namespaces:
            self.run(["ip", "netns", "add", ns.name], f"creating namespace {ns.name}")
            self.created.append(ns.name)
        self.log(f"cabling {len(plan.cables)} veth pairs")
        self.batch(None, [f"link add {c.a_if} netns {c.a_ns} type veth peer name {c.b_if} netns {c.b_ns}"
                          for c in plan.cables], "creating the veth pairs")
        self.log("applying each switch's config_db.json")
        for ns, setup in plan.switches.items():
            self.exec(ns, ["sysctl", "-q", "-w", *SWITCH_SYSCTLS, *setup.sysctls])
            self.batch(ns, setup.lines, f"applying {setup.hostname}/config_db.json")
        self.log("running each host's policy-routing.sh and sysctl.conf")
        for ns, files in plan.host_files.items():
            folder = self.workdir / ns
            folder.mkdir()
            for name, text in files.items():
                (folder / name).write_text(text)
            self.exec(ns, ["sysctl", "-q", "-p", str(folder / "sysctl.conf")])
            self.exec(ns, ["bash", str(folder / "policy-routing.sh")])
        self.log("starting FRR (zebra, staticd, bgpd) on each switch's frr.conf")
        self.frr.start(list(plan.switches.values()))
        self.frr.apply(list(plan.switches.values()))
        self.timings["setup"] = time.monotonic() - started
        self.log("waiting for BGP to converge")
        self.timings["convergence"] = self.converge()

    def converge(self, down_cables: set[str] = frozenset(), down_devices: set[str] = frozenset()) -> float:
        """Wait for BGP, then (agents running) for every leaf's PPD agent to have nothing left to change."""
        took = wait_converged(self.frr, self.plan, down_cables, down_devices)
        if not self.agents.procs and self.agents.pinned():
            self.log("starting rail-ppd-agent on each pinned leaf")
            self.agents.start()
        return took + self.agents.wait_quiet()

    def down(self) -> list[str]:
        """Delete every namespace this runner made (their veths go with them); returns what failed."""
        self.agents.stop()
        self.frr.stop()
        failed = []
        for name in reversed(self.created):
            if subprocess.run(["ip", "netns", "del", name], capture_output=True).returncode != 0:
                failed.append(name)
        self.created = failed
        self._restore_neighbour_limits()
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None
        return failed

    def _raise_neighbour_limits(self) -> None:
        """The kernel's ARP table is one table for every namespace, capped by gc_thresh3 (1,024 by
        default): a few dozen multi-NIC hosts on leaf subnets fill it, and ARP for the rest then
        fails silently. Raise the caps for the run (restored by `down`)."""
        wanted = NEIGHBOUR_ENTRIES_PER_PAIR * (len(self.plan.probes()) + 2 * len(self.plan.cables))
        for name, share in (("gc_thresh3", 1), ("gc_thresh2", 2)):
            path = NEIGH_SYSCTL / name
            try:
                current = int(path.read_text())
                if current < wanted // share:
                    path.write_text(str(wanted // share))
                    self._saved_limits.setdefault(path, current)
            except (OSError, ValueError):
                self.log(f"note: could not raise {path} (ARP may fail on large designs)")

    def _restore_neighbour_limits(self) -> None:
        for path, value in self._saved_limits.items():
            try:
                path.write_text(str(value))
            except OSError:
                pass
        self._saved_limits = {}

    def removal_hint(self) -> str:
        """A shell line that stops a kept run's agents and FRR daemons, waits (up to 5 s) until every one has
        exited, and removes its namespaces and folder: a daemon signalled a moment ago may still be exiting."""
        folder = self.workdir or f"{tempfile.gettempdir()}/{self.plan.run_id}-*"
        pid_files = f"{folder}/*/rail-ppd-agent.pid {folder}/*/frr/*.pid"
        return (f"for p in {folder}/*/rail-ppd-agent.pid; do kill -- -$(cat $p); done; "
                f"for p in {folder}/*/frr/*.pid; do kill $(cat $p); done; "
                f"for i in $(seq 50); do kill -0 $(cat {pid_files} 2>/dev/null) 2>/dev/null || break; sleep 0.1; done; "
                f"ip netns list | grep '^{self.plan.run_id}-' | cut -d' ' -f1 | xargs -rn1 ip netns del; "
                f"rm -rf {folder}")
