"""drift's comparisons on dumps written by hand (no root, no services): what the bundle owns in CONFIG_DB
and what it leaves to the switch, FRR's running config read as FRR prints it, and every input that
cannot be compared refused with one message and exit 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import designer
from designer.cli import main
from designer.drift.frr import compare_frr
from designer.drift.host import key_values, roce_expected
from designer.export import export

from tests.export.helpers_hosts import fabric
from tests.sonic.factory import factory_config

LEAF = "su1-leaf-r0"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    out = tmp_path_factory.mktemp("bundle") / "b"
    export(fabric("default"), out, only=["switches", "ppd", "hosts"])
    return out


def merged(bundle: Path) -> dict:
    """What `config load` of the bundle's file leaves in a factory CONFIG_DB: the switch's own tables,
    keys and fields stay."""
    ours = json.loads((bundle / "switches" / LEAF / "config_db.json").read_text())
    running = factory_config(ours["PORT"])
    for table, entries in ours.items():
        for key, fields in entries.items():
            running.setdefault(table, {}).setdefault(key, {}).update(fields)
    running["QUEUE"]["Ethernet0|0"] = {"scheduler": "scheduler.0"}                 # SONiC's own QoS defaults
    running["DSCP_TO_TC_MAP"]["AZURE"] = {"0": "1"}
    running["ACL_TABLE"]["DATAACL"] = {"type": "L3", "stage": "ingress", "ports": []}
    running["ACL_RULE"]["DATAACL|RULE_1"] = {"PRIORITY": "1", "PACKET_ACTION": "DROP"}
    running["ACL_RULE"]["PPD|PIN_Ethernet0"] = {"PRIORITY": "5000", "SRC_IP": "10.0.0.2/32",
                                                "PACKET_ACTION": "REDIRECT:10.254.0.0@Ethernet224"}
    return running


def write_dump(folder: Path, device: str, kind: str = "switch", files: dict | None = None, **manifest) -> Path:
    folder.mkdir(parents=True)
    files = files or {}
    for name, content in files.items():
        (folder / name).write_text(content if isinstance(content, str) else json.dumps(content))
    data = {"format": 1, "kind": kind, "device": device, "time": "2026-12-03T06:00:00Z",
            "files": {name: "x" for name in files}, "unreadable": {}, **manifest}
    (folder / "MANIFEST.json").write_text(json.dumps(data))
    return folder


def only_leaf(bundle, tmp_path, running, **files):
    dumps = tmp_path / "dumps"
    write_dump(dumps / "leaf", LEAF, files={"config_db.json": running, **files})
    report = designer.check_drift(bundle, dumps)
    return [(f.code, f.key) for f in report.findings if f.device == LEAF and f.code != "DR050"]


def test_the_switch_s_own_keys_and_fields_are_not_drift(bundle, tmp_path):
    assert only_leaf(bundle, tmp_path, merged(bundle)) == []


def test_what_the_bundle_owns_is_compared_both_ways(bundle, tmp_path):
    running = merged(bundle)
    running["DSCP_TO_TC_MAP"]["ROCE"]["64"] = "3"                 # an entry added to the bundle's map
    running["BGP_NEIGHBOR"] = {"10.9.9.9": {"asn": "65000"}}      # bgpcfgd would add it to FRR
    running["ACL_RULE"]["PPD|LOCAL_9"] = {"PRIORITY": "9000", "PACKET_ACTION": "FORWARD"}
    running["LOOPBACK_INTERFACE"]["Loopback0|10.1.0.1/32"] = {}   # a factory loopback the merge kept
    running["PORT"]["Ethernet0"]["mtu"] = "1500"
    del running["ACL_TABLE"]["PPD"]["ports"]
    assert only_leaf(bundle, tmp_path, running) == [
        ("DR002", "ACL_RULE|PPD|LOCAL_9"), ("DR003", "ACL_TABLE|PPD"), ("DR002", "BGP_NEIGHBOR|10.9.9.9"),
        ("DR003", "DSCP_TO_TC_MAP|ROCE"), ("DR002", "LOOPBACK_INTERFACE|Loopback0|10.1.0.1/32"),
        ("DR003", "PORT|Ethernet0")]


def test_a_missing_table_is_every_key_missing(bundle, tmp_path):
    running = merged(bundle)
    vlan_members = sorted(running.pop("VLAN_MEMBER"))
    assert only_leaf(bundle, tmp_path, running) == [("DR001", f"VLAN_MEMBER|{k}") for k in vlan_members]


FRR_RUNNING = """Building configuration...

