"""``import-aid``: rebuild a design file from an AI Infrastructure Descriptor (aid/fabric.aid.json)."""

from __future__ import annotations

from pathlib import Path

from .common import EXIT_OK, CliError, new_output, say_removed


def register(sub) -> None:
    p = sub.add_parser("import-aid", help="rebuild a design file from an AID (fabric.aid.json)",
                       description="Read an AI Infrastructure Descriptor written by `rail-designer export` "
                                   "and save the design it describes, addresses and pins included.")
    p.add_argument("aid", metavar="AID.json", help="the descriptor, e.g. bundle/aid/fabric.aid.json")
    p.add_argument("-o", "--output", required=True, help="design file to write (*.fabric.yaml)")
    p.add_argument("--force", action="store_true", help="overwrite an existing file (even a read-only one)")
    p.add_argument("--catalog", action="append", default=[], help="extra hardware catalog YAML (repeatable)")
    p.set_defaults(run=run_import_aid)


def run_import_aid(args) -> int:
    from ..export.aid_import import AidError, load_aid_text
    from ..model.limits import MAX_AID_BYTES
    from ..storage import save
    from ..storage.catalog_file import catalog_with
    from ..storage.yamlio import FileFormatError, read_text

    out = new_output(args.output, args.force)
    try:
        catalog = catalog_with([Path(p) for p in args.catalog])
        fabric = load_aid_text(read_text(Path(args.aid), MAX_AID_BYTES, "AID file"), args.aid, catalog)
        say_removed(save(fabric, out, force=args.force, verify=True))
    except (AidError, FileFormatError) as exc:
        raise CliError(str(exc)) from None
    print(f"wrote {out}: {len(fabric.servers)} servers, {len(fabric.switches)} switches, {len(fabric.links)} links")
    return EXIT_OK
