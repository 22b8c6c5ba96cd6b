"""``rail-designer diff OLD NEW``: what changed between two designs or two bundles, and whether a running
fabric takes it without an outage. The exit status is a CI gate: 0 nothing disruptive, 1 disruptive
changes (with ``--fail-on any``: any change), 2 inputs that cannot be compared."""

from __future__ import annotations

import sys

import designer

from .common import EXIT_FINDINGS, EXIT_OK


def register(sub) -> None:
    p = sub.add_parser(
        "diff", help="what changed between two designs or two bundles, device by device",
        description="Compares two design files (on the model: attributes, cables, addresses, ASNs, pins, PPD pin "
                    "maps, design-wide settings) or two bundle folders written by `export` (file by file through "
                    "their MANIFEST.sha256: JSON as data, other files line by line). Each device is added, removed, "
                    "unchanged, additive (only gains: a cable on a free port, a new address, neighbour, route or "
                    "port) or disruptive (something in use changes or goes away). Exit 0 when nothing is "
                    "disruptive (no device disruptive or removed, no disruptive design-wide change), 1 when "
                    "something is (with --fail-on any: when anything changed), 2 when the inputs cannot be "
                    "compared.")
    p.add_argument("old", help="the design file or bundle folder before the change")
    p.add_argument("new", help="the design file or bundle folder after it")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--fail-on", choices=("disruptive", "any"), default="disruptive",
                   help="what makes the exit status 1: a disruptive change (default) or any change at all")
    p.add_argument("--all", action="store_true", help="list every change of a device in the table, not the first 12")
    p.add_argument("--catalog", action="append", default=[], help="extra hardware catalog YAML (repeatable)")
    p.set_defaults(run=run_diff)


def run_diff(args) -> int:
    from ..changes.table import as_json, table
    report = designer.diff(args.old, args.new, catalogs=args.catalog)
    if args.format == "json":
        sys.stdout.write(as_json(report))
    else:
        for line in (table(report, limit=None) if args.all else table(report)):
            print(line)
    failed = report.changed if args.fail_on == "any" else report.disruptive
    return EXIT_FINDINGS if failed else EXIT_OK
