"""The CLI's analysis in the window: a path trace (`rail-designer paths`) drawn hop by hop on the
canvas, a collision analysis (`rail-designer analyze`) drawn as per-cable load colours, and the
load-balancing modes compared on one chart (`analyze --compare`, the Modes tab).

The trace is quick and runs at once. The analysis runs in a child process (`analysis_worker`) on a
copy of the design; Cancel stops it, and the window stays usable meanwhile."""

from __future__ import annotations

import multiprocessing

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (QComboBox, QCompleter, QDockWidget, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
                               QPlainTextEdit, QPushButton, QSpinBox, QTabWidget, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

from ...analysis.collisions import ROUTINGS
from ...analysis.flows import PATTERNS
from .. import analysis_worker
from .mode_chart import ModeChartTab

POLL_MS = 100

# An InfiniBand fabric is routed by its subnet manager; the window has no dump of its tables to follow.
IB_ROUTED = ("InfiniBand: the subnet manager routes this fabric, not the design. Use "
             "`rail-designer {command} --ibnetdiscover DUMP --fts DUMP` with the fabric's ibnetdiscover and "
             "dump_fts output")


class AnalysisDock(QDockWidget):
    path_traced = Signal(list, list)        # cable ids, device and NIC ids on the traced path(s)
    loads_ready = Signal(dict)              # cable id -> utilisation
    cleared = Signal()

    def __init__(self, document, parent=None):
        super().__init__("Analysis", parent)
        self.setObjectName("AnalysisDock")
        self.document = document
        self.process = None
        self.conn = None
        self.traces: list = []
        self.result: dict | None = None
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._check_child)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._trace_tab(), "Path trace")
        self.tabs.addTab(self._collision_tab(), "Collisions")
        self.modes = ModeChartTab()
        self.tabs.addTab(self.modes, "Modes")
        self.setWidget(self.tabs)

    # ------------------------------------------------------------------ path trace
    def _trace_tab(self) -> QWidget:
        tab = QWidget()
        self.source, self.target = QLineEdit(), QLineEdit()
        for edit, hint in ((self.source, "from HOST[:nicK]"), (self.target, "to HOST[:nicK]")):
            edit.setPlaceholderText(hint)
            edit.returnPressed.connect(self.trace)
        self.trace_button = QPushButton("Trace")
        self.trace_button.clicked.connect(self.trace)
        clear = QPushButton("Clear")
        clear.clicked.connect(self.clear)
        row = QHBoxLayout()
        for w in (self.source, self.target, self.trace_button, clear):
            row.addWidget(w)
        self.trace_note = QLabel("Trace a flow and its reply hop by hop, as `rail-designer paths` does")
        self.trace_note.setWordWrap(True)
        self.hops = QTreeWidget()
        self.hops.setHeaderLabels(["Hop", "In > out", "Decision"])
        layout = QVBoxLayout(tab)
        layout.addLayout(row)
        layout.addWidget(self.trace_note)
        layout.addWidget(self.hops, 1)
        return tab

    def set_hosts(self, names: list[str]) -> None:
        for edit in (self.source, self.target):
            completer = QCompleter(names, edit)
            completer.setCaseSensitivity(Qt.CaseInsensitive)
            completer.setFilterMode(Qt.MatchContains)
            edit.setCompleter(completer)

    def trace_from(self, source: str) -> None:
        """Context menu > Trace a path from here: the source filled in, the destination asked for."""
        self.source.setText(source)
        self.tabs.setCurrentIndex(0)
        self.show()
        self.raise_()
        self.target.setFocus()

    def trace(self) -> bool:
        from ...analysis import AnalysisError
        from ...analysis.paths import trace
        from ...analysis.routing import Forwarding
        from ...analysis.select import pairs
        if self.document.fabric.settings.infiniband:
            self.trace_note.setText(IB_ROUTED.format(command="paths FILE --from A --to B"))
            return False
        source, target = self.source.text().strip(), self.target.text().strip()
        if not source or not target:
            self.trace_note.setText("give both ends: a server id or hostname, optionally :nicK")
            return False
        try:
            fw = Forwarding(self.document.fabric)
            self.traces = [trace(fw, s, d) for s, d in pairs(fw, source, target)]
        except (AnalysisError, ValueError, KeyError) as exc:
            self.trace_note.setText(f"cannot trace: {exc.args[0] if isinstance(exc, KeyError) else exc}")
            return False
        self._show_traces()
        return True

    def _show_traces(self) -> None:
        self.hops.clear()
        links, nodes = set(), set()
        for t in self.traces:
            top = QTreeWidgetItem([f"{t.src_nic} -> {t.dst_nic}", "", "ok" if t.ok else "FAIL"])
            for name, leg in (("request", t.request), ("reply", t.reply)):
                if leg is None:
                    continue
                leg_item = QTreeWidgetItem([name, f"{leg.source} -> {leg.destination}",
                                            "delivered" if leg.delivered else f"not delivered: {leg.problem}"])
                for i, hop in enumerate(leg.hops, 1):
                    row = QTreeWidgetItem([f"{i}. {hop.device}", f"{hop.ingress or '-'} > {hop.egress or '-'}",
                                           hop.decision])
                    row.setData(0, Qt.UserRole, [hop.device, *hop.links])
                    row.setToolTip(2, hop.decision)
                    leg_item.addChild(row)
                    links.update(hop.links)
                    nodes.add(hop.device)
                top.addChild(leg_item)
            for flag in t.flags:
                top.addChild(QTreeWidgetItem([flag.severity.value, flag.code, flag.message]))
            nodes.update((t.src_nic, t.dst_nic))
            self.hops.addTopLevelItem(top)
            top.setExpanded(len(self.traces) == 1)
        self.hops.resizeColumnToContents(0)
        bad = sum(not t.ok for t in self.traces)
        self.trace_note.setText(f"{len(self.traces)} pair(s) traced, {bad} with errors; the path is drawn "
                                "on the canvas (Clear to remove it)")
        self.path_traced.emit(sorted(links), sorted(nodes))

    # ------------------------------------------------------------------ collisions
    def _collision_tab(self) -> QWidget:
        tab = QWidget()
        self.pattern, self.routing = QComboBox(), QComboBox()
        self.pattern.addItems(list(PATTERNS))
        self.routing.addItems(list(ROUTINGS))
        self.trials = QSpinBox()
        self.trials.setRange(1, 1000)
        self.trials.setValue(20)
        self.qps = QSpinBox()
        self.qps.setRange(1, 128)
        self.qps.setValue(4)
        self.qps.setToolTip("queue pairs per connection under qp-hash (NCCL_IB_QPS_PER_CONNECTION)")
        self.analyze_button = QPushButton("Analyze")
        self.analyze_button.clicked.connect(self.analyze)
        self.compare_button = QPushButton("Compare modes")
        self.compare_button.setToolTip("the pattern under ppd, ecmp, qp-hash and adaptive, on one chart (Modes tab)")
        self.compare_button.clicked.connect(self.compare)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        clear = QPushButton("Clear")
        clear.clicked.connect(self.clear)
        form = QFormLayout()
        form.addRow("Pattern", self.pattern)
        form.addRow("Leaf upstream", self.routing)
        form.addRow("Trials", self.trials)
        form.addRow("QPs (qp-hash)", self.qps)
        row = QHBoxLayout()
        for w in (self.analyze_button, self.compare_button, self.cancel_button, clear):
            row.addWidget(w)
        self.analysis_note = QLabel("Predict flow collisions as `rail-designer analyze` does; cables are "
                                    "coloured by load")
        self.analysis_note.setWordWrap(True)
        self.table = QPlainTextEdit()
        self.table.setReadOnly(True)
        self.table.setLineWrapMode(QPlainTextEdit.NoWrap)
        self.table.setFont(QFontDatabase.systemFont(QFontDatabase.FixedFont))
        controls = QVBoxLayout()
        controls.addLayout(form)
        controls.addLayout(row)
        controls.addWidget(self.analysis_note)
        controls.addStretch(1)
        layout = QHBoxLayout(tab)          # side by side: the bottom dock area stays short
        layout.addLayout(controls, 1)
        layout.addWidget(self.table, 3)
        return tab

    def running(self) -> bool:
        return self.process is not None

    def analyze(self) -> bool:
        """The pattern under the chosen routing, in the child; cables coloured by load when it answers."""
        return self._start(self.routing.currentText(), f"analysing {self.pattern.currentText()} under "
                                                        f"{self.routing.currentText()}…")

    def compare(self) -> bool:
        """The pattern under every load-balancing mode, in the child; the Modes tab charts them."""
        return self._start("compare", f"comparing the modes on {self.pattern.currentText()}…")

    def _start(self, routing: str, what: str) -> bool:
        if self.running():
            return False
        if self.document.fabric.settings.infiniband:
            self.analysis_note.setText(IB_ROUTED.format(command="analyze FILE --pattern P"))
            return False
        from ...storage import dumps
        ctx = multiprocessing.get_context("spawn")
        self.conn, child_end = ctx.Pipe(duplex=False)
        self.process = ctx.Process(target=analysis_worker.child, daemon=True,
                                   args=(child_end, dumps(self.document.fabric), self.pattern.currentText(),
                                         routing, self.trials.value(), 0, self.qps.value()))
        self.process.start()
        child_end.close()
        self.analyze_button.setEnabled(False)
        self.compare_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.analysis_note.setText(f"{what} (the window stays usable; Cancel stops it)")
        self._poll.start()
        return True

    def _check_child(self) -> None:
        if self.conn is None:
            return
        if self.conn.poll():
            try:
                kind, payload = self.conn.recv()
            except EOFError:
                kind, payload = "error", "the analysis stopped without an answer"
            self._finish(kind, payload)
        elif not self.process.is_alive():
            self._finish("error", f"the analysis process ended (exit code {self.process.exitcode})")

    def _finish(self, kind: str, payload) -> None:
        self._stop()
        if kind == "ok" and "modes" in payload:
            self.modes.show_modes(payload)
            self.tabs.setCurrentWidget(self.modes)
            self.analysis_note.setText(f"{len(payload['modes'])} modes compared: see the Modes tab")
        elif kind == "ok":
            self.result = payload
            self.table.setPlainText(payload["table"])
            self.analysis_note.setText(f"{len(payload['utilisation'])} cables loaded; busiest "
                                       f"{payload['busiest'] or '-'}. Colours: see the legend")
            self.loads_ready.emit(payload["utilisation"])
        else:
            self.analysis_note.setText(f"no analysis: {payload}")

    def cancel(self) -> None:
        if self.running():
            self.process.terminate()
            self._stop()
            self.analysis_note.setText("analysis cancelled")

    def _stop(self) -> None:
        self._poll.stop()
        if self.process is not None:
            self.process.join(timeout=2)
        if self.conn is not None:
            self.conn.close()
        self.process = self.conn = None
        self.analyze_button.setEnabled(True)
        self.compare_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def wait(self, timeout_ms: int = 60_000) -> bool:
        """Block until a running analysis answers (tests and scripts); False on timeout."""
        if self.conn is None:
            return True
        if not self.conn.poll(timeout_ms / 1000):
            return False
        self._check_child()
        return True

    def clear(self) -> None:
        self.hops.clear()
        self.traces, self.result = [], None
        self.cleared.emit()
