"""Export bundle: folder, parts, a progress bar and Cancel. The export runs on a worker thread;
the dialog is modal, so the design cannot change under it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal
from PySide6.QtWidgets import (QCheckBox, QDialog, QFileDialog, QGridLayout, QGroupBox, QHBoxLayout, QLabel,
                               QLineEdit, QProgressBar, QPushButton, QVBoxLayout)

from ...api.bundle import bundle_parts


FORCE_TEXT = "Export even when the checks report errors"


def refusal_text(exc: Exception) -> str:
    """Why an export did not happen, in the dialog's own terms (its checkbox, not a CLI flag)."""
    if type(exc).__name__ == "ExportCancelled":
        return "export cancelled; nothing more was written"
    findings = getattr(exc, "findings", None)
    if findings:
        lines = "\n".join(f"  {f.code} {f.message}" for f in findings[:12])
        more = f"\n  ... and {len(findings) - 12} more (see Findings)" if len(findings) > 12 else ""
        return (f"not exported: the design has {len(findings)} error(s). Fix them (Findings lists them), or tick "
                f"'{FORCE_TEXT}' to write the bundle anyway:\n{lines}{more}")
    return f"not exported: {exc}"


class ExportWorker(QObject):
    progress = Signal(int, int, str)
    finished = Signal(object, str)        # (ExportResult or None, message)

    def __init__(self, fabric, outdir: Path, only, force: bool):
        super().__init__()
        self.fabric, self.outdir, self.only, self.force = fabric, outdir, only, force
        self.cancelled = False

    def run(self) -> None:
        try:
            from ...export import export
            result = export(self.fabric, self.outdir, progress=lambda d, t, label: self.progress.emit(d, t, label),
                            only=self.only, force=self.force, cancel=lambda: self.cancelled)
        except Exception as exc:   # ExportError / ExportCancelled / disk errors: all shown, none raised
            self.finished.emit(None, refusal_text(exc))
            return
        message = f"wrote {len(result.files)} files ({result.bytes:,} bytes) to {result.outdir}"
        try:
            from ...qos.check import said_on_export, written_bundle
            message = "\n".join([message, *said_on_export(written_bundle(result.outdir, result.files), result.outdir)])
        except Exception as exc:   # the bundle is written; a check that cannot read it back is said, not raised
            message += f"\nQoS agreement not checked: {exc}"
        self.finished.emit(result, message)


class ExportDialog(QDialog):
    def __init__(self, fabric, folder: Path | None = None, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Export bundle")
        self.fabric = fabric
        self.result = None
        self.thread: QThread | None = None
        self.worker: ExportWorker | None = None
        self.folder = QLineEdit(str(folder or Path.cwd() / f"{fabric.settings.name or 'untitled'}-bundle"))
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.folder, 1)
        row.addWidget(browse)
        self.parts: dict[str, QCheckBox] = {}
        box = QGroupBox("Parts")
        grid = QGridLayout(box)
        known = [p for p in bundle_parts() if fabric.settings.fabric_kind in p.kinds]   # the design's kind's parts
        for part in known:                 # the default parts ticked, then the optional ones unticked
            check = self.parts[part.name] = QCheckBox(part.name if part.default else f"{part.name} (optional)")
            check.setToolTip(part.description)
            check.setChecked(part.default)
        for i, part in enumerate(sorted(known, key=lambda p: not p.default)):
            grid.addWidget(self.parts[part.name], i // 3, i % 3)
        if not self.parts:
            grid.addWidget(QLabel("every part"), 0, 0)
        self.force = QCheckBox(FORCE_TEXT)
        self.bar = QProgressBar()
        self.label = QLabel("")
        self.label.setWordWrap(True)
        self.start_button = QPushButton("Export")
        self.start_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("Close")
        self.cancel_button.clicked.connect(self._cancel_or_close)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Folder"))
        layout.addLayout(row)
        layout.addWidget(box)
        layout.addWidget(self.force)
        layout.addWidget(self.bar)
        layout.addWidget(self.label)
        layout.addLayout(buttons)
        self.resize(560, 300)

    def _browse(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, "Export into folder", self.folder.text())
        if chosen:
            self.folder.setText(chosen)

    def running(self) -> bool:
        return self.thread is not None

    def start(self) -> None:
        if self.running():
            return
        only = [n for n, c in self.parts.items() if c.isChecked()] if self.parts else None
        if self.parts and not only:
            self.label.setText("choose at least one part")
            return
        self.result = None
        self.bar.setValue(0)
        self.label.setText("exporting…")
        self.start_button.setEnabled(False)
        self.cancel_button.setText("Cancel")
        self.thread = QThread(self)
        self.worker = ExportWorker(self.fabric, Path(self.folder.text()).expanduser(), only, self.force.isChecked())
        self.worker.moveToThread(self.thread)
        self.thread.started.connect(self.worker.run)
        self.worker.progress.connect(self._progress)
        self.worker.finished.connect(self._finished)
        self.thread.start()

    def _progress(self, done: int, total: int, label: str) -> None:
        self.bar.setMaximum(max(total, 1))
        self.bar.setValue(done)
        self.label.setText(label)

    def _finished(self, result, message: str) -> None:
        self.result = result
        self.thread.quit()
        self.thread.wait()
        self.thread = self.worker = None
        if result is not None:
            self.bar.setValue(self.bar.maximum())
        self.label.setText(message)
        self.start_button.setEnabled(True)
        self.cancel_button.setText("Close")

    def _cancel_or_close(self) -> None:
        if self.running():
            self.worker.cancelled = True
            self.label.setText("cancelling…")
        else:
            self.accept()

    def reject(self) -> None:
        if self.running():
            self._cancel_or_close()
            return
        super().reject()
