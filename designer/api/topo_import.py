"""The result of `designer.import_topo` (its own module: dataclasses are imported only when it runs)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..importers.affinity import TopoResult
from ..model.hardware import ServerModel


@dataclass(frozen=True)
class TopoImport:
    """What `import_topo` read and where it put the server model."""
    topo: TopoResult           # gpus, rails (index, gpus, nic, rdma, link), left_out, speed, notes
    model: ServerModel         # the server model now in the catalog (NIC k is rail k)
    catalog: Path              # the catalog file it was written to
    replaced: bool             # a model of that id was there before
    removed: list[Path] = field(default_factory=list)      # leftovers of interrupted writes cleaned up
