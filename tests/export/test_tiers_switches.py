"""Switch files of three-tier and twin-plane designs: cores, spines with core uplinks, per-group spine
ASNs, spine-core /31s, and FRR's own parser on every frr.conf."""

from __future__ import annotations

import ipaddress
import json
import re
import subprocess

import pytest

from designer.export.bundle import render_in_memory
from designer.export import ppd, switches
from designer.export.switch_data import switch_data
from designer.model.entities import Role
from designer.model.ids import split_endpoint

from tests.export.shapes import NEW_SHAPES, new_shape
from tests.export.test_switch_configs import _vtysh

THREE_TIER = [n for n in NEW_SHAPES if n.startswith("b200")]


def _role(fabric, ep: str) -> Role:
    return fabric.switches[split_endpoint(ep)[0]].role


@pytest.mark.parametrize("name", THREE_TIER)
def test_cores_peer_only_down_and_spines_peer_down_and_up(name):
    f = new_shape(name)
    assert f.cores()
    for core in f.cores():
        sw = switch_data(f, core.id)
        assert sw["role"] == "core" and sw["asn"] == f.settings.core_asn and sw["where"].startswith(" of core group")
        peers = {n["name"] for n in sw["bgp"]["neighbors"]}
        assert peers and all(f.switches[p].role is Role.SPINE for p in peers)
        assert len(sw["bgp"]["neighbors"]) == len(f.cabled_ports(core.id))
    for spine in f.spines():
        sw = switch_data(f, spine.id)
        roles = {f.switches[n["name"]].role for n in sw["bgp"]["neighbors"]}
        assert roles == {Role.LEAF, Role.CORE}
        for n in sw["bgp"]["neighbors"]:
            peer = f.switches[n["name"]]
            assert peer.role is Role.CORE or peer.group == spine.group
            local, remote = (ipaddress.ip_interface(f.addresses[f"{spine.id}/{n['local_port']}"]),
                             ipaddress.ip_interface(f.addresses[f"{n['name']}/{n['peer_port']}"]))
            assert local.network == remote.network and local.network.prefixlen == 31
            if peer.role is Role.CORE:                   # the upper tier holds the even address
                assert int(remote.ip) % 2 == 0
    groups = {}
    for spine in f.spines():
        groups.setdefault(f.asns[spine.id], set()).add(spine.group)
    assert all(len(g) == 1 for g in groups.values()), "spine groups must not share an ASN through the cores"


@pytest.mark.parametrize("name", list(NEW_SHAPES))
def test_every_port_description_names_its_peer_at_every_tier(name):
    f = new_shape(name)
    for switch in f.switches.values():
        sw = switch_data(f, switch.id)
        for port in sw["ports"]:
            peer = f.peer(f"{switch.id}/{port['name']}")
            if peer is None:
                assert port["description"] == "" and port["admin_status"] == "down"
                continue
            device, far = split_endpoint(peer)
            far = far if device in f.switches else f.nic(peer).netdev
            assert port["description"] == f"{f.device(device).hostname}:{far}"


@pytest.mark.parametrize("name", list(NEW_SHAPES))
def test_every_frr_conf_of_the_new_shapes_passes_frr_parser(name, tmp_path):
    vtysh = _vtysh()
    files = render_in_memory(new_shape(name), switches.PARTS + ppd.PARTS)
    confs = {path: text for path, text in files.items() if path.endswith("/frr.conf")}
    assert len(confs) == len(new_shape(name).switches)
    for path, text in confs.items():
        assert "bgp bestpath as-path multipath-relax" in text and "maximum-paths 64" in text
        conf = tmp_path / "frr.conf"
        conf.write_text(text)
        done = subprocess.run([vtysh, "--dryrun", "--inputfile", str(conf)], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, f"{name} {path}: {done.stdout}{done.stderr}"
        db = json.loads(files[path.replace("frr.conf", "config_db.json")])
        for prefix in re.findall(r"^  network (\S+)$", text, re.M):    # import-check: each has an exact route
            connected = {str(ipaddress.ip_interface(k.partition("|")[2]).network)
                         for t in ("INTERFACE", "VLAN_INTERFACE", "LOOPBACK_INTERFACE") for k in db.get(t, {})
                         if "|" in k}
            assert (prefix in connected) != (f"ip route {prefix} blackhole\n" in text), (path, prefix)


def test_twin_plane_switches_stay_in_their_plane():
    f = new_shape("twin-plane-p2p31")
    assert f.settings.fabric_planes == 2
    for switch in f.switches.values():
        sw = switch_data(f, switch.id)
        assert sw["where"] == f" of fabric plane {switch.fabric_plane}"
        for n in sw["bgp"]["neighbors"]:
            assert f.switches[n["name"]].fabric_plane == switch.fabric_plane
        for _, peer in f.cabled_ports(switch.id):
            device = split_endpoint(peer)[0]
            if device in f.servers:
                assert f.nic(peer).fabric_plane == switch.fabric_plane
