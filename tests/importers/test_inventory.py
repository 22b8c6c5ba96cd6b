"""apply-inventory: host names, racks, switch models and NIC names from a CSV, all rows or none (issue 21)."""

from __future__ import annotations

import pytest

import designer
from designer.cli import main
from designer.importers.errors import ImportFormatError
from designer.storage.design_file import dumps


def csv(tmp_path, text: str):
    path = tmp_path / "inventory.csv"
    path.write_text(text)
    return path


def test_every_column_is_applied_and_saved(tmp_path):
    fabric = designer.build(designer.spec("default", floor="none"))     # without a floor a rack is any name
    inventory = csv(tmp_path, "device,hostname,rack,position,model,nic,netdev,rdma\n"
                              "su1-srv01,gpu-a01,R12,7,,,,\n"
                              "gpu-a01,,,,,nic2,ens9f0np0,mlx5_9\n"       # by its new host name
                              "su1-leaf-r0,,,,asterfusion-cx732q-n,,,\n"   # the same model: nothing to change
                              "spine-01,core-sw-1,,,,,,\n")
    result = designer.apply_inventory(fabric, inventory)
    assert (result.rows, result.hostnames, result.places, result.models, result.nic_names) == (4, 2, 1, 0, 1)
    server = fabric.servers["su1-srv01"]
    assert (server.hostname, server.rack, server.position) == ("gpu-a01", "R12", 7)
    assert (fabric.nic("su1-srv01/nic2").netdev, fabric.nic("su1-srv01/nic2").rdma) == ("ens9f0np0", "mlx5_9")
    assert fabric.switches["spine-01"].hostname == "core-sw-1"
    designer.save(fabric, tmp_path / "d.fabric.yaml")
    again = designer.load(tmp_path / "d.fabric.yaml")
    assert dumps(again) == dumps(fabric)


@pytest.mark.parametrize("rows, said", [
    ("su1-srv01,gpu-a01\nnobody,x\n", "inventory.csv:3: the design has no device named 'nobody'"),
    ("su1-srv01,gpu-a01\nsu1-srv02,gpu-a01\n", "inventory.csv:3: host name 'gpu-a01' is already used"),
    ("su1-srv01,bad_name!\n", "inventory.csv:2: 'bad_name!' is not a valid host name"),
    ("su1-srv01,gpu-a01,extra\n", "more cells than the header names"),
])
def test_a_refused_row_names_its_line_and_the_design_is_unchanged(tmp_path, rows, said):
    fabric = designer.build(designer.spec("default"))
    before = dumps(fabric)
    with pytest.raises(ImportFormatError, match=said):
        designer.apply_inventory(fabric, csv(tmp_path, "device,hostname\n" + rows))
    assert dumps(fabric) == before


def test_a_switch_model_without_the_cabled_ports_or_breakouts_is_refused(tmp_path):
    fabric = designer.build(designer.spec("superpod-su", servers_per_su=4))       # uplinks on cages 33-64
    before = dumps(fabric)
    with pytest.raises(ImportFormatError, match="asterfusion-cx732q-n has no port for the cables of su1-leaf-r0 "
                                                r"on Ethernet480 \(400G\)"):
        designer.apply_inventory(fabric, csv(tmp_path, "device,model\nsu1-leaf-r0,asterfusion-cx732q-n\n"))
    split = designer.build(designer.spec("rail-optimized-64x4", servers_per_su=8))   # server ports 2 x 400G
    with pytest.raises(ImportFormatError, match="does not support breakout 2x400G"):
        designer.apply_inventory(split, csv(tmp_path, "device,model\nsu1-leaf-r0,asterfusion-cx732q-n\n"))
    assert dumps(fabric) == before
    with pytest.raises(ImportFormatError, match="unknown column 'colour'"):
        designer.apply_inventory(fabric, csv(tmp_path, "device,colour\nsu1-leaf-r0,red\n"))


def test_a_switch_model_with_the_same_ports_is_taken(tmp_path):
    fabric = designer.build(designer.spec("twin-plane-800g", servers_per_su=4))
    leaf = fabric.leaves()[0]
    other = next(m for m in fabric.catalog.switches.values() if m.id != leaf.model and m.ports == 64
                 and m.speed == 800 and set(fabric.catalog.switch(leaf.model).breakouts) <= set(m.breakouts))
    fabric.set_switch_model(leaf.id, other.id)
    assert fabric.switches[leaf.id].model == other.id
    assert [f for f in designer.check(fabric) if f.severity is designer.Severity.ERROR] == []


def test_apply_inventory_on_the_command_line(tmp_path, capsys):
    design = tmp_path / "d.fabric.yaml"
    assert main(["new", "--preset", "default", "--floor", "none", "-o", str(design)]) == 0
    capsys.readouterr()
    inventory = csv(tmp_path, "device,hostname,rack\nsu1-srv01,gpu-a01,R1\n")
    assert main(["apply-inventory", str(design), str(inventory)]) == 0
    assert "1 rows: 1 host names, 1 racks/positions, 0 switch models, 0 NIC names changed" in capsys.readouterr().out
    assert designer.load(design).servers["su1-srv01"].hostname == "gpu-a01"
    bad = csv(tmp_path, "hostname\ngpu-b\n")
    assert main(["apply-inventory", str(design), str(bad)]) == 2
    assert "'device' among them" in capsys.readouterr().err
