"""``rail-designer lint BUNDLE``: every switch's config_db.json against SONiC's YANG models (libyang)."""

from __future__ import annotations

import time
from pathlib import Path

import designer

from .common import EXIT_FINDINGS, EXIT_OK

SWITCH_YANG_DIR = "/usr/local/yang-models"       # where a SONiC switch keeps its models


def register(sub) -> None:
    p = sub.add_parser(
        "lint", help="check a bundle's config_db.json files against SONiC's YANG models",
        description="Translates each switches/<host>/config_db.json into SONiC's YANG JSON and validates it with "
                    "libyang against the models SONiC validates with (config reload, GCU apply-patch). "
                    "Without --running each file is checked alone; with --running it is first merged into the "
                    "switch's running config the way `config load` merges it. Exit 0 clean, 1 problems found, "
                    "2 unusable input.")
    p.add_argument("bundle", help="a bundle folder, one switches/<host> folder, or one config_db.json")
    p.add_argument("--yang-dir", default=SWITCH_YANG_DIR, metavar="DIR",
                   help=f"the SONiC YANG models (*.yang); default {SWITCH_YANG_DIR}, their place on a switch")
    p.add_argument("--running", metavar="PATH",
                   help="the switch's running config (`config save` output): a file for one switch, or a folder "
                        "of <hostname>.json files for a whole bundle")
    p.set_defaults(run=run_lint)


def run_lint(args) -> int:
    from ..sonic.lint import report
    start = time.perf_counter()
    results = designer.lint(args.bundle, args.yang_dir, running=args.running)
    for line in report(results, Path(args.bundle)):
        print(line)
    print(f"({time.perf_counter() - start:.2f} s, models from {Path(args.yang_dir)})")
    return EXIT_FINDINGS if any(r.problems for r in results) else EXIT_OK
