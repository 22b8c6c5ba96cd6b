"""Tools > Compare with the saved file / a design or bundle, and Tools > Check drift against dumps:
the window runs the same diff and drift check as the command line and marks the devices they name."""

from __future__ import annotations

import subprocess

import designer
from PySide6.QtWidgets import QMessageBox


def _shown(monkeypatch):
    shown = []
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: shown.append(a[2]) or QMessageBox.Ok)
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]) or QMessageBox.Ok)
    return shown


def test_compare_with_the_saved_file_marks_the_devices_an_edit_changed(window, tmp_path, monkeypatch):
    shown = _shown(monkeypatch)
    path = tmp_path / "d.fabric.yaml"
    assert window.document.path is None
    window.comparing.compare_saved()
    assert "has not been saved to a file yet" in window.statusBar().currentMessage() and not shown
    window.document.path = path
    designer.save(window.document.fabric, path)
    window.comparing.compare_saved()
    assert window.marks.compared == {} and not shown                         # nothing changed
    window.edit.add_su()                                                     # one more SU (grow)
    window.comparing.compare_saved()
    marks = window.marks.compared
    assert marks["su3-leaf-r0"] == "info" and marks["spine-01"] == "info"    # new, and additive
    assert "0 disruptive" in window.statusBar().currentMessage() and "su3-leaf-r0" in shown[-1]
    assert window.scene.item_for("su3-leaf-r0").mark == "info"
    window.nav.clear_highlight()
    assert window.marks.compared == {} and window.scene.item_for("su3-leaf-r0").mark is None


def test_compare_with_a_bundle_marks_a_disruptive_change(window, tmp_path, monkeypatch):
    _shown(monkeypatch)
    bundle = tmp_path / "bundle"
    designer.export_bundle(window.document.fabric, bundle)
    fabric = window.document.fabric
    fabric.set_asn("su1-leaf-r0", 4200009999)
    window.comparing.compare_with(str(bundle / "MANIFEST.sha256"))
    assert window.marks.compared.get("su1-leaf-r0") == "error"
    assert "disruptive" in window.statusBar().currentMessage()


def test_check_drift_marks_the_drifted_host_and_the_devices_without_a_dump(window, tmp_path, monkeypatch):
    """The dump is real: the bundle's own rail-dump.sh run on this machine, which has none of the host's
    rules, so the check finds su1-srv01 drifted."""
    shown = _shown(monkeypatch)
    bundle, dumps = tmp_path / "bundle", tmp_path / "dumps"
    designer.export_bundle(window.document.fabric, bundle, parts=["hosts"])
    done = subprocess.run(["bash", str(bundle / "hosts" / "su1-srv01" / "rail-dump.sh"), str(dumps / "su1-srv01")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    window.comparing.check_drift(str(dumps))
    fabric = window.document.fabric
    assert not shown and window.marks.compared["su1-srv01"] == "error"
    assert set(window.marks.compared) == set(fabric.switches) | set(fabric.servers)
    assert {v for k, v in window.marks.compared.items() if k != "su1-srv01"} == {"warning"}   # not checked
    assert "1 device(s) drifted" in window.statusBar().currentMessage()
    (tmp_path / "empty").mkdir()
    window.comparing.check_drift(str(tmp_path / "empty"))
    assert "holds no dump folder" in shown[-1]                               # a readable refusal
