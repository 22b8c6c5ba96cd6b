"""Commands that read real machines: ``import-topo``, ``apply-nics``, ``apply-inventory`` and ``verify``
(LLDP as-built)."""

from __future__ import annotations

import json
from pathlib import Path

import designer

from .common import EXIT_FINDINGS, EXIT_OK, CliError, say_removed

DEFAULT_CATALOG = Path("~/.config/rail-designer/catalog.yaml")


def register(sub) -> None:
    p = sub.add_parser("import-topo", help="add a server model read from 'nvidia-smi topo -m' output",
                       description="Read 'nvidia-smi topo -m' output, work out the rails (closest NIC per GPU) "
                                   "and add the server model to a user catalog file.")
    p.add_argument("file", metavar="FILE", help="the pasted output ('-' for standard input)")
    p.add_argument("--name", help="model id (default: from the file name)")
    p.add_argument("--speed", type=int, default=400, help="NIC speed in Gb/s (not in topo output; default 400)")
    p.add_argument("--catalog", default=str(DEFAULT_CATALOG), help=f"user catalog file (default {DEFAULT_CATALOG})")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--force", action="store_true", help="write the catalog even when the file is read-only")
    p.set_defaults(run=run_import_topo)

    p = sub.add_parser("apply-nics", help="set real NIC names from ibdev2netdev / show_gids output",
                       description="Map RDMA devices to netdev names (and find the RoCE v2 GID index) from "
                                   "ibdev2netdev and/or show_gids output, and save them in the design.")
    p.add_argument("design", metavar="FILE")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--server", metavar="HOST", help="one server (id or host name)")
    who.add_argument("--model", metavar="MODEL", help="every server of this model")
    p.add_argument("inputs", metavar="INPUT", nargs="+", help="ibdev2netdev or show_gids output files")
    p.add_argument("--catalog", action="append", default=[], help="extra catalog file (repeatable)")
    p.add_argument("--force", action="store_true", help="save even when the design file is read-only")
    p.set_defaults(run=run_apply_nics)

    p = sub.add_parser("apply-inventory", help="set host names, racks, switch models and NIC names from a CSV",
                       description="Apply an inventory CSV in bulk: a header row, then per row a device (id or "
                                   "host name) and any of hostname, rack, position, model (a switch's), or nic "
                                   "with netdev/rdma. All rows or none; a refused row names its line.")
    p.add_argument("design", metavar="FILE")
    p.add_argument("inventory", metavar="CSV", help="the inventory ('-' for standard input)")
    p.add_argument("-o", "--output", help="write here instead of over FILE")
    p.add_argument("--catalog", action="append", default=[], help="extra catalog file (repeatable)")
    p.add_argument("--force", action="store_true", help="save even when the output file is read-only")
    p.set_defaults(run=run_apply_inventory)

    p = sub.add_parser("verify", help="compare LLDP neighbours (or ibnetdiscover output) with the design's cabling",
                       description="Read one LLDP dump per device (lldpctl -f json / json0 from hosts, SONiC "
                                   "'show lldp table' from switches), or on InfiniBand the output of "
                                   "ibnetdiscover, report cables as planned, missing, miswired, cross-rail, "
                                   "unknown and (InfiniBand) at the wrong rate, and print a re-cabling work "
                                   "order. Exit status 1 on any mismatch.")
    p.add_argument("design", metavar="FILE")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--lldp", metavar="DIR", help="folder with one dump per device, named by host")
    source.add_argument("--ibnetdiscover", metavar="DUMP",
                        help="ibnetdiscover output from the InfiniBand fabric ('-' for standard input)")
    p.add_argument("--format", choices=("text", "csv"), default="text")
    p.add_argument("--catalog", action="append", default=[], help="extra catalog file (repeatable)")
    p.set_defaults(run=run_verify)


# ---------------------------------------------------------------- import-topo
def run_import_topo(args) -> int:
    imported = designer.import_topo(args.file, args.catalog, name=args.name, speed=args.speed, force=args.force)
    say_removed(imported.removed)
    result, model, path = imported.topo, imported.model, imported.catalog
    if args.format == "json":
        print(json.dumps({**result.to_dict(), "catalog": str(path), "replaced": imported.replaced}, indent=2))
        return EXIT_OK
    print(f"server model {model.id}: {len(result.gpus)} GPUs, {len(result.rails)} rail NICs at {result.speed}G")
    for r in result.rails:
        print(f"  rail {r.index}: {', '.join(f'GPU{g}' for g in r.gpus):<12} {r.rdma:<10} ({r.nic}, {r.link})")
    for n in result.left_out:
        print(f"  left out {n.rdma} ({n.nic}): {n.reason}")
    for note in result.notes:
        print(f"note: {note}")
    print(f"{'replaced' if imported.replaced else 'added'} {model.id} in {path}")
    return EXIT_OK


