"""csv_text: what csv writes, with cells a spreadsheet would run as formulas behind an apostrophe."""

import csv
import io

from hypothesis import given, strategies as st

from designer.export.csvtext import csv_text, safe_cell


def _plain(header, rows) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def test_risky_cells_are_written_as_text_and_nothing_else_changes():
    rows = [["su1-srv01", "=HYPERLINK(\"http://x\")", 3, None], ["a,=b", "+1", "-", "@SUM(A1)"], ["x", "\t=1", 1.5, ""]]
    text = csv_text(["device", "rack", "n", "note"], rows)
    back = list(csv.reader(io.StringIO(text)))
    assert back[1] == ["su1-srv01", "'=HYPERLINK(\"http://x\")", "3", ""]
    assert back[2] == ["a,=b", "'+1", "'-", "'@SUM(A1)"]        # a comma inside a quoted cell is no cell start
    assert back[3] == ["x", "'\t=1", "1.5", ""]


@given(st.lists(st.lists(st.one_of(st.text(alphabet="ab1-,=+@\"\n ", max_size=6), st.integers(), st.none()),
                         min_size=2, max_size=2), max_size=6))
def test_the_text_is_csvs_own_when_no_cell_is_risky_and_every_cell_safe_otherwise(rows):
    text = csv_text(["h1", "h2"], rows)
    if not any(isinstance(v, str) and v.startswith(("=", "+", "-", "@", "\t", "\r")) for row in rows for v in row):
        assert text == _plain(["h1", "h2"], rows)
    else:
        assert text == _plain(["h1", "h2"], [[safe_cell(v) for v in row] for row in rows])
    for row, written in zip(rows, list(csv.reader(io.StringIO(text)))[1:]):     # numbers stay numbers
        assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for v, cell in zip(row, written)
                       if isinstance(v, str))
