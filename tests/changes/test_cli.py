"""``rail-designer diff``: the table, the JSON, and an exit status a CI pipeline can gate on."""

import json

import pytest

import designer
from designer.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def designs(tmp_path_factory):
    """Saved designs: default, default with one more ... and superpod-su 2 -> 3 SUs with 16 spines."""
    root = tmp_path_factory.mktemp("designs")
    paths = {}
    for name, spec in (("default", designer.spec("default")),
                       ("p2p31", designer.spec("default", scheme="p2p31")),
                       ("su2", designer.spec("superpod-su", sus=2, spines=16)),
                       ("su3", designer.spec("superpod-su", sus=3, spines=16))):
        paths[name] = root / f"{name}.fabric.yaml"
        designer.save(designer.build(spec), paths[name])
    return paths


def test_a_design_against_itself_exits_0_with_the_summary(capsys, designs):
    code, out, err = run(capsys, "diff", designs["default"], designs["default"])
    assert code == 0 and err == ""
    assert out.splitlines()[0].endswith("18 unchanged, 0 added, 0 additive, 0 disruptive")
    assert "no changes" in out


def test_an_additive_change_exits_0_and_1_with_fail_on_any(capsys, designs):
    code, out, _ = run(capsys, "diff", designs["su2"], designs["su3"])
    assert code == 0
    assert "64 unchanged, 40 added, 32 additive, 0 disruptive" in out.splitlines()[0]   # leaves: su3 behind the spines
    assert "additive (32):" in out and "added (40):" in out and "  spine-01 (spine)" in out
    assert "    + destination su3-leaf-r0: (none) -> true" in out
    assert "    + cable Ethernet256: (none) -> su3-leaf-r0/Ethernet256" in out
    code, _, _ = run(capsys, "diff", designs["su2"], designs["su3"], "--fail-on", "any")
    assert code == 1


def test_a_disruptive_change_exits_1_and_the_json_says_why(capsys, designs):
    code, out, _ = run(capsys, "diff", designs["default"], designs["p2p31"], "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert data["disruptive"] and data["kind"] == "design"
    assert {"kind": "setting", "key": "addressing.scheme", "old": "subnet-per-leaf", "new": "p2p31",
            "disruptive": True} in data["fabric"]
    assert all(d["status"] != "unchanged" for d in data["devices"])
    again = run(capsys, "diff", designs["default"], designs["p2p31"], "--format", "json")[1]
    assert again == out                                                      # deterministic


def test_the_table_lists_12_changes_a_device_unless_all(capsys, designs):
    _, out, _ = run(capsys, "diff", designs["su2"], designs["su3"])
    assert "... and 20 more (--all or --format json lists every change)" in out
    _, every, _ = run(capsys, "diff", designs["su2"], designs["su3"], "--all")
    assert "more (--all" not in every
    assert every.count("    + cable ") == 16 * 16 and out.count("    + cable ") == 16 * 12   # 16 cables, 16 addresses


def _one_line_exit_2(capsys, *argv):
    code, out, err = run(capsys, "diff", *argv)
    assert code == 2 and out == "", err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    return err


def test_a_design_and_a_bundle_are_refused(capsys, tmp_path, designs):
    bundle = tmp_path / "bundle"
    designer.export_bundle(designer.load(designs["default"]), bundle, parts=["switches"])
    err = _one_line_exit_2(capsys, designs["default"], bundle)
    assert "cannot compare the design file" in err and "with the bundle folder" in err


def test_a_missing_path_is_refused(capsys, tmp_path, designs):
    err = _one_line_exit_2(capsys, designs["default"], tmp_path / "nowhere.fabric.yaml")
    assert "nowhere.fabric.yaml does not exist" in err


def test_a_malformed_design_is_refused(capsys, tmp_path, designs):
    bad = tmp_path / "bad.fabric.yaml"
    bad.write_text(designs["default"].read_text().replace("role: leaf", "role: [leaf", 1))
    err = _one_line_exit_2(capsys, designs["default"], bad)
    assert "bad.fabric.yaml" in err


def test_an_address_keyed_to_no_device_is_a_design_wide_change(capsys, tmp_path, designs):
    text = designs["default"].read_text()
    line = next(l for l in text.splitlines() if l.startswith("  su1-leaf-r0/svi "))
    ghost = tmp_path / "ghost.fabric.yaml"
    ghost.write_text(text.replace(line + "\n", line + "\n  ghost-1/lo 10.9.9.9/32\n", 1))
    code, out, _ = run(capsys, "diff", designs["default"], ghost)
    assert code == 0 and "1 design-wide change(s)" in out.splitlines()[0]
    assert "    + address ghost-1/lo: (none) -> 10.9.9.9/32" in out
    code, out, _ = run(capsys, "diff", ghost, designs["default"])
    assert code == 1 and "    ! address ghost-1/lo: 10.9.9.9/32 -> (none)" in out


def test_a_loaded_design_and_a_design_file_compare_and_anything_else_is_refused(designs):
    report = designer.diff(designer.load(designs["default"]), designs["p2p31"])
    assert report.kind == "design" and report.old == "old design" and report.new == str(designs["p2p31"])
    with pytest.raises(designer.DesignerError, match="cannot compare a dict"):
        designer.diff({}, designs["default"])
