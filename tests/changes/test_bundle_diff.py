"""The bundle diff: device folders through MANIFEST.sha256, files judged by content, a bundle that no
longer matches its manifest refused (issue 17)."""

import hashlib

import pytest

import designer
from designer.changes.errors import ChangeInputError
from designer.cli import main

SMALL = ["switches", "hosts"]


def _export(fabric, folder, parts=None):
    designer.export_bundle(fabric, folder, parts=parts)
    return folder


@pytest.fixture(scope="module")
def default_bundle(tmp_path_factory):
    return _export(designer.build(designer.spec("default")), tmp_path_factory.mktemp("b") / "default")


@pytest.fixture(scope="module")
def superpod_bundles(tmp_path_factory):
    """superpod-su at 2 and 3 SUs (switches and hosts only), with 16 spines pinned and without."""
    root = tmp_path_factory.mktemp("superpod")
    out = {}
    for label, more in (("pinned", {"spines": 16}), ("free", {})):
        out[label] = tuple(_export(designer.build(designer.spec("superpod-su", sus=sus, **more)),
                                   root / f"{label}{sus}", SMALL) for sus in (2, 3))
    return out


def test_a_bundle_against_itself_is_all_unchanged(default_bundle, capsys):
    report = designer.diff(default_bundle, default_bundle)
    assert report.kind == "bundle" and not report.changed and not report.disruptive
    assert report.counts["unchanged"] == 8 + 8 + 2        # every switch and host folder
    assert main(["diff", str(default_bundle), str(default_bundle), "--fail-on", "any"]) == 0
    assert "18 unchanged, 0 added, 0 additive, 0 disruptive" in capsys.readouterr().out


def test_one_more_su_with_pinned_spines_gives_additive_spines_and_untouched_leaves(superpod_bundles):
    old, new = superpod_bundles["pinned"]
    report = designer.diff(old, new)
    leaves = [report.device(f"su{s}-leaf-r{r}") for s in (1, 2) for r in range(8)]
    assert all(d.status in ("unchanged", "additive") for d in leaves)
    assert all(report.device(f"spine-{n:02d}").status == "additive" for n in range(1, 17))
    assert all(report.device(f"su{s}-srv{n:02d}").status == "unchanged" for s in (1, 2) for n in range(1, 33))
    assert report.counts["added"] == 40 and report.counts["disruptive"] == 0 and not report.disruptive
    spine = report.device("spine-01").changes
    files = {c.key.split(":")[0] for c in spine}
    assert files == {"config_db.json", "frr.conf"}
    assert any(c.key == "config_db.json: PORT > Ethernet256 > admin_status" and (c.old, c.new) == ("down", "up")
               for c in spine)                           # a shut port brought up: a gain
    assert any(c.key == "frr.conf" and "interface Ethernet256" in c.new for c in spine)


def test_one_more_su_without_pinned_spines_is_disruptive_on_the_old_leaves(superpod_bundles, capsys):
    assert main(["diff", *map(str, superpod_bundles["free"])]) == 1
    assert main(["diff", *map(str, superpod_bundles["pinned"])]) == 0
    capsys.readouterr()
    report = designer.diff(*superpod_bundles["free"])
    assert report.disruptive
    leaf = report.device("su1-leaf-r0")
    assert leaf.status == "disruptive"
    gone = [c for c in leaf.changes if c.disruptive]
    assert any("LOOPBACK_INTERFACE > Loopback0|10.255.0.8/32" in c.key for c in gone)


def test_a_removed_file_is_disruptive_and_an_added_one_additive(tmp_path, default_bundle):
    old = _export(designer.build(designer.spec("default")), tmp_path / "old", ["switches", "ppd"])
    new = _export(designer.build(designer.spec("default")), tmp_path / "new", ["switches"])
    report = designer.diff(old, new)
    leaf = report.device("su1-leaf-r0")
    assert leaf.status == "disruptive"
    assert {(c.kind, c.key, c.new) for c in leaf.changes} == {("file", "ppd-pins.json", None),
                                                              ("file", "ppd/su1-leaf-r0.csv", None)}
    back = designer.diff(new, old)
    assert back.device("su1-leaf-r0").status == "additive" and not back.disruptive
    assert {c.key for c in back.fabric} == {"README.txt", "ppd/rail-ppd-agent.py"}


