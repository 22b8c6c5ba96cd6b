"""CSV that a spreadsheet opens as data, not as formulas.

Excel, LibreOffice and Google Sheets run a CSV cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a
tab or carriage return before one) as a formula: CSV injection. A design carries free text (rack, rail
and SU names, descriptions) and may come from someone else (an AID, an LLDP dump), so such a cell is
written with a leading apostrophe, which spreadsheets show as text and drop from the value. The rows are
written as they are first; only a text in which such a cell can start is written again, cell by cell.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Iterable, Sequence

_RISKY_START = ("=", "+", "-", "@", "\t", "\r")
# where a risky cell could begin in csv's output: at a line start or after a comma, maybe quoted (a
# comma inside a quoted cell also matches: that only costs the cell-by-cell pass)
_MAYBE_RISKY = re.compile(r'(?:^|,)"?[=+\-@\t\r]', re.MULTILINE)


def safe_cell(value):
    """``value``, or a text starting with a formula character behind an apostrophe."""
    return "'" + value if isinstance(value, str) and value.startswith(_RISKY_START) else value


def csv_text(header: Sequence, rows: Iterable[Sequence]) -> str:
    """``header`` and ``rows`` as CSV (``\\n`` line ends), with every risky cell made safe."""
    rows = rows if isinstance(rows, list) else list(rows)
    text = _write(header, rows)
    if _MAYBE_RISKY.search(text):
        text = _write(list(map(safe_cell, header)), ([safe_cell(v) for v in row] for row in rows))
    return text


def _write(header: Sequence, rows: Iterable[Sequence]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()
