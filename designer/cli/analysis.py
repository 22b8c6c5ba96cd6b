"""Commands that question a design's forwarding: paths (hop-by-hop trace) and analyze (collisions)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import designer

from .common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, CliError


def add_routing_arguments(p) -> None:
    """--routing, --trials, --seed: how the collision analysis places flows (analyze, nccl-check)."""
    p.add_argument("--routing", choices=("ppd", "ecmp"), default="ppd",
                   help="leaf upstream: PPD pins (default, as the bundle configures) or ECMP hashing; "
                        "spines always use ECMP")
    p.add_argument("--trials", type=int, default=100, help="hash samples (default 100; 1 when nothing is random)")
    p.add_argument("--seed", type=int, default=0)


def check_output_file(path: str, what: str) -> None:
    """Refuse before any work when the file's folder does not exist."""
    if not Path(path).parent.resolve().is_dir():
        raise CliError(f"cannot write the {what} {path}: its folder does not exist")


def add_ib_route_arguments(p) -> None:
    p.add_argument("--ibnetdiscover", metavar="DUMP", help="InfiniBand: ibnetdiscover output from the fabric")
    p.add_argument("--fts", metavar="DUMP", help="InfiniBand: dump_fts output from the fabric (every switch's "
                                                "forwarding table, as the subnet manager programmed it)")


def ib_routes(args):
    """The (ibnetdiscover, dump_fts) pair, or None; one without the other is refused."""
    if bool(args.ibnetdiscover) != bool(args.fts):
        raise CliError("give both --ibnetdiscover and --fts (the fabric's routes come from both)", EXIT_USAGE)
    return (args.ibnetdiscover, args.fts) if args.ibnetdiscover else None


def register(sub) -> None:
    p = sub.add_parser("paths", help="trace a flow and its reply hop by hop through the configured fabric",
                       description="Follows a flow through what the bundle configures: the host's rule and table, "
                                   "the leaf (local delivery or its PPD pin), the spine, the far leaf and host, "
                                   "and the reply back. HOST is a server id or hostname; NIC is nicK or the "
                                   "netdev. Without a NIC every same-rail NIC pair is traced. An InfiniBand design "
                                   "follows the subnet manager's forwarding tables: give --ibnetdiscover and --fts. "
                                   "Exit status 1 when a pair has no route.")
    p.add_argument("file")
    p.add_argument("--from", dest="source", required=True, metavar="HOST[:NIC]")
    p.add_argument("--to", dest="target", required=True, metavar="HOST[:NIC]")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--bundle", metavar="DIR", help="take the hosts' rules and tables from this exported bundle's "
                                                   "netplan files (as edited) instead of from the design")
    add_ib_route_arguments(p)
    p.set_defaults(run=run_paths)

    p = sub.add_parser("analyze", help="predict flow collisions of a collective under PPD or ECMP",
                       description="Places the collective's inter-server flows on the designed links and reports "
                                   "per-link load, the busiest link and the predicted bus-bandwidth fraction "
                                   "(a flow sharing its worst link with k-1 others gets 1/k; the collective runs "
                                   "at its slowest flow). ECMP choices are sampled uniformly, seeded. An InfiniBand "
                                   "design places the flows on the subnet manager's routes: give --ibnetdiscover "
                                   "and --fts.")
    p.add_argument("file")
    p.add_argument("--pattern", required=True, choices=("rail-ring", "allreduce-ring", "alltoall"))
    add_routing_arguments(p)
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--chart", metavar="OUT.png|OUT.svg",
                   help="also write a bar chart of the leaf-spine link loads (PNG or SVG, by the file name)")
    add_ib_route_arguments(p)
    p.set_defaults(run=run_analyze)


def run_paths(args) -> int:
    from ..analysis.report import trace_json, trace_text
    traces = designer.trace(designer.load(args.file), args.source, args.target, bundle=args.bundle,
                            ib_routes=ib_routes(args))
    if args.format == "json":
        json.dump(trace_json(traces), sys.stdout, indent=2)
        print()
    else:
        sys.stdout.write(trace_text(traces))
    return EXIT_OK if all(t.ok for t in traces) else EXIT_FINDINGS


def run_analyze(args) -> int:
    from ..analysis.chart import format_of, write_chart
    from ..analysis.report import analysis_json, analysis_table, chart_links
    if args.chart:
        check_output_file(args.chart, "chart")
        format_of(Path(args.chart))
    routes = ib_routes(args)
    fabric = designer.load(args.file)
    result = designer.analyze(fabric, args.pattern, routing=args.routing, trials=args.trials, seed=args.seed,
                              ib_routes=routes)
    if args.format == "json":
        json.dump(analysis_json(result), sys.stdout, indent=2)
        print()
    else:
        sys.stdout.write(analysis_table(result))
    if args.chart:
        try:
            write_chart(Path(args.chart), [l.utilisation for l in chart_links(result)])
        except OSError as exc:
            raise CliError(f"cannot write the chart {args.chart}: {exc.strerror}") from None
        print(f"wrote {args.chart}", file=sys.stderr)
    return EXIT_OK