Current configuration:
!
frr version 8.4.4
frr defaults datacenter
hostname other
service integrated-vtysh-config
!
router bgp 4200000000
 bgp router-id 10.255.0.2
 bgp bestpath as-path multipath-relax
 neighbor 10.254.0.0 remote-as 4200100000
 neighbor 10.254.0.0 description spine-01:Ethernet0 via Ethernet224
 neighbor 10.254.0.0 shutdown
 neighbor 10.254.0.2 remote-as 4200100000
 neighbor 10.254.0.4 remote-as 4200100000
 neighbor 10.254.0.6 remote-as 4200100000
 neighbor 10.254.0.8 remote-as 4200100000
 !
 address-family ipv4 unicast
  network 10.255.0.2/32
  maximum-paths 8
 exit-address-family
exit
!
end
"""


def test_frr_running_config_read_as_frr_prints_it(bundle):
    ours = (bundle / "switches" / LEAF / "frr.conf").read_text()
    found = [(f.code, f.key, f.expected, f.actual) for f in compare_frr(LEAF, ours, FRR_RUNNING)]
    assert found == [
        ("DR010", "neighbor 10.254.0.8", None, "4200100000"),
        ("DR010", "neighbor 10.254.0.0 shutdown", None, "neighbor 10.254.0.0 shutdown"),
        ("DR012", "ipv4 unicast: 10.0.0.0/29", "ipv4 unicast: 10.0.0.0/29", None),
        ("DR013", "ipv4 unicast: maximum-paths 64", "ipv4 unicast: maximum-paths 64", None),
        ("DR013", "ipv4 unicast: maximum-paths 8", None, "ipv4 unicast: maximum-paths 8"),
    ]      # timers bgp 3 9 and no bgp ebgp-requires-policy: the datacenter profile's defaults, not printed
    assert compare_frr(LEAF, ours, ours) == []


def test_the_host_side_is_read_from_the_bundle_s_own_scripts(bundle):
    folder = bundle / "hosts" / "su1-srv01"
    roce = roce_expected((folder / "roce-qos.sh").read_text())
    assert len(roce) == 4 * 8
    assert roce["trust ens1np0"] == "dscp" and roce["pfc ens1np0"] == "0,0,0,1,0,0,0,0"
    assert roce["roce_tos mlx5_0"] == "106" and roce["/sys/class/infiniband/mlx5_0/tc/1/traffic_class"] == "106"
    assert roce["/sys/class/net/ens4np0/ecn/roce_np/cnp_dscp"] == "48"
    sysctl = key_values((folder / "sysctl.conf").read_text())
    assert sysctl["net.ipv4.conf.all.rp_filter"] == "2" and len(sysctl) == 6 + 4 * 4


def _cli(capsys, *args):
    code = main(["drift", *map(str, args)])
    return code, capsys.readouterr().err


def test_unusable_input_is_one_message_and_exit_2(bundle, tmp_path, capsys):
    good = write_dump(tmp_path / "ok" / "leaf", LEAF, files={"config_db.json": merged(bundle)}).parent
    code, err = _cli(capsys, tmp_path, good)
    assert code == 2 and "is not a rail-designer bundle" in err
    code, err = _cli(capsys, bundle, tmp_path / "nowhere")
    assert code == 2 and "is not a folder of dumps" in err
    (tmp_path / "empty").mkdir()
    code, err = _cli(capsys, bundle, tmp_path / "empty")
    assert code == 2 and "holds no dump folder" in err
    bad = tmp_path / "bad"
    (bad / "x").mkdir(parents=True)
    (bad / "x" / "MANIFEST.json").write_text('{"format": 1,\n "kind": ')
    code, err = _cli(capsys, bundle, bad)
    assert code == 2 and "MANIFEST.json, line 2: not valid JSON" in err
    (bad / "x" / "MANIFEST.json").write_text(json.dumps({"format": 1, "kind": "host", "device": "a\nb", "time": "t",
                                                         "files": {}, "unreadable": {}}))
    code, err = _cli(capsys, bundle, bad)
    assert code == 2 and "device 'a\\nb' is not a host name" in err
    (bad / "x" / "MANIFEST.json").write_text('{"format": 2}')
    code, err = _cli(capsys, bundle, bad)
    assert code == 2 and "not a dump manifest of format 1" in err
    twice = tmp_path / "twice"
    shutil.copytree(good, twice)
    shutil.copytree(good / "leaf", twice / "leaf-again")
    code, err = _cli(capsys, bundle, twice)
    assert code == 2 and "are both dumps of su1-leaf-r0" in err
    kind = tmp_path / "kind"
    write_dump(kind / "x", LEAF, kind="host")
    code, err = _cli(capsys, bundle, kind)
    assert code == 2 and "is a host dump of su1-leaf-r0, which is a switch in the bundle" in err
    broken = tmp_path / "broken"
    write_dump(broken / "leaf", LEAF, files={"config_db.json": "[1, 2"})
    code, err = _cli(capsys, bundle, broken)
    assert code == 2 and "leaf/config_db.json, line 1: not valid JSON" in err and "Traceback" not in err


def test_a_dump_of_an_unknown_device_and_a_part_not_read(bundle, tmp_path):
    dumps = tmp_path / "dumps"
    write_dump(dumps / "stranger", "leaf-99", files={"config_db.json": {}})
    write_dump(dumps / "leaf", LEAF, files={"config_db.json": merged(bundle)},
               unreadable={"frr-running.conf": "vtysh not found"})
    report = designer.check_drift(bundle, dumps)
    leaf = next(d for d in report.devices if d.device == LEAF)
    assert [(f.code, f.key) for f in leaf.findings] == [("DR050", "frr-running.conf"), ("DR050", "ppd-agent.json")]
    assert leaf.status == "partly checked"
    assert [(d.device, d.status, d.findings[0].code) for d in report.devices[-1:]] == [("leaf-99", "drift", "DR090")]
    assert "named by its CONFIG_DB hostname" in report.devices[-1].findings[0].message
    assert not report.clean


def test_docs_drift_md_lists_every_code_as_the_code_table_says_it(capsys):
    from designer.drift.findings import CODES
    docs = (Path(__file__).resolve().parents[2] / "docs" / "drift.md").read_text()
    rows = [line for line in docs.splitlines() if line.startswith("| DR")]
    assert [row.split(" | ")[0][2:] for row in rows] == list(CODES)
    for row, (code, c) in zip(rows, CODES.items()):
        assert f"| {code} | {c.title} |" in row and all(command in row for command in c.converge)
    with pytest.raises(SystemExit):
        main(["drift", "--help"])
    shown = capsys.readouterr().out
    assert all(code in shown for code in CODES)


def test_the_saved_frr_conf_and_the_installed_pins_are_the_bundle_s(bundle, tmp_path):
    pins = json.loads((bundle / "switches" / LEAF / "ppd-pins.json").read_text())
    stale = dict(pins, destinations=pins["destinations"][:1])
    state = {"rules": {}, "pins": stale, "pins_file": "/etc/sonic/rail-ppd-pins.json", "unit_installed": False}
    found = only_leaf(bundle, tmp_path, merged(bundle), **{"frr.conf": "! an older frr.conf\n", "ppd-agent.json": state})
    assert found == [("DR014", "/etc/sonic/frr/frr.conf"), ("DR030", "/etc/sonic/rail-ppd-pins.json"),
                     ("DR030", "rail-ppd-agent.service")] + [
                        ("DR032", f"ACL_RULE|PPD|{p['rule']}") for p in sorted(pins["pins"], key=lambda p: p["rule"])]


def test_the_bundle_s_readme_documents_the_dump_format(bundle):
    readme = (bundle / "README.txt").read_text()
    for text in ("rail-switch-apply.py dump DIR", "rail-dump.sh DIR", "MANIFEST.json", "unreadable",
                 "ppd-agent.json", "ip-route.json", "roce-qos.txt", "rail-designer drift BUNDLE DUMPS",
                 "BGP_NEIGHBOR must be empty"):
        assert text in readme, text


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
DUMP_JSON = ["config_db.json", "ppd-agent.json", "ip-rule.json", "ip-route.json", "ip-address.json"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(DUMP_JSON), value=JSON, text=st.text(max_size=200))
def test_any_json_or_text_in_a_dump_is_a_report_or_one_readable_refusal(bundle, tmp_path_factory, name, value, text):
    from designer.drift.dumps import DriftInputError
    dumps = tmp_path_factory.mktemp("fuzz")
    kind, device = ("switch", LEAF) if name in ("config_db.json", "ppd-agent.json") else ("host", "su1-srv01")
    write_dump(dumps / "d", device, kind, files={name: value, "frr-running.conf": text, "sysctl.txt": text,
                                                 "roce-qos.txt": text})
    try:
        report = designer.check_drift(bundle, dumps)
    except DriftInputError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert not report.clean
