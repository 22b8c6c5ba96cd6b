"""Run each fuzzed input in a forked child with limits, and say what became of it.

The parent imports the designer once; each child is a fork of it (a few milliseconds, not a new
interpreter), sets ``RLIMIT_AS`` to the parent's size plus the memory limit, ``RLIMIT_CPU`` to the
time limit (CPU seconds: other work on a shared machine cannot turn a slow input into a "hang") and
an ``alarm()`` at three times it as a wall-clock backstop, points stdout and stderr at files, and
runs the kind's commands through ``designer.cli.main``. The parent also kills a child that outlives
the backstop.

Outcomes: ``ok`` (0), ``findings`` (1), ``refused`` (2, with a message that names an input file);
and the bugs: ``traceback`` (exit 70, any other status, or "Traceback" on stderr), ``hang``
(killed at the time limit), ``memory`` (MemoryError, or the memory limit reached), ``unnamed``
(a refusal that names no file, or a message longer than a screen), ``unopenable`` / ``unexportable``
(a command saved what a later command cannot open / validate).
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from .kinds import KINDS, UNEXPORTABLE, UNOPENABLE

BAD = ("traceback", "hang", "memory", "unnamed", "unopenable", "unexportable")
_MESSAGE_MAX = 2_000


@dataclass
class Job:
    """One input: its file is ``path`` inside the folder ``work`` (the input's bytes are not kept in
    memory: ten thousand inputs of up to 4 MB would grow the parent, and every child with it)."""
    index: int
    kind: str
    how: str
    extra: bool
    work: Path = None
    path: Path = None


@dataclass
class Result:
    job: Job
    outcome: str
    status: int
    seconds: float          # wall clock
    cpu: float              # user + system CPU seconds
    max_rss_kb: int
    stderr: str = ""


@dataclass
class Limits:
    seconds: int = 10
    memory: int = 1 << 30


def _vm_size() -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _child(job: Job, limits: Limits, base_vm: int) -> None:
    """In the fork: limits, redirections, the commands; never returns."""
    code = 93
    try:
        limit = base_vm + limits.memory
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CPU, (limits.seconds, limits.seconds + 1))
        signal.alarm(limits.seconds * 3)
        for fd, name in ((1, "stdout"), (2, "stderr")):
            target = os.open(job.work / f".{name}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(target, fd)
            os.close(target)
        os.chdir(job.work)
        code = KINDS[job.kind].runner(job.work, job.path, job.extra)
    except BaseException:                     # noqa: BLE001 - anything escaping is what we look for
        try:
            traceback.print_exc()
        finally:
            code = 93
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _classify(job: Job, status: int, timed_out: bool, rss_kb: int, limits: Limits) -> tuple[str, int, str]:
    err = (job.work / ".stderr").read_text(errors="replace") if (job.work / ".stderr").exists() else ""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        code = -sig
        # SIGALRM: the child's own time limit; SIGKILL by us: it ignored that; SIGKILL otherwise: the
        # kernel's OOM killer; anything else (SIGSEGV, SIGABRT) is a crash
        outcome = ("hang" if timed_out or sig in (signal.SIGALRM, signal.SIGXCPU) else
                   "memory" if sig == signal.SIGKILL else "traceback")
    else:
        code = os.WEXITSTATUS(status)
        outcome = {0: "ok", 1: "findings", 2: "refused", UNOPENABLE: "unopenable",
                   UNEXPORTABLE: "unexportable"}.get(code, "traceback")
    if outcome in ("ok", "findings", "refused", "traceback") and ("MemoryError" in err
                                                                  or "Cannot allocate memory" in err
                                                                  or rss_kb * 1024 > limits.memory):
        outcome = "memory"
    elif "Traceback" in err and outcome not in ("hang", "memory"):
        outcome = "traceback"
    elif outcome == "refused" and not _names_input(err, job):
        outcome = "unnamed"
    elif outcome in ("ok", "findings", "refused") and len(err) > _MESSAGE_MAX and code != 1:
        outcome = "unnamed"
    return outcome, code, err


def _names_input(err: str, job: Job) -> bool:
    return job.path.name in err or str(job.work) in err or "standard input" in err


@dataclass
class Pool:
    """Up to ``jobs`` children at a time."""

    limits: Limits
    jobs: int = 2
    on_done: object = None
    running: dict = field(default_factory=dict)       # pid -> (job, started, killed)

    def start(self, job: Job) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        base_vm = _vm_size()                 # the child starts as a copy of this process
        pid = os.fork()
        if pid == 0:
            _child(job, self.limits, base_vm)
        self.running[pid] = (job, time.monotonic(), False)

    def reap(self) -> list[Result]:
        """Collect the children that ended (polling, so a child that ignores its alarm is still killed)."""
        done = []
        while self.running:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
            if pid == 0:
                break
            job, started, killed = self.running.pop(pid)
            seconds = time.monotonic() - started
            outcome, code, err = _classify(job, status, killed, usage.ru_maxrss, self.limits)
            result = Result(job, outcome, code, seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss,
                            err if outcome in BAD else err[-400:])
            if self.on_done:
                self.on_done(result)             # e.g. keep the input, before its folder goes
            done.append(result)
            shutil.rmtree(job.work, ignore_errors=True)
        if not done:
            time.sleep(0.002)
        now = time.monotonic()
        for pid, (job, started, killed) in list(self.running.items()):
            if not killed and now - started > self.limits.seconds * 3 + 5:     # the alarm did not end it
                os.kill(pid, signal.SIGKILL)
                self.running[pid] = (job, started, True)
        return done
