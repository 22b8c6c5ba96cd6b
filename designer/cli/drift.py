"""``rail-designer drift BUNDLE DUMPS``: what switches and hosts run against the bundle."""

from __future__ import annotations

import argparse

import designer

from ..drift.report import codes_text, drift_json, drift_table
from .common import EXIT_FINDINGS, EXIT_OK


def register(sub) -> None:
    p = sub.add_parser(
        "drift", help="compare what switches and hosts run (their dumps) with a bundle",
        description="Compares each device's dump (switches: `rail-switch-apply.py dump DIR`; hosts: the bundle's "
                    "hosts/<host>/rail-dump.sh DIR) with the bundle's files for it: missing, extra and changed "
                    "CONFIG_DB keys, BGP neighbours and networks, PPD agent rules, ip rules and routes, sysctls and "
                    "RoCE QoS, each with a finding code (DR...) and what to run to converge. A device with no dump "
                    "is reported as not checked. Exit 0 every device clean, 1 drift (or devices not checked), "
                    "2 unusable input.",
        epilog=codes_text(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("bundle", help="the bundle folder (rail-designer export)")
    p.add_argument("dumps", help="a folder with one sub-folder per device dump (or one dump folder)")
    p.add_argument("--format", choices=["table", "json"], default="table", help="output format (default table)")
    p.set_defaults(run=run_drift)


def run_drift(args) -> int:
    report = designer.check_drift(args.bundle, args.dumps)
    if args.format == "json":
        print(drift_json(report), end="")
    else:
        print("\n".join(drift_table(report)))
    return EXIT_OK if report.clean else EXIT_FINDINGS
