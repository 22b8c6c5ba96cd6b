"""Build a small fabric in Linux network namespaces and prove the bundle forwards as designed. No Qt.

`emulate` plans (`plan.make_plan`, pure data), builds (`netns.Runner`), checks (`checks.run_checks`)
and always tears down what it built: on success, on error, on Ctrl+C and on SIGTERM.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

from ..model.fabric import Fabric
from .checks import Row, run_checks
from .failover import run_failovers
from .netns import Runner, environment_problem, free_run_id
from .qos import qos_rows
from .sweep import KEPT
from .plan import EmulationError, Plan, make_plan

__all__ = ["EmulationError", "EmulationResult", "Row", "emulate", "environment_problem"]


@dataclass
class EmulationResult:
    plan: Plan
    rows: list[Row]
    kept: bool
    removal_hint: str
    timings: dict[str, float]                # seconds: setup, convergence, checks, each failover, teardown

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rows)


class _Terminated(BaseException):
    """SIGTERM turned into an exception, so the `finally` that removes the namespaces runs."""


@contextmanager
def _signals_unwind():
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_term(signum, frame):
        raise _Terminated()

    old = signal.signal(signal.SIGTERM, on_term)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


@contextmanager
def _signals_blocked():
    """Cleanup must finish: a second Ctrl+C or SIGTERM waits until the namespaces are gone."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def emulate(fabric: Fabric, *, keep: bool = False, after_setup: Callable[[Runner], None] | None = None,
            run_id: str | None = None, log: Callable[[str], None] | None = None,
            failover: bool = True, qos: bool = True) -> EmulationResult:
    """Build, check, tear down. ``after_setup(runner)`` runs once everything is configured and before the
    checks (e.g. ``runner.exec(ns, [...])`` to break a host by hand). With ``failover`` the uplink and spine
    scenarios (`failover.run_failovers`) run after the checks; with ``qos`` first the QoS proof (`qos.qos_rows`:
    where DSCP 26 and CNPs land, hop by hop, under the tc stand-ins it states). Raises EmulationError with one readable
    message when the environment or the design cannot be emulated."""
    problem = environment_problem()
    if problem:
        raise EmulationError(problem)
    plan = make_plan(fabric, free_run_id(run_id or f"rd{os.getpid()}"))
    runner = Runner(plan, log)
    try:
        with _signals_unwind():
            try:
                runner.up()
                if after_setup is not None:
                    after_setup(runner)
                checked = time.monotonic()
                rows = run_checks(runner, plan)
                runner.timings["checks"] = time.monotonic() - checked
                if qos:
                    proving = time.monotonic()
                    rows += qos_rows(runner, rows)
                    runner.timings["qos"] = time.monotonic() - proving
                if failover:
                    failing = time.monotonic()
                    rows += run_failovers(runner)
                    runner.timings["failover"] = time.monotonic() - failing
            except _Terminated:
                raise KeyboardInterrupt from None
    finally:
        if keep and runner.workdir is not None:
            (runner.workdir / KEPT).write_text("left on purpose (--keep): `rail-designer emulate-sweep --kept` "
                                               "removes it\n")
        if not keep:
            down = time.monotonic()
            with _signals_blocked():
                left = runner.down()
            runner.timings["teardown"] = time.monotonic() - down
            if left:
                raise EmulationError(f"could not remove namespaces {', '.join(left)}; remove them with: "
                                     f"{runner.removal_hint()}")
    return EmulationResult(plan, rows, keep, runner.removal_hint(), runner.timings)
