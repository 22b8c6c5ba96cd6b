"""File > Push to source of truth… and Pull from source of truth…: the server, the token file, and the dry
run's changes (push) or the design diff (pull) shown before anything is written. The server is talked to
on a worker thread; the dialog is modal, so the design cannot change under it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal
from PySide6.QtWidgets import (QComboBox, QDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit,
                               QPushButton, QVBoxLayout)


class SotWorker(QObject):
    finished = Signal(object, str)          # (result or None, text to show)

    def __init__(self, job):
        super().__init__()
        self.job = job

    def run(self) -> None:
        try:
            result, text = self.job()
        except Exception as exc:   # DesignerError from the server or the design: shown, never raised
            self.finished.emit(None, str(exc))
            return
        self.finished.emit(result, text)


class _SotDialog(QDialog):
    action_text = ""

    def __init__(self, title: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.url = QLineEdit("http://127.0.0.1:8080")
        self.token_file = QLineEdit(str(Path.home() / ".nautobot-token"))
        self.kind = QComboBox()
        self.kind.addItems(["nautobot", "netbox"])
        self.form = QFormLayout()
        self.form.addRow("Server URL", self.url)
        self.form.addRow("Token file", self.token_file)
        self.form.addRow("Kind", self.kind)
        self.output = QPlainTextEdit()
        self.output.setReadOnly(True)
        self.status = QLabel("")
        self.preview_button = QPushButton("Preview")
        self.action_button = QPushButton(self.action_text)
        self.action_button.setEnabled(False)              # only after a preview of exactly this
        buttons = QHBoxLayout()
        for b in (self.preview_button, self.action_button):
            buttons.addWidget(b)
        close = QPushButton("Close")
        close.clicked.connect(self.reject)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.output)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        self.resize(720, 480)
        self.preview_button.clicked.connect(self.preview)
        self.action_button.clicked.connect(self.act)
        for field in (self.url, self.token_file):
            field.textChanged.connect(lambda _t: self.action_button.setEnabled(False))
        self.kind.currentIndexChanged.connect(lambda _i: self.action_button.setEnabled(False))
        self._thread = None
        self.result = None

    def token(self) -> str:
        try:
            text = Path(self.token_file.text()).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ValueError(f"cannot read the token file {self.token_file.text()}: {exc.strerror}") from None
        if not text or any(c.isspace() for c in text):
            raise ValueError(f"the token file {self.token_file.text()} should hold one token on one line")
        return text

    def _start(self, job, done) -> None:
        self.preview_button.setEnabled(False)
        self.action_button.setEnabled(False)
        self.status.setText("talking to the server…")
        self._thread = QThread(self)
        self._worker = SotWorker(job)
        self._worker.moveToThread(self._thread)
        self._thread.started.connect(self._worker.run)
        self._worker.finished.connect(lambda result, text: self._finished(result, text, done))
        self._thread.start()

    def _finished(self, result, text: str, done) -> None:
        self._thread.quit()
        self._thread.wait()
        self.preview_button.setEnabled(True)
        self.output.setPlainText(text)
        done(result)

    def busy(self) -> bool:
        return self._thread is not None and self._thread.isRunning()


class SotPushDialog(_SotDialog):
    """Preview runs the push as a dry run and lists its changes; Push writes exactly that design."""
    action_text = "Push"

    def __init__(self, fabric, parent=None):
        super().__init__("Push to source of truth", parent)
        self.fabric = fabric

    def _job(self, dry_run: bool):
        import designer
        url, token, kind = self.url.text().strip(), self.token(), self.kind.currentText()

        def job():
            result = designer.sot_push(self.fabric, url, token, kind=kind, dry_run=dry_run)
            lines = [c.line() for c in result.changes]
            head = f"dry run: {result.summary}, nothing written" if dry_run else f"pushed: {result.summary}"
            return result, "\n".join([head, *lines])
        return job

    def preview(self) -> None:
        self._run(True)

    def act(self) -> None:
        self._run(False)

    def _run(self, dry_run: bool) -> None:
        try:
            job = self._job(dry_run)
        except ValueError as exc:
            self.output.setPlainText(str(exc))
            return

        def done(result):
            self.result = result
            if result is None:
                self.status.setText("refused: nothing written")
            elif dry_run:
                self.status.setText(f"preview: {result.summary}")
                self.action_button.setEnabled(bool(result.changes))
            else:
                self.status.setText(f"written: {result.summary}")
        self._start(job, done)


class SotPullDialog(_SotDialog):
    """Preview pulls the design and shows its diff against the open one; Save writes the pulled design."""
    action_text = "Save pulled design"

    def __init__(self, fabric, output: Path, parent=None):
        super().__init__("Pull from source of truth", parent)
        self.fabric = fabric
        self.site = QLineEdit(fabric.settings.name)
        self.path = QLineEdit(str(output))
        self.form.addRow("Site", self.site)
        self.form.addRow("Save as", self.path)
        self.pulled = None

    def preview(self) -> None:
        import designer
        from ...changes.table import table
        try:
            url, token, kind, site = self.url.text().strip(), self.token(), self.kind.currentText(), self.site.text()
        except ValueError as exc:
            self.output.setPlainText(str(exc))
            return

        def job():
            pulled = designer.sot_pull(url, token, site=site or None, kind=kind)
            report = designer.diff(self.fabric, pulled)
            text = "\n".join(table(report)) if report.changed else "the source of truth holds exactly this design"
            return pulled, text

        def done(pulled):
            self.pulled = pulled
            self.status.setText("refused: nothing written" if pulled is None else "preview: the diff above")
            self.action_button.setEnabled(pulled is not None)
        self._start(job, done)

    def act(self) -> None:
        import designer
        try:
            designer.save(self.pulled, self.path.text())
        except Exception as exc:   # a DesignerError (a file that cannot be written): shown
            self.status.setText(f"not saved: {exc}")
            return
        self.status.setText(f"saved {self.path.text()}")
