"""fabric.topo (the master topology of ``ibdiagnet -t`` and UFM's cable validation) read by IBDM's own
parser (Debian libibdm1 through tclsh): it must build exactly the cables of topology.ibnd, the file the
OpenSM proof loads into ibsim, and report a file that is wrong."""

from __future__ import annotations

import pytest

import designer
from designer.importers.ibnd import parse_ibnd
from designer.infiniband.ibdm import missing, read_topology
from tests.ci import need
from tests.infiniband.subnet import SHAPES, ib_design

PRESETS = {"superpod-h100-ib": {}, "b200-superpod-ib": {}}


def need_ibdm() -> None:
    gone = missing()
    need(not gone, f"reading fabric.topo needs {', '.join(gone)} (Debian: tcl libibdm1)")


def _export(fabric, out):
    designer.export_bundle(fabric, out, parts=["infiniband"])
    return out / "infiniband"


def _read(folder):
    return read_topology(folder / "fabric.topo", folder / "ibnl")


def ibnd_cables(text: str) -> frozenset[tuple[str, str, str, str, str]]:
    """Every cable end of topology.ibnd as (system, port, peer system, peer port, width), named the way
    fabric.topo names them: a switch by its description and ``P<n>``, an HCA by its host and ``<rdma>/P1``."""
    nodes = parse_ibnd(text)

    def name(node_id: str, port: int) -> tuple[str, str]:
        node = nodes[node_id]
        if node.kind == "switch":
            return node.description, f"P{port}"
        host, rdma = node.description.split()
        return host, f"{rdma}/P{port}"

    ends = set()
    for node in nodes.values():
        for port in node.links.values():
            width = port.rate.split("x")[0] + "x"
            ends.add((*name(node.node, port.port), *name(port.remote, port.remote_port), width))
    return frozenset(ends)


def _fabrics():
    for shape in sorted(SHAPES):
        yield pytest.param(lambda s=shape: ib_design(s), id=shape)
    for preset, params in PRESETS.items():
        yield pytest.param(lambda p=preset, k=params: designer.build(designer.spec(p, **k)), id=preset)


@pytest.mark.parametrize("make", list(_fabrics()))
def test_ibdm_builds_the_cables_of_the_design(tmp_path, make):
    need_ibdm()
    folder = _export(make(), tmp_path / "bundle")
    read = _read(folder)
    assert read.status == 0 and read.messages == ()
    expected = ibnd_cables((folder / "topology.ibnd").read_text())
    assert len(expected) >= 32
    assert read.links == expected


def test_ibdm_names_a_port_the_switch_does_not_have(tmp_path):
    need_ibdm()
    folder = _export(ib_design("two-tier"), tmp_path / "bundle")
    topo = folder / "fabric.topo"
    topo.write_text(topo.read_text().replace("QM9700 su1-leaf-r0 P1\n", "QM9700 su1-leaf-r0 P99\n", 1))
    read = _read(folder)
    assert read.status != 0
    assert any("Fail to make cable" in m for m in read.messages), read.messages


def test_ibdm_reads_a_recabled_file_as_recabled(tmp_path):
    """Two server cables of a leaf swapped in the file: IBDM builds the swapped cables, so a file that
    disagrees with the design does not read as the design."""
    need_ibdm()
    folder = _export(ib_design("two-tier"), tmp_path / "bundle")
    topo = folder / "fabric.topo"
    text = topo.read_text()
    text = text.replace("HCA_HGX-H100-8X400G su1-srv01 mlx5_0/P1", "@1").replace(
        "HCA_HGX-H100-8X400G su1-srv02 mlx5_0/P1", "HCA_HGX-H100-8X400G su1-srv01 mlx5_0/P1").replace(
        "@1", "HCA_HGX-H100-8X400G su1-srv02 mlx5_0/P1")
    text = text.replace("su1-leaf-r0 P1\n", "@2\n").replace("su1-leaf-r0 P2\n", "su1-leaf-r0 P1\n").replace(
        "@2\n", "su1-leaf-r0 P2\n")
    topo.write_text(text)
    read = _read(folder)
    assert read.status == 0 and read.messages == ()
    expected = ibnd_cables((folder / "topology.ibnd").read_text())
    assert expected - read.links == {
        ("su1-leaf-r0", "P1", "su1-srv01", "mlx5_0/P1", "4x"), ("su1-srv01", "mlx5_0/P1", "su1-leaf-r0", "P1", "4x"),
        ("su1-leaf-r0", "P2", "su1-srv02", "mlx5_0/P1", "4x"), ("su1-srv02", "mlx5_0/P1", "su1-leaf-r0", "P2", "4x")}


def test_ibdm_refuses_a_system_type_with_no_definition(tmp_path):
    need_ibdm()
    folder = _export(ib_design("two-tier"), tmp_path / "bundle")
    (folder / "ibnl/QM9700.ibnl").unlink()
    read = _read(folder)
    assert read.status != 0
    assert any("QM9700" in m for m in read.messages)
