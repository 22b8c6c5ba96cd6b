"""The workbook writer on its own: each kind of column (text, integers, booleans, mixed, text that needs
escaping or keeps edge spaces) across several row blocks reads back cell for cell with openpyxl,
with a bold frozen header, and the same sheets give the same bytes."""

from __future__ import annotations

import io

import openpyxl

from designer.export import xlsx


def test_every_kind_of_column_reads_back_across_row_blocks(monkeypatch):
    monkeypatch.setattr(xlsx, "_BLOCK", 7)                   # several blocks without a huge sheet
    n = 23
    columns = [
        [f"dev{i}" for i in range(n)],                        # plain text
        [None if i % 3 else i * 1000 for i in range(n)],      # integers with gaps
        [i % 2 == 0 for i in range(n)],                       # booleans
        [i if i % 2 else f"t{i}" for i in range(n)],          # mixed kinds, cell by cell
        [" lead", "trail ", "a<b&c", 'q"\'', "ctl\x01x", "", "line\nbreak", "é\u2028"] * 2 + [None] * 7,
        [None] * n,                                           # empty
        [1.5] * n,                                            # floats
    ]
    headers = ["Text", "Int", "Bool", "Mixed", "Odd", "Empty", "Float"]
    data = xlsx.write_xlsx([("Sheet A", headers, columns), ("B & C", ["Only"], [["x"]])])
    assert data == xlsx.write_xlsx([("Sheet A", headers, columns), ("B & C", ["Only"], [["x"]])])
    wb = openpyxl.load_workbook(io.BytesIO(data))
    assert wb.sheetnames == ["Sheet A", "B & C"]
    ws = wb["Sheet A"]
    assert ws.freeze_panes == "A2" and all(cell.font.b for cell in ws[1])
    rows = [list(r) for r in ws.iter_rows(values_only=True)]
    assert rows[0] == headers and len(rows) == n + 1
    expected = [[c[i] for c in columns] for i in range(n)]
    for row in expected:                                      # what XML cannot hold is dropped
        row[4] = row[4] and row[4].replace("\x01", "")
    assert [(r + [None] * 7)[:7] for r in rows[1:]] == expected
    assert [r[0] for r in wb["B & C"].iter_rows(values_only=True)] == ["Only", "x"]
