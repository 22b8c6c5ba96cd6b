"""Runs the checks after edits, debounced: many events in a burst give one re-check. One
`LiveChecker` per document fabric re-checks only what an edit changed."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from ..model.gcpause import settle

DELAY_MS = 150


class CheckRunner(QObject):
    updated = Signal(list)          # the new list of Findings

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.findings: list = []
        self.problem: str | None = None     # why checks could not run (shown in the dock)
        self._live = None                   # LiveChecker of the document's current fabric
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DELAY_MS)
        self._timer.timeout.connect(self.run_now)
        document.model_changed.connect(self.schedule)
        document.fabric_replaced.connect(self.schedule)

    def schedule(self, *_why) -> None:
        self._timer.start()

    def pending(self) -> bool:
        return self._timer.isActive()

    def run_now(self) -> list:
        self._timer.stop()
        try:
            from ..checks.incremental import LiveChecker
            fabric = self.document.fabric
            fresh = self._live is None or self._live.fabric is not fabric
            if fresh:
                if self._live is not None:
                    self._live.close()
                self._live = LiveChecker(fabric)
            self.findings = self._live.run()
            if fresh:
                settle()                     # the design, its items and its checks are built: out of the GC's walks
            self.problem = None
        except Exception as exc:        # a checks bug must not take the editor down
            self._live = None
            self.findings = []
            self.problem = f"checks could not run: {type(exc).__name__}: {exc}"
        self.updated.emit(self.findings)
        return self.findings

    def error_ids(self) -> list[str]:
        return sorted({i for f in self.findings if f.severity.value == "error" for i in f.ids})
