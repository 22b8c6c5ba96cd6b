"""Read nccl-tests output as it really arrives: several runs per file, mpirun/srun line prefixes,
``NCCL_DEBUG=INFO`` lines from every rank mixed into the table, lines cut short or spliced together.

What is recognised (the formats of nccl-tests 2.x and NCCL 2.x; see docs/nccl-check.md):

- the header: ``# nccl-tests version``, ``# Collective test starting: all_reduce_perf``, ``# nThread ...``,
  one ``#  Rank  0 Group  0 Pid 123 on host device  0 [0000:18:00] NVIDIA H100`` line per rank
  (older versions have no ``Group``), the column header (with or without ``root``, ``#wrong`` or the
  older ``error``, with or without the per-iteration columns);
- result rows: size, count, type, redop, [root], then time/algbw/busbw/#wrong out-of-place and in-place;
- the footer: ``# Out of bounds values : 0 OK``, ``# Avg bus bandwidth : 45.2``, ``# Collective test concluded``;
- NCCL lines ``host:pid:tid [dev] NCCL INFO|WARN ...``: the network's (`netlines`: every common plugin's
  ``Using``, speed and ``via NET/...`` connection lines), ``X set by environment to Y``,
  ``... rank R nranks N cudaDev D``, ``NCCL version``, and every WARN;
- prefixes ``[1,0]<stdout>:`` (Open MPI ``--tag-output``), ``0:`` (``srun --label``), ``[0]`` (MPICH/PALS);
- ``Test NCCL failure ...`` lines; the table's layout is `table`'s.

The collective is the header's, a command line's binary, the file name's, or else what the result
columns' shape (`shape`) can only be.

Anything else (mpirun banners, ssh warnings, shell noise) is skipped. Problems with the file itself
are kept as `LogProblem`s with their line; only a file with no result at all raises `LogError`.
"""

from __future__ import annotations

import re
from pathlib import Path

from . import COLLECTIVES, LogError
from . import netlines
from .table import Layout, is_header, layout_of_header, layout_of_row, measure
from .runs import LogProblem, NicReport, Note, Rank, Row, Run, Where
from .shape import collective_from_shape

_TAG = re.compile(r"^\s*(?:\[\d+,\d+\]<std(?:out|err)>:\s?|\d+: |\[\d+\](?=\s))")
# MPICH/Cray PALS --label style: every write of rank r starts with "[r]", also in the middle of a line
# ("... sum      -1[0]    1626.5 ..."); a "[r]" glued to the end of a field is one of those.
_RANK_TAG = re.compile(r"\s*\[\d+\]\s")
_MID_TAG = re.compile(r"(?<=\S)\[\d+\](?=\s)")
# "host:pid:tid [dev] NCCL INFO ...", WARN lines with the source position ("[0] misc/ibvwrap.cc:63 NCCL WARN ...")
# and NCCL 2.3's "[0] misc/ibvwrap.cu:61 WARN ..." without the word NCCL.
_NCCL = re.compile(r"(?P<host>[A-Za-z0-9][\w.-]*):(?P<pid>\d+):(?P<tid>\d+) \[(?P<dev>\d+)\] (?:[\w./-]+:\d+ )?"
                   r"(?:NCCL )?(?P<level>INFO|WARN|TRACE) (?P<msg>.*)")
_RANK = re.compile(r"^#?\s*Rank\s+(\d+)\s+(?:Group\s+\d+\s+)?Pid\s+(\d+)\s+on\s+(\S+(?: \S+)*?)\s+device\s+(\d+)\s+"
                   r"\[[^\]]*\]\s*(.*)$")
_AVG = re.compile(r"Avg bus bandwidth\s*:\s*(\S+)")
_OOB = re.compile(r"Out of bounds values\s*:\s*(\d+)")
_STARTING = re.compile(r"Collective test (starting|concluded):\s*(\S+)")
_VERSION = re.compile(r"nccl-tests version\s+(\S+)")
_BINARY = re.compile(r"\b(" + "|".join(c.removesuffix("_perf") for c in COLLECTIVES) + r")_perf(?:_mpi)?\b")
_FAILURE = re.compile(r"\b(?:Test (?:NCCL |CUDA )?|NCCL |CUDA )failure\b.*")   # 2018's "NCCL failure common.cu:921 ..."
_ENV = re.compile(r"^(\w+) set by environment to (.*?)\.?\s*$")
_INIT = re.compile(r"\brank (\d+) nranks (\d+) cudaDev (\d+)\b")
_NCCL_VERSION = re.compile(r"^NCCL version (\S+)")


