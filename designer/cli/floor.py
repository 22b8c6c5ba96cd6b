"""`rail-designer floor FILE`: the racks of a design's floor and how full each is."""

from __future__ import annotations

import json
from pathlib import Path

import designer

from .common import EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("floor", help="list a design's racks: where each stands, its devices and its fill "
                                     "against its height, power and weight budgets")
    p.add_argument("file")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--catalog", action="append", default=[], help="extra hardware catalog YAML (repeatable)")
    p.set_defaults(run=run)


def run(args) -> int:
    fabric = designer.load(Path(args.file), catalogs=args.catalog)
    racks = designer.floor(fabric)
    if args.format == "json":
        print(json.dumps(racks, indent=2, sort_keys=True))
        return EXIT_OK
    if not racks:
        print(f"{args.file}: the design has no floor (build it with --floor superpod)")
        return EXIT_OK
    print(f"{'rack':14} {'row':10} {'slot':>4} {'units':>7} {'kW':>13} {'kg':>13}  devices")
    for r in racks:
        devices = ", ".join(f"{d['id']}@U{d['unit']}" for d in r["devices"][:4])
        more = len(r["devices"]) - 4
        print(f"{r['rack']:14} {r['row']:10} {r['position']:>4} {r['used_u']:>3}/{r['height_u']:<3} "
              f"{r['power_kw']:>5.1f}/{r['power_budget_kw']:<6g} {r['weight_kg']:>5.0f}/{r['weight_budget_kg']:<6g}  "
              f"{devices}{f' +{more} more' if more > 0 else ''}")
    return EXIT_OK
