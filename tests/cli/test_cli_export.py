"""The export and show commands."""

from designer.cli import main
from designer.storage import load, save


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _design(tmp_path, capsys):
    path = tmp_path / "d.fabric.yaml"
    run(capsys, "new", "-o", str(path))
    return path


def test_export_writes_the_bundle(tmp_path, capsys):
    path = _design(tmp_path, capsys)
    code, out, err = run(capsys, "export", str(path), "-o", str(tmp_path / "bundle"))
    files = sum(1 for p in (tmp_path / "bundle").rglob("*") if p.is_file())
    assert code == 0 and f"wrote {files} files" in out and err == ""
    assert (tmp_path / "bundle" / "switches" / "su1-leaf-r0" / "config_db.json").is_file()


def test_export_with_adds_optional_parts_and_help_lists_them(tmp_path, capsys):
    path = _design(tmp_path, capsys)
    code, out, err = run(capsys, "export", str(path), "-o", str(tmp_path / "bundle"), "--with", "aid-yaml, aid-csv")
    assert code == 0 and err == ""
    aid = sorted(p.name for p in (tmp_path / "bundle" / "aid").iterdir())
    assert aid == ["aid.schema.json", "devices.csv", "fabric.aid.json", "fabric.aid.xlsx", "fabric.aid.yaml",
                   "interfaces.csv", "ip-plan.csv", "links.csv"]
    assert (tmp_path / "bundle" / "switches" / "su1-leaf-r0" / "config_db.json").is_file()
    code, _, err = run(capsys, "export", str(path), "-o", str(tmp_path / "other"), "--with", "aid-xml")
    assert code == 2 and "unknown part(s) aid-xml; parts: aid, aid-csv, aid-yaml" in err
    try:
        main(["export", "--help"])
    except SystemExit as done:
        assert done.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--with PARTS" in text and "parts written by default: switches, " in text
    assert "Optional parts, written only when --with or --only names them: aid-yaml: the AID as YAML" in text
    assert "; aid-csv: the AID's four sheets as CSV" in text


def test_export_refuses_errors_then_force_writes(tmp_path, capsys):
    path = _design(tmp_path, capsys)
    fabric = load(path)
    fabric.move_nic("su1-srv03/nic1", "su1-leaf-r2")
    save(fabric, path)
    code, _, err = run(capsys, "export", str(path), "-o", str(tmp_path / "bundle"))
    assert code == 1 and "RD004" in err and "--force" in err and not (tmp_path / "bundle").exists()
    code, _, _ = run(capsys, "export", str(path), "-o", str(tmp_path / "bundle"), "--force")
    assert code == 0


def test_export_into_a_foreign_folder_is_refused(tmp_path, capsys):
    path = _design(tmp_path, capsys)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.txt").write_text("mine")
    code, _, err = run(capsys, "export", str(path), "-o", str(tmp_path / "docs"))
    assert code == 2 and "not a rail-designer bundle" in err


def test_show_prints_one_file_of_one_device(tmp_path, capsys):
    path = _design(tmp_path, capsys)
    code, out, _ = run(capsys, "show", str(path), "su1-leaf-r0", "--part", "frr")
    assert code == 0 and "router bgp" in out and "pbr-map" not in out and "# ----" not in out


def test_show_without_part_prints_every_file_with_a_header(tmp_path, capsys):
    path = _design(tmp_path, capsys)
    code, out, _ = run(capsys, "show", str(path), "su1-srv01")
    assert code == 0 and "# ---- hosts/su1-srv01/netplan.yaml" in out and "# ---- hosts/su1-srv01/nccl.env" in out


def test_show_unknown_device_or_part(tmp_path, capsys):
    path = _design(tmp_path, capsys)
    code, _, err = run(capsys, "show", str(path), "nope")
    assert code == 2 and "no device named 'nope'" in err
    code, _, err = run(capsys, "show", str(path), "su1-srv01", "--part", "frr")
    assert code == 2 and "it has: nccl, netplan, policy-routing, rail-dump, roce-qos, sysctl" in err