class _Parser:
    def __init__(self, file: str):
        self.file = file
        self.runs: list[Run] = []
        self.run: Run | None = None
        self.layout: Layout | None = None
        self.pending: str | None = None                   # a binary named before its run's header
        self.init_ranks: dict[int, Rank] = {}
        self.rank_seen: dict[int, Rank] = {}
        self.hosts: set[str] = set()
        self.nic_at: dict[tuple[str, int], int] = {}      # (host, NET index) -> position in run.nics
        self.last_row_line = 0

    def where(self, n: int) -> Where:
        return Where(self.file, n)

    def current(self, n: int) -> Run:
        if self.run is None:
            self.start(n)
        return self.run

    def start(self, n: int) -> None:
        self.finish()
        self.run = Run(self.file, self.where(n), collective=self.pending)
        self.pending = None
        self.layout = None
        self.init_ranks = {}
        self.rank_seen: dict[int, Rank] = {}
        self.hosts: set[str] = set()
        self.nic_at: dict[tuple[str, int], int] = {}

    def finish(self) -> None:
        run = self.run
        if run is None:
            return
        if not run.ranks and self.init_ranks:
            run.ranks = sorted(self.init_ranks.values(), key=lambda r: r.rank)
        if run.rows and run.avg_busbw is None and not run.concluded:
            run.problems.append(LogProblem(
                f"the log ends after the {run.rows[-1].size}-byte row without the '# Avg bus bandwidth' "
                "footer: it looks cut short (the test was killed or the file truncated)",
                self.where(self.last_row_line)))
        self.runs.append(run)
        self.run = None

    # ------------------------------------------------------------------ lines
    def line(self, n: int, raw: str) -> None:
        text = _TAG.sub("", raw.rstrip("\r\n"))
        if _RANK_TAG.match(raw) and not _NCCL.search(text):
            text = _MID_TAG.sub(" ", text)
        m = _NCCL.search(text)
        if m and m.start() > 0:
            m = self.unsplice(text, m)
        if m:
            before = text[:m.start()]
            if before.strip():
                self.plain(n, before, spliced=True)
            self.nccl(n, m)
            return
        self.plain(n, text)

    def unsplice(self, text: str, m: re.Match) -> re.Match:
        """A row's last digits glued to an NCCL line ("... 0su1-srv02:512:5 [2] NCCL WARN") belong to the
        row when the host without them is one of the run's hosts."""
        host = m.group("host")
        bare = host.lstrip("0123456789")
        if host not in self.hosts and bare in self.hosts:
            return _NCCL.match(text, m.start() + len(host) - len(bare)) or m
        return m

    def plain(self, n: int, text: str, spliced: bool = False) -> None:
        body = text.strip()
        if not body:
            return
        if body.startswith("#") or body.startswith("nThread") or body.startswith("Using devices") \
                or _RANK.match(body) or body.startswith("size ") or _AVG.search(body):
            self.comment(n, body.lstrip("#").strip())
            return
        tokens = body.split()
        if tokens[0].isdigit() and len(tokens) > 1 and tokens[1].isdigit():
            self.row(n, tokens, spliced)
            return
        failure = _FAILURE.search(body)
        if failure:
            self.current(n).notes.append(Note(None, "failure", body, self.where(n)))
            return
        binary = _BINARY.search(body)
        if binary:
            self.binary(binary.group(1) + "_perf")

    def binary(self, name: str) -> None:
        """A command line (``mpirun ... ./build/all_reduce_perf -b 8``) names the run it starts, or the one
        whose header came before it."""
        run = self.run
        if run is not None and not run.rows:
            run.collective = run.collective or name
        else:
            self.pending = name

    def comment(self, n: int, body: str) -> None:
        m = _VERSION.search(body)
        if m:
            if self.run is not None and (self.run.ranks or self.run.rows):
                self.start(n)
            self.current(n).version = m.group(1)
            return
        m = _STARTING.search(body)
        if m:
            state, name = m.groups()
            if state == "starting":
                if self.run is not None and (self.run.ranks or self.run.rows):
                    self.start(n)
                self.current(n).collective = name
            elif self.run is not None:
                self.run.collective = self.run.collective or name
                self.run.concluded = True
            return
        if body.startswith("nThread"):
            if self.run is not None and (self.run.ranks or self.run.rows):
                self.start(n)
            self.current(n)
            return
        m = _RANK.match(body)
        if m:
            self.rank(n, m)
            return
        tokens = body.split()
        if is_header(tokens):
            self.layout = layout_of_header(tokens)
            self.current(n)
            return
        m = _OOB.search(body)
        if m and self.run is not None:
            self.run.out_of_bounds = int(m.group(1))
            return
        m = _AVG.search(body)
        if m and self.run is not None:
            try:
                self.run.avg_busbw = float(m.group(1))
            except ValueError:
                self.run.problems.append(LogProblem(f"cannot read the average bus bandwidth '{m.group(1)}'",
                                                    self.where(n)))

    def rank(self, n: int, m: re.Match) -> None:
        run = self.current(n)
        rank, pid, host, device, gpu = int(m.group(1)), int(m.group(2)), m.group(3), int(m.group(4)), m.group(5)
        clash = self.rank_seen.get(rank)
        if clash is not None:
            run.problems.append(LogProblem(
                f"rank {rank} appears twice ({clash.host} at line {clash.where.line} and {host}): each process "
                "ran its own test instead of one job; build nccl-tests with MPI=1 and launch it with mpirun/srun",
                self.where(n)))
            return
        entry = Rank(rank, host, device, pid, gpu.strip(), self.where(n))
        self.rank_seen[rank] = entry
        self.hosts.add(host)
        run.ranks.append(entry)

    def row(self, n: int, tokens: list[str], spliced: bool) -> None:
        run = self.current(n)
        if self.layout is None:
            self.layout = layout_of_row(tokens)
            if self.layout is None:
                run.problems.append(LogProblem("a result row comes before any column header and its fields fit no "
                                               "nccl-tests layout; skipped", self.where(n)))
                return
        layout = self.layout
        base, width, need = layout.base, layout.width, layout.fields
        self.last_row_line = n
        if len(tokens) < need - width:
            why = "it was spliced with another process's output" if spliced else "the log looks truncated"
            run.problems.append(LogProblem(
                f"result row cut short ({len(tokens)} of {need} fields; {why}); skipped", self.where(n)))
            return
        try:
            size, count = int(tokens[0]), int(tokens[1])
            root = int(tokens[base - 1]) if layout.has_root else None
            oop = measure(tokens[base:base + width], layout.counts_wrong)
            ip = measure(tokens[base + width:need], layout.counts_wrong) if len(tokens) >= need else None
        except ValueError as exc:
            run.problems.append(LogProblem(f"result row cannot be read ({exc}); skipped", self.where(n)))
            return
        if len(tokens) < need:
            why = "another process's output was spliced into it" if spliced else "the line is cut short"
            run.problems.append(LogProblem(
                f"result row is missing its in-place half ({why}); its out-of-place numbers are used", self.where(n)))
        redop = tokens[3] if layout.has_redop else ""
        run.rows.append(Row(size, count, tokens[2], redop, root, oop, ip, self.where(n)))

    def nccl(self, n: int, m: re.Match) -> None:
        run = self.current(n)
        host, msg, level = m.group("host"), m.group("msg").strip(), m.group("level")
        where = self.where(n)
        run.nccl_hosts.setdefault(host, None)
        if level == "WARN":
            run.notes.append(Note(host, "warn", msg, where))
            return
        if netlines.is_connection(msg):
            self.connection(run, host, msg, where)
        elif (u := netlines.using(msg)) is not None:
            run.networks.setdefault(u[0], None)
            for index, device, link in u[1]:
                self.add_nic(NicReport(host, index, device, link, None, where))
        elif (s := netlines.speed(msg)) is not None:
            self.add_nic(NicReport(host, *s, where))
        elif (e := _ENV.match(msg)) is not None:
            run.notes.append(Note(host, "env", msg, where, e.group(1), e.group(2).strip()))
        elif (i := _INIT.search(msg)) is not None:
            rank = int(i.group(1))
            run.nranks = max(run.nranks or 0, int(i.group(2)))
            self.init_ranks.setdefault(rank, Rank(rank, host, int(i.group(3)), int(m.group("pid")), "", where))
        elif (v := _NCCL_VERSION.match(msg)) is not None:
            run.version = run.version or f"NCCL {v.group(1)}"
        elif (net := netlines.network(msg)) is not None:
            run.networks.setdefault(net, None)

    def connection(self, run: Run, host: str, msg: str, where: Where) -> None:
        """A ``... via NET/...`` line: its connection, or a problem saying it could not be read (never dropped)."""
        c = netlines.connection(host, msg, where)
        if c is None:
            run.problems.append(LogProblem(f"a network connection line nccl-check cannot read: '{msg[:160]}'; "
                                           "its flow is left out of the cross-rail check", where))
            return
        run.networks.setdefault(c.network, None)
        run.connections.append(c)

    def add_nic(self, report: NicReport) -> None:
        """One report per (host, index); a speed line adds its speed to the ``Using`` line's entry."""
        nics = self.run.nics
        key = (report.host, report.index)
        at = self.nic_at.get(key)
        if at is None:
            self.nic_at[key] = len(nics)
            nics.append(report)
            return
        old = nics[at]
        nics[at] = NicReport(old.host, old.index, old.rdma, old.link,
                             report.speed_mbps if report.speed_mbps is not None else old.speed_mbps, old.where)


