"""Runs the checks after edits, debounced: many events in a burst give one re-check. One
`LiveChecker` per document fabric re-checks only what an edit changed, in slices: each slice runs
steps of the pass (a leaf's rules, one rule) for at most `SLICE_MS` and gives the event loop back,
so typing, dragging and painting go on while a check runs. An edit drops the pass under way and
starts the debounce again; the next pass re-runs what the dropped one had not reached."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer, Signal

from ..model.gcpause import collector_paused, settle

DELAY_MS = 150
SLICE_MS = 8          # a slice stops starting steps after this; one step runs to its end


class CheckRunner(QObject):
    updated = Signal(list)          # the new list of Findings

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.findings: list = []
        self.problem: str | None = None     # why checks could not run (shown in the dock)
        self.slices: list[float] = []       # the last pass's slices, in seconds (the benchmark reads them)
        self._live = None                   # LiveChecker of the document's current fabric
        self._pass = None                   # the pass under way (a `LiveChecker.steps()` generator)
        self._fresh = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DELAY_MS)
        self._timer.timeout.connect(self.start)
        self._slice = QTimer(self)
        self._slice.setSingleShot(True)
        self._slice.setInterval(0)
        self._slice.timeout.connect(self.run_slice)
        document.model_changed.connect(self.schedule)
        document.fabric_replaced.connect(self.schedule)

    def schedule(self, *_why) -> None:
        self._drop()
        self._timer.start()

    def pending(self) -> bool:
        return self._timer.isActive() or self._pass is not None

    def stop(self) -> None:
        """No re-check now or later (the window closes)."""
        self._timer.stop()
        self._drop()

    def _drop(self) -> None:
        if self._pass is not None:
            self._pass.close()
            self._pass = None
        self._slice.stop()

    def _checker(self):
        from ..checks.incremental import LiveChecker
        fabric = self.document.fabric
        self._fresh = self._live is None or self._live.fabric is not fabric
        if self._fresh:
            if self._live is not None:
                self._live.close()
            self._live = LiveChecker(fabric)
        return self._live

    def start(self) -> None:
        """Begin a pass in slices (what the debounce timer calls)."""
        self._timer.stop()
        self._drop()
        self.slices = []
        try:
            self._pass = self._checker().steps()
        except Exception as exc:        # a checks bug must not take the editor down
            self._failed(exc)
            return
        self._slice.start()

    def run_slice(self) -> None:
        """Steps of the pass for up to SLICE_MS; then the next slice is posted, or the findings shown."""
        if self._pass is None:
            return
        t0 = time.perf_counter()
        done = False
        try:
            with collector_paused():
                while time.perf_counter() - t0 < SLICE_MS / 1000:
                    next(self._pass)
        except StopIteration:
            done = True
        except Exception as exc:        # noqa: BLE001 - shown in the dock, the editor goes on
            self.slices.append(time.perf_counter() - t0)
            self._pass = None
            self._failed(exc)
            return
        if not done:
            self.slices.append(time.perf_counter() - t0)
            self._slice.start()
            return
        self._pass = None
        self._finish(self._live.findings())
        self.slices.append(time.perf_counter() - t0)

    def run_now(self) -> list:
        """The whole re-check at once (Tools > Run checks now, tests, and a design just opened)."""
        self._timer.stop()
        self._drop()
        try:
            findings = self._checker().run()
        except Exception as exc:        # a checks bug must not take the editor down
            self._failed(exc)
            return self.findings
        self._finish(findings)
        return self.findings

    def _finish(self, findings: list) -> None:
        if self._fresh:
            settle()                     # the design, its items and its checks are built: out of the GC's walks
            self._fresh = False
        self.findings = findings
        self.problem = None
        self.updated.emit(self.findings)

    def _failed(self, exc: Exception) -> None:
        self._live = None
        self.findings = []
        self.problem = f"checks could not run: {type(exc).__name__}: {exc}"
        self.updated.emit(self.findings)

    def error_ids(self) -> list[str]:
        return sorted({i for f in self.findings if f.severity.value == "error" for i in f.ids})
