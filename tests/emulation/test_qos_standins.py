"""The QoS proof's tc stand-ins (designer/emulation/qos.py) follow the files they are built from: a DSCP map
edited in config_db.json, or a host whose roce-qos.sh trusts PCP, moves real packets to another tc class.

What they stand in for: the host NIC's DSCP -> priority classification (mlx5 under mlnx_qos --trust dscp,
default table: priority = DSCP >> 3; CNPs on cnp_802p_prio) and the switch ASIC's DSCP_TO_TC_MAP ->
TC_TO_QUEUE_MAP on an egress port. They are HTB classes and u32 filters in Linux, not the NIC's or the
ASIC's behaviour; the end-to-end proof over FRR-routed namespaces is in test_netns.py (qos rows)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import designer
from designer.emulation.qos import SENDER, class_packets, host_nic_lines, switch_port_lines
from designer.qos.sides import Switch, read_host
from tests.ci import need
from tests.conftest import preset_fabric

SRC, DST = "10.77.0.1", "10.77.0.2"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("standins") / "bundle"
    designer.export_bundle(preset_fabric("rail-optimized-64x4", sus=1, servers_per_su=4), out,
                           parts=["switches", "hosts"])
    return out


@pytest.fixture
def wire():
    """Two namespaces joined by one veth (a0 -- b0), addressed; removed afterwards."""
    need(os.geteuid() == 0 and shutil.which("tc") is not None, "needs root and tc (iproute2) for network namespaces")
    tag = f"rdqs{os.getpid()}"
    a, b = f"{tag}a", f"{tag}b"
    try:
        for cmd in (["ip", "netns", "add", a], ["ip", "netns", "add", b],
                    ["ip", "link", "add", "a0", "netns", a, "type", "veth", "peer", "name", "b0", "netns", b],
                    ["ip", "-n", a, "address", "add", f"{SRC}/24", "dev", "a0"],
                    ["ip", "-n", b, "address", "add", f"{DST}/24", "dev", "b0"],
                    ["ip", "-n", a, "link", "set", "a0", "up"], ["ip", "-n", b, "link", "set", "b0", "up"]):
            subprocess.run(cmd, check=True, capture_output=True)
        yield a
    finally:
        for ns in (a, b):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def classes_after(ns: str, lines: list[str], tos: int, count: int = 50) -> dict[int, int]:
    subprocess.run(["ip", "netns", "exec", ns, "tc", "-batch", "-"], input="\n".join(lines) + "\n", check=True,
                   capture_output=True, text=True)
    subprocess.run(["ip", "netns", "exec", ns, "python3", "-c", SENDER, SRC, DST, str(tos), str(count)], check=True)
    shown = subprocess.run(["ip", "netns", "exec", ns, "tc", "-s", "class", "show", "dev", "a0"], check=True,
                           capture_output=True, text=True).stdout
    return class_packets(shown)


def leaf(bundle: Path, edit=None) -> Switch:
    db = json.loads((bundle / "switches" / "su1-leaf-r0" / "config_db.json").read_text())
    if edit:
        edit(db)
    return Switch("su1-leaf-r0", db, "switches/su1-leaf-r0/config_db.json")


def test_the_switch_stand_in_queues_dscp_26_as_its_config_db_says(bundle, wire):
    assert classes_after(wire, switch_port_lines(leaf(bundle), "Ethernet0", "a0"), 106)[4] >= 50   # queue 3


def test_an_edited_dscp_map_moves_dscp_26_to_queue_0(bundle, wire):
    edited = leaf(bundle, lambda db: db["DSCP_TO_TC_MAP"]["ROCE"].update({"26": "0"}))
    counts = classes_after(wire, switch_port_lines(edited, "Ethernet0", "a0"), 106)
    assert counts[1] >= 50 and counts[4] == 0


def test_the_host_stand_in_follows_roce_qos_sh(bundle, wire, tmp_path):
    nic = read_host("su1-srv01", bundle / "hosts" / "su1-srv01")[0]
    assert classes_after(wire, host_nic_lines(nic, "a0"), 106)[4] >= 50                            # priority 3
    folder = tmp_path / "su1-srv01"
    shutil.copytree(bundle / "hosts" / "su1-srv01", folder)
    script = folder / "roce-qos.sh"
    script.write_text(script.read_text().replace('--trust "dscp"', '--trust "pcp"'))
    pcp = read_host("su1-srv01", folder)[0]
    subprocess.run(["ip", "netns", "exec", wire, "tc", "qdisc", "del", "dev", "a0", "root"], check=True)
    counts = classes_after(wire, host_nic_lines(pcp, "a0"), 106)
    assert counts[1] >= 50 and counts[4] == 0                    # untagged under PCP trust: priority 0
