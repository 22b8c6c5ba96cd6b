"""RDMA device -> netdev names and the RoCE v2 GID index, from ``ibdev2netdev`` and ``show_gids``.

``ibdev2netdev`` prints ``mlx5_0 port 1 ==> ens1np0 (Up)`` per port (``-v`` adds the PCI address
and card name in front; people often pipe it through ``column -t`` and keep ``#`` notes).
``show_gids`` prints a table ``DEV PORT INDEX GID IPv4 VER DEV`` whose IPv4 cell is blank for
GIDs without an IPv4 address, ending with ``n_gids_found=N``. NCCL wants the index of the
RoCE v2 GID, best the IPv4-mapped one (``::ffff:a.b.c.d``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model.ids import netdev_problem
from .errors import ImportFormatError

_PCI = re.compile(r"^[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]\Z")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.:-]{0,63}\Z")
_INDEX = re.compile(r"^[0-9]{1,3}\Z")
_IPV4 = re.compile(r"^[0-9]{1,3}(\.[0-9]{1,3}){3}\Z")
_VERSION = re.compile(r"^v[12]\Z")


@dataclass(frozen=True, slots=True)
class Gid:
    rdma: str
    port: int
    index: int
    gid: str
    ipv4: str | None
    version: str          # "v1" or "v2"
    netdev: str | None


@dataclass
class NicNames:
    """What the inputs said: RDMA device -> netdev, and RDMA device -> RoCE v2 GID index."""

    netdevs: dict[str, str] = field(default_factory=dict)
    gid_index: dict[str, int] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)     # RDMA device -> where its netdev came from

    def add_netdev(self, rdma: str, netdev: str, source: str) -> None:
        known = self.netdevs.get(rdma)
        if known is not None and known != netdev:
            raise ImportFormatError(f"{rdma} is {known} in {self.sources[rdma]} but {netdev} here; "
                                    "use outputs taken from the same machine", source=source)
        self.netdevs[rdma] = netdev
        self.sources.setdefault(rdma, source)


def _lines(text: str):
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line and not line.startswith("#"):
            yield number, line


def parse_ibdev2netdev(text: str, source: str = "input") -> dict[str, str]:
    """RDMA device -> netdev from ``ibdev2netdev`` (plain, ``-v`` or ``column -t`` output)."""
    names: dict[str, str] = {}
    for number, line in _lines(text):
        tokens = line.split()
        if "==>" not in tokens:
            if "ibdev2netdev" in line:      # the command line itself, pasted with its prompt
                continue
            raise ImportFormatError("expected an ibdev2netdev line like 'mlx5_0 port 1 ==> ens1np0 (Up)'",
                                    number, line, source)
        arrow = tokens.index("==>")
        rdma = tokens[1] if _PCI.match(tokens[0]) and len(tokens) > 1 else tokens[0]
        netdev = tokens[arrow + 1] if arrow + 1 < len(tokens) else ""
        if "port" not in tokens[:arrow] or not _NAME.match(rdma) or not _NAME.match(netdev):
            raise ImportFormatError("expected '<rdma device> port <n> ==> <netdev> (<state>)'", number, line, source)
        _check_netdev(netdev, number, line, source)
        names[rdma] = netdev
    if not names:
        raise ImportFormatError("no 'mlx5_0 port 1 ==> ens1np0 (Up)' lines found", source=source)
    return names


def parse_show_gids(text: str, source: str = "input") -> list[Gid]:
    gids = []
    for number, line in _lines(text):
        tokens = line.split()
        if tokens[0] in ("DEV", "---") or line.startswith("n_gids_found") or "show_gid" in line:
            continue
        gid = _gid_row(tokens)
        if gid is None:
            raise ImportFormatError("expected a show_gids row: DEV PORT INDEX GID [IPv4] VER [DEV] "
                                    "(a GID index is a number from 0 to 255)", number, line, source)
        if gid.netdev is not None:
            _check_netdev(gid.netdev, number, line, source)
        gids.append(gid)
    if not gids:
        raise ImportFormatError("no GID rows found in show_gids output", source=source)
    return gids


def _check_netdev(netdev: str, number: int, line: str, source: str) -> None:
    """A netdev the host configs can use, or a refusal naming the line (nothing is saved)."""
    problem = netdev_problem(netdev)
    if problem:
        raise ImportFormatError(f"the interface name {netdev[:40]!r} cannot be used in host configs: {problem}",
                                number, line, source)


def _gid_row(tokens: list[str]) -> Gid | None:
    if (len(tokens) < 5 or not _INDEX.match(tokens[1]) or not _INDEX.match(tokens[2]) or int(tokens[2]) > 255
            or ":" not in tokens[3] or not _NAME.match(tokens[0])):
        return None
    rest = tokens[4:]
    ipv4 = rest.pop(0) if rest and _IPV4.match(rest[0]) else None
    if not rest or not _VERSION.match(rest[0]) or len(rest) > 2:
        return None
    netdev = rest[1] if len(rest) == 2 else None
    if netdev is not None and not _NAME.match(netdev):
        return None
    return Gid(tokens[0], int(tokens[1]), int(tokens[2]), tokens[3], ipv4, rest[0], netdev)


def roce_v2_index(gids: list[Gid]) -> dict[str, int]:
    """Per RDMA device, the RoCE v2 GID index: the IPv4-mapped one if any, else a routable (not link-local
    ``fe80:``) IPv6 one (an IPv6-only host, as in Mooncake issue 1617), else the lowest v2 index."""
    best: dict[str, tuple] = {}
    for g in gids:
        if g.version != "v2":
            continue
        rank = (g.ipv4 is None, g.gid.lower().startswith("fe80:"), g.port, g.index)
        if g.rdma not in best or rank < best[g.rdma]:
            best[g.rdma] = rank
    return {rdma: rank[-1] for rdma, rank in sorted(best.items())}


def detect(text: str) -> str:
    """'ibdev2netdev' or 'show_gids' (or '' when the text looks like neither)."""
    for _, line in _lines(text):
        if "==>" in line.split():
            return "ibdev2netdev"
        tokens = line.split()
        if tokens[:3] == ["DEV", "PORT", "INDEX"] or _gid_row(tokens) is not None:
            return "show_gids"
    return ""


def read_nic_names(inputs: list[tuple[str, str]]) -> NicNames:
    """Merge several inputs, each ``(source name, text)``, whatever their format."""
    names = NicNames()
    for source, text in inputs:
        kind = detect(text)
        if kind == "ibdev2netdev":
            for rdma, netdev in parse_ibdev2netdev(text, source).items():
                names.add_netdev(rdma, netdev, source)
        elif kind == "show_gids":
            gids = parse_show_gids(text, source)
            for g in gids:
                if g.netdev:
                    names.add_netdev(g.rdma, g.netdev, source)
            names.gid_index.update(roce_v2_index(gids))
        else:
            raise ImportFormatError("neither ibdev2netdev nor show_gids output "
                                    "(expected lines like 'mlx5_0 port 1 ==> ens1np0 (Up)' or a "
                                    "'DEV PORT INDEX GID IPv4 VER DEV' table)", source=source)
    return names
