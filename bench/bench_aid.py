"""Benchmark: the AID parts at 4,096 servers (`bench_foundation.BIG`: 4,864 devices, ~250,000 rows).

    python bench/bench_aid.py [--repeat N] [--xlsxwriter]

Prints seconds (the best of N runs) and MB per stage: the document (stage 1), then each file of the
default part `aid` (fabric.aid.json, fabric.aid.xlsx, aid.schema.json), the part as the bundle renders
it, and the optional parts `aid-yaml` and `aid-csv` on their own; then the way back, `import-aid`'s
work on the JSON (parse and bounds, schema check, replay into a design). `--xlsxwriter` also writes the same
workbook with XlsxWriter's constant-memory mode (if installed), the library issue 11 suggested and
this writer was measured against. Target (issue 11): the whole 4,096-server bundle under 8 s on two
cores, and the AID is its longest single job.
"""

from __future__ import annotations

import argparse
import io
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_foundation import BIG  # noqa: E402
from designer.export import aid  # noqa: E402
from designer.export.aid_data import SHEETS, aid_document, columns  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402


def _mb(content) -> float:
    if isinstance(content, dict):
        return sum(_mb(v) for v in content.values())
    return len(content.encode() if isinstance(content, str) else content) / 1e6


def _best(repeat: int, work):
    """(best wall seconds, best CPU seconds, result): CPU time says more on a shared machine."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = work()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return f"{min(wall):6.2f} s wall {min(cpu):6.2f} s CPU", result


def _xlsxwriter(doc: dict) -> bytes:
    import datetime

    import xlsxwriter
    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"constant_memory": True})
    book.set_properties({"created": datetime.datetime(2000, 1, 1)})
    bold = book.add_format({"bold": True})
    for sheet in SHEETS:
        cols = columns(sheet, doc["design"])
        ws = book.add_worksheet(sheet.title)
        ws.freeze_panes(1, 0)
        ws.write_row(0, 0, [c.header for c in cols], bold)
        put = {str: ws.write_string, int: ws.write_number, bool: ws.write_boolean}
        for r, row in enumerate(doc[sheet.key], 1):
            for c, col in enumerate(cols):
                value = row[col.key]
                if value is not None:
                    put[type(value)](r, c, value)
    book.close()
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--xlsxwriter", action="store_true", help="also time XlsxWriter on the same workbook")
    args = parser.parse_args()
    fabric = build(BIG, builtin_catalog())
    seconds, doc = _best(args.repeat, lambda: aid_document(fabric))
    rows = sum(len(v) for v in doc.values() if isinstance(v, list))
    print(f"design: {len(fabric.servers)} servers, {len(fabric.switches)} switches; AID {rows:,} rows")
    print(f"  document (stage 1)    {seconds}")
    stages = [("fabric.aid.json", lambda: aid.to_json(doc)), ("fabric.aid.xlsx", lambda: aid.to_xlsx(doc)),
              ("aid.schema.json", aid.schema_json)]
    if args.xlsxwriter:
        try:
            import xlsxwriter  # noqa: F401
            stages.append(("xlsx by XlsxWriter", lambda: _xlsxwriter(doc)))
        except ImportError:
            print("  (XlsxWriter is not installed: pip install XlsxWriter)")
    for name, work in stages:
        seconds, content = _best(args.repeat, work)
        print(f"  {name:21} {seconds}  {_mb(content):6.1f} MB")
    for part in aid.PARTS:
        seconds, files = _best(args.repeat, lambda: part.render_global(fabric))
        kind = "default" if part.default else "optional"
        print(f"part {part.name:9} ({kind:8}) {seconds}  {_mb(files):6.1f} MB  {len(files)} files")
    text = aid.to_json(doc).decode()
    from designer.export.aid_import import load_aid_text, validate
    from designer.storage.jsonio import parse_json
    seconds, data = _best(args.repeat, lambda: parse_json(text))
    print(f"import: parse the JSON  {seconds}")
    seconds, _ = _best(args.repeat, lambda: validate(data))
    print(f"import: schema check    {seconds}")
    seconds, _ = _best(args.repeat, lambda: load_aid_text(text, "fabric.aid.json", builtin_catalog()))
    print(f"import-aid, all of it   {seconds}   (parse, check, replay into a design)")
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
