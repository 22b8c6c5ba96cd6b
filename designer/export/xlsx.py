"""Deterministic, fast .xlsx writing: SpreadsheetML (ECMA-376) written directly into a zip.

openpyxl's write-only mode needed about 50 s for the 4,096-server AID (250,000 rows) without
lxml, so the sheets are streamed as XML here instead: inline strings, a bold frozen header row,
fixed document dates and fixed zip entry dates, so the same sheets give the same bytes. The tests
read every workbook back with openpyxl to prove the format.
"""

from __future__ import annotations

import io
import re
import zipfile
from typing import Iterable, Sequence
from xml.sax.saxutils import escape

FIXED_DATE = "2000-01-01T00:00:00Z"
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
_REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


_NEEDS_CARE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f&<>\"']|^\\s|\\s$")


def _text(value: str) -> str:
    if _NEEDS_CARE.search(value):   # rare: escape, drop XML-illegal characters, keep edge spaces
        value = escape(_ILLEGAL.sub("", value))
        space = ' xml:space="preserve"' if value != value.strip() else ""
        return f'<c t="inlineStr"><is><t{space}>{value}</t></is></c>'
    return f'<c t="inlineStr"><is><t>{value}</t></is></c>'


def _cell(value) -> str:
    kind = type(value)
    if kind is str:
        return _text(value)
    if value is None:
        return "<c/>"
    if kind is bool:
        return f'<c t="b"><v>{int(value)}</v></c>'
    if kind is int or kind is float:
        return f"<c><v>{value!r}</v></c>"
    return _text(str(value))


def _sheet_xml(headers: Sequence[str], rows: Iterable[Sequence]) -> str:
    head = "".join(_text(h).replace("<c ", '<c s="1" ', 1) for h in headers)
    body = "".join(f"<row>{''.join(map(_cell, row))}</row>" for row in rows)
    return (f"{_HEAD}<worksheet {_NS}><sheetViews><sheetView workbookViewId=\"0\">"
            '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>'
            f"<sheetData><row>{head}</row>{body}</sheetData></worksheet>")


def _package_files(titles: list[str]) -> dict[str, str]:
    n = len(titles)
    sheets = "".join(f'<sheet name="{escape(t)}" sheetId="{i + 1}" r:id="rId{i + 1}"/>' for i, t in enumerate(titles))
    sheet_rels = "".join(
        f'<Relationship Id="rId{i + 1}" Type="{_REL_NS}/worksheet" Target="worksheets/sheet{i + 1}.xml"/>'
        for i in range(n))
    overrides = "".join(
        f'<Override PartName="/xl/worksheets/sheet{i + 1}.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' for i in range(n))
    return {
        "[Content_Types].xml": (
            f'{_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/styles.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
            '<Override PartName="/docProps/core.xml" '
            'ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
            f"{overrides}</Types>"),
        "_rels/.rels": (
            f'{_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{_REL_NS}/officeDocument" Target="xl/workbook.xml"/>'
            '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/'
            'core-properties" Target="docProps/core.xml"/></Relationships>'),
        "docProps/core.xml": (
            f'{_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/'
            'core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>rail-designer</dc:creator>'
            f'<dcterms:created xsi:type="dcterms:W3CDTF">{FIXED_DATE}</dcterms:created>'
            f'<dcterms:modified xsi:type="dcterms:W3CDTF">{FIXED_DATE}</dcterms:modified></cp:coreProperties>'),
        "xl/workbook.xml": (
            f'{_HEAD}<workbook {_NS} xmlns:r="{_REL_NS}"><sheets>{sheets}</sheets></workbook>'),
        "xl/_rels/workbook.xml.rels": (
            f'{_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'{sheet_rels}<Relationship Id="rId{n + 1}" Type="{_REL_NS}/styles" Target="styles.xml"/>'
            "</Relationships>"),
        "xl/styles.xml": (
            f'{_HEAD}<styleSheet {_NS}><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font>'
            '<font><b/><sz val="11"/><name val="Calibri"/></font></fonts>'
            '<fills count="2"><fill><patternFill patternType="none"/></fill>'
            '<fill><patternFill patternType="gray125"/></fill></fills>'
            '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
            '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
            '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
            '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>'
            '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'),
    }


def write_xlsx(sheets: Iterable[tuple[str, Sequence[str], Iterable[Sequence]]]) -> bytes:
    """``sheets``: (title, headers, rows) with str/int/float/bool/None cells. Same input, same bytes."""
    sheets = list(sheets)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        def put(name: str, text: str) -> None:
            entry = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            zf.writestr(entry, text.encode("utf-8"), compresslevel=1)
        for name, text in _package_files([title for title, _, _ in sheets]).items():
            put(name, text)
        for i, (_, headers, rows) in enumerate(sheets):
            put(f"xl/worksheets/sheet{i + 1}.xml", _sheet_xml(headers, rows))
    return out.getvalue()
