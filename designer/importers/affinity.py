"""From a topology matrix to rails: which NIC serves which GPU, and a server model from that.

With at least as many NICs as GPUs each GPU gets its own NIC by a minimum-cost matching on PCIe
distance (PIX < PXB < PHB < NODE < SYS); among equally good matchings the one that gives GPU0
the lowest-numbered NIC, then GPU1, ... wins, so the result never depends on dict order
(`assignment.lexicographic_assignment`: well under a second for a 256-GPU, 768-NIC matrix). With
fewer NICs than GPUs, GPUs share: each takes its closest NIC. Rail k is the rail of GPU k's NIC,
counted in GPU order. Bonds and NICs no GPU needs stay out, each with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.hardware import NicSpec, ServerModel
from ..model.ids import is_valid_device_id
from ..model.limits import MAX_SPEED
from .assignment import lexicographic_assignment
from .errors import ImportFormatError, ImportRefused
from .topo import DISTANCE, UNKNOWN_DISTANCE, TopoMatrix, read_topo

DEFAULT_SPEED = 400


@dataclass(frozen=True, slots=True)
class TopoRail:
    index: int
    gpus: tuple[int, ...]
    nic: str          # matrix label (NIC0 or mlx5_0)
    rdma: str
    link: str         # PCIe relation of the rail's GPUs to the NIC, worst of them (PIX, PXB, ...)


@dataclass(frozen=True, slots=True)
class LeftOutNic:
    nic: str
    rdma: str
    reason: str


@dataclass(frozen=True, slots=True)
class TopoResult:
    name: str
    gpus: tuple[int, ...]
    rails: tuple[TopoRail, ...]
    left_out: tuple[LeftOutNic, ...]
    speed: int
    notes: tuple[str, ...]

    def server_model(self) -> ServerModel:
        """The server model: NIC k is rail k; netdev names are the RDMA names until apply-nics."""
        nics = tuple(NicSpec(r.index, r.rdma, r.rdma, self.speed, r.gpus) for r in self.rails)
        return ServerModel(
            id=self.name, vendor="", gpus=len(self.gpus), nics=nics, builtin=False,
            description=f"imported from nvidia-smi topo -m: {len(self.gpus)} GPUs, {len(nics)} rail NICs")

    def to_dict(self) -> dict:
        return {
            "name": self.name, "speed": self.speed, "gpus": list(self.gpus),
            "rails": [{"rail": r.index, "gpus": list(r.gpus), "nic": r.nic, "rdma": r.rdma, "link": r.link}
                      for r in self.rails],
            "left_out": [{"nic": n.nic, "rdma": n.rdma, "reason": n.reason} for n in self.left_out],
            "notes": list(self.notes),
        }


def parse_topo(text: str, name: str = "imported-server", speed: int = DEFAULT_SPEED,
               source: str = "input") -> TopoResult:
    """Read ``nvidia-smi topo -m`` output and work out the rails (raises ImportFormatError / ImportRefused)."""
    if not is_valid_device_id(name):
        raise ImportRefused(f"'{name}' is not a usable model id (letters, digits and hyphens)")
    if not 0 < speed <= MAX_SPEED:
        raise ImportRefused(f"NIC speed must be from 1 to {MAX_SPEED} Gb/s, not {speed}")
    matrix = read_topo(text, source)
    try:
        return rails_from(matrix, name, speed)
    except ImportFormatError:
        raise
    except ValueError as exc:
        raise ImportFormatError(str(exc), source=source) from None


def rails_from(matrix: TopoMatrix, name: str, speed: int = DEFAULT_SPEED) -> TopoResult:
    left_out = {}
    candidates = []
    for k, nic in enumerate(matrix.nics):
        if "bond" in nic.rdma:
            left_out[k] = "a bonded device (two ports teamed): bonds carry front-end or storage traffic, not a rail"
        else:
            candidates.append(k)
    if not candidates:
        raise ValueError("the matrix has no NIC that could carry a rail (no NIC columns, or only bonds)")
    distance = dict(zip(matrix.gpus, matrix.distances()))
    if len(candidates) >= len(matrix.gpus):
        columns = lexicographic_assignment([[distance[g][k] for k in candidates] for g in matrix.gpus])
        choice = {g: candidates[c] for g, c in zip(matrix.gpus, columns)}
    else:
        choice = {g: min(candidates, key=lambda k: (distance[g][k], k)) for g in matrix.gpus}
    rails: list[TopoRail] = []
    rail_of: dict[int, int] = {}
    for g in matrix.gpus:
        k = choice[g]
        if k not in rail_of:
            rail_of[k] = len(rails)
            gpus = tuple(h for h in matrix.gpus if choice[h] == k)
            worst = max((matrix.cell(h, k) for h in gpus), key=lambda c: DISTANCE.get(c, UNKNOWN_DISTANCE))
            rails.append(TopoRail(rail_of[k], gpus, matrix.nics[k].label, matrix.nics[k].rdma, worst))
    for k in candidates:
        if k not in rail_of:
            g = min(matrix.gpus, key=lambda h: (distance[h][k], h))
            left_out[k] = (f"not the rail NIC of any GPU (its closest GPU, GPU{g}, is {matrix.cell(g, k)} to it "
                           f"and has a NIC at least as close); likely a storage or front-end NIC")
    notes = (
        f"NIC speed is not in topo output: {speed}G assumed (set it with --speed)",
        "netdev names are not in topo output: the RDMA names stand in for them until "
        "'rail-designer apply-nics' reads ibdev2netdev output",
    )
    return TopoResult(name, matrix.gpus, tuple(rails),
                      tuple(LeftOutNic(matrix.nics[k].label, matrix.nics[k].rdma, left_out[k])
                            for k in sorted(left_out)), speed, notes)
