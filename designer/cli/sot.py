"""``rail-designer sot push|pull``: the design in a source of truth (Nautobot, NetBox), both ways."""

from __future__ import annotations

from pathlib import Path

import designer

from .common import CliError, EXIT_OK, new_output


def register(sub) -> None:
    p = sub.add_parser("sot", help="push the design into Nautobot or NetBox, or pull it back",
                       description="The design in a source of truth (docs/sot.md). push writes manufacturers, "
                                   "device types, roles, the site, racks, devices, interfaces (breakout children "
                                   "included), cables, prefixes, addresses and the custom fields su, rail, plane, "
                                   "gpu_index and rail_designer; it is keyed on names (a second push says '0 "
                                   "changes') and only changes or deletes objects tagged rail-designer. pull "
                                   "rebuilds a design file from what the server holds; compare it with `diff`.")
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    push = verbs.add_parser("push", help="write the design into the source of truth")
    push.add_argument("design", help="the design file")
    _server_args(push)
    push.add_argument("--dry-run", action="store_true", help="print the changes, write nothing")
    push.add_argument("--catalog", action="append", default=[], help="extra hardware catalog YAML (repeatable)")
    push.set_defaults(run=run_push)
    pull = verbs.add_parser("pull", help="rebuild a design file from what the source of truth holds")
    _server_args(pull)
    pull.add_argument("-o", "--output", required=True, help="the design file to write")
    pull.add_argument("--site", help="the site the design was pushed as (default: the only one there)")
    pull.add_argument("--force", action="store_true", help="overwrite the output file")
    pull.set_defaults(run=run_pull)
    p.set_defaults(run=None)


def _server_args(p) -> None:
    p.add_argument("--url", required=True, help="the server, e.g. http://nautobot.example:8080")
    p.add_argument("--token-file", required=True, help="a file holding the API token (never the token itself)")
    p.add_argument("--kind", choices=("nautobot", "netbox"), default="nautobot", help="the server's kind")


def _token(path: str) -> str:
    try:
        token = Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read the token file {path}: {getattr(exc, 'strerror', None) or exc}") from None
    if not token or any(c.isspace() for c in token):
        raise CliError(f"the token file {path} should hold one token on one line")
    return token


def run_push(args) -> int:
    fabric = designer.load(args.design, catalogs=args.catalog)
    result = designer.sot_push(fabric, args.url, _token(args.token_file), kind=args.kind, dry_run=args.dry_run)
    if args.dry_run:
        for change in result.changes:
            print(change.line())
        print(f"dry run: {result.summary}, nothing written")
    else:
        print(f"{args.kind} at {args.url}: {result.summary}")
    return EXIT_OK


def run_pull(args) -> int:
    out = new_output(args.output, args.force)
    fabric = designer.sot_pull(args.url, _token(args.token_file), site=args.site, kind=args.kind)
    designer.save(fabric, out, force=args.force)
    print(f"wrote {out}: {len(fabric.servers)} servers, {len(fabric.switches)} switches, {len(fabric.links)} cables "
          f"from {args.kind} at {args.url}")
    return EXIT_OK
