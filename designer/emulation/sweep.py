"""What emulation runs that died left behind (SIGKILL, a crash, a closed terminal): found and removed.

A run normally removes everything it made, also on error and Ctrl+C; only a run killed outright leaves
its namespaces, the FRR daemons and PPD agents inside them, and its work folder
(``<temp dir>/<run id>-*``). Each run writes its owner there (``owner``: pid and start time, so a reused
pid is no owner) and ``--keep`` adds ``kept``. A run is

- ``running`` while its owner lives (also when kept: the owner may still be using it),
- ``kept`` when it was left on purpose and its owner has ended (removed only when asked for),
- ``dead`` when its owner is gone: what `sweep` removes,
- ``unknown`` when nothing says whose it is: never touched.

Namespaces are judged by their run id (the name up to the first '-'). Without a work folder only the
emulation's own default ids (``rd<pid>``, maybe with a letter) are judged, by that pid; any other
namespace on the machine is left alone.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

OWNER, KEPT = "owner", "kept"
_DEFAULT_ID = re.compile(r"rd([0-9]+)[a-z]?\Z")
STOP_WAIT = 2.0                 # seconds a process gets after SIGTERM before SIGKILL


@dataclass
class Run:
    run_id: str
    state: str                                   # running, kept, dead or unknown
    namespaces: list[str] = field(default_factory=list)
    folders: list[Path] = field(default_factory=list)
    removed: bool = False                        # by `sweep` (in a dry run: chosen to be)


def process_start(pid: int) -> str | None:
    """The start time of process ``pid`` (clock ticks since boot, /proc/PID/stat field 22), None when
    there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return stat.rpartition(")")[2].split()[19]   # the command may hold spaces and ')': fields after it


def owner_text() -> str:
    """What a run writes to its folder's ``owner`` file."""
    return f"{os.getpid()} {process_start(os.getpid())}\n"


def _owner_alive(text: str) -> bool | None:
    """Whether the owner an ``owner`` file names still runs (None: the file says nothing usable)."""
    words = text.split()
    if len(words) != 2 or not words[0].isdigit():
        return None
    return process_start(int(words[0])) == words[1]


def namespaces_with_prefix(prefix: str = "") -> list[str]:
    """The machine's network namespaces whose names start with ``prefix``, sorted."""
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return sorted(line.split()[0] for line in out.splitlines() if line.split() and line.startswith(prefix))


def namespace_problem(who: str, why: str) -> str | None:
    """Why ``who`` cannot work on network namespaces here (Linux, root), or None; ``why`` says what it
    does with them."""
    if os.name != "posix" or not Path("/proc/self/ns/net").exists():
        return f"{who} needs Linux network namespaces"
    if os.geteuid() != 0:
        return f"{who} needs root ({why}); run it with sudo"
    return None


def runs(temp_dir: str | None = None) -> list[Run]:
    """Every emulation run that left namespaces or a work folder here, with its state, by run id (what
    nothing marks as the emulation's is not listed)."""
    temp = Path(temp_dir or tempfile.gettempdir())
    found: dict[str, Run] = {}
    for ns in namespaces_with_prefix():
        run_id = ns.partition("-")[0]
        found.setdefault(run_id, Run(run_id, "unknown")).namespaces.append(ns)
    for folder in sorted(temp.glob("*-*")):
        if folder.is_dir() and not folder.is_symlink() and (folder / OWNER).is_file():
            run_id = folder.name.partition("-")[0]
            found.setdefault(run_id, Run(run_id, "unknown")).folders.append(folder)
    for run in found.values():
        run.state = _state(run)
    return [run for _, run in sorted(found.items()) if run.state != "unknown"]


def _state(run: Run) -> str:
    verdicts = {_owner_alive(_read(folder / OWNER)) for folder in run.folders}
    if True in verdicts:
        return "running"                         # kept or not, its process may still be using it
    if any((folder / KEPT).exists() for folder in run.folders):
        return "kept"
    if False in verdicts:
        return "dead"
    match = _DEFAULT_ID.match(run.run_id)
    if match and not run.folders:
        return "running" if process_start(int(match.group(1))) else "dead"
    return "unknown"


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def sweep(chosen: list[Run]) -> list[str]:
    """Stop every process in the runs' namespaces, delete the namespaces (their veths go with them) and
    the work folders; returns what could not be removed."""
    failed = []
    for run in chosen:
        run.removed = True
        for ns in run.namespaces:
            _stop_processes(ns)
            if subprocess.run(["ip", "netns", "del", ns], capture_output=True).returncode != 0:
                failed.append(f"namespace {ns}")
                run.removed = False
        for folder in run.folders:
            shutil.rmtree(folder, ignore_errors=True)
            if folder.exists():
                failed.append(f"folder {folder}")
                run.removed = False
    return failed


def sweep_problem() -> str | None:
    """Why a sweep cannot run here (it deletes namespaces: root and iproute2), or None."""
    problem = namespace_problem("sweeping emulation leftovers", "it deletes network namespaces")
    if problem is None and shutil.which("ip") is None:
        return "sweeping emulation leftovers needs ip (iproute2) on PATH"
    return problem


def _stop_processes(ns: str) -> None:
    def pids() -> list[int]:
        out = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout
        return [int(word) for word in out.split() if word.isdigit()]
    for sig in (signal.SIGTERM, signal.SIGKILL):
        left = pids()
        for pid in left:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + STOP_WAIT
        while left and time.monotonic() < deadline:
            time.sleep(0.05)
            left = pids()
        if not left:
            return