def scan_text(text: str, file: str = "<log>") -> list[Run]:
    """Every run ``text`` begins, with or without result rows (a run that hung or failed keeps its rank table,
    NCCL lines and notes), as read; no collective is inferred."""
    p = _Parser(file)
    for n, raw in enumerate(text.splitlines(), 1):
        p.line(n, raw)
    p.finish()
    return p.runs


def parse_text(text: str, file: str = "<log>", collective: str | None = None) -> list[Run]:
    """Every run in ``text`` that has result rows. Raises LogError when none has one."""
    scanned = scan_text(text, file)
    runs = [r for r in scanned if r.rows or r.ranks]
    if not any(r.rows for r in runs):
        failures = [note for r in scanned for note in r.notes if note.kind == "failure"]
        if failures:
            raise LogError(f"{failures[0].where}: the test failed before printing any result: {failures[0].text}")
        started = [r for r in scanned if r.ranks or r.nccl_hosts]
        if started:
            run = started[-1]
            listed = run.rank_count or len(run.nccl_hosts)
            raise LogError(f"{file}: no nccl-tests result row: the test started ({listed} rank(s) or host(s) listed, "
                           f"{len(text.splitlines())} lines) but printed no result, so it hung or was killed before "
                           "its first size; rerun with NCCL_DEBUG=INFO and a timeout to see where")
        raise LogError(f"{file}: no nccl-tests result rows found (expected lines such as "
                       "'   1048576  262144  float  sum  -1  ...' under a '#  size  count  type  redop' header)")
    guess = collective or _BINARY.search(Path(file).name)
    for run in runs:
        if collective:
            run.collective = collective
        elif run.collective is None and guess is not None:
            run.collective = guess.group(1) + "_perf"
        if run.collective is None:
            run.collective = collective_from_shape(run.rows, run.rank_count or None)
            run.collective_from = "the result columns" if run.collective else ""
    return [r for r in runs if r.rows]


def parse_file(path: Path, collective: str | None = None) -> list[Run]:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise LogError(f"{path}: cannot read it: {exc.strerror}") from None
    return parse_text(data.decode("utf-8", "replace"), str(path), collective)
