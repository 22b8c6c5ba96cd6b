"""The AID: schema-valid JSON, the same content in YAML/CSV/XLSX, Notes = rail, byte-identical re-renders."""

from __future__ import annotations

import csv
import io
import json

import jsonschema
import openpyxl
import pytest
import yaml

import designer
from designer.export.aid import PARTS
from designer.export.aid_data import SHEETS, columns, format_breakouts, parse_breakouts

from tests.export.shapes import design as fabric

PRESETS = ["default", "rail-optimized-64x4", "b200-three-tier-p2p31", "twin-plane-subnet"]


def _render(f) -> dict:
    """The files of all three AID parts: aid, and the optional aid-yaml and aid-csv."""
    assert [(p.name, p.default) for p in PARTS] == [("aid", True), ("aid-yaml", False), ("aid-csv", False)]
    return {path: content for part in PARTS for path, content in part.render_global(f).items()}


@pytest.fixture(scope="module", params=PRESETS)
def bundle(request):
    return request.param, _render(fabric(request.param))


def test_json_validates_against_the_schema(bundle):
    _, files = bundle
    schema = json.loads(files["aid/aid.schema.json"])
    jsonschema.Draft202012Validator.check_schema(schema)
    doc = json.loads(files["aid/fabric.aid.json"])
    jsonschema.Draft202012Validator(schema).validate(doc)
    assert doc["aid_format_version"] == 1


def test_schema_rejects_a_broken_row(bundle):
    _, files = bundle
    schema = json.loads(files["aid/aid.schema.json"])
    doc = json.loads(files["aid/fabric.aid.json"])
    doc["interfaces"][0]["notes"] = "rail zero"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)


def test_yaml_holds_the_same_document(bundle):
    _, files = bundle
    assert yaml.safe_load(files["aid/fabric.aid.yaml"]) == json.loads(files["aid/fabric.aid.json"])


def test_csv_and_xlsx_hold_the_same_rows_with_rail_in_notes(bundle):
    preset, files = bundle
    doc = json.loads(files["aid/fabric.aid.json"])
    wb = openpyxl.load_workbook(io.BytesIO(files["aid/fabric.aid.xlsx"]), read_only=True)
    bill = ["Bill of materials"] if "floor" in doc["design"] else []     # a design with a floor has one
    assert wb.sheetnames == ["Devices", "Interfaces", "Links", "IP Plan"] + bill
    for sheet in SHEETS:
        rows = doc[sheet.key]
        table = list(csv.reader(io.StringIO(files[f"aid/{sheet.csv}"])))
        cols = columns(sheet, doc["design"])
        width = len(cols)
        xl = [(list(r) + [None] * width)[:width] for r in wb[sheet.title].iter_rows(values_only=True)]
        headers = [c.header for c in cols]
        assert table[0] == headers and xl[0] == headers
        assert len(table) == len(xl) == len(rows) + 1
        for row, line, cells in zip(rows, table[1:], xl[1:]):
            assert sorted(row) == sorted(c.key for c in cols)
            expected = [row[c.key] for c in cols]
            assert cells == expected
            assert line == ["" if v is None else str(v).lower() if isinstance(v, bool) else str(v) for v in expected]
    f = fabric(preset)
    notes = {(r["device"], r["interface"]): r["notes"] for r in doc["interfaces"]}
    for nic in f.nics():
        assert notes[(nic.server_id, nic.port)] == nic.rail
    for leaf in f.leaves():
        for link in f.links_of(leaf.id):
            ep = link.a if link.a.startswith(leaf.id + "/") else link.b
            assert notes[tuple(ep.split("/", 1))] == leaf.rail


def test_new_columns_appear_only_in_designs_that_use_them(bundle):
    name, files = bundle
    doc = json.loads(files["aid/fabric.aid.json"])
    f = fabric(name)
    headers = {sheet.csv: next(csv.reader(io.StringIO(files[f"aid/{sheet.csv}"]))) for sheet in SHEETS}
    assert ("Group" in headers["devices.csv"]) == bool(f.cores())
    assert ("max_spine_oversubscription" in doc["design"]) == ("core_asn" in doc["design"]["asn"]) == bool(f.cores())
    planes = f.settings.fabric_planes > 1
    assert all(("Fabric plane" in h) == planes for h in headers.values())
    assert ("fabric_planes" in doc["design"]) == planes
    roles = {r["role"] for r in doc["devices"]}
    assert ("core" in roles) == bool(f.cores())
    if f.cores():
        assert {(r["id"], r["group"]) for r in doc["devices"] if r["role"] != "server"} == {
            (w.id, w.group) for w in f.switches.values()}
        assert doc["design"]["asn"]["core_asn"] == f.settings.core_asn
    if planes:          # Notes stays the rail; the plane has its own column
        for r in doc["interfaces"]:
            if r["kind"] == "nic":
                nic = f.nic(f"{r['device']}/{r['interface']}")
                assert (r["notes"], r["fabric_plane"]) == (nic.rail, nic.fabric_plane)
        assert {r["fabric_plane"] for r in doc["links"]} == set(range(f.settings.fabric_planes))


def test_every_file_renders_byte_identically_twice(bundle):
    preset, files = bundle
    again = _render(fabric(preset))
    assert sorted(files) == sorted(again)
    for name in files:
        assert files[name] == again[name], name


@pytest.mark.parametrize("text,cages", [
    ("1-3:2x400G 5:4x200G", ((1, "2x400G"), (2, "2x400G"), (3, "2x400G"), (5, "4x200G"))),
    (None, ()),
])
def test_breakout_notation_round_trips(text, cages):
    assert parse_breakouts(text) == cages
    assert format_breakouts(cages) == text


def test_breakout_notation_rejects_garbage():
    with pytest.raises(ValueError, match="1-32:2x400G"):
        parse_breakouts("1-x:2x400G")


def test_text_that_json_and_yaml_treat_differently_survives_both(tmp_path):
    """A row value holding "},{" (the rows' separator in one orjson call), non-ASCII text and characters
    YAML refuses or folds (DEL, U+0085, U+2028) reads back the same from the JSON and the YAML."""
    from dataclasses import replace
    f = fabric("default")
    odd = 'r},{"x":1} é\x7f\x85\u2028\x01'
    server = f.servers["su1-srv02"]
    f._replace_device(replace(server, rack=odd))
    f.set_rail_name(1, odd)
    files = _render(f)
    doc = json.loads(files["aid/fabric.aid.json"])
    assert next(r for r in doc["devices"] if r["id"] == "su1-srv02")["rack"] == odd
    assert doc["design"]["rails"][1]["name"] == odd
    assert len(files["aid/fabric.aid.json"].splitlines()) == len(_render(fabric("default"))["aid/fabric.aid.json"].splitlines())
    assert yaml.safe_load(files["aid/fabric.aid.yaml"]) == doc
    assert files["aid/fabric.aid.yaml"].isascii()
    assert "é".encode() in files["aid/fabric.aid.json"]          # UTF-8 in the JSON, as written
    (tmp_path / "odd.aid.json").write_bytes(files["aid/fabric.aid.json"])
    rebuilt = designer.import_aid(tmp_path / "odd.aid.json")      # what `rail-designer import-aid` reads
    assert rebuilt.servers["su1-srv02"].rack == odd and rebuilt.rails[1].name == odd