# ---------------------------------------------------------------- apply-nics
def run_apply_nics(args) -> int:
    fabric = designer.load(args.design, catalogs=args.catalog)
    try:
        result = designer.apply_nics(fabric, args.inputs, server=args.server, model=args.model)
    except designer.UnknownDevice as exc:
        raise CliError(f"{args.design}: {exc}") from None
    say_removed(designer.save(fabric, Path(args.design), force=args.force, verify=True))
    print(f"{len(result.renamed)} NIC(s) renamed on {len(result.servers)} server(s), "
          f"{len(result.unchanged)} already right")
    for r in result.renamed:
        print(f"  {r.nic_id} ({r.rdma}): {r.old} -> {r.new}")
    if result.not_in_input:
        print(f"not in the input (names kept): {', '.join(result.not_in_input)}")
    if result.unused:
        print(f"in the input but not a rail NIC: {', '.join(result.unused)}")
    if result.gid_index is not None:
        print(f"RoCE v2 GID index of the rail NICs: {result.gid_index} (NCCL_IB_GID_INDEX)")
    for note in result.notes:
        print(f"note: {note}")
    print(f"saved {args.design}")
    return EXIT_OK


# ---------------------------------------------------------------- apply-inventory
def run_apply_inventory(args) -> int:
    fabric = designer.load(args.design, catalogs=args.catalog)
    result = designer.apply_inventory(fabric, args.inventory)
    out = Path(args.output or args.design)
    say_removed(designer.save(fabric, out, force=args.force, verify=True))
    print(f"{result.rows} rows: {result.hostnames} host names, {result.places} racks/positions, "
          f"{result.models} switch models, {result.nic_names} NIC names changed; saved {out}")
    return EXIT_OK


# ---------------------------------------------------------------- verify
def run_verify(args) -> int:
    fabric = designer.load(args.design, catalogs=args.catalog)
    result = (designer.verify(fabric, args.lldp) if args.lldp is not None
              else designer.verify_ib(fabric, args.ibnetdiscover))
    print(_csv(result) if args.format == "csv" else _text(result), end="")
    return EXIT_OK if result.ok else EXIT_FINDINGS


def _text(result) -> str:
    out = []
    for kind in ("cross-rail", "miswired", "unplanned", "missing", "unknown", "rate"):
        found = [m for m in result.mismatches if m.kind == kind]
        if found:
            out.append(f"{kind.upper()} ({len(found)})")
            out.extend(f"  {m.message}" for m in found)
    if result.moves:
        out.append(f"WORK ORDER ({len(result.moves)} step{'s' if len(result.moves) != 1 else ''})")
        out.extend(f"  {i}. {m.text}" for i, m in enumerate(result.moves, 1))
    out.extend(f"note: {n}" for n in result.notes)
    out.append(f"{len(result.as_planned)} cable(s) as planned, {len(result.mismatches)} mismatch(es), "
               f"{len(result.not_checked)} not checked (no data at either end)")
    return "\n".join(out) + "\n"


def _csv(result) -> str:
    from ..export.csvtext import csv_text      # here, not at the top: the export package is heavy to import
    rows = []
    for m in result.mismatches:
        expected = dict(m.expected)
        ends = list(m.ends) + [""] * (2 - len(m.ends))
        rows.append(["mismatch", m.kind, ends[0], ends[1], expected.get(ends[0]) or "",
                     expected.get(ends[1]) or "" if ends[1] else "", m.found or "", m.message])
    for i, mv in enumerate(result.moves, 1):
        a, b = (mv.keep, mv.plug) if mv.action == "move" else (mv.unplug or mv.plug, mv.other)
        rows.append([f"step {i}", mv.action, a or "", b or "", "", "", mv.unplug if mv.action == "move" else "",
                     mv.text])
    return csv_text(["record", "kind", "end_a", "end_b", "expected_a", "expected_b", "found", "message"], rows)
