"""The written switch files: config_db.json structure against the cabling plan, FRR's own parser,
and determinism."""

from __future__ import annotations

import csv
import io
import ipaddress
import json
import re
import shutil
import subprocess
from functools import lru_cache

import pytest

from designer.export.bundle import render_in_memory
from designer.export import ppd, switches
from designer.planning.build import build
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset
from tests.ci import need

PARTS = switches.PARTS + ppd.PARTS

PRESETS = ["default", "rail-optimized-64x4", "rail-only-32x4"]


def fresh_bundle(preset: str) -> dict[str, str]:
    return render_in_memory(build(load_preset(preset).spec(), builtin_catalog()), PARTS)


@lru_cache(maxsize=None)
def bundle(preset: str) -> dict[str, str]:
    return fresh_bundle(preset)


def switch_dirs(files):
    return sorted({path.split("/")[1] for path in files if path.startswith("switches/") and path.endswith("/config_db.json")})


@pytest.mark.parametrize("preset", PRESETS)
def test_port_and_interface_tables_agree_with_cabling(preset):
    files = bundle(preset)
    cables = list(csv.DictReader(io.StringIO(files["cabling.csv"])))
    cabled: dict[str, set[str]] = {}
    for row in cables:
        for side in "ab":
            cabled.setdefault(row[f"{side}_device"], set()).add(row[f"{side}_port"])
    for host in switch_dirs(files):
        db = json.loads(files[f"switches/{host}/config_db.json"])
        up = {name for name, port in db["PORT"].items() if port["admin_status"] == "up"}
        assert up == cabled.get(host, set()), host
        routed = {key.split("|")[0] for key in db["INTERFACE"]}
        assert routed <= up
        addressed = {key.split("|")[0] for key in db["INTERFACE"] if "|" in key}
        assert addressed == routed                      # every routed port has its address
        vlan_members = {key.split("|")[1] for key in db.get("VLAN_MEMBER", {})}
        assert routed | vlan_members == up              # every cabled port is routed or a server VLAN port
        assert set(db["PORT_QOS_MAP"]) == up
        assert all(db["PORT_QOS_MAP"][p]["pfc_enable"] == "3" for p in up)
        assert {k.split("|")[0] for k in db["QUEUE"]} == up


@pytest.mark.parametrize("preset", PRESETS)
def test_acl_holds_the_local_forward_rules_only_and_bgp_lives_in_frr(preset):
    """PPD in config_db.json is the table plus local-destination FORWARD rules (the pins are the
    agent's); BGP neighbours come from frr.conf alone, never from BGP_NEIGHBOR rows."""
    files = bundle(preset)
    for host in switch_dirs(files):
        db = json.loads(files[f"switches/{host}/config_db.json"])
        meta = db["DEVICE_METADATA"]["localhost"]
        assert meta["hostname"] == host and meta["docker_routing_config_mode"] == "split-unified"
        assert "BGP_NEIGHBOR" not in db
        is_leaf = any(p.get("description", "").startswith("su") and "srv" in p["description"]
                      for p in db["PORT"].values())
        assert meta["type"] == ("ToRRouter" if is_leaf else "LeafRouter")
        if "ACL_TABLE" not in db:
            continue
        table = db["ACL_TABLE"]["PPD"]
        assert (table["type"], table["stage"]) == ("L3", "ingress")
        assert set(table["ports"]) <= set(db["PORT"])
        assert {r["PACKET_ACTION"] for r in db["ACL_RULE"].values()} == {"FORWARD"}
        assert all(key.startswith("PPD|LOCAL_") and "DST_IP" in r for key, r in db["ACL_RULE"].items())


