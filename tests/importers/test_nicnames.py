"""ibdev2netdev and show_gids: each format, the GID choice, and applying names to a design."""

import re
from pathlib import Path

import pytest

from designer.importers.apply import apply_nic_names, target_servers
from designer.importers.errors import ImportFormatError
from designer.importers.nicnames import (detect, parse_ibdev2netdev, parse_show_gids, read_nic_names,
                                         roce_v2_index)

DATA = Path(__file__).parent.parent / "data" / "importers"


def text(name):
    return (DATA / name).read_text()


def test_plain_ibdev2netdev_keeps_down_ports_and_bonds():
    names = parse_ibdev2netdev(text("ibdev2netdev-plain.txt"))
    assert names == {"mlx5_0": "ens1np0", "mlx5_1": "ens2np0", "mlx5_2": "ens3np0", "mlx5_3": "ens4np0",
                     "mlx5_bond_0": "bond0"}


def test_column_t_form_with_comments_prompt_and_blank_lines():
    names = parse_ibdev2netdev(text("ibdev2netdev-column-t.txt"))
    assert names == {"mlx5_0": "ibp26s0", "mlx5_1": "ibp60s0", "mlx5_2": "ibp77s0", "mlx5_3": "ibp94s0",
                     "mlx5_bond_0": "bond0"}


def test_verbose_form_with_pci_address_and_card_name():
    assert parse_ibdev2netdev(text("ibdev2netdev-verbose.txt")) == {"mlx5_0": "ens1np0", "mlx5_1": "ens2np0"}


def test_ibdev2netdev_garbage_line_is_named():
    with pytest.raises(ImportFormatError) as err:
        parse_ibdev2netdev("mlx5_0 port 1 ==> ens1np0 (Up)\nmlx5_1 port 1 -> ens2np0\n", "x.txt")
    assert err.value.line == 2 and "x.txt:2" in str(err.value)


def test_show_gids_rows_with_blank_ipv4_cells():
    gids = parse_show_gids(text("show-gids.txt"))
    assert len(gids) == 16
    first, fourth = gids[0], gids[3]
    assert (first.rdma, first.index, first.ipv4, first.version, first.netdev) == ("mlx5_0", 0, None, "v1", "ens1np0")
    assert (fourth.index, fourth.ipv4, fourth.version) == (3, "10.0.0.11", "v2")


def test_roce_v2_index_prefers_ipv4_mapped_then_lowest():
    gids = parse_show_gids(
        "DEV PORT INDEX GID IPv4 VER DEV\n"
        "mlx5_0 1 0 fe80:0000:0000:0000:0ac0:ebff:fe4b:3a00 v1 ens1np0\n"
        "mlx5_0 1 1 fe80:0000:0000:0000:0ac0:ebff:fe4b:3a00 v2 ens1np0\n"
        "mlx5_0 1 5 0000:0000:0000:0000:0000:ffff:0a00:000b 10.0.0.11 v2 ens1np0\n"
        "mlx5_1 1 0 fe80:0000:0000:0000:0ac0:ebff:fe4b:3a01 v1 ens2np0\n"
        "mlx5_1 1 1 fe80:0000:0000:0000:0ac0:ebff:fe4b:3a01 v2 ens2np0\n"
        "mlx5_2 1 0 fe80:0000:0000:0000:0ac0:ebff:fe4b:3a02 v1\n")
    assert roce_v2_index(gids) == {"mlx5_0": 5, "mlx5_1": 1}


def test_detect_and_merge_both_inputs():
    assert detect(text("ibdev2netdev-column-t.txt")) == "ibdev2netdev"
    assert detect(text("show-gids.txt")) == "show_gids"
    names = read_nic_names([("a", text("ibdev2netdev-plain.txt")), ("b", text("show-gids.txt"))])
    assert names.netdevs["mlx5_2"] == "ens3np0" and names.gid_index == {f"mlx5_{i}": 3 for i in range(4)}
    with pytest.raises(ImportFormatError, match="neither ibdev2netdev nor show_gids"):
        read_nic_names([("c", "hello world\n")])


def test_conflicting_inputs_are_refused():
    with pytest.raises(ImportFormatError, match="mlx5_0 is ens1np0 in a but ibp26s0 here"):
        read_nic_names([("a", text("ibdev2netdev-plain.txt")), ("b", text("ibdev2netdev-column-t.txt"))])


def test_apply_to_every_server_of_a_model(default_fabric):
    names = read_nic_names([("c", text("ibdev2netdev-column-t.txt")), ("g", text("show-gids.txt").replace(
        "ens1np0", "ibp26s0").replace("ens2np0", "ibp60s0").replace("ens3np0", "ibp77s0").replace(
        "ens4np0", "ibp94s0"))])
    servers = target_servers(default_fabric, model="gpu-4x400g")
    assert len(servers) == 8
    result = apply_nic_names(default_fabric, servers, names)
    assert len(result.renamed) == 32 and result.unused == ["mlx5_bond_0"]
    assert default_fabric.nic("su2-srv04/nic2").netdev == "ibp77s0"
    assert default_fabric.nic("su2-srv04/nic2").rdma == "mlx5_2"
    assert result.gid_index == 3 and result.notes == []


def test_apply_to_one_server_by_hostname_reports_missing_and_records_its_gid_index(default_fabric):
    default_fabric.set_hostname("su1-srv02", "gpu-node-17")
    gids = re.sub(r"\tens\dnp0", "", text("show-gids.txt")).replace("\t3\t0000", "\t7\t0000")
    names = read_nic_names([("v", text("ibdev2netdev-verbose.txt")), ("g", gids)])
    result = apply_nic_names(default_fabric, target_servers(default_fabric, server="gpu-node-17"), names)
    assert result.servers == ["su1-srv02"] and result.renamed == []
    assert result.unchanged == ["su1-srv02/nic0", "su1-srv02/nic1"]
    assert result.not_in_input == ["su1-srv02/nic2", "su1-srv02/nic3"]
    assert result.gid_index == 7 and result.notes == []
    assert default_fabric.servers["su1-srv02"].gid_index == 7
    from designer.export import preview
    assert "NCCL_IB_GID_INDEX=7\n" in preview(default_fabric, "su1-srv02")["hosts/gpu-node-17/nccl.env"]
    assert "NCCL_IB_GID_INDEX=3\n" in preview(default_fabric, "su1-srv01")["hosts/su1-srv01/nccl.env"]


def test_apply_with_no_matching_device_is_an_error(default_fabric):
    names = read_nic_names([("x", "mlx5_9 port 1 ==> eth9 (Up)\n")])
    with pytest.raises(ValueError, match="none of the input's RDMA devices"):
        apply_nic_names(default_fabric, ["su1-srv01"], names)
    with pytest.raises(ValueError, match="no server 'nope'"):
        target_servers(default_fabric, server="nope")
