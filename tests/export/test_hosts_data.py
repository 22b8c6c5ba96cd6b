"""Stage 1 of the host export, checked as data."""

from __future__ import annotations

import ipaddress

import pytest

from designer.export.errors import ExportError
from designer.export.host_data import ROCE_TOS, host_data
from designer.export.names import netdev_problem
from designer.export.hosts import PARTS
from designer.planning.addressing import svi_key

from tests.export.helpers_hosts import fabric


def test_subnet_per_leaf_gateway_is_the_leaf_svi():
    f = fabric("default")
    data = host_data(f, "su1-srv01")
    assert [n["rail"] for n in data["nics"]] == [0, 1, 2, 3]
    for nic in data["nics"]:
        leaf = nic["leaf_port"].split("/")[0]
        assert nic["gateway"] == f.addresses[svi_key(leaf)].split("/")[0]
        assert ipaddress.ip_address(nic["address"]) in ipaddress.ip_network(nic["rail_supernet"])
        assert nic["table"] == 100 + nic["rail"] and nic["priority"] == 1000 + nic["rail"]
        assert nic["mtu"] == f.settings.addressing.mtu


def test_p2p31_gateway_is_the_other_end_of_the_31():
    f = fabric("rail-optimized-64x4")
    for nic in host_data(f, "su1-srv07")["nics"]:
        assert nic["prefix"] == 31
        leaf_side = ipaddress.ip_interface(f.addresses[nic["leaf_port"]])
        assert nic["gateway"] == str(leaf_side.ip)
        assert ipaddress.ip_interface(nic["cidr"]).network == leaf_side.network
        assert nic["gateway"] != nic["address"]


def test_nccl_values_follow_rail_order_not_nic_index():
    f = fabric("superpod-su")     # hgx-h100: rdma names skip (mlx5_0, mlx5_3, ...)
    data = host_data(f, "su1-srv01")
    assert data["nccl"]["NCCL_IB_HCA"] == "=" + ",".join(
        f"{r}:1" for r in ["mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"])
    assert data["nccl"]["NCCL_IB_GID_INDEX"] == "3"
    assert data["nccl"]["NCCL_IB_TC"] == "106" and ROCE_TOS >> 2 == 26
    assert data["nccl"]["NCCL_SOCKET_IFNAME"] == "=eno1"


def test_unrailed_or_uncabled_nics_are_left_out():
    f = fabric("default")
    f.set_nic_rail("su1-srv02/nic3", None)
    link = f.link_at("su1-srv02/nic2")
    f.disconnect(link.id)
    assert [n["netdev"] for n in host_data(f, "su1-srv02")["nics"]] == ["ens1np0", "ens2np0"]


@pytest.mark.parametrize("netdev", ["../etc", "a;b", "has space", "x" * 16, ""])
def test_bad_interface_names_are_refused_by_name(netdev):
    f = fabric("default")
    f.set_nic_names("su1-srv03/nic1", netdev, "mlx5_1")
    with pytest.raises(ExportError) as err:
        PARTS[0].render_device(f, "su1-srv03")
    assert repr(netdev)[1:-1] in str(err.value) and "su1-srv03/nic1" in str(err.value)


def test_good_interface_names_pass():
    for name in ["eth0", "ens1np0", "bond0.100", "enp220s0np0", "a_b-c"]:
        assert netdev_problem(name) is None


def test_nccl_cross_nic_is_off_exactly_where_rails_are_not_joined():
    from designer.export.host_data import host_data
    from tests.export.helpers_hosts import fabric as build_fabric
    cases = {("rail-only-32x4", "shared"): "0", ("superpod-su", "per-rail"): "0", ("superpod-su", "shared"): None,
             ("default", "shared"): None}
    for (preset, planes), expected in cases.items():
        f = build_fabric(preset, spine_planes=planes) if planes != "shared" else build_fabric(preset)
        nccl = host_data(f, f.sorted_servers()[0].id)["nccl"]
        assert nccl.get("NCCL_CROSS_NIC") == expected, (preset, planes)


def test_cores_join_per_rail_spine_planes_so_ncclcrossnic_stays_default():
    from designer.planning.reach import rails_isolated_by_design
    from tests.export.shapes import new_shape
    per_rail = new_shape("b200-three-tier-per-rail")
    assert per_rail.settings.spine_planes == "per-rail" and per_rail.cores()
    assert not rails_isolated_by_design(per_rail)
    assert "NCCL_CROSS_NIC" not in host_data(per_rail, per_rail.sorted_servers()[0].id)["nccl"]
    assert rails_isolated_by_design(fabric("default", spine_planes="per-rail"))


def test_twin_plane_ports_get_their_planes_table_rule_supernet_and_nccl_tags():
    from tests.export.shapes import new_shape
    f = new_shape("twin-plane-p2p31")
    data = host_data(f, "su1-srv01")
    assert [(n["rail"], n["plane"]) for n in data["nics"]] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    for n in data["nics"]:
        assert n["table"] == 100 + 100 * n["plane"] + n["rail"] and n["priority"] == 1000 + 100 * n["plane"] + n["rail"]
        assert ipaddress.ip_address(n["address"]) in ipaddress.ip_network(n["rail_supernet"])
    assert len({n["rail_supernet"] for n in data["nics"]}) == 4
    assert data["nccl"]["NCCL_IB_HCA"] == "=" + ",".join(f"{n['rdma']}:1:{n['rail']}:{n['plane']}" for n in data["nics"])


def test_a_port_whose_table_is_linux_reserved_is_refused_by_nic_in_validate_and_export():
    from designer.checks import check
    from tests.export.shapes import new_shape
    f = new_shape.__wrapped__("twin-plane-p2p31")            # its own copy: the shared one stays as built
    nic = next(n["nic_id"] for n in host_data(f, "su1-srv01")["nics"] if n["plane"] == 1)
    f.set_nic_rail(nic, 53)                                  # plane 1, rail 53: table 253, Linux's default
    found = [x for x in check(f) if x.code == "RD031"]
    assert [x.ids for x in found] == [(nic,)] and "routing table 253" in found[0].message
    with pytest.raises(ExportError, match=rf"{nic} on rail 53 of plane 1 would need routing table 253"):
        host_data(f, "su1-srv01")
