"""The ``aid`` part: the AI Infrastructure Descriptor as JSON, YAML, XLSX and CSV, plus its JSON Schema.

JSON and YAML carry the same document (`aid_data.aid_document`). Both are written one table
row per line (keys sorted) so a 100,000-row design stays readable, diffable and fast to write;
the YAML uses flow mappings whose scalars are JSON-quoted, which YAML reads as the same values.
"""

from __future__ import annotations

import csv
import io
import json

from ..model.fabric import Fabric
from .aid_data import SHEETS, aid_document, columns
from .aid_schema import aid_schema
from .parts import Files, Part
from .xlsx import write_xlsx

AID_DIR = "aid"
JSON_FILE, YAML_FILE, SCHEMA_FILE, XLSX_FILE = "fabric.aid.json", "fabric.aid.yaml", "aid.schema.json", "fabric.aid.xlsx"
_ROW_SEP = (", ", ": ")


def _row(row: dict) -> str:
    return json.dumps(row, sort_keys=True, separators=_ROW_SEP)


def _row_texts(doc: dict) -> dict[str, list[str]]:
    """Each table row as one JSON line, computed once for both the JSON and the YAML file."""
    return {k: [_row(item) for item in v] for k, v in doc.items() if isinstance(v, list)}


def to_json(doc: dict, rows: dict[str, list[str]] | None = None) -> str:
    rows = _row_texts(doc) if rows is None else rows
    lines = ["{"]
    keys = sorted(doc)
    for n, key in enumerate(keys):
        value, comma = doc[key], "," if n < len(keys) - 1 else ""
        if isinstance(value, list) and value:
            lines.append(f"  {json.dumps(key)}: [")
            texts = rows[key]
            lines.extend(f"    {text}," for text in texts[:-1])
            lines.append(f"    {texts[-1]}")
            lines.append(f"  ]{comma}")
        else:
            text = json.dumps(value, sort_keys=True, indent=2).replace("\n", "\n  ")
            lines.append(f"  {json.dumps(key)}: {text}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_yaml(doc: dict, rows: dict[str, list[str]] | None = None) -> str:
    rows = _row_texts(doc) if rows is None else rows
    lines = ["# AI Infrastructure Descriptor (rail-designer); the same content as fabric.aid.json."]
    for key in sorted(doc):
        value = doc[key]
        if isinstance(value, list):
            lines.append(f"{key}:" if value else f"{key}: []")
            lines.extend(f"  - {text}" for text in rows[key])
        elif isinstance(value, dict):
            lines.append(f"{key}:")
            lines.extend(f"  {json.dumps(k)}: {_row(v) if isinstance(v, (dict, list)) else json.dumps(v)}"
                         for k, v in sorted(value.items()))
        else:
            lines.append(f"{key}: {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def _cell(value):
    return "" if value is None else ("true" if value is True else "false" if value is False else value)


def to_csv(rows: list[dict], columns) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([c.header for c in columns])
    keys = [c.key for c in columns]
    writer.writerows([_cell(row[k]) for k in keys] for row in rows)
    return out.getvalue()


def _cells(rows: list[dict], columns) -> list[list]:
    keys = [c.key for c in columns]
    return [[row[k] for k in keys] for row in rows]


def to_xlsx(doc: dict) -> bytes:
    sheets = [(sheet, columns(sheet, doc["design"])) for sheet in SHEETS]
    return write_xlsx([(sheet.title, [c.header for c in cols], _cells(doc[sheet.key], cols)) for sheet, cols in sheets])


def render_global(fabric: Fabric) -> Files:
    """The files people open: the JSON, the workbook and the JSON Schema."""
    doc = aid_document(fabric)
    return {
        f"{AID_DIR}/{JSON_FILE}": to_json(doc),
        f"{AID_DIR}/{SCHEMA_FILE}": json.dumps(aid_schema(), sort_keys=True, indent=2) + "\n",
        f"{AID_DIR}/{XLSX_FILE}": to_xlsx(doc),
    }


def render_yaml(fabric: Fabric) -> Files:
    return {f"{AID_DIR}/{YAML_FILE}": to_yaml(aid_document(fabric))}


def render_csv(fabric: Fabric) -> Files:
    doc = aid_document(fabric)
    return {f"{AID_DIR}/{sheet.csv}": to_csv(doc[sheet.key], columns(sheet, doc["design"])) for sheet in SHEETS}


PARTS: list[Part] = [
    Part(
        name="aid",
        description="AI Infrastructure Descriptor: fabric.aid.json, fabric.aid.xlsx and aid.schema.json",
        render_global=render_global,
        apply="open fabric.aid.xlsx in Excel/LibreOffice (Interfaces.Notes = rail); "
              "`rail-designer import-aid aid/fabric.aid.json -o design.fabric.yaml` rebuilds the design",
    ),
    Part(name="aid-yaml", description="optional: the AID as YAML (aid/fabric.aid.yaml, the same content as the JSON)",
         render_global=render_yaml, default=False),
    Part(name="aid-csv", description="optional: the AID's four sheets as CSV (aid/devices.csv, interfaces.csv, "
                                     "links.csv, ip-plan.csv)", render_global=render_csv, default=False),
]
