"""The bundle writer: all parts, atomic replacement, cancellation, refusal, progress, determinism."""

import hashlib
from dataclasses import replace
from pathlib import Path

import pytest

from designer.export import ExportCancelled, ExportError, ExportRefused, export, preview
from designer.export.bundle import MANIFEST
from designer.export.registry import parts
from tests.conftest import preset_fabric


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_bundle_has_every_part_and_a_manifest_that_checks(tmp_path, default_fabric):
    result = export(default_fabric, tmp_path / "b")
    files = _tree(tmp_path / "b")
    for expected in ("aid/fabric.aid.json", "aid/fabric.aid.xlsx", "switches/su1-leaf-r0/config_db.json",
                     "switches/spine-01/frr.conf", "hosts/su1-srv01/netplan.yaml", "hosts/su1-srv01/policy-routing.sh",
                     "cabling.csv", "topology.dot", "ppd/su1-leaf-r0.csv", "ansible/site.yml",
                     "monitoring/prometheus-targets.json", "README.txt", MANIFEST):
        assert expected in files, expected
    assert sorted(files) == result.files and result.bytes == sum(len(b) for b in files.values())
    lines = files[MANIFEST].decode().splitlines()
    assert len(lines) == len(files) - 1
    for line in lines:
        digest, rel = line.split("  ", 1)
        assert hashlib.sha256(files[rel]).hexdigest() == digest
    assert (tmp_path / "b" / "hosts/su1-srv01/policy-routing.sh").stat().st_mode & 0o111


def test_same_design_exports_byte_identical_bundles(tmp_path):
    export(preset_fabric("rail-optimized-64x4"), tmp_path / "one")
    export(preset_fabric("rail-optimized-64x4"), tmp_path / "two")
    assert _tree(tmp_path / "one") == _tree(tmp_path / "two")


def test_forked_workers_write_the_same_bundle(tmp_path):
    fabric = preset_fabric("default")
    export(fabric, tmp_path / "serial")
    export(fabric, tmp_path / "parallel", workers=2)
    assert _tree(tmp_path / "serial") == _tree(tmp_path / "parallel")


def test_cancel_leaves_the_previous_bundle_untouched(tmp_path, default_fabric):
    target = tmp_path / "b"
    export(default_fabric, target)
    before = _tree(target)
    default_fabric.set_hostname("su1-srv01", "renamed")
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 3
    with pytest.raises(ExportCancelled):
        export(default_fabric, target, cancel=cancel)
    assert _tree(target) == before
    assert [p.name for p in tmp_path.iterdir()] == ["b"]          # no temporary folder left behind


def test_an_error_midway_leaves_nothing_when_there_was_no_bundle(tmp_path, default_fabric, monkeypatch):
    def broken(fabric, device):
        raise ExportError(f"cannot export {device}: test failure")
    real = parts()
    monkeypatch.setattr("designer.export.bundle.parts",
                        lambda: [replace(p, render_device=broken) if p.name == "hosts" else p for p in real])
    with pytest.raises(ExportError, match="cannot export su1-srv01: test failure"):
        export(default_fabric, tmp_path / "b")
    assert list(tmp_path.iterdir()) == []


def test_design_with_errors_is_refused_unless_forced(tmp_path, default_fabric):
    default_fabric.move_nic("su1-srv01/nic0", "su1-leaf-r1")
    with pytest.raises(ExportRefused, match="RD004 su1-srv01/nic0"):
        export(default_fabric, tmp_path / "b")
    assert not (tmp_path / "b").exists()
    export(default_fabric, tmp_path / "b", force=True)
    assert (tmp_path / "b" / MANIFEST).is_file()


def test_a_folder_that_is_not_a_bundle_is_never_replaced(tmp_path, default_fabric):
    precious = tmp_path / "home"
    precious.mkdir()
    (precious / "thesis.txt").write_text("years of work")
    with pytest.raises(ExportError, match="not a rail-designer bundle"):
        export(default_fabric, precious)
    assert (precious / "thesis.txt").read_text() == "years of work"