@pytest.mark.parametrize("preset", PRESETS)
def test_every_class_lands_in_a_buffered_priority_group(preset):
    """TC 3 is lossless: PFC on priority 3, PFC priority 3 -> PG 3, and CABLE_LENGTH for every cabled
    port so the buffer manager can size that PG; every other class (CNP too) uses PG 0, the lossy PG
    the platform buffers itself. PFC watchdog on the lossless priority of every cabled port."""
    files = bundle(preset)
    for host in switch_dirs(files):
        db = json.loads(files[f"switches/{host}/config_db.json"])
        cabled = {name for name, port in db["PORT"].items() if port["admin_status"] == "up"}
        tc_to_pg = db["TC_TO_PRIORITY_GROUP_MAP"]["ROCE"]
        lossless = {qos["pfc_enable"] for qos in db["PORT_QOS_MAP"].values()}
        assert lossless == {"3"} and tc_to_pg["3"] == "3"
        assert db["PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"]["ROCE"] == {"3": "3"}
        assert {pg for tc, pg in tc_to_pg.items() if tc != "3"} == {"0"}
        assert db["DSCP_TO_TC_MAP"]["ROCE"]["48"] == "6" and db["DSCP_TO_TC_MAP"]["ROCE"]["26"] == "3"
        assert set(db["CABLE_LENGTH"]["AZURE"]) == cabled
        assert set(db["PFC_WD"]) == cabled | {"GLOBAL"}
        assert all(db["PORT_QOS_MAP"][p]["pfcwd_sw_enable"] == "3" for p in cabled)
        assert not any(t.startswith("BUFFER_") for t in db)           # the platform's, see export/qos.py


def _vtysh() -> str | None:
    path = shutil.which("vtysh")
    need(path is not None, "vtysh (FRR) is not installed here; install frr to check the generated frr.conf files")
    return path


@pytest.mark.parametrize("preset", PRESETS)
def test_every_frr_conf_passes_frr_parser(preset, tmp_path):
    vtysh = _vtysh()
    files = bundle(preset)
    hosts = switch_dirs(files)
    assert hosts
    for host in hosts:
        conf = tmp_path / f"{host}.conf"
        conf.write_text(files[f"switches/{host}/frr.conf"])
        result = subprocess.run([vtysh, "--dryrun", "--inputfile", str(conf)], capture_output=True, text=True,
                                timeout=60)
        assert result.returncode == 0, f"{preset} {host}: {result.stdout}{result.stderr}"


def test_frr_parser_really_rejects_a_broken_file(tmp_path):
    """Guards the check above: a dry run that accepted anything would prove nothing."""
    vtysh = _vtysh()
    conf = tmp_path / "bad.conf"
    conf.write_text(bundle("default")["switches/su1-leaf-r0/frr.conf"].replace("maximum-paths 64", "maximum-paths sixty-four"))
    result = subprocess.run([vtysh, "--dryrun", "--inputfile", str(conf)], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0


def test_frr_has_no_pbr_and_every_aggregate_has_a_discard_route():
    """FRR advertises a `network` only if that exact prefix is in the RIB (import-check): each leaf
    aggregate that is not a connected subnet gets `ip route ... blackhole` (staticd); no pbr-map."""
    for preset in ("default", "rail-optimized-64x4"):
        files = bundle(preset)
        for path, text in files.items():
            if not path.endswith("/frr.conf"):
                continue
            assert "pbr" not in text
            db = json.loads(files[path.replace("frr.conf", "config_db.json")])
            connected = {str(ipaddress.ip_interface(k.partition("|")[2]).network)
                         for t in ("INTERFACE", "VLAN_INTERFACE", "LOOPBACK_INTERFACE") for k in db.get(t, {}) if "|" in k}
            for prefix in re.findall(r"^  network (\S+)$", text, re.M):
                assert (prefix in connected) != (f"ip route {prefix} blackhole\n" in text), (preset, path, prefix)


@pytest.mark.parametrize("preset", ["default", "rail-optimized-64x4"])
def test_second_render_is_byte_identical(preset):
    assert fresh_bundle(preset) == bundle(preset)
