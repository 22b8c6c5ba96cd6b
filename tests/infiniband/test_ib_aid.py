"""The AID of an InfiniBand design: the fabric kind in its header, the GUIDs the SM files carry, each
server's NCCL_IB_HCA, and a round trip back to the same design."""

from __future__ import annotations

import csv
import json

import pytest

import designer
from designer.export.aid_data import aid_document
from designer.export.aid_import import AidError, fabric_from_aid
from designer.export.ib_data import nccl_ib_hca
from designer.importers.ibnd import parse_ibnd
from designer.storage import dumps
from tests.infiniband.subnet import ib_design


def test_the_aid_carries_the_kind_the_guids_and_nccl_ib_hca_and_reads_back_the_same(tmp_path):
    fabric = ib_design("two-tier")
    out = tmp_path / "bundle"
    designer.export_bundle(fabric, out, parts=["aid", "aid-csv", "infiniband"])
    doc = json.loads((out / "aid/fabric.aid.json").read_text())
    assert doc["design"]["fabric_kind"] == "infiniband"
    nodes = parse_ibnd((out / "infiniband/topology.ibnd").read_text())
    by_desc = {n.description: n for n in nodes.values()}
    for row in doc["devices"]:
        if row["role"] == "server":
            assert row["guid"] is None and row["nccl_ib_hca"] == nccl_ib_hca(fabric.servers[row["id"]])
        else:
            assert int(row["guid"], 16) == by_desc[row["hostname"]].guid
    nics = [r for r in doc["interfaces"] if r["kind"] == "nic" and r["peer"]]
    host = {s.id: s.hostname for s in fabric.servers.values()}
    for row in nics:
        node = by_desc[f"{host[row['device']]} {row['rdma']}"]
        assert int(row["guid"], 16) == node.guid | 1       # the port GUID: node GUID + 1, as ibnetdiscover shows it
    with open(out / "aid/devices.csv", newline="") as fh:
        header = next(csv.reader(fh))
    assert "GUID" in header and "NCCL_IB_HCA" in header
    back = fabric_from_aid(doc, fabric.catalog)
    assert back.settings.infiniband and dumps(back) == dumps(fabric)


def test_an_edited_guid_is_refused_rather_than_lost():
    fabric = ib_design("two-tier")
    doc = aid_document(fabric)
    doc["devices"][-1]["guid"] = "0x0002c9ffffffffff"
    with pytest.raises(AidError, match=r"devices\[\d+\]\.guid: '0x0002c9ffffffffff' is not the design's"):
        fabric_from_aid(doc, fabric.catalog)


def test_an_ethernet_aid_has_no_infiniband_columns():
    doc = aid_document(designer.build(designer.spec("superpod-su", sus=1)))
    assert "fabric_kind" not in doc["design"]
    assert not {"guid", "nccl_ib_hca"} & doc["devices"][0].keys() and "guid" not in doc["interfaces"][0]
