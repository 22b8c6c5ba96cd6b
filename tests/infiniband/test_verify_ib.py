"""verify on ibnetdiscover output: the exported topology loaded into ibsim, mis-cabled as a technician
would (two cables swapped, one missing, an HCA on another rail's leaf, a link up at a lower speed or
width, an HCA with a GUID the design does not know), discovered by the real ibnetdiscover after
OpenSM brought the subnet up, and compared with the design. The design is HDR (QM8700, ConnectX-6):
ibsim 0.10 runs links at up to HDR, so the rates it reports are the design's."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

import designer
from designer.cli import main
from designer.export.ib_data import IbIndex
from designer.export.infiniband import SM_DIR
from designer.importers.errors import ImportFormatError
from designer.importers.ibnd import parse_ibnd
from designer.infiniband.sim import Subnet
from designer.model.guids import hca_node_guid
from tests.infiniband import mutate
from tests.infiniband.subnet import need_ibsim

CATALOG = Path(__file__).resolve().parents[1] / "data/infiniband/hdr-catalog.yaml"
HDR = dict(sus=2, servers_per_su=4, rails=2, spines=2, leaf_model="nvidia-qm8700", spine_model="nvidia-qm8700",
           server_model="dgx-a100-8x200g")


@lru_cache(maxsize=None)
def _fabric():
    return designer.build(designer.spec("superpod-h100-ib", **HDR), catalogs=[CATALOG])


def _end(fabric, ep: str) -> tuple[str, int]:
    """(node description, IB port) of a design endpoint, as the topology file names it."""
    end = IbIndex(fabric).end(ep)
    return end.description, end.port


def _discover(tmp_path, edit=None) -> Path:
    fabric = _fabric()
    bundle = tmp_path / "bundle"
    designer.export_bundle(fabric, bundle, parts=["infiniband"])
    topology = bundle / "infiniband/topology.ibnd"
    if edit:
        edit(fabric, topology)
    with Subnet(topology, tmp_path / "run") as net:
        assert net.run_sm(bundle / "infiniband", SM_DIR).engine == "ftree"
        dump = tmp_path / "ibnetdiscover.txt"
        dump.write_text(net.run("ibnetdiscover"))
    return dump


def _free_port(fabric, leaf: str) -> str:
    return next(f"{leaf}/{name}" for name in fabric.ports(leaf) if fabric.link_at(f"{leaf}/{name}") is None)


def _swap(fabric, topo):
    mutate.swap(topo, _end(fabric, fabric.peer("su1-srv01/nic0")), _end(fabric, fabric.peer("su1-srv02/nic0")))


def _missing(fabric, topo):
    mutate.remove(topo, _end(fabric, "su2-srv01/nic1"))


def _wrong_rail(fabric, topo):
    mutate.move(topo, _end(fabric, "su2-srv02/nic0"), _end(fabric, _free_port(fabric, "su2-leaf-r1")))


def _slow(fabric, topo):
    uplink = next(link for link in fabric.sorted_links() if link.a.startswith("spine-") or link.b.startswith("spine-"))
    mutate.rate(topo, _end(fabric, uplink.a), "4xEDR")


def _narrow(fabric, topo):
    mutate.rate(topo, _end(fabric, "su2-srv03/nic0"), "1xHDR")


def _unknown(fabric, topo):
    desc, _ = _end(fabric, "su2-srv04/nic1")
    mutate.replace_hca(topo, desc, hca_node_guid("su2-srv04", 1), 0x0002C9FFFF000000, "localhost mlx5_0")


def test_a_clean_fabric_reports_none(tmp_path):
    need_ibsim()
    result = designer.verify_ib(_fabric(), _discover(tmp_path))
    assert result.ok and not result.moves and len(result.as_planned) == len(_fabric().links) == 32
    assert not result.not_checked


@pytest.mark.parametrize("edit, kinds, actions, as_planned", [
    (_swap, ["miswired", "miswired"], ["move", "move"], 30),
    (_missing, ["missing"], ["add"], 31),
    (_wrong_rail, ["cross-rail"], ["move"], 31),
    (_slow, ["rate"], ["check"], 32),         # the right ports, at the wrong rate
    (_narrow, ["rate"], ["check"], 32),
    (_unknown, ["unknown"], ["check"], 31),
], ids=["swap", "missing", "wrong-rail", "wrong-speed", "wrong-width", "unknown-guid"])
def test_each_injected_mis_cabling_is_found_with_its_work_order(tmp_path, edit, kinds, actions, as_planned):
    need_ibsim()
    fabric = _fabric()
    result = designer.verify_ib(fabric, _discover(tmp_path, edit))
    assert [m.kind for m in result.mismatches] == kinds, [m.message for m in result.mismatches]
    assert [m.action for m in result.moves] == actions, [m.text for m in result.moves]
    assert len(result.as_planned) == as_planned and not result.ok
    text = " | ".join(m.message for m in result.mismatches) + " | " + " | ".join(m.text for m in result.moves)
    if edit is _swap:
        assert "su1-srv01/nic0" in text and "su1-srv02/nic0" in text
    if edit is _wrong_rail:
        assert "CROSS-RAIL" in text and "su2-srv02/nic0" in text and "rail 0 NIC on a rail 1 leaf" in text
    if edit is _slow:
        assert "up at 4xEDR, the design says 4xHDR" in text
    if edit is _narrow:
        assert "su2-srv03/nic0" in text and "up at 1xHDR" in text
    if edit is _unknown:
        assert "unknown GUID 0x0002c9ffff000000 'localhost mlx5_0'" in text


def test_the_command_line_prints_the_work_order_and_exits_1(tmp_path, capsys):
    need_ibsim()
    fabric = _fabric()
    dump = _discover(tmp_path, _swap)
    design = tmp_path / "hdr.fabric.yaml"
    designer.save(fabric, design)
    assert main(["verify", str(design), "--catalog", str(CATALOG), "--ibnetdiscover", str(dump)]) == 1
    out = capsys.readouterr().out
    assert "MISWIRED (2)" in out and "WORK ORDER (2 steps)" in out and "30 cable(s) as planned" in out


def test_a_dump_that_is_not_ibnetdiscover_output_is_one_located_error(tmp_path):
    bad = tmp_path / "dump.txt"
    bad.write_text('Switch\t4 "S-1"\t# "x"\n[9]\t"H-2"[1]\t# "y" lid 1 4xHDR\n')
    with pytest.raises(ImportFormatError, match=r"dump.txt:2: port 9 of S-1, which has 4 ports"):
        designer.verify_ib(_fabric(), bad)
    with pytest.raises(ImportFormatError, match="outside a Switch/Ca record"):
        parse_ibnd('[1]\t"H-2"[1]\n', "x")
