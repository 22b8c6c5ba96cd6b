"""What one nccl-tests run in a log says, as plain records (filled by `parse`)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Where:
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True, slots=True)
class Measure:
    time_us: float
    algbw: float              # GB/s
    busbw: float              # GB/s
    wrong: int | None         # None: validation off ("N/A")


@dataclass(frozen=True, slots=True)
class Row:
    size: int                 # bytes
    count: int
    dtype: str
    redop: str
    root: int | None
    out_of_place: Measure
    in_place: Measure | None
    where: Where

    @property
    def busbw(self) -> float:
        """The out-of-place busbw: the figure judged (in-place is shown beside it, never instead)."""
        return self.out_of_place.busbw

    @property
    def wrong(self) -> int:
        return sum(m.wrong or 0 for m in (self.out_of_place, self.in_place) if m is not None)


@dataclass(frozen=True, slots=True)
class Rank:
    rank: int
    host: str
    device: int
    pid: int
    gpu: str
    where: Where


@dataclass(frozen=True, slots=True)
class Connection:
    """One ``Channel cc/k : r1[d1] -> r2[d2] [send|receive] via NET/IB/n`` line."""

    host: str                 # the host that printed it
    channel: int
    conn: int
    src_rank: int
    dst_rank: int
    direction: str            # "send" or "receive"
    netdev: int               # index into the host's NET/IB device list
    proxy: int | None         # PXN: the rank whose NIC carries it (None: the printing rank's own)
    where: Where
    network: str = "IB"       # the net plugin's name: IB, Socket, IBext_v8 / NCCL RDMA Plugin v8, AWS Libfabric


@dataclass(frozen=True, slots=True)
class NicReport:
    """A host's NCCL net device: from ``NET/IB : Using [i]name:port/RoCE`` and ``NET/IB: [i] ... speed=``."""

    host: str
    index: int
    rdma: str
    link: str                 # "RoCE", "IB" or "Socket"
    speed_mbps: int | None
    where: Where


@dataclass(frozen=True, slots=True)
class Note:
    """An NCCL WARN line, an ``X set by environment to Y`` line, or a test failure."""

    host: str | None
    kind: str                 # "warn", "env", "failure"
    text: str
    where: Where
    name: str = ""            # env: the variable
    value: str = ""           # env: its value


@dataclass(frozen=True, slots=True)
class LogProblem:
    """Something wrong with the file itself (truncated, interleaved); the run keeps what it could read."""

    message: str
    where: Where


@dataclass
class Run:
    file: str
    start: Where
    collective: str | None = None
    version: str | None = None
    ranks: list[Rank] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    avg_busbw: float | None = None
    out_of_bounds: int | None = None
    concluded: bool = False
    connections: list[Connection] = field(default_factory=list)
    nics: list[NicReport] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    problems: list[LogProblem] = field(default_factory=list)
    networks: dict[str, None] = field(default_factory=dict)   # net plugins named, in order of appearance
    collective_from: str = ""          # "the result columns" when only their shape told the collective
    nranks: int | None = None          # from NCCL's ``... rank R nranks N ...`` lines
    nccl_hosts: dict[str, None] = field(default_factory=dict)  # hosts that printed NCCL lines, in order

    @property
    def rank_count(self) -> int:
        """Ranks in the job: the rank table's, or NCCL's nranks when the table is missing or cut."""
        return max(len(self.ranks), self.nranks or 0)

    @property
    def peak(self) -> Row:
        """The row of the highest out-of-place busbw (the first of equals)."""
        return max(self.rows, key=lambda r: r.out_of_place.busbw)

    @property
    def nodes(self) -> int:
        return len(self.hosts)

    @property
    def name(self) -> str:
        return f"{self.collective or 'nccl-tests'} ({self.start})"

    @property
    def hosts(self) -> list[str]:
        """Hosts in rank order, each once."""
        seen: dict[str, None] = {}
        for r in sorted(self.ranks, key=lambda r: r.rank):
            seen.setdefault(r.host, None)
        return list(seen)
