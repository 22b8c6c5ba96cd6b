"""FRR's own daemons in each switch namespace, on the bundle's frr.conf, and waiting for BGP to converge.

Each switch runs what SONiC's bgp container runs by default (sonic-buildimage
dockers/docker-fpm-frr/frr/supervisord/supervisord.conf.j2): zebra, staticd and bgpd (bfdd only with
``frr_mgmt_framework_config``, so BGP's own timers and link-down detection carry failover). Each instance
keeps its sockets, pid files and logs in the run's folder (``--vty_socket``, ``-z``, ``-i``), and its
configuration is the exported ``frr.conf``, written unchanged and applied with ``vtysh -b`` as SONiC's
``split-unified`` / ``unified`` routing-config modes do.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
from pathlib import Path

from .errors import EmulationError
from .plan import Plan, SwitchSetup

FRR_BIN = Path("/usr/lib/frr")
DAEMONS = ("zebra", "staticd", "bgpd")
VTYSH_CONF = "service integrated-vtysh-config\n"      # what SONiC's bgp container has in vtysh.conf
CONVERGE_TIMEOUT = 60.0
POLL = 0.25
QUIET = 0.5          # seconds without any prefix count changing before BGP counts as converged


def frr_problem() -> str | None:
    missing = [d for d in DAEMONS if not (FRR_BIN / d).exists()]
    if missing or shutil.which("vtysh") is None:
        return (f"the emulation runs FRR and needs {', '.join(missing) or 'vtysh'} "
                f"({FRR_BIN}, vtysh on PATH): install the frr package")
    return None


class Frr:
    """Starts, queries and stops the FRR instances of one run."""

    def __init__(self, runner):
        self.runner = runner
        self.started: list[Path] = []

    def folder(self, setup: SwitchSetup) -> Path:
        return self.runner.workdir / setup.ns / "frr"

    def vtysh_argv(self, setup: SwitchSetup) -> list[str]:
        return ["vtysh", "--vty_socket", str(self.folder(setup))]

    def _daemon(self, setup: SwitchSetup, daemon: str) -> tuple[str, list[str]]:
        folder = self.folder(setup)
        return setup.ns, [str(FRR_BIN / daemon), "-d", "--vty_socket", str(folder), "-z", str(folder / "zserv.api"),
                          "-i", str(folder / f"{daemon}.pid"), "-f", str(folder / f"{daemon}.conf"),
                          "--log", f"file:{folder / daemon}.log"]

    def _all(self, jobs: list[tuple[SwitchSetup, tuple[str, list[str]]]], what: str) -> None:
        for (setup, _), done in zip(jobs, self.runner.exec_all([job for _, job in jobs])):
            if done.returncode != 0:
                raise EmulationError(f"{what} on {setup.hostname} failed: {(done.stdout + done.stderr).strip()[-600:]}")

    def start(self, setups: list[SwitchSetup]) -> None:
        """Every switch's zebra first (all at once), then its staticd and bgpd, which connect to it."""
        for setup in setups:
            folder = self.folder(setup)
            folder.mkdir(parents=True)
            (folder / "frr.conf").write_text(setup.files["frr.conf"])
            (folder / "vtysh.conf").write_text(VTYSH_CONF)
            for path in (folder.parent, folder, *folder.iterdir()):
                shutil.chown(path, "frr", "frr")
            self.started.append(folder)
        self._all([(s, self._daemon(s, "zebra")) for s in setups], "starting zebra")
        self._all([(s, self._daemon(s, d)) for s in setups for d in DAEMONS[1:]], "starting staticd and bgpd")

    def apply(self, setups: list[SwitchSetup]) -> None:
        """``vtysh -b``: each integrated frr.conf into its running daemons, as SONiC boots it."""
        self._all([(s, (s.ns, [*self.vtysh_argv(s), "--config_dir", str(self.folder(s)), "-b"])) for s in setups],
                  "FRR refused frr.conf:")

    def show(self, setups: list[SwitchSetup], command: str) -> list[dict]:
        """``command``'s JSON from each switch's FRR (asked all at once); {} where FRR gave none."""
        out = []
        for done in self.runner.exec_all([(s.ns, [*self.vtysh_argv(s), "-c", command]) for s in setups]):
            try:
                out.append(json.loads(done.stdout) if done.returncode == 0 else {})
            except ValueError:
                out.append({})
        return out

    def peers(self, setups: list[SwitchSetup]) -> list[dict]:
        return [d.get("peers", {}) for d in self.show(setups, "show bgp ipv4 unicast summary json")]

    def routes(self, setups: list[SwitchSetup]) -> list[dict]:
        return [d.get("routes", {}) for d in self.show(setups, "show bgp ipv4 unicast json")]

    def stop(self) -> None:
        """SIGTERM every daemon this run started, then SIGKILL what is left. Daemons are found by their pid
        files and, for one interrupted before it wrote its pid file, by the run's folder in their command
        line (a fresh mkdtemp path, so nothing else matches)."""
        pids = set()
        for folder in self.started:
            for daemon in DAEMONS:
                try:
                    pids.add(int((folder / f"{daemon}.pid").read_text().strip()))
                except (OSError, ValueError):
                    pass
        if self.started:
            pids |= processes_using(str(self.runner.workdir) + "/")
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for pid in pids:
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + 3
            while pids and time.monotonic() < deadline:
                pids = {p for p in pids if running(p)}
                time.sleep(0.05)
        self.started = []


