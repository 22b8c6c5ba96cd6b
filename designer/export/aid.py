"""The ``aid`` part: the AI Infrastructure Descriptor as JSON and XLSX, plus its JSON Schema; and the
optional parts ``aid-yaml`` (the same document as YAML) and ``aid-csv`` (the four sheets as CSV).

JSON and YAML carry the same document (`aid_data.aid_document`). Both are written one table row per
line, keys sorted, so a 250,000-row design stays readable, diffable and fast to write; the YAML uses
flow mappings in JSON syntax, which YAML reads as the same values.

Rows are serialised by orjson, which sorts keys, in compact form (``{"a":1,"b":null}``): one C call
per sheet instead of one ``json.dumps`` per row (at 4,096 servers 0.24 s instead of 1.3-3.0 s for the
250,000 rows; the old ``", "`` / ``": "`` spacing has no byte-identical orjson path). The JSON keeps
non-ASCII text as UTF-8; the YAML escapes it (\\uXXXX), because YAML refuses or folds some
characters that JSON allows raw.
"""

from __future__ import annotations

import json

import orjson

from ..model.entities import FABRIC_KINDS
from ..model.fabric import Fabric
from .aid_data import SHEETS, aid_document, columns
from .aid_schema import aid_schema
from .csvtext import csv_text
from .parts import Files, Part
from .floor_data import BOM_COLUMNS, bom_rows
from .xlsx import write_xlsx

BOM_HEADERS = ["Part", "Description", "Count", "Per rack", "Unit price", "Total"]

AID_DIR = "aid"
JSON_FILE, YAML_FILE, SCHEMA_FILE, XLSX_FILE = "fabric.aid.json", "fabric.aid.yaml", "aid.schema.json", "fabric.aid.xlsx"
_SORTED = orjson.OPT_SORT_KEYS
_ROW_END = b"},{"


def _lines(rows: list[dict], sep: bytes) -> bytes | memoryview:
    """The rows as compact JSON objects with sorted keys, joined by ``sep`` (which starts the next line).

    A view rather than a copy where it can be: the files are joined from pieces in one copy."""
    text = orjson.dumps(rows, option=_SORTED)
    if text.count(_ROW_END) == len(rows) - 1:       # no value holds "},{": each one ends a row
        return memoryview(text.replace(_ROW_END, b"}" + sep + b"{"))[1:-1]
    return sep.join(orjson.dumps(row, option=_SORTED) for row in rows)


def _plain(text: bytes | memoryview) -> bool:
    """Printable ASCII only (orjson escapes control characters): YAML reads it exactly as JSON does."""
    text = text.obj if isinstance(text, memoryview) else text    # the whole buffer: a view has no isascii()
    return text.isascii() and b"\x7f" not in text


def _flow(value) -> bytes:
    """One value in YAML flow style (JSON syntax), every character outside printable ASCII \\u-escaped."""
    text = orjson.dumps(value, option=_SORTED)
    return text if _plain(text) else json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def _yaml_rows(rows: list[dict]) -> bytes | memoryview:
    text = _lines(rows, b"\n  - ")
    return text if _plain(text) else b"\n  - ".join(map(_flow, rows))


def _value(value, indent: bytes) -> bytes:
    """A header value (the design settings, the format version) indented by two spaces per level."""
    return orjson.dumps(value, option=_SORTED | orjson.OPT_INDENT_2).replace(b"\n", b"\n" + indent)


def to_json(doc: dict) -> bytes:
    pieces = [b"{\n"]
    for key in sorted(doc):
        value = doc[key]
        pieces += [b",\n  " if len(pieces) > 1 else b"  ", orjson.dumps(key), b": "]
        if isinstance(value, list) and value:
            pieces += [b"[\n    ", _lines(value, b",\n    "), b"\n  ]"]
        else:
            pieces.append(_value(value, b"  "))
    return b"".join(pieces + [b"\n}\n"])


