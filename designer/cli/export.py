"""Commands that produce configs: export (the bundle) and show (one device, on the terminal)."""

from __future__ import annotations

import os
import sys

from .common import EXIT_FINDINGS, EXIT_OK, CliError, load_design, say_removed

PARALLEL_FROM_DEVICES = 500


def register(sub) -> None:
    p = sub.add_parser("export", help="write the config bundle for a design",
                       description="Writes AID, switch, host, cabling, PPD, Ansible and monitoring files into DIR "
                                   "(atomically: DIR holds the old bundle or the new one, never half).")
    p.add_argument("file")
    p.add_argument("-o", "--output", required=True, metavar="DIR")
    p.add_argument("--only", metavar="PARTS", help="comma-separated parts to write (default: all)")
    p.add_argument("--force", action="store_true", help="export even when the design has error findings")
    p.set_defaults(run=run_export)

    p = sub.add_parser("show", help="print one device's generated configs",
                       description="Prints what the bundle would hold for one device, from the same code.")
    p.add_argument("file")
    p.add_argument("device", help="host name or id of a server or switch")
    p.add_argument("--part", help="only this file, by name without extension: config_db, frr, netplan, "
                                  "policy-routing, sysctl, roce-qos, nccl ...")
    p.set_defaults(run=run_show)


class _Bar:
    """A one-line progress bar on a terminal; silent otherwise."""

    def __init__(self, stream):
        self.stream, self.live = stream, stream.isatty()

    def __call__(self, done: int, total: int, label: str) -> None:
        if self.live:
            width = 30
            filled = width * done // max(total, 1)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label[:40]:40}")
            self.stream.flush()

    def end(self) -> None:
        if self.live:
            self.stream.write("\n")


def run_export(args) -> int:
    from ..export import ExportError, ExportRefused, export
    fabric = load_design(args.file)
    only = [p.strip() for p in args.only.split(",") if p.strip()] if args.only else None
    bar = _Bar(sys.stderr)
    try:
        result = export(fabric, args.output, progress=bar, only=only, force=args.force, workers=_workers(fabric))
    except ExportRefused as exc:
        bar.end()
        raise CliError(str(exc), EXIT_FINDINGS) from None
    except ExportError as exc:
        bar.end()
        raise CliError(str(exc)) from None
    except OSError as exc:
        bar.end()
        raise CliError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    bar.end()
    say_removed(result.removed)
    print(f"wrote {len(result.files)} files ({result.bytes / 1e6:.1f} MB) to {result.outdir}")
    return EXIT_OK


def _workers(fabric) -> int:
    """Forked renderers pay off from a few hundred devices; small designs stay in one process."""
    devices = len(fabric.servers) + len(fabric.switches)
    return max(1, min(os.cpu_count() or 1, 4)) if devices >= PARALLEL_FROM_DEVICES else 1


def run_show(args) -> int:
    from ..export import ExportError, preview
    fabric = load_design(args.file)
    device = args.device if fabric.has_device(args.device) else fabric.hostname_owner(args.device)
    if device is None:
        raise CliError(f"{args.file} has no device named '{args.device}'")
    try:
        files = preview(fabric, device)
    except ExportError as exc:
        raise CliError(str(exc)) from None
    if args.part:
        files = {p: t for p, t in files.items() if p.rsplit("/", 1)[-1].split(".")[0] == args.part}
        if not files:
            names = sorted({p.rsplit("/", 1)[-1].split(".")[0] for p in preview(fabric, device)})
            raise CliError(f"{args.device} has no '{args.part}' file; it has: {', '.join(names)}")
    for path in sorted(files):
        if not args.part:
            print(f"# ---- {path}")
        sys.stdout.write(files[path])
    return EXIT_OK
