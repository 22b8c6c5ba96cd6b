"""The analysis dock's Modes tab: one collective under every load-balancing mode on one chart.

The chart is matplotlib's figure on its Qt canvas (`backend_qtagg`), drawn by the same
`analysis.chart.draw_modes` that ``rail-designer analyze --compare --chart`` writes, so the window and
the file show the same bars. The table under it is the CLI's text. matplotlib is imported when the
first comparison arrives, so opening the window does not pay for it."""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget


class ModeChartTab(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("ModeChartTab")
        self.rows: list = []
        self.figure = self.canvas = None
        self.note = QLabel("Analysis > Collisions > Compare modes runs the chosen collective under ppd, ecmp, "
                           "qp-hash and adaptive and draws them here")
        self.note.setWordWrap(True)
        self.table = QPlainTextEdit()
        self.table.setReadOnly(True)
        self.table.setLineWrapMode(QPlainTextEdit.NoWrap)
        self.table.setFont(QFontDatabase.systemFont(QFontDatabase.FixedFont))
        self.table.setMaximumHeight(120)
        self.box = QVBoxLayout(self)
        self.box.addWidget(self.note)
        self.box.addStretch(1)
        self.box.addWidget(self.table)

    def _make_canvas(self) -> None:
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
        from matplotlib.figure import Figure
        self.figure = Figure(figsize=(6.5, 3.0), dpi=100)
        self.canvas = FigureCanvasQTAgg(self.figure)
        self.canvas.setMinimumHeight(220)
        self.box.takeAt(1)                      # the stretch holding the canvas' place
        self.box.insertWidget(1, self.canvas, 1)

    def show_modes(self, result: dict) -> None:
        from ...analysis.chart import draw_modes
        if self.canvas is None:
            self._make_canvas()
        self.rows = list(result["modes"])
        draw_modes(self.figure, self.rows, f"{result['pattern']}: every load-balancing mode")
        self.canvas.draw_idle()
        self.table.setPlainText(result["table"])
        self.note.setText(f"{result['pattern']}: {len(self.rows)} modes on the same flows; adaptive is the ideal "
                          "(even spraying), which needs switch and NIC support")

    def series(self) -> dict[str, list[float]]:
        """What the chart shows, read back from its axes: legend label -> bar heights, and the x labels."""
        if self.figure is None or not self.figure.axes:
            return {}
        ax = self.figure.axes[0]
        out = {c.get_label(): [bar.get_height() for bar in c] for c in ax.containers if hasattr(c, "patches")}
        out["modes"] = [t.get_text() for t in ax.get_xticklabels()]
        return out
