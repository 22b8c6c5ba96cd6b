import pytest

from designer.model.addressing import split_cidr
from designer.planning.addressing import assign_addresses, plan
from designer.planning.errors import PlanningError
from designer.model.entities import AddressingSettings
from dataclasses import replace
from tests.conftest import preset_fabric


def test_same_design_gets_the_same_addresses():
    assert plan(preset_fabric("superpod-su", sus=2)) == plan(preset_fabric("superpod-su", sus=2))


def test_subnet_per_leaf_gives_the_leaf_the_gateway_and_nics_the_next_hosts():
    fabric = preset_fabric("default")
    assert fabric.addresses["su1-leaf-r0/svi"] == "10.0.0.1/29"
    assert fabric.addresses["su1-srv01/nic0"] == "10.0.0.2/29"
    assert fabric.addresses["su2-leaf-r0/svi"] == "10.0.0.9/29"      # next leaf of rail 0: next /29
    assert fabric.addresses["su1-srv01/nic1"] == "10.1.0.2/29"       # rail 1 has its own pool


def test_p2p31_pairs_each_nic_with_its_leaf_port():
    fabric = preset_fabric("rail-optimized-64x4")
    leaf_end = fabric.peer("su1-srv01/nic0")
    nic, leaf = split_cidr(fabric.addresses["su1-srv01/nic0"]), split_cidr(fabric.addresses[leaf_end])
    assert nic[1] == leaf[1] == 31 and nic[0] ^ 1 == leaf[0]


def test_fabric_links_give_the_spine_the_even_address():
    fabric = preset_fabric("default")
    link = next(l for l in fabric.sorted_links() if l.a.startswith("spine-"))
    spine_ip, _ = split_cidr(fabric.addresses[link.a])
    leaf_ip, _ = split_cidr(fabric.addresses[link.b])
    assert spine_ip % 2 == 0 and leaf_ip == spine_ip + 1


def test_pinned_address_is_kept_and_not_handed_to_anyone_else():
    fabric = preset_fabric("default")
    fabric.set_address("su1-srv02/nic0", "10.0.0.2/29", pinned=True)   # the address su1-srv01 had
    assign_addresses(fabric)
    assert fabric.addresses["su1-srv02/nic0"] == "10.0.0.2/29"
    values = [v for k, v in fabric.addresses.items()]
    assert len(values) == len(set(values))
    assert fabric.addresses["su1-srv01/nic0"] != "10.0.0.2/29"


def test_pool_too_small_says_needed_and_available():
    fabric = preset_fabric("superpod-su")
    a = fabric.settings.addressing
    fabric.set_settings(replace(fabric.settings, addressing=replace(a, fabric_pool="10.254.0.0/24")))
    with pytest.raises(PlanningError, match=r"fabric pool 10.254.0.0/24 is too small: it needs 512 addresses "
                                            r"\(256 leaf-spine links of /31\) and has 256"):
        assign_addresses(fabric)


def test_asns_unique_per_leaf_and_shared_by_spines():
    fabric = preset_fabric("default")
    leaf_asns = [fabric.asns[l.id] for l in fabric.leaves()]
    assert len(set(leaf_asns)) == len(leaf_asns) and leaf_asns[0] == 4200000000
    assert {fabric.asns[s.id] for s in fabric.spines()} == {4200100000}


def test_addressing_settings_default_is_subnet_per_leaf():
    assert AddressingSettings().scheme == "subnet-per-leaf"
