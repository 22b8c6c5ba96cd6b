"""Runs the checks after edits, off the GUI thread: debounced (many events in a burst give one
re-check), on a worker thread that owns a copy of the design (`Fabric.snapshot`).

One `LiveChecker` per document fabric lives on that copy and re-checks only what an edit changed.
Before each pass the GUI thread brings the copy up to date (`Fabric.catch_up`, told the events seen
since: a few ms), then hands the pass to the worker and goes back to its events: the first check of
a design just opened (a second at 4,096 servers) and every re-check run while the window takes
input. Findings come back by a queued signal; a pass whose design has been edited since it was
handed over is dropped, and the next pass (the copy caught up again) re-runs what changed.

Python threads share one interpreter lock: while the worker runs, the GUI thread waits about the
interpreter's switch interval (`SWITCH_S`) for it each time it has work, and the worker runs at a
lower priority (`WORKER_NICE`, Linux), so on a loaded machine the GUI thread gets the processor first.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
import weakref

from PySide6.QtCore import QObject, QTimer, Signal

from ..model.gcpause import collector_paused, settle

DELAY_MS = 150
SWITCH_S = 0.001      # the interpreter's thread switch interval while a pass runs (the default is 5 ms)
WORKER_NICE = 10      # the worker thread's niceness: on a busy machine the kernel runs the GUI thread first


class _Pass:
    """One check pass for the worker: the copy's live checker (made on the worker the first time)."""

    def __init__(self, token: int, copy, checker):
        self.token, self.copy, self.checker = token, copy, checker

    def run(self):
        from ..checks.incremental import LiveChecker
        if self.checker is None:
            self.checker = LiveChecker(self.copy)
        return self.checker.run()


