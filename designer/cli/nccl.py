"""``nccl-check``: judge nccl-tests logs against the design (the work is in designer.nccl)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .analysis import add_routing_arguments, check_output_file
import designer

from .common import EXIT_FINDINGS, EXIT_OK


def register(sub) -> None:
    from ..nccl import COLLECTIVES
    p = sub.add_parser("nccl-check", help="judge nccl-tests logs against what the design predicts",
                       description="Reads nccl-tests output (any of its binaries; mpirun/srun output and "
                                   "NCCL_DEBUG=INFO lines may be mixed in), maps ranks to the design's servers and NICs, "
                                   "compares out-of-place bus bandwidth by size with the design's rate, ceiling and "
                                   "collision analysis, and names the likely cause of a shortfall. Exit status 1 when a "
                                   "verdict needs action (also when the collective is unknown or busbw is above what "
                                   "the design can carry).")
    p.add_argument("file", help="the design file")
    p.add_argument("logs", nargs="+", metavar="LOG")
    add_routing_arguments(p)
    p.add_argument("--collective", choices=COLLECTIVES,
                   help="the test, for logs that do not say (no binary on a command line, no 'Collective test "
                        "starting' line, and columns that fit more than one test)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--plot", metavar="OUT.png|OUT.svg", help="also draw measured against expected busbw by size")
    p.set_defaults(run=run_nccl_check)


def run_nccl_check(args) -> int:
    from ..analysis.chart import format_of
    from ..nccl.report import result_json, result_text
    if args.plot:
        check_output_file(args.plot, "plot")
        fmt = format_of(Path(args.plot))
    result = designer.nccl_check(designer.load(args.file), args.logs, routing=args.routing, trials=args.trials,
                                 seed=args.seed, collective=args.collective, qps=args.qps)
    if args.format == "json":
        json.dump(result_json(result), sys.stdout, indent=2)
        print()
    else:
        sys.stdout.write(result_text(result))
    if args.plot:
        from ..nccl.plot import busbw_chart
        from ..storage.atomic import write_atomic
        write_atomic(Path(args.plot), busbw_chart(result, fmt))
        print(f"wrote {args.plot}", file=sys.stderr)
    return EXIT_OK if result.ok else EXIT_FINDINGS
