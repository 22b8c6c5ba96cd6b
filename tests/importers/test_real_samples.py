"""The importers on real outputs from public sources (tests/data/real/<kind>, each with its provenance in
its first line), compared with what EXPECTED.json in each folder says a reader of the sample sees."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from designer.importers.affinity import parse_topo
from designer.importers.errors import ImportFormatError
from designer.importers.lldp import parse_lldp
from designer.importers.nicnames import parse_ibdev2netdev, parse_show_gids, roce_v2_index
from designer.importers.topo import read_topo

REAL = Path(__file__).parent.parent / "data" / "real"


def expected(kind: str) -> dict:
    data = json.loads((REAL / kind / "EXPECTED.json").read_text())
    return {k: v for k, v in data.items() if not k.startswith("_")}


def cases(kind: str):
    return [pytest.param(name, want, id=name) for name, want in sorted(expected(kind).items())]


def text(kind: str, name: str) -> str:
    """The sample as the tool printed it: without its first (provenance) line."""
    return (REAL / kind / name).read_text().split("\n", 1)[1]


def first_line(kind: str, name: str) -> str:
    return (REAL / kind / name).read_text().splitlines()[0]


@pytest.mark.parametrize("kind", ["topo", "ibdev2netdev", "show_gids", "sonic_lldp", "lldpctl"])
def test_every_sample_is_written_down_and_has_its_source(kind):
    names = sorted(p.name for p in (REAL / kind).iterdir() if p.name != "EXPECTED.json")
    assert names == sorted(expected(kind))
    for name in names:
        first = first_line(kind, name)
        assert first.startswith("#% source: ") and " | hardware: " in first, name


@pytest.mark.parametrize("name, want", cases("topo"))
def test_topo(name, want):
    matrix = read_topo(text("topo", name), name)
    assert list(matrix.gpus) == want["gpus"]
    assert [[n.label, n.rdma] for n in matrix.nics] == want["nics"]
    if "cells" in want:
        assert [list(row) for row in matrix.cells] == want["cells"]
    if "rails" in want:
        result = parse_topo(text("topo", name), name="sample", source=name)
        assert [[r.index, list(r.gpus), r.rdma, r.link] for r in result.rails] == want["rails"]
    if "rails_refused" in want:
        with pytest.raises(ImportFormatError, match=want["rails_refused"]):
            parse_topo(text("topo", name), name="sample", source=name)


@pytest.mark.parametrize("name, want", cases("ibdev2netdev"))
def test_ibdev2netdev(name, want):
    assert parse_ibdev2netdev(text("ibdev2netdev", name), name) == want


@pytest.mark.parametrize("name, want", cases("show_gids"))
def test_show_gids(name, want):
    if "refused" in want:
        with pytest.raises(ImportFormatError, match=want["refused"]):
            parse_show_gids(text("show_gids", name), name)
        return
    gids = parse_show_gids(text("show_gids", name), name)
    assert len(gids) == want["rows"]
    assert {g.rdma: g.netdev for g in gids} == want["netdevs"]
    assert roce_v2_index(gids) == want["roce_v2"]


@pytest.mark.parametrize("kind, name, want", [pytest.param(kind, name, want, id=name)
                                              for kind in ("sonic_lldp", "lldpctl")
                                              for name, want in sorted(expected(kind).items())])
def test_lldp_dumps(kind, name, want):
    """SONiC show lldp table / neighbors, lldpctl text and keyvalue."""
    fmt, neighbors = parse_lldp(text(kind, name), name)
    assert fmt == want["format"]
    assert [[n.local_port, n.system_name, n.port_id, n.port_descr] for n in neighbors] == want["neighbors"]