class CheckRunner(QObject):
    updated = Signal(list)              # the new list of Findings
    _delivered = Signal(object, object, object)   # (pass, findings, error text): worker -> GUI thread

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.findings: list = []
        self.problem: str | None = None     # why checks could not run (shown in the dock)
        self.gui_seconds = 0.0              # GUI-thread time of the last pass: the catch-up and the hand-over
        self._source = None                 # the document fabric the copy mirrors
        self._copy = None                   # its snapshot, owned by the worker while a pass runs
        self._checker = None                # the LiveChecker on the copy (None until the first pass made it)
        self._events: list | None = []      # the source's events since the copy last caught up (None: unknown)
        self._token = 0                     # the pass handed over last; a delivery of another is stale
        self._busy = False                  # a pass is on the worker
        self._again = False                 # start another pass once it comes back
        self._idle = threading.Event()
        self._idle.set()
        self._stopped = False
        self._ran: _Pass | None = None      # the last pass the worker finished (set there, read after `_idle`)
        self._settled = False               # the GC was told the design is built (after its first check)
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        # the worker holds the runner weakly: a window dropped without closing ends its worker too
        threading.Thread(target=_work, args=(self._jobs, weakref.ref(self)), name="rail-designer checks",
                         daemon=True).start()
        weakref.finalize(self, self._jobs.put, None)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DELAY_MS)
        self._timer.timeout.connect(self.start)
        self._delivered.connect(self._arrived)
        document.model_changed.connect(self._edited)
        document.fabric_replaced.connect(self.schedule)

    # ------------------------------------------------------------------ the GUI thread
    def _edited(self, event) -> None:
        if self._events is not None:
            self._events.append(event)
        self.schedule()

    def schedule(self, *_why) -> None:
        self._timer.start()

    def pending(self) -> bool:
        return self._timer.isActive() or self._busy or self._again

    def stop(self) -> None:
        """No re-check now or later (the window closes); a pass on the worker is dropped."""
        self._stopped = True
        self._timer.stop()
        self._again = False
        self._jobs.put(None)

    def _prepare(self) -> tuple:
        """The copy brought up to date with the document's fabric, and its checker (None: make one)."""
        fabric = self.document.fabric
        if self._copy is None or self._source is not fabric:
            self._source, self._copy, self._checker = fabric, fabric.snapshot(), None
            self._settled = False
        elif self._events is None or self._events:
            self._copy.catch_up(fabric, self._events)
        self._events = []
        return self._copy, self._checker

    def start(self) -> None:
        """Hand a pass to the worker now (what the debounce timer calls); one at a time."""
        self._timer.stop()
        if self._stopped:
            return
        if self._busy:
            self._again = True
            return
        t0 = time.perf_counter()
        self._again = False
        try:
            copy, checker = self._prepare()
        except Exception as exc:        # noqa: BLE001 - a bug here must not take the editor down
            self._failed(f"{type(exc).__name__}: {exc}")
            return
        self._token += 1
        self._busy = True
        self._idle.clear()
        self._jobs.put(_Pass(self._token, copy, checker))
        self.gui_seconds = time.perf_counter() - t0

    def _arrived(self, job: _Pass, findings, error: str | None) -> None:
        if job.token != self._token or self._stopped:
            return                       # run_now ran a pass meanwhile, or the window closed
        self._busy = False
        t0 = time.perf_counter()
        self._adopt(job)
        stale = self._source is not self.document.fabric or self._events is None or bool(self._events)
        if error is not None:
            self._failed(error)
        elif not stale:
            self._finish(findings)
        self.gui_seconds += time.perf_counter() - t0
        if (stale or self._again) and not self._timer.isActive():
            self.start()                 # the design moved on while it ran: check what it is now

    def _adopt(self, job: _Pass | None) -> None:
        """Keep the checker a finished pass made or used, if it is the current copy's."""
        if job is not None and job.copy is self._copy and job.checker is not None:
            self._checker = job.checker

    def run_now(self) -> list:
        """The whole re-check at once, on this thread, waiting for a pass under way first (tests,
        benchmarks and scripts that need the findings before they go on)."""
        self._timer.stop()
        self._idle.wait()
        self._adopt(self._ran)           # a pass that just ran made the copy's checker: keep it
        self._busy = self._again = False
        self._token += 1                 # a delivery still queued is stale
        try:
            copy, checker = self._prepare()
            job = _Pass(self._token, copy, checker)
            findings = job.run()
        except Exception as exc:        # noqa: BLE001 - a checks bug must not take the editor down
            self._failed(f"{type(exc).__name__}: {exc}")
            return self.findings
        self._checker = job.checker
        self._finish(findings)
        return self.findings

    def _finish(self, findings: list) -> None:
        if not self._settled:
            self._settled = True
            settle()                     # the design, its items and its checks are built: out of the GC's walks
        self.findings = findings
        self.problem = None
        self.updated.emit(self.findings)

    def _failed(self, text: str) -> None:
        self._copy = self._checker = None        # start over from a fresh copy next time
        self.findings = []
        self.problem = f"checks could not run: {text}"
        self.updated.emit(self.findings)

    def error_ids(self) -> list[str]:
        return sorted({i for f in self.findings if f.severity.value == "error" for i in f.ids})



def _work(jobs: queue.SimpleQueue, runner_ref) -> None:
    """The worker thread: runs each pass handed over and sends its findings back (queued to the GUI
    thread by the signal), until told to stop (None) or its runner is gone."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), WORKER_NICE)    # this thread only (Linux)
    except (AttributeError, OSError):
        pass
    while True:
        job = jobs.get()
        if job is None:
            return
        findings, error = None, None
        before = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_S)
        try:
            with collector_paused():
                first = job.checker is None
                findings = job.run()
                if first:
                    # what a first pass built (the copy's context and caches) lives on: out of the
                    # collector's walks before it runs again, else its next full pass walks them all
                    # holding the interpreter lock (0.1 s at 4,096 servers)
                    settle()
        except Exception as exc:        # noqa: BLE001 - shown in the dock, the editor goes on
            error = f"{type(exc).__name__}: {exc}"
        finally:
            sys.setswitchinterval(before)
        runner = runner_ref()
        if runner is None:
            return
        runner._ran = job               # what the pass built is the runner's again before it is told so
        runner._idle.set()
        if runner._stopped:
            return
        try:
            runner._delivered.emit(job, findings, error)
        except RuntimeError:             # the runner's Qt object is gone with its window
            return
        del runner, job
