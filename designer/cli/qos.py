"""``rail-designer qos-check BUNDLE``: do hosts and the switch ports they are cabled to agree on RoCE QoS?"""

from __future__ import annotations

import argparse

import designer

from ..qos.check import as_json, codes_text, table
from .common import EXIT_FINDINGS, EXIT_OK


def register(sub) -> None:
    p = sub.add_parser(
        "qos-check", help="check that each host NIC and its switch port agree on RoCE QoS (from the bundle's files)",
        description="Reads each host's roce-qos.sh, nccl.env, netplan.yaml and policy-routing.sh and each switch's "
                    "config_db.json back from the bundle (cabling.csv says who is cabled to whom) and compares, per "
                    "host NIC and switch port: the DSCP of RoCE data and CNPs and the class the switch gives it, "
                    "the PFC priorities and the lossless PG / queue maps, trust mode, ECN, and MTU (NIC, port, "
                    "path through the fabric). With --dumps, a dumped device is judged by what it runs. "
                    "Exit 0 all agree, 1 disagreements, 2 unusable input.",
        epilog=codes_text(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("bundle", help="the bundle folder (rail-designer export)")
    p.add_argument("--dumps", metavar="DIR", help="device dumps (as for `rail-designer drift`) to read instead")
    p.add_argument("--format", choices=["table", "json"], default="table", help="output format (default table)")
    p.set_defaults(run=run_qos_check)


def run_qos_check(args) -> int:
    report = designer.qos_check(args.bundle, dumps=args.dumps)
    if args.format == "json":
        print(as_json(report), end="")
    else:
        print("\n".join(table(report)))
    return EXIT_OK if report.clean else EXIT_FINDINGS
