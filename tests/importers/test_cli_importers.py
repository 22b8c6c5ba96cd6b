"""import-topo, apply-nics and verify through designer.cli.main, on real files."""

import csv
import io
import json
from pathlib import Path

from designer.cli import main
from designer.storage import load
from designer.storage.catalog_file import catalog_with, load_catalog_file

from .lldpgen import dumps_for

DATA = Path(__file__).parent.parent / "data" / "importers"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_import_topo_adds_then_replaces_a_model_and_keeps_others(tmp_path, capsys):
    cat = tmp_path / "cfg" / "catalog.yaml"
    code, out, _ = run(capsys, "import-topo", DATA / "topo-dgx-h100-tabs-ansi.txt", "--name", "dgx-h100",
                       "--catalog", cat)
    assert code == 0 and "8 rail NICs at 400G" in out and "left out mlx5_7" in out and "added dgx-h100" in out
    code, out, _ = run(capsys, "import-topo", DATA / "topo-8gpu-4nic-spaces-prompt.txt", "--name", "node4",
                       "--speed", "200", "--catalog", cat, "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["rails"][1] == {"rail": 1, "gpus": [2, 3], "nic": "NIC1", "rdma": "mlx5_1",
                                             "link": "PXB"}
    assert doc["left_out"] == [] and doc["replaced"] is False
    code, out, _ = run(capsys, "import-topo", DATA / "topo-old-mlx5-columns.txt", "--name", "dgx-h100",
                       "--catalog", cat)
    assert "replaced dgx-h100" in out
    catalog = load_catalog_file(cat)
    assert sorted(catalog.servers) == ["dgx-h100", "node4"] and catalog.servers["dgx-h100"].gpus == 4
    assert catalog.servers["node4"].nics[0].speed == 200
    assert "dgx-h100" in catalog_with([cat]).servers      # usable next to the bundled models


def test_import_topo_bad_input_names_the_line_and_writes_nothing(tmp_path, capsys):
    cat = tmp_path / "catalog.yaml"
    code, _, err = run(capsys, "import-topo", DATA / "topo-bad-cell.txt", "--catalog", cat)
    assert code == 2 and "topo-bad-cell.txt:3" in err and "PCI" in err and "Traceback" not in err
    assert not cat.exists()


def test_apply_nics_renames_and_saves(tmp_path, capsys):
    design = tmp_path / "d.fabric.yaml"
    run(capsys, "new", "-o", design)
    code, out, _ = run(capsys, "apply-nics", design, "--model", "gpu-4x400g",
                       DATA / "ibdev2netdev-column-t.txt")
    assert code == 0 and "32 NIC(s) renamed on 8 server(s)" in out and "mlx5_bond_0" in out
    assert load(design).nic("su2-srv03/nic1").netdev == "ibp60s0"
    code, out, _ = run(capsys, "apply-nics", design, "--server", "su1-srv01", DATA / "show-gids.txt")
    assert code == 0 and "4 NIC(s) renamed on 1 server(s)" in out and "GID index of the rail NICs: 3" in out
    assert load(design).nic("su1-srv01/nic1").netdev == "ens2np0"
    code, _, err = run(capsys, "apply-nics", design, "--server", "nope", DATA / "show-gids.txt")
    assert code == 2 and "no server 'nope'" in err


def test_verify_clean_then_swapped_with_csv(tmp_path, capsys):
    design, lldp = tmp_path / "d.fabric.yaml", tmp_path / "lldp"
    run(capsys, "new", "-o", design)
    fabric = load(design)
    lldp.mkdir()
    cables = [(l.a, l.b) for l in fabric.sorted_links()]
    for name, text in dumps_for(fabric, cables).items():
        (lldp / name).write_text(text)
    code, out, _ = run(capsys, "verify", design, "--lldp", lldp)
    assert code == 0 and f"{len(cables)} cable(s) as planned, 0 mismatch(es)" in out

    fabric.disconnect(fabric.link_at("su1-srv01/nic0").id)
    fabric.disconnect(fabric.link_at("su1-srv02/nic0").id)
    fabric.connect("su1-srv01/nic0", "su1-leaf-r0/Ethernet8")
    fabric.connect("su1-srv02/nic0", "su1-leaf-r0/Ethernet0")
    for name, text in dumps_for(fabric, [(l.a, l.b) for l in fabric.sorted_links()]).items():
        (lldp / name).write_text(text)           # the network as built; the design file is unchanged
    code, out, _ = run(capsys, "verify", design, "--lldp", lldp)
    assert code == 1 and "MISWIRED (2)" in out and "WORK ORDER (2 steps)" in out
    code, out, _ = run(capsys, "verify", design, "--lldp", lldp, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 1 and [r["record"] for r in rows] == ["mismatch", "mismatch", "step 1", "step 2"]
    assert {(r["end_a"], r["end_b"]) for r in rows[:2]} == {
        ("su1-leaf-r0/Ethernet0", "su1-srv02/nic0"), ("su1-leaf-r0/Ethernet8", "su1-srv01/nic0")}
    code, _, err = run(capsys, "verify", design, "--lldp", tmp_path / "none")
    assert code == 2 and "is not a folder" in err
