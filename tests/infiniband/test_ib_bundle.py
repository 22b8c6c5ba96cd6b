"""The InfiniBand bundle: SM files and topology written, Ethernet parts not (and the README says so)."""

from __future__ import annotations

import pytest

import designer
from designer.export.errors import ExportError


def _bundle(tmp_path):
    fabric = designer.build(designer.spec("superpod-h100-ib", sus=1))
    out = tmp_path / "b"
    designer.export_bundle(fabric, out)
    return fabric, out


def test_ib_bundle_has_sm_files_and_no_ethernet_parts(tmp_path):
    fabric, out = _bundle(tmp_path)
    conf = (out / "infiniband/opensm.conf").read_text()
    assert "routing_engine ftree,updn" in conf and "root_guid_file /etc/opensm/root-guids.conf" in conf
    roots = (out / "infiniband/root-guids.conf").read_text().split()
    assert sum(w.startswith("0x") for w in roots) == len(fabric.spines()) == 4
    topo = (out / "infiniband/topology.ibnd").read_text()
    assert topo.count("\nSwitch\t64 ") == 12 and topo.count("\nCa\t1 ") == 256 and "4xNDR" in topo
    assert not (out / "switches").exists() and not (out / "ppd").exists()
    assert "Not written for an infiniband design" in (out / "README.txt").read_text()
    env = (out / "hosts/su1-srv01/nccl-ib.env").read_text()
    assert "NCCL_IB_HCA==mlx5_0:1,mlx5_3:1," in env and "NCCL_IB_GID_INDEX=" not in env
    with pytest.raises(ExportError, match="not written for infiniband"):
        designer.export_bundle(fabric, tmp_path / "c", parts=["switches"])


def test_ib_bundle_is_deterministic(tmp_path):
    (tmp_path / "1").mkdir()
    (tmp_path / "2").mkdir()
    _, a = _bundle(tmp_path / "1")
    _, b = _bundle(tmp_path / "2")
    assert (a / "MANIFEST.sha256").read_bytes() == (b / "MANIFEST.sha256").read_bytes()
