"""Tools > Compare with the saved file, Tools > Compare with a design or bundle… and Tools > Check drift
against device dumps…: the same `diff` and `check_drift` as the command line, with the devices that changed (or drifted)
marked on the canvas (disruptive or drifted as errors, additive or new as notes) and the report's
table in a message. View > Clear highlight and overlays takes the marks off."""

from __future__ import annotations

import tempfile
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

import designer

# A change's or a dump's status -> the look of a finding's mark it borrows.
LOOKS = {"disruptive": "error", "removed": "error", "additive": "info", "added": "info",
         "drift": "error", "partly checked": "warning", "not checked": "warning"}


class ComparisonActions:
    def __init__(self, window):
        self.window = window

    @property
    def fabric(self):
        return self.window.document.fabric

    def compare_saved(self) -> None:
        """The design as edited against its file on disk."""
        path = self.window.document.path
        if path is None or not Path(path).is_file():
            self.window.status("not compared: the design has not been saved to a file yet (File > Save As…)")
            return
        self.compare_with(str(path))

    def compare_with(self, path: str | None = None) -> None:
        """The design as edited against a baseline: a design file or a bundle folder."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.window, "Compare with a design (or pick a bundle's "
                                                  "MANIFEST.sha256)", "", "Designs (*.fabric.yaml);;Bundle manifest "
                                                  "(MANIFEST.sha256);;All files (*)")
            if not path:
                return
        baseline = Path(path).parent if Path(path).name == "MANIFEST.sha256" else Path(path)
        try:
            if baseline.is_dir():
                with tempfile.TemporaryDirectory(prefix="rail-compare-") as folder:
                    designer.export_bundle(self.fabric, Path(folder) / "bundle", force=True)
                    report = designer.diff(baseline, Path(folder) / "bundle")
            else:
                report = designer.diff(baseline, self.fabric)
        except designer.DesignerError as exc:
            QMessageBox.warning(self.window, "Compare", str(exc))
            return
        marked = self._mark((change.device, change.status) for change in report.devices)
        c = report.counts
        self.window.status(f"against {baseline.name}: {c.get('disruptive', 0)} disruptive, {c.get('additive', 0)} "
                           f"additive, {c.get('added', 0)} added, {c.get('removed', 0)} removed; {marked} marked")
        if report.changed:
            from ..changes.table import table
            QMessageBox.information(self.window, f"Changes against {baseline.name}", "\n".join(table(report)))

    def check_drift(self, folder: str | None = None) -> None:
        """What the devices' dumps in ``folder`` run against this design's bundle (rendered for the check)."""
        if folder is None:
            folder = QFileDialog.getExistingDirectory(self.window, "Folder of device dumps (one sub-folder each)")
            if not folder:
                return
        try:
            with tempfile.TemporaryDirectory(prefix="rail-drift-") as tmp:
                designer.export_bundle(self.fabric, Path(tmp) / "bundle", force=True)
                report = designer.check_drift(Path(tmp) / "bundle", folder)
        except designer.DesignerError as exc:
            QMessageBox.warning(self.window, "Check drift", str(exc))
            return
        marked = self._mark((device.device, device.status) for device in report.devices)
        drifted = sum(1 for d in report.devices if d.status == "drift")
        self.window.status(f"drift: {drifted} device(s) drifted, {len(report.findings)} finding(s); {marked} marked"
                           if not report.clean else "drift: every device runs what the bundle says")

    def _mark(self, named) -> int:
        """Mark each (device name, status) pair's device with its status's look; returns how many."""
        looks = {}
        for name, status in named:
            device = self._device_id(name)
            if device is not None and status in LOOKS:
                looks[device] = LOOKS[status]
        return self.window.marks.show_compared(looks)

    def _device_id(self, name: str) -> str | None:
        """A report names devices by id (designs) or host name (bundles, dumps)."""
        f = self.fabric
        if name in f.switches or name in f.servers:
            return name
        return f.hostname_owner(name)
