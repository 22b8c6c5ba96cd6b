"""Deterministic .xlsx writing: openpyxl write-only mode, then a re-pack with fixed dates.

openpyxl stamps ``docProps/core.xml`` with the save time and each zip entry with the local
time; both are replaced by one fixed instant so the same sheets give the same bytes.
"""

from __future__ import annotations

import datetime
import io
import re
import zipfile
from typing import Iterable, Sequence

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font

FIXED = datetime.datetime(2000, 1, 1, 0, 0, 0)
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_STAMP = re.compile(rb"(<dcterms:(created|modified)[^>]*>)[^<]*(</dcterms:\2>)")


def write_xlsx(sheets: Iterable[tuple[str, Sequence[str], Iterable[Sequence]]], widths: dict | None = None) -> bytes:
    """``sheets``: (title, headers, rows). Returns the workbook's bytes (identical for identical input)."""
    wb = Workbook(write_only=True)
    wb.properties.creator = "rail-designer"
    wb.properties.created = FIXED
    wb.properties.modified = FIXED
    bold = Font(bold=True)
    for title, headers, rows in sheets:
        ws = wb.create_sheet(title)
        ws.freeze_panes = "A2"
        header_cells = []
        for name in headers:
            cell = WriteOnlyCell(ws, value=name)
            cell.font = bold
            header_cells.append(cell)
        ws.append(header_cells)
        for row in rows:
            ws.append(row)
    raw = io.BytesIO()
    wb.save(raw)
    return _repack(raw.getvalue())


def _repack(data: bytes) -> bytes:
    stamp = FIXED.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = _STAMP.sub(lambda m: m.group(1) + stamp + m.group(3), body)
            entry = zipfile.ZipInfo(info.filename, date_time=_ZIP_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            dst.writestr(entry, body)
    return out.getvalue()
