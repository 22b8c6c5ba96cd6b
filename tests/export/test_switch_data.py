"""Stage 1 of the switch export, tested as data: names, numbers and the PPD pins."""

from __future__ import annotations

import ipaddress
from dataclasses import replace
from functools import lru_cache

import pytest

from designer.export.errors import ExportError, require_hostname, require_port_name
from designer.export.ppd_data import redirect_action
from designer.export.switch_data import switch_data
from designer.planning.build import build
from designer.planning.topology import leaf_links
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset


@lru_cache(maxsize=None)
def fabric(preset: str):
    return build(load_preset(preset).spec(), builtin_catalog())


PRESETS = ["default", "rail-optimized-64x4", "rail-only-32x4"]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_leaf_has_one_pin_per_downlink(preset):
    f = fabric(preset)
    for leaf in f.leaves():
        links = leaf_links(f, leaf.id)
        sw = switch_data(f, leaf.id)
        if not links.uplinks:                       # rail-only: nothing to pin
            assert sw["ppd"] is None
            continue
        pins = sw["ppd"]["pins"]
        assert [p["downlink"] for p in pins] == [port.name for port, _ in links.downlinks]
        assert len({p["source"] for p in pins}) == len(pins)
        for pin in pins:
            assert f.addresses[pin["nic"]].split("/")[0] == pin["source"]
            assert pin["redirect"] == f"REDIRECT:{pin['next_hop']}@{pin['uplink']}"


def test_n_to_1_groups_downlinks_on_uplinks():
    f = fabric("rail-optimized-64x4")
    ppd = switch_data(f, "su1-leaf-r0")["ppd"]
    assert (ppd["downlinks"], ppd["uplinks"], ppd["n"]) == (64, 32, 2)
    uplinks = [p["uplink"] for p in ppd["pins"]]
    assert all(uplinks.count(u) == 2 for u in set(uplinks)) and len(set(uplinks)) == 32


def test_local_destinations_cover_exactly_the_leafs_servers():
    f = fabric("rail-optimized-64x4")            # p2p31: the downlink /31s, collapsed
    sw = switch_data(f, "su1-leaf-r0")
    local = [ipaddress.ip_network(r["prefix"]) for r in sw["ppd"]["local"]]
    down = {i["port"]: i["address"] for i in sw["interfaces"] if i["port"] in sw["downlinks"]}
    assert len(down) == 64
    covered = sum(n.num_addresses for n in local)
    assert covered == 2 * len(down)
    for cidr in down.values():
        assert any(ipaddress.ip_interface(cidr).ip in n for n in local)
    d = switch_data(fabric("default"), "su1-leaf-r0")   # subnet per leaf: the VLAN subnet
    assert [r["prefix"] for r in d["ppd"]["local"]] == [d["vlan"]["subnet"]]
    assert d["vlan"]["members"] == d["downlinks"] and d["vlan"]["name"] == "Vlan1000"


def test_ports_carry_sonic_strings():
    f = fabric("rail-optimized-64x4")
    ports = {p["name"]: p for p in switch_data(f, "su1-leaf-r0")["ports"]}
    assert (ports["Ethernet0"]["lanes"], ports["Ethernet0"]["speed"]) == ("0,1,2,3", "400000")
    assert (ports["Ethernet4"]["alias"], ports["Ethernet0"]["alias"]) == ("etp1b", "etp1a")
    assert ports["Ethernet256"]["speed"] == "800000" and ports["Ethernet256"]["lanes"] == "256,257,258,259,260,261,262,263"
    assert ports["Ethernet0"]["mtu"] == "9100" and ports["Ethernet0"]["admin_status"] == "up"
    assert ports["Ethernet0"]["fec"] == "rs"
    unused = [p for p in ports.values() if not p["cabled"]]
    assert all(p["admin_status"] == "down" for p in unused)


@pytest.mark.parametrize("preset", ["default", "rail-optimized-64x4"])
def test_bgp_neighbours_are_the_fabric_peers(preset):
    f = fabric(preset)
    for switch_id in f.switches:
        sw = switch_data(f, switch_id)
        peers = [l for l in f.links_of(switch_id)
                 if all(ep.split("/")[0] in f.switches for ep in (l.a, l.b))]
        assert len(sw["bgp"]["neighbors"]) == len(peers)
        for n in sw["bgp"]["neighbors"]:
            local = f"{switch_id}/{n['local_port']}"
            peer_ep = f.peer(local)
            assert f.addresses[peer_ep].split("/")[0] == n["ip"]
            assert n["asn"] == f.asns[peer_ep.split("/")[0]]
            assert ipaddress.ip_interface(f.addresses[local]).network == ipaddress.ip_interface(f.addresses[peer_ep]).network
        assert sw["bgp"]["networks"][0] == f.addresses[f"{switch_id}/lo"]


@pytest.mark.parametrize("bad", ["../x", "a;b", "has space", "-lead", ""])
def test_bad_hostname_is_refused_naming_it(bad):
    with pytest.raises(ExportError, match="cannot export sw1: its host name '" + bad.replace(".", r"\.")):
        require_hostname(bad, "sw1")


@pytest.mark.parametrize("bad", ["../etc", "a;b", "Ethernet 0", "Eth..0"])
def test_bad_port_name_is_refused_naming_it(bad):
    with pytest.raises(ExportError) as err:
        require_port_name(bad, "sw1")
    assert f"'{bad}'" in str(err.value)


def test_switch_data_refuses_a_hostname_the_model_would_never_hold():
    # The Fabric API refuses such names, so a stale or hand-edited object is forged here to prove the
    # exporter's own guard runs before any path is built from the name.
    f = build(load_preset("default").spec(), builtin_catalog())
    f._switches["spine-01"] = replace(f.switches["spine-01"], hostname="../../etc")
    with pytest.raises(ExportError, match=r"'\.\./\.\./etc'"):
        switch_data(f, "spine-01")
    with pytest.raises(ExportError, match=r"'\.\./\.\./etc'"):   # a leaf naming it as a BGP peer
        switch_data(f, "su1-leaf-r0")


def test_missing_address_is_an_export_error():
    f = build(load_preset("default").spec(), builtin_catalog())
    f._addresses.pop("su1-leaf-r0/lo")        # as if planning never ran for it (export --force)
    with pytest.raises(ExportError, match="su1-leaf-r0/lo' has no address"):
        switch_data(f, "su1-leaf-r0")


def test_redirect_uses_sonic_next_hop_syntax():
    assert redirect_action("10.254.0.0", "Ethernet256") == "REDIRECT:10.254.0.0@Ethernet256"


def test_nic_name_that_would_break_a_config_line_is_refused():
    f = build(load_preset("default").spec(), builtin_catalog())
    f.set_nic_names("su1-srv01/nic0", "ens1\nrouter bgp 1", "mlx5_0")      # the model accepts any text here
    with pytest.raises(ExportError, match="su1-srv01: its interface name 'ens1\nrouter bgp 1'"):
        switch_data(f, "su1-leaf-r0")
