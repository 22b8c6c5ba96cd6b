"""An inventory CSV applied to a design in bulk: host names, racks and positions, switch models, NIC names.

Columns (a header row names them; any order, only ``device`` is required, an empty cell changes
nothing): ``device`` (the id or current host name of a server or switch), ``hostname``, ``rack``,
``position``, ``model`` (a switch's model), ``nic`` (``nic3``: the row is about that NIC of the server),
``netdev``, ``rdma``. Every row is checked before anything changes; a refused row names its line, and
the design is then as it was (the changes already made are undone in reverse).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from ..model.errors import ModelError
from ..model.fabric import Fabric
from ..model.limits import excerpt
from .errors import ImportFormatError

COLUMNS = ("device", "hostname", "rack", "position", "model", "nic", "netdev", "rdma")
MAX_ROWS = 200_000


@dataclass
class InventoryResult:
    rows: int
    hostnames: int = 0
    places: int = 0
    models: int = 0
    nic_names: int = 0


def apply_inventory(fabric: Fabric, text: str, source: str = "inventory") -> InventoryResult:
    """Apply every row of an inventory CSV (`COLUMNS`) to ``fabric`` as one change, or none of them."""
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in (reader.fieldnames or [])]
    if "device" not in header:
        raise ImportFormatError(f"the first row must name the columns, 'device' among them (columns: "
                                f"{', '.join(COLUMNS)})", 1, text.split("\n", 1)[0], source)
    unknown = [h for h in header if h not in COLUMNS]
    if unknown:
        raise ImportFormatError(f"unknown column {excerpt(unknown[0])} (columns: {', '.join(COLUMNS)})", 1,
                                text.split("\n", 1)[0], source)
    reader.fieldnames = header
    result = InventoryResult(0)
    undo: list = []
    with fabric.batch():
        try:
            for row in reader:
                line = reader.line_num
                if result.rows >= MAX_ROWS:
                    raise ImportFormatError(f"more than {MAX_ROWS:,} rows", line, None, source)
                cells = {k: (v or "").strip() for k, v in row.items() if k is not None}
                if None in row:
                    raise ImportFormatError("more cells than the header names", line, ",".join(row[None]), source)
                try:
                    _apply_row(fabric, cells, result, undo)
                except ModelError as exc:
                    raise ImportFormatError(str(exc), line, ",".join(cells.get(c, "") for c in header), source) from None
                result.rows += 1
        except BaseException:
            for step in reversed(undo):
                step()
            raise
    return result


def _apply_row(fabric: Fabric, cells: dict, result: InventoryResult, undo: list) -> None:
    name = cells.get("device", "")
    if not name:
        raise ModelError("the device cell is empty: give the id or host name of a server or switch")
    device_id = name if fabric.has_device(name) else fabric.hostname_owner(name)
    if device_id is None:
        raise ModelError(f"the design has no device named {excerpt(name)}")
    if cells.get("nic"):
        _apply_nic(fabric, device_id, cells, result, undo)
        return
    device = fabric.device(device_id)
    if cells.get("hostname") and cells["hostname"] != device.hostname:
        fabric.set_hostname(device_id, cells["hostname"])
        undo.append(lambda d=device_id, h=device.hostname: fabric.set_hostname(d, h))
        result.hostnames += 1
    if cells.get("rack") or cells.get("position"):
        position = _whole(cells["position"], "position") if cells.get("position") else device.position
        fabric.set_place(device_id, cells.get("rack") or device.rack, position)
        undo.append(lambda d=device_id, r=device.rack, p=device.position: fabric.set_place(d, r, p))
        result.places += 1
    if cells.get("model"):
        if device_id not in fabric.switches:
            raise ModelError(f"{device_id} is a server; the model column sets a switch's model")
        if cells["model"] != device.model:
            fabric.set_switch_model(device_id, cells["model"])
            undo.append(lambda d=device_id, m=device.model: fabric.set_switch_model(d, m))
            result.models += 1


def _apply_nic(fabric: Fabric, device_id: str, cells: dict, result: InventoryResult, undo: list) -> None:
    if device_id not in fabric.servers:
        raise ModelError(f"{device_id} is a switch; a nic row names a server's NIC")
    nic = fabric.nic(f"{device_id}/{cells['nic']}")
    netdev, rdma = cells.get("netdev") or nic.netdev, cells.get("rdma") or nic.rdma
    for value, what in ((netdev, "netdev"), (rdma, "rdma")):
        if len(value) > 255 or not value.isprintable() or " " in value:
            raise ModelError(f"{what} {excerpt(value)} of {nic.id} is not an interface name")
    if (netdev, rdma) != (nic.netdev, nic.rdma):
        fabric.set_nic_names(nic.id, netdev, rdma)
        undo.append(lambda n=nic.id, a=nic.netdev, b=nic.rdma: fabric.set_nic_names(n, a, b))
        result.nic_names += 1


def _whole(text: str, what: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise ModelError(f"{what} {excerpt(text)} should be a whole number")
    return int(text)
