"""The bill of materials: per part, per rack, once per cage for twin-port and splitter items, with the
prices a user's catalogue gives; the workbook sheet holds the same rows."""

from __future__ import annotations

import csv
import io

import openpyxl

import designer
from designer.export.bundle import render_in_memory
from designer.export.registry import parts

SPEC = dict(servers_per_su=8, leaf_model="nvidia-sn5600", spine_model="nvidia-sn5600")


def _bundle(fabric, *names):
    return render_in_memory(fabric, [p for p in parts() if p.name in names])


def test_twin_port_optics_count_per_cage_and_fibres_per_link(tmp_path):
    fabric = designer.build(designer.spec("superpod-su", **SPEC))
    rows = {r["part"]: r for r in csv.DictReader(io.StringIO(_bundle(fabric, "bom")["bom.csv"]))}
    servers = 8 * 8                                    # server cables, two per 2 x 400G leaf cage
    uplinks = sum(1 for link in fabric.links.values() if link.speed == 800)
    assert int(rows["MMA4Z00-NS400"]["count"]) == servers                 # one per NIC
    assert rows["MMA4Z00-NS400"]["per_rack"] == "su1-r01:32 su1-r02:32"
    # at the leaves: a twin-port plug per two server cables, and one per 800G uplink at each end
    assert int(rows["MMA4Z00-NS"]["count"]) == servers // 2 + 2 * uplinks
    fibres = sum(int(r["count"]) for part, r in rows.items() if part.startswith("MFP7E10"))
    assert fibres == servers + 2 * uplinks              # an 800G link over a twin-port plug takes two
    assert all(r["unit_price"] == "" and r["total"] == "" for r in rows.values())


def test_prices_from_a_user_catalogue_give_totals_and_the_workbook_has_the_sheet(tmp_path):
    catalog = tmp_path / "prices.yaml"
    catalog.write_text("media:\n  currency: USD\n  prices: {MMA4Z00-NS400: 450, MMA4Z00-NS: 900.5}\n")
    path = tmp_path / "d.fabric.yaml"
    designer.save(designer.build(designer.spec("superpod-su", **SPEC)), path)
    fabric = designer.load(path, catalogs=[catalog])
    files = _bundle(fabric, "bom", "aid")
    rows = {r["part"]: r for r in csv.DictReader(io.StringIO(files["bom.csv"]))}
    assert (rows["MMA4Z00-NS400"]["unit_price"], rows["MMA4Z00-NS400"]["total"]) == ("450.00", "28800.00")
    count = int(rows["MMA4Z00-NS"]["count"])
    assert rows["MMA4Z00-NS"]["total"] == f"{900.5 * count:.2f}"
    sheet = openpyxl.load_workbook(io.BytesIO(files["aid/fabric.aid.xlsx"]), read_only=True)["Bill of materials"]
    table = [list(r) for r in sheet.iter_rows(values_only=True)]
    assert table[0] == ["Part", "Description", "Count", "Per rack", "Unit price", "Total"]
    assert [r[0] for r in table[1:]] == list(rows)
    assert [r[2] for r in table[1:]] == [int(r["count"]) for r in rows.values()]


def test_a_bad_price_is_a_located_error(tmp_path):
    catalog = tmp_path / "prices.yaml"
    catalog.write_text("media:\n  prices: {MMA4Z00-NS400: cheap}\n")
    try:
        designer.catalog([catalog])
    except designer.DesignerError as exc:
        assert "prices.yaml:2" in str(exc) and "a unit price is a number" in str(exc)
    else:
        raise AssertionError("a price that is not a number was accepted")