def test_progress_is_reported_per_device(tmp_path, default_fabric):
    seen = []
    export(default_fabric, tmp_path / "b", progress=lambda done, total, label: seen.append((done, total, label)))
    devices = len(default_fabric.servers) + len(default_fabric.switches)
    assert seen[-1][0] == seen[-1][1] >= devices
    assert any("hosts: su1-srv01" in label for _, _, label in seen)
    assert [d for d, _, _ in seen] == sorted(d for d, _, _ in seen)


def test_only_writes_the_chosen_parts(tmp_path, default_fabric):
    export(default_fabric, tmp_path / "b", only=["cabling", "hosts"])
    top = sorted(p.name for p in (tmp_path / "b").iterdir())
    assert top == ["MANIFEST.sha256", "README.txt", "cabling.csv", "hosts", "topology.dot"]
    with pytest.raises(ExportError, match="unknown part"):
        export(default_fabric, tmp_path / "c", only=["nonsense"])


AID_CSV = ["aid/devices.csv", "aid/interfaces.csv", "aid/ip-plan.csv", "aid/links.csv"]


def test_optional_parts_are_written_only_when_named(tmp_path, default_fabric):
    optional = [p.name for p in parts() if not p.default]
    assert optional == ["aid-yaml", "aid-csv", "ipoib", "scheduler", "sim"]
    optional = [p.name for p in parts() if not p.default and "ethernet" in p.kinds]     # ipoib is InfiniBand's
    plain = export(default_fabric, tmp_path / "plain")
    assert "aid/fabric.aid.json" in plain.files and "aid/fabric.aid.xlsx" in plain.files
    assert not [f for f in plain.files if f == "aid/fabric.aid.yaml" or f in AID_CSV]
    readme = (tmp_path / "plain" / "README.txt").read_text()
    left_out = readme.split("Optional parts not in this bundle", 1)[1]
    assert "--with NAME" in left_out and "aid-yaml" in left_out and "aid-csv" in left_out
    more = export(default_fabric, tmp_path / "more", extra=["aid-csv"])
    assert sorted(set(more.files) - set(plain.files)) == AID_CSV
    readme = (tmp_path / "more" / "README.txt").read_text()
    assert "  aid-csv " in readme.split("Optional parts not in this bundle", 1)[0]
    assert "aid-csv" not in readme.split("Optional parts not in this bundle", 1)[1]
    alone = export(default_fabric, tmp_path / "alone", only=["aid-yaml"])
    assert [f for f in alone.files if f not in ("README.txt", MANIFEST)] == ["aid/fabric.aid.yaml"]
    everything = export(default_fabric, tmp_path / "all", extra=optional)
    assert "Optional parts not in this bundle" not in (tmp_path / "all" / "README.txt").read_text()
    assert set(everything.files) == set(plain.files) | set(AID_CSV) | {"aid/fabric.aid.yaml"} | {
        "scheduler/topology.conf", "scheduler/node-labels.yaml", "scheduler/label-nodes.sh",
        "sim/simai-topology.txt", "sim/simai-nodes.csv", "sim/astra-sim-network.yml", "sim/README.txt"}
    with pytest.raises(ExportError, match="unknown part.*aid-xml.*parts: aid, aid-csv, aid-yaml"):
        export(default_fabric, tmp_path / "c", extra=["aid-xml"])


def test_preview_is_the_bundle_content_of_one_device(tmp_path, default_fabric):
    export(default_fabric, tmp_path / "b")
    shown = preview(default_fabric, "su1-leaf-r0")
    assert "switches/su1-leaf-r0/frr.conf" in shown
    for rel, text in shown.items():
        assert (tmp_path / "b" / rel).read_text() == text


@pytest.mark.parametrize("bad", ["../x", "/etc/passwd", "hosts/../../x", "hosts/a;b/f", "hosts/a b/f", ".hidden"])
def test_a_path_that_could_leave_the_bundle_is_refused_and_nothing_is_written(bad, tmp_path, default_fabric,
                                                                            monkeypatch):
    real = parts()
    evil = replace(real[0], render_global=lambda fabric: {bad: "x"})
    monkeypatch.setattr("designer.export.bundle.parts", lambda: [evil] + real[1:])
    with pytest.raises(ExportError, match="refusing to write"):
        export(default_fabric, tmp_path / "b")
    assert list(tmp_path.iterdir()) == []
