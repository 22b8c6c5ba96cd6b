"""Read the matrix printed by ``nvidia-smi topo -m`` as people paste it.

The table has a header row of device labels (``GPU0 .. GPUn``, then ``NIC0 ..`` or, in older
drivers, the RDMA names ``mlx5_0 ..``), optionally followed by the ``CPU Affinity``,
``NUMA Affinity`` and ``GPU NUMA ID`` columns; one row per device; then a ``Legend:`` block and,
in newer drivers, a ``NIC Legend:`` block mapping ``NICk`` to RDMA device names.

The reader works on whitespace tokens, never on character positions, so tabs, spaces, an
affinity value wider than its column, indentation and ANSI escapes (the header is underlined)
make no difference. Lines before the header (prompts, the command itself) are skipped, and the
table ends at the first line that is not a matrix row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model.limits import MAX_GPUS, MAX_TOPO_DEVICES
from .errors import ImportFormatError

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_GPU = re.compile(r"^GPU([0-9]+)\Z")
_NIC_LABEL = re.compile(r"^NIC([0-9]+)\Z")
_CELL = re.compile(r"^(X|NV[0-9]+|PIX|PXB|PHB|NODE|SYS|SOC|N/A)\Z")
_LEGEND_ENTRY = re.compile(r"^(NIC[0-9]+)\s*:\s*(\S+)\Z")
_DEVICE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.:-]{0,63}\Z")
# Header words that start the trailing affinity columns ("CPU Affinity", "NUMA Affinity", "GPU NUMA ID").
_AFFINITY_WORDS = {"CPU", "NUMA", "GPU", "Affinity"}

# PCIe relation between a GPU and a NIC, best first. SOC is the pre-2017 name of SYS.
DISTANCE = {"PIX": 1, "PXB": 2, "PHB": 3, "NODE": 4, "SYS": 5, "SOC": 5}
UNKNOWN_DISTANCE = 6


@dataclass(frozen=True, slots=True)
class TopoNic:
    label: str      # column label in the matrix: NIC3, or mlx5_3 in the older form
    rdma: str       # RDMA device name (from the NIC Legend, or the label itself)


@dataclass(frozen=True, slots=True)
class TopoMatrix:
    """The GPU-to-NIC part of the matrix: ``cells[g][k]`` relates GPU ``gpus[g]`` to ``nics[k]``."""

    gpus: tuple[int, ...]
    nics: tuple[TopoNic, ...]
    cells: tuple[tuple[str, ...], ...]
    _row: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "_row", {g: i for i, g in enumerate(self.gpus)})

    def cell(self, gpu: int, nic: int) -> str:
        return self.cells[self._row[gpu]][nic]

    def distance(self, gpu: int, nic: int) -> int:
        return DISTANCE.get(self.cell(gpu, nic), UNKNOWN_DISTANCE)

    def distances(self) -> list[list[int]]:
        """``[gpu row][nic]`` -> PCIe distance, for the whole matrix at once."""
        return [[DISTANCE.get(c, UNKNOWN_DISTANCE) for c in row] for row in self.cells]


def read_topo(text: str, source: str = "input") -> TopoMatrix:
    """Parse ``nvidia-smi topo -m`` output; raises ImportFormatError naming the line it stopped at."""
    lines = [_ANSI.sub("", line).strip() for line in text.splitlines()]
    header_at = _find_header(lines, source)
    columns = _header_columns(lines[header_at], header_at + 1, source)
    rows, end = _read_rows(lines, header_at + 1, columns, source)
    legend = _nic_legend(lines[end:], end + 1, source)
    gpu_labels = sorted((c for c in columns if _GPU.match(c)), key=lambda c: int(c[3:]))
    nic_labels = [c for c in columns if not _GPU.match(c)]
    for label in gpu_labels:
        if label not in rows:
            raise ImportFormatError(f"the matrix has a {label} column but no {label} row; "
                                    "paste the whole table", end + 1, _at(lines, end), source)
    nics = []
    for label in nic_labels:
        if _NIC_LABEL.match(label):
            if label not in legend:
                raise ImportFormatError(
                    f"{label} is not in the 'NIC Legend:' block, so its RDMA device is unknown; "
                    "paste the output including the NIC Legend", header_at + 1, lines[header_at], source)
            nics.append(TopoNic(label, legend[label]))
        else:
            nics.append(TopoNic(label, label))
    at = {c: i for i, c in enumerate(columns)}
    cells = tuple(tuple(rows[g][at[n.label]] for n in nics) for g in gpu_labels)
    return TopoMatrix(tuple(int(g[3:]) for g in gpu_labels), tuple(nics), cells)


def _at(lines: list[str], index: int) -> str | None:
    return lines[index] if index < len(lines) else None


def _find_header(lines: list[str], source: str) -> int:
    for i, line in enumerate(lines):
        tokens = line.split()
        if tokens and tokens[0] == "GPU0" and (len(tokens) == 1 or not _CELL.match(tokens[1])):
            return i
    raise ImportFormatError("no 'nvidia-smi topo -m' table found: expected a header line that starts "
                            "with GPU0 (for example 'GPU0  GPU1  NIC0  CPU Affinity')", None, None, source)


def _header_columns(line: str, number: int, source: str) -> list[str]:
    columns: list[str] = []
    seen: set[str] = set()
    for token in line.split():
        if token in _AFFINITY_WORDS:
            break
        if not _DEVICE_NAME.match(token) or token in seen:
            raise ImportFormatError(f"{token[:40]!r} in the header is not a device label", number, line, source)
        columns.append(token)
        seen.add(token)
        if len(columns) > MAX_TOPO_DEVICES:
            raise ImportFormatError(f"the header names more than {MAX_TOPO_DEVICES:,} devices; no server has "
                                    "that many GPUs and NICs", number, line, source)
    gpus = sum(1 for c in columns if _GPU.match(c))
    if not gpus:
        raise ImportFormatError("the header names no GPU columns", number, line, source)
    if gpus > MAX_GPUS:
        raise ImportFormatError(f"the header names {gpus:,} GPUs; a server model has at most {MAX_GPUS}",
                                number, line, source)
    return columns


def _read_rows(lines: list[str], start: int, columns: list[str], source: str):
    """Rows from ``start`` until the first line that is not a row; returns (label -> cells, end index)."""
    rows: dict[str, tuple[str, ...]] = {}
    known = set(columns)
    i = start
    while i < len(lines):
        tokens = lines[i].split()
        if not tokens:
            if rows:
                break
            i += 1
            continue
        if tokens[0] not in known:
            break
        label, cells = tokens[0], tokens[1:1 + len(columns)]
        if len(cells) < len(columns):
            raise ImportFormatError(f"the {label} row has {len(cells):,} cells but the header names "
                                    f"{len(columns)} devices", i + 1, lines[i], source)
        for column, cell in zip(columns, cells):
            if not _CELL.match(cell):
                raise ImportFormatError(
                    f"{cell[:20]!r} ({label} to {column}) is not a topology value "
                    "(X, NV#, PIX, PXB, PHB, NODE, SYS)", i + 1, lines[i], source)
        if label in rows:
            raise ImportFormatError(f"{label} has two rows", i + 1, lines[i], source)
        rows[label] = tuple(cells)
        i += 1
    if not rows:
        raise ImportFormatError("the header is not followed by matrix rows", start, _at(lines, start - 1), source)
    return rows, i


def _nic_legend(lines: list[str], first: int, source: str) -> dict[str, str]:
    """NICk -> RDMA device name; a name that could not be a device's is refused (it becomes the
    server model's NIC names)."""
    legend = {}
    for number, line in enumerate(lines, first):
        m = _LEGEND_ENTRY.match(line)
        if m:
            if not _DEVICE_NAME.match(m.group(2)):
                raise ImportFormatError(f"{m.group(2)[:40]!r} is not an RDMA device name (a letter, then letters, "
                                        "digits and _ . : -, at most 64)", number, line, source)
            legend[m.group(1)] = m.group(2)
    return legend
