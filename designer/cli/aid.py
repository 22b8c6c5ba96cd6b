"""``import-aid``: rebuild a design file from an AI Infrastructure Descriptor (aid/fabric.aid.json)."""

from __future__ import annotations

import designer

from .common import EXIT_OK, new_output, say_removed


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
    out = new_output(args.output, args.force)
    fabric = designer.import_aid(args.aid, catalogs=args.catalog)
    say_removed(designer.save(fabric, out, force=args.force, verify=True))
    print(f"wrote {out}: {len(fabric.servers)} servers, {len(fabric.switches)} switches, {len(fabric.links)} links")
    return EXIT_OK