def running(pid: int) -> bool:
    """Whether ``pid`` still runs. A daemon that exited stays a zombie until whoever adopted it (``-d``
    detaches, so the machine's init) reaps it, which some inits do only every second or so."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[:1] not in (["Z"], ["X"])


def processes_using(path: str) -> set[int]:
    """Pids (not this one) whose command line names ``path``."""
    found = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            if path.encode() in (proc / "cmdline").read_bytes():
                found.add(int(proc.name))
        except OSError:
            continue
    return found


def _expected_up(plan: Plan, setup: SwitchSetup, session, down_cables: set[str], down_devices: set[str]) -> bool:
    return not ({session.cable} & down_cables or {setup.device, session.peer} & down_devices)


def _not_originated(frr: Frr, setups: list[SwitchSetup]) -> dict[str, str]:
    """Leaves whose BGP table does not yet hold every server prefix their frr.conf originates (a ``network``
    is sent only once its exact route is in the RIB: staticd's discard route may come after the sessions
    settle): hostname -> the first missing prefix."""
    out = {}
    for setup, table in zip(setups, frr.routes(setups)):
        missing = [p for p in setup.server_prefixes
                   if not any(path.get("peerId") in LOCAL_PEER for path in table.get(p, []))]
        if missing:
            out[setup.hostname] = missing[0]
    return out


LOCAL_PEER = ("(unspec)", "0.0.0.0")          # how FRR's JSON names the peer of a locally originated path


def wait_converged(frr: Frr, plan: Plan, down_cables: set[str] = frozenset(), down_devices: set[str] = frozenset(),
                   timeout: float = CONVERGE_TIMEOUT) -> float:
    """Poll every switch's FRR until every leaf originates its server prefixes, each session that should be up
    is Established and has received a prefix (each peer sends at least its loopback), each that should be
    down is not, no update is queued, and no prefix count has changed for QUIET seconds (quiet polls alone
    are not enough: on a loaded machine bgpd can sit between an Established session and its first UPDATE,
    or before staticd's discard route lets a leaf originate, for longer). Returns the seconds it took; raises EmulationError naming the switch and session (or
    prefix) that kept it waiting."""
    start = time.monotonic()
    last: dict[str, object] = {}
    quiet_since = None
    pending = [s for s in plan.switches.values() if s.server_prefixes and s.device not in down_devices]
    while True:
        problem, snapshot = None, {}
        setups = list(plan.switches.values())
        for setup, peers in zip(setups, frr.peers(setups)):
            for session in setup.sessions:
                state = peers.get(session.peer_ip, {}).get("state", "not configured")
                up = _expected_up(plan, setup, session, down_cables, down_devices)
                if (state == "Established") != up and problem is None:
                    problem = (f"{setup.hostname}'s session to {session.peer_ip} ({session.peer}) is {state}, "
                               f"expected {'Established' if up else 'down'}")
                busy = peers.get(session.peer_ip, {})
                if (busy.get("inq", 0) or busy.get("outq", 0)) and problem is None:
                    problem = f"{setup.hostname}'s session to {session.peer_ip} still has updates queued"
                # Every peer originates at least its loopback: a fresh session that has received nothing yet
                # is waiting for its first update (FRR coalesces them), not converged.
                if up and state == "Established" and not busy.get("pfxRcd") and problem is None:
                    problem = f"{setup.hostname}'s session to {session.peer_ip} has received no prefix yet"
            snapshot[setup.ns] = tuple(sorted((ip, p.get("pfxRcd"), p.get("pfxSnt")) for ip, p in peers.items()))
        if pending:
            late = _not_originated(frr, pending)
            pending = [s for s in pending if s.hostname in late]
            if late and problem is None:
                host, prefix = next(iter(late.items()))
                problem = f"{host} does not originate {prefix}"
        now = time.monotonic()
        if problem is None and snapshot == last:
            quiet_since = quiet_since if quiet_since is not None else now
        else:
            quiet_since = None
        last = snapshot
        if quiet_since is not None and now - quiet_since >= QUIET:
            return now - start
        if time.monotonic() - start > timeout:
            raise EmulationError(f"BGP did not converge in {timeout:.0f} s: "
                                 f"{problem or 'the prefix counts kept changing'}")
        time.sleep(POLL)
