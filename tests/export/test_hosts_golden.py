"""Golden host files for one server per preset, and properties every host must have.

Regenerate the golden files after an intended change with:
    UPDATE_GOLDEN=1 python -m pytest -q tests/export/test_hosts_golden.py
then review the diff under tests/data/golden/hosts/ before committing.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from designer.export.hosts import HOST_FILES, PARTS

from tests.export.helpers_hosts import fabric

HOSTS = PARTS[0]
GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "hosts"
CASES = [("default", "su1-srv01"), ("rail-optimized-64x4", "su1-srv02")]


@pytest.mark.parametrize("preset,server", CASES)
@pytest.mark.parametrize("name", sorted(HOST_FILES))
def test_host_file_matches_golden(preset, server, name):
    files = HOSTS.render_device(fabric(preset), server)
    text = files[f"hosts/{server}/{name}"]
    golden = GOLDEN / preset / server / name
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text)
    assert golden.is_file(), f"{golden} is missing; run with UPDATE_GOLDEN=1 to create it"
    assert text == golden.read_text()


@pytest.mark.parametrize("preset", ["default", "rail-optimized-64x4"])
def test_every_host_has_one_policy_rule_per_rail_nic(preset):
    f = fabric(preset)
    for server_id in HOSTS.devices(f):
        server = f.servers[server_id]
        files = HOSTS.render_device(f, server_id)
        base = f"hosts/{server.hostname}/"
        assert sorted(files) == sorted(base + n for n in HOST_FILES)
        rail_nics = [n for n in server.nics if n.rail is not None and f.peer(n.id) and n.id in f.addresses]
        netplan, script = files[base + "netplan.yaml"], files[base + "policy-routing.sh"]
        assert netplan.count("routing-policy:") == len(rail_nics)
        assert len(re.findall(r"^rail_nic ", script, re.M)) == len(rail_nics)
        for nic in rail_nics:
            addr = f.addresses[nic.id].split("/")[0]
            assert netplan.count(f'- from: "{addr}"') == 1
            assert f'"{nic.netdev}" "{f.addresses[nic.id]}"' in script
        hca = re.search(r"^NCCL_IB_HCA==(.*)$", files[base + "nccl.env"], re.M).group(1)
        assert hca.split(",") == [f"{n.rdma}:1" for n in sorted(rail_nics, key=lambda n: n.rail)]


def test_host_files_render_byte_identically_twice():
    a, b = fabric("rail-optimized-64x4"), fabric("rail-optimized-64x4")
    for server_id in HOSTS.devices(a)[:8]:
        assert HOSTS.render_device(a, server_id) == HOSTS.render_device(b, server_id)


def test_shell_scripts_are_strict_and_quote_every_value():
    files = HOSTS.render_device(fabric("default"), "su2-srv04")
    for name in ("policy-routing.sh", "roce-qos.sh"):
        text = files[f"hosts/su2-srv04/{name}"]
        assert text.startswith("#!/usr/bin/env bash\n") and "\nset -euo pipefail\n" in text
        for line in text.splitlines():
            if line.startswith(("rail_nic ", "roce_nic ")):
                args = line.split("#")[0].split()[1:]
                assert args and all(a.startswith('"') and a.endswith('"') for a in args), line