def test_a_file_changed_after_the_export_is_refused_not_compared(tmp_path):
    fabric = designer.build(designer.spec("default"))
    old = _export(fabric, tmp_path / "old", SMALL)
    fabric.set_asn("su1-leaf-r0", 4200000999)
    new = _export(fabric, tmp_path / "new", SMALL)
    assert designer.diff(old, new).device("su1-leaf-r0").status == "disruptive"
    path = new / "switches" / "su1-leaf-r0" / "frr.conf"
    path.write_text(path.read_text() + "! edited\n")
    with pytest.raises(ChangeInputError, match="frr.conf does not match its line in .*MANIFEST.sha256"):
        designer.diff(old, new)


def test_a_bundle_without_a_usable_manifest_is_refused(tmp_path, default_bundle):
    (tmp_path / "empty").mkdir()
    with pytest.raises(ChangeInputError, match="is not a rail-designer bundle: it has no MANIFEST.sha256"):
        designer.diff(default_bundle, tmp_path / "empty")
    bad = tmp_path / "bad"
    bad.mkdir()
    digest = hashlib.sha256(b"x").hexdigest()
    (bad / "MANIFEST.sha256").write_text(f"{digest}  README.txt\n{digest}  ../etc/passwd\n")
    with pytest.raises(ChangeInputError, match=r"MANIFEST.sha256, line 2: '.*etc/passwd' is not"):
        designer.diff(default_bundle, bad)


def _rewrite(bundle, rel, change):
    """Change one file of a bundle the way another export would: the file and its manifest line."""
    path = bundle / rel
    old_digest = hashlib.sha256(path.read_bytes()).hexdigest()
    path.write_text(change(path.read_text()))
    manifest = bundle / "MANIFEST.sha256"
    new_digest = hashlib.sha256(path.read_bytes()).hexdigest()
    manifest.write_text(manifest.read_text().replace(f"{old_digest}  {rel}\n", f"{new_digest}  {rel}\n"))


def test_a_changed_qos_map_is_disruptive_on_its_switch(tmp_path):
    fabric = designer.build(designer.spec("default"))
    old, new = _export(fabric, tmp_path / "old", SMALL), _export(fabric, tmp_path / "new", SMALL)
    _rewrite(new, "switches/su2-leaf-r3/config_db.json", lambda text: text.replace('"26": "3"', '"26": "4"', 1))
    report = designer.diff(old, new)
    assert [d.device for d in report.changed_devices()] == ["su2-leaf-r3"]
    assert [(c.key, c.old, c.new, c.disruptive) for c in report.device("su2-leaf-r3").changes] == \
        [("config_db.json: DSCP_TO_TC_MAP > ROCE > 26", "3", "4", True)]


def test_a_port_brought_into_use_is_additive_and_one_taken_out_of_use_disruptive(tmp_path):
    fabric = designer.build(designer.spec("default"))
    old = _export(fabric, tmp_path / "old", SMALL)
    fabric.disconnect(fabric.link_at("su1-leaf-r0/Ethernet24").id)
    new = _export(fabric, tmp_path / "new", SMALL)
    shut = designer.diff(old, new).device("su1-leaf-r0")
    assert shut.status == "disruptive"
    assert ("config_db.json: PORT > Ethernet24 > admin_status", "up", "down", True) in \
        [(c.key, c.old, c.new, c.disruptive) for c in shut.changes]
    back = designer.diff(new, old)
    assert back.device("su1-leaf-r0").status == "additive"
    notes = [c for c in back.device("su1-leaf-r0").changes if c.key == "NOTES.txt"]
    assert notes and not notes[0].disruptive and notes[0].new == ["  4 downlinks on 4 uplinks, 1:1. Destinations local to this leaf"]
    hca = back.device("su1-srv04").changes                    # NCCL_IB_HCA names one more rail: a value changed
    assert [c.key for c in hca if c.disruptive] == ["nccl.env"] and len(hca) > 1    # the rest only adds
