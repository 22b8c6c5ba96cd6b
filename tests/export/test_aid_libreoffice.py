"""The AID workbook opens in a real spreadsheet program: LibreOffice reads every sheet back to the
same rows as the CSV files (booleans shown as TRUE/FALSE, as spreadsheets do)."""

from __future__ import annotations

import csv
import shutil
import subprocess

from designer.export import export
from designer.export.aid_data import SHEETS
from tests.ci import need

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


def _need_soffice():
    need(SOFFICE is not None, "LibreOffice is not installed (package libreoffice-calc-nogui)")


def _rows(path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return [[{"TRUE": "true", "FALSE": "false"}.get(cell, cell) for cell in row] for row in csv.reader(fh)]


def test_libreoffice_reads_every_sheet_as_the_csv_holds_it(tmp_path, default_fabric):
    _need_soffice()
    export(default_fabric, tmp_path / "b", only=["aid", "aid-csv"])
    # CSV filter options: comma, double quote, UTF-8, start row 1, ..., -1 = every sheet to its own file
    options = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"
    done = subprocess.run([SOFFICE, "--headless", f"-env:UserInstallation=file://{tmp_path}/profile",
                           "--convert-to", options, str(tmp_path / "b" / "aid" / "fabric.aid.xlsx"),
                           "--outdir", str(tmp_path / "lo")], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    for sheet in SHEETS:
        read_back = _rows(tmp_path / "lo" / f"fabric.aid-{sheet.title}.csv")
        assert read_back == _rows(tmp_path / "b" / "aid" / sheet.csv), sheet.title
    notes = _rows(tmp_path / "lo" / "fabric.aid-Interfaces.csv")
    header = notes[0]
    assert header[-1] == "Notes" and notes[1][-1] == "0"          # su1-srv01 nic0: rail plane 0


def test_a_name_that_looks_like_a_formula_opens_as_text(tmp_path):
    # CSV injection: LibreOffice runs a CSV cell '=1+1' (it shows 2); the AID writes it behind an
    # apostrophe, which LibreOffice keeps as text
    _need_soffice()
    from designer.storage import dumps, loads
    from tests.conftest import preset_fabric
    # a rack without a floor is any name
    text = dumps(preset_fabric("default", floor="none")).replace("  hostname: su1-srv01\n", "  hostname: su1-srv01\n  rack: '=1+1'\n", 1)
    text = text.replace("  hostname: su1-srv02\n", "  hostname: su1-srv02\n  rack: '-2+3'\n", 1)
    fabric = loads(text)
    assert fabric.servers["su1-srv01"].rack == "=1+1"
    export(fabric, tmp_path / "b", only=["aid-csv"])
    written = (tmp_path / "b" / "aid" / "devices.csv").read_text()
    assert ",'=1+1," in written and ",'-2+3," in written
    done = subprocess.run([SOFFICE, "--headless", f"-env:UserInstallation=file://{tmp_path}/profile",
                           "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false",
                           str(tmp_path / "b" / "aid" / "devices.csv"), "--outdir", str(tmp_path / "lo")],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    header, *body = _rows(tmp_path / "lo" / "devices.csv")
    rows, rack = {row[0]: row for row in body}, header.index("Rack")
    assert rows["su1-srv01"][rack] == "'=1+1" and rows["su1-srv02"][rack] == "'-2+3"    # text, not 2 or 1
