"""What real machines say: ``nvidia-smi topo -m`` (a server model and its rails), ibdev2netdev /
show_gids (the NICs' real names, the RoCE v2 GID index) and LLDP dumps (the as-built cabling)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from .common import read_input

if TYPE_CHECKING:
    from ..importers.inventory import InventoryResult
    from collections.abc import Iterable

    from ..importers.apply import ApplyResult
    from ..importers.verify import VerifyResult
    from ..model.fabric import Fabric
    from .topo_import import TopoImport

DEFAULT_SPEED = 400


def import_topo(file: str | os.PathLike, catalog: str | os.PathLike, *, name: str | None = None,
                speed: int = DEFAULT_SPEED, force: bool = False) -> TopoImport:
    """Read ``nvidia-smi topo -m`` output (``"-"``: standard input), work out the rails (the closest NIC
    of each GPU by PCIe relation) and add the server model to the user catalog file ``catalog`` (created
    if missing; a model of the same id is replaced). ``name``: the model id (default: from the file
    name); ``speed``: the NIC speed in Gb/s (topo output does not say). The catalog is written atomically
    and only when it loads again with the model in it; a read-only catalog needs ``force``. Raises a
    DesignerError (``ImportFormatError`` with file and line, ``ImportRefused``, ``FileFormatError``) and
    then leaves the catalog unchanged."""
    from ..importers.affinity import parse_topo
    from ..importers.errors import ImportRefused
    from ..model.hardware import Catalog
    from ..model.limits import MAX_TOPO_BYTES
    from ..storage.atomic import write_atomic, write_problem
    from ..storage.catalog_file import catalog_document, load_catalog_file, parse_catalog
    from ..storage.yamlio import Context, FileFormatError, dump, parse
    from .topo_import import TopoImport

    source = os.fspath(file)
    topo = parse_topo(read_input(source, MAX_TOPO_BYTES, "'nvidia-smi topo -m' output"),
                      name=name or _model_name(source), speed=speed, source=source)
    model = topo.server_model()
    path = Path(catalog).expanduser()
    try:
        models = load_catalog_file(path) if path.exists() else Catalog()
    except FileFormatError as exc:
        raise FileFormatError(exc.file, f"{exc.message} (the catalog was not changed)", exc.line, exc.field) from None
    replaced = model.id in models.servers
    models.servers[model.id] = model
    text = dump(catalog_document(models, models.switches, models.servers))
    try:                                   # what is written must load again, or nothing is written
        parse_catalog(Context(str(path), text), parse(text, str(path)), (), builtin=False)
    except FileFormatError as exc:
        raise ImportRefused(f"{source}: the server model read from it would not load from {path} ({exc.message}); "
                            "the catalog was not changed") from None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        removed = write_atomic(path, text, force=force)
    except OSError as exc:
        raise FileFormatError(str(path), f"{write_problem(exc)} (the catalog was not changed)") from None
    return TopoImport(topo, model, path, replaced, removed)


def _model_name(source: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9-]+", "-", Path(source).stem).strip("-").lower()[:63].strip("-")
    return stem or "imported-server"


def apply_nics(fabric: Fabric, inputs: Iterable[str | os.PathLike] | str | os.PathLike, *,
               server: str | None = None, model: str | None = None) -> ApplyResult:
    """Give the rail NICs their real interface names from ibdev2netdev and/or show_gids output files
    (``"-"``: standard input), on one ``server`` (id or host name) or on every server of a ``model``;
    show_gids also gives the RoCE v2 GID index (NCCL_IB_GID_INDEX). One batch of edits on ``fabric``:
    save it afterwards. Returns an ``ApplyResult`` (``servers``, ``renamed``: nic_id, rdma, old, new;
    ``unchanged``, ``not_in_input``, ``unused``, ``gid_index``, ``notes``). Raises a DesignerError:
    ``ImportFormatError`` (file and line), ``UnknownDevice`` (no such server or model in the design),
    ``ImportRefused`` (names that fit no rail NIC, or would give two NICs of a server one name)."""
    from ..importers.apply import apply_nic_names, target_servers
    from ..importers.errors import ImportRefused
    from ..importers.nicnames import read_nic_names
    from ..model.errors import ModelError
    from ..model.limits import MAX_NIC_NAMES_BYTES
    if (server is None) == (model is None):
        raise TypeError("apply_nics() takes server= or model=, exactly one of them")
    sources = [os.fspath(p) for p in ([inputs] if isinstance(inputs, (str, os.PathLike)) else inputs)]
    names = read_nic_names([(s, read_input(s, MAX_NIC_NAMES_BYTES, "ibdev2netdev / show_gids output"))
                            for s in sources])
    servers = target_servers(fabric, server=server, model=model)
    try:
        return apply_nic_names(fabric, servers, names)
    except (ImportRefused, ModelError) as exc:
        raise ImportRefused(f"{', '.join(sources)}: {exc}") from None


def verify(fabric: Fabric, lldp: str | os.PathLike) -> VerifyResult:
    """Compare the LLDP neighbours in a folder of dumps (one per device, named by host: ``lldpctl -f json``
    or ``-f json0`` from hosts, SONiC ``show lldp table`` from switches) with the design's cabling.
    Returns a ``VerifyResult``: ``as_planned``, ``mismatches`` (``kind``: cross-rail, miswired, unplanned,
    missing or unknown; ``ends``, ``expected``, ``found``, ``message``), ``moves`` (the re-cabling work
    order, each with ``text``), ``not_checked``, ``notes`` and ``ok``. Raises a DesignerError
    (``ImportFormatError``, naming the file and line) for a dump it cannot read."""
    from ..importers.lldp import read_lldp_dir
    from ..importers.verify import verify as compare
    return compare(fabric, read_lldp_dir(Path(lldp)))


def verify_ib(fabric: Fabric, ibnetdiscover: str | os.PathLike) -> VerifyResult:
    """Compare ``ibnetdiscover`` output (a file, ``"-"``: standard input) from an InfiniBand fabric with the
    design's cabling. Nodes match by the design's GUIDs, else by node description (a switch's host name,
    an HCA's ``"<host> <rdma device>"``). Returns a ``VerifyResult`` as `verify` does; its mismatch kinds
    add ``rate`` (a planned cable up at another width or speed than the design's, ``4xNDR``) and an
    ``unknown`` mismatch names the unknown GUID the port sees. Raises ``ImportFormatError`` naming the
    file and line."""
    from ..importers.ibnd import parse_ibnd
    from ..importers.ibverify import verify_ib as compare
    from ..model.limits import MAX_IBND_BYTES
    name = os.fspath(ibnetdiscover)
    nodes = parse_ibnd(read_input(ibnetdiscover, MAX_IBND_BYTES, "ibnetdiscover output"),
                       "standard input" if name == "-" else name)
    return compare(fabric, nodes)


def apply_inventory(fabric: Fabric, inventory: str | os.PathLike) -> InventoryResult:
    """Apply an inventory CSV (``"-"``: standard input) to ``fabric`` in bulk, as one change or none: per row
    a ``device`` (id or current host name) and any of ``hostname``, ``rack``, ``position``, ``model`` (a
    switch's model), or ``nic`` with ``netdev`` / ``rdma`` (that NIC's names); an empty cell changes
    nothing. Save the design afterwards. Returns an ``InventoryResult`` (``rows``, ``hostnames``,
    ``places``, ``models``, ``nic_names``: how many of each changed). Raises ``ImportFormatError`` (a
    DesignerError naming the file, the line and the reason) for a row that cannot be applied; the design
    is then unchanged."""
    from ..importers.inventory import apply_inventory as apply_rows
    from ..model.limits import MAX_DESIGN_BYTES
    return apply_rows(fabric, read_input(inventory, MAX_DESIGN_BYTES, "inventory CSV"), os.fspath(inventory))