def schema_json() -> bytes:
    return _value(aid_schema(), b"") + b"\n"


def to_yaml(doc: dict) -> bytes:
    pieces = [b"# AI Infrastructure Descriptor (rail-designer); the same content as fabric.aid.json.\n"]
    for key in sorted(doc):
        value, name = doc[key], key.encode()
        if isinstance(value, list):
            pieces += [name, b":\n  - ", _yaml_rows(value), b"\n"] if value else [name, b": []\n"]
        elif isinstance(value, dict):
            pieces += [name, b":\n"]
            pieces += [b"  %s: %s\n" % (_flow(k), _flow(v)) for k, v in sorted(value.items())]
        else:
            pieces += [name, b": ", _flow(value), b"\n"]
    return b"".join(pieces)


def _csv_column(values: list) -> list:
    """A column as the CSV shows it: booleans as true/false (csv writes None as empty, ints as digits)."""
    if bool not in set(map(type, values)):
        return values
    return [("true" if v else "false") if type(v) is bool else v for v in values]


def to_csv(rows: list[dict], columns) -> str:
    cells = [_csv_column([row[c.key] for row in rows]) for c in columns]
    return csv_text([c.header for c in columns], list(zip(*cells)))


def to_xlsx(doc: dict, bill: list[dict] | None = None) -> bytes:
    """The workbook: the AID's sheets, and a Bill of materials sheet when ``bill`` has rows."""
    sheets = [(sheet, columns(sheet, doc["design"])) for sheet in SHEETS]
    out = [(sheet.title, [c.header for c in cols], [[row[c.key] for row in doc[sheet.key]] for c in cols])
           for sheet, cols in sheets]
    if bill:
        out.append(("Bill of materials", BOM_HEADERS, [[row[key] for row in bill] for key in BOM_COLUMNS]))
    return write_xlsx(out)


def render_global(fabric: Fabric) -> Files:
    """The files people open: the JSON, the workbook and the JSON Schema."""
    doc = aid_document(fabric)
    return {
        f"{AID_DIR}/{JSON_FILE}": to_json(doc),
        f"{AID_DIR}/{SCHEMA_FILE}": schema_json(),
        f"{AID_DIR}/{XLSX_FILE}": to_xlsx(doc, bom_rows(fabric)),
    }


def render_yaml(fabric: Fabric) -> Files:
    return {f"{AID_DIR}/{YAML_FILE}": to_yaml(aid_document(fabric))}


def render_csv(fabric: Fabric) -> Files:
    doc = aid_document(fabric)
    return {f"{AID_DIR}/{sheet.csv}": to_csv(doc[sheet.key], columns(sheet, doc["design"])) for sheet in SHEETS}


# host names (RD010), and address keys on servers that name no NIC (RD029: no interface row to hold them)
AID_REFUSED_BY = frozenset({"RD010", "RD029"})

BOTH_KINDS = frozenset(FABRIC_KINDS)

PARTS: list[Part] = [
    Part(
        name="aid",
        description="AI Infrastructure Descriptor: fabric.aid.json, fabric.aid.xlsx and aid.schema.json",
        render_global=render_global,
        refused_by=AID_REFUSED_BY, kinds=BOTH_KINDS,
        apply="open fabric.aid.xlsx in Excel/LibreOffice (Interfaces.Notes = rail); "
              "`rail-designer import-aid aid/fabric.aid.json -o design.fabric.yaml` rebuilds the design",
    ),
    Part(name="aid-yaml", description="optional: the AID as YAML (aid/fabric.aid.yaml, the same content as the JSON)",
         render_global=render_yaml, default=False, refused_by=AID_REFUSED_BY, kinds=BOTH_KINDS),
    Part(name="aid-csv", description="optional: the AID's four sheets as CSV (aid/devices.csv, interfaces.csv, "
                                     "links.csv, ip-plan.csv)", render_global=render_csv, default=False,
         refused_by=AID_REFUSED_BY, kinds=BOTH_KINDS),
]
