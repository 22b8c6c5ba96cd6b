"""Issue 20: hosts and the switch ports they are cabled to agree on RoCE QoS, judged from the bundle's files.

Each mismatch is injected the way a person would make it: one value changed in one generated file (a text
edit of a script, env file or netplan YAML; a jq-like edit of config_db.json). The check must then name
both ends and both values, and only the pairs the edit touched."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import designer
from designer.cli import main
from designer.qos.sides import read_sides
from tests.conftest import preset_fabric
from tests.drift.stand_ins import install_roce_tools, roce_script_below

HOST, SWITCH = "su1-srv02", "su1-leaf-r1"          # su1-srv02's rail-1 NIC (ens2np0) is on su1-leaf-r1


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("qos") / "bundle"
    designer.export_bundle(preset_fabric("rail-optimized-64x4", sus=1, servers_per_su=4), out,
                           parts=["switches", "hosts", "cabling"])
    return out


@pytest.fixture
def bundle(pristine, tmp_path) -> Path:
    out = tmp_path / "bundle"
    shutil.copytree(pristine, out)
    return out


def edit_text(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text()
    assert text.count(old) >= count, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count))


def edit_db(bundle: Path, switch: str, change) -> None:
    path = bundle / "switches" / switch / "config_db.json"
    db = json.loads(path.read_text())
    change(db)
    path.write_text(json.dumps(db, indent=4, sort_keys=True) + "\n")


def findings(bundle: Path):
    report = designer.qos_check(bundle)
    assert report.pairs == 16
    return report.findings


def one_kind(found, code: str, hosts: set[str], switches: set[str]) -> None:
    assert found and {f.code for f in found} == {code}, [f.message for f in found]
    assert {f.host for f in found} == hosts and {f.switch for f in found} == switches


# -- every preset's own bundle agrees with itself ------------------------------------------------------------

@pytest.mark.parametrize("preset", [p.name for p in designer.presets()])
def test_the_bundle_of_every_preset_agrees(preset, tmp_path):
    fabric = preset_fabric(preset, sus=2, servers_per_su=2)
    if fabric.settings.infiniband:                  # no RoCE: the subnet manager's SL/VL, not DSCP
        result = designer.export_bundle(fabric, tmp_path / "b")
        assert result.qos is None
        return
    result = designer.export_bundle(fabric, tmp_path / "b", parts=["switches", "hosts", "cabling"])
    nics = sum(1 for s in fabric.servers.values() for n in s.nics if n.rail is not None and fabric.peer(n.id))
    assert result.qos.pairs == nics > 0
    assert result.qos.findings == []


# -- the six mismatches --------------------------------------------------------------------------------------

def test_dscp_nccl_marks_another_dscp(bundle):
    edit_text(bundle / "hosts" / HOST / "nccl.env", "NCCL_IB_TC=106", "NCCL_IB_TC=98")      # DSCP 24
    found = findings(bundle)
    one_kind(found, "RD070", {f"{HOST}:ens{k}np0" for k in range(1, 5)}, {f"su1-leaf-r{k}:Ethernet4" for k in range(4)})
    f = next(f for f in found if f.host == f"{HOST}:ens2np0")
    assert f.host_value == "marks DSCP 24 (ToS 98) and sends it on priority 3"
    assert f.switch_value == "maps DSCP 24 to class 0"
    assert f.host_source == f"hosts/{HOST}/nccl.env: NCCL_IB_TC"
    assert "DSCP_TO_TC_MAP|ROCE[24]" in f.switch_source


def test_dscp_switch_maps_26_elsewhere(bundle):
    edit_db(bundle, SWITCH, lambda db: db["DSCP_TO_TC_MAP"]["ROCE"].update({"26": "0"}))
    found = findings(bundle)
    # every host NIC on that leaf, and each of the three places the host sets ToS 106
    one_kind(found, "RD070", {f"su1-srv0{s}:ens2np0" for s in range(1, 5)},
             {f"{SWITCH}:Ethernet{4 * k}" for k in range(4)})
    assert len(found) == 4 * 3 and {f.switch_value for f in found} == {"maps DSCP 26 to class 0"}


def test_priority_host_enables_pfc_on_another_priority(bundle):
    edit_text(bundle / "hosts" / HOST / "roce-qos.sh", '--pfc "0,0,0,1,0,0,0,0"', '--pfc "0,0,0,0,1,0,0,0"')
    found = findings(bundle)
    one_kind(found, "RD071", {f"{HOST}:ens{k}np0" for k in range(1, 5)}, {f"su1-leaf-r{k}:Ethernet4" for k in range(4)})
    assert {(f.host_value, f.switch_value) for f in found} == {("PFC on 4", "pfc_enable 3")}


def test_priority_switch_port_pauses_another_priority(bundle):
    edit_db(bundle, SWITCH, lambda db: db["PORT_QOS_MAP"]["Ethernet4"].update({"pfc_enable": "4"}))
    found = findings(bundle)
    one_kind(found, "RD071", {f"{HOST}:ens2np0"}, {f"{SWITCH}:Ethernet4"})
    assert [(f.host_value, f.switch_value) for f in found] == [("PFC on 3", "pfc_enable 4")]
    assert found[0].switch_source == f"switches/{SWITCH}/config_db.json: PORT_QOS_MAP|Ethernet4"


def test_priority_lossless_class_buffers_in_a_pg_pfc_does_not_pause(bundle):
    edit_db(bundle, SWITCH, lambda db: db["TC_TO_PRIORITY_GROUP_MAP"]["ROCE"].update({"3": "0"}))
    found = findings(bundle)
    assert {f.code for f in found} == {"RD071"} and len(found) == 4
    assert found[0].switch_value == "buffers class 3 in PG 0 but PFC priority 3 pauses PG 3"


def test_trust_host_trusts_pcp(bundle):
    edit_text(bundle / "hosts" / HOST / "roce-qos.sh", '--trust "dscp"', '--trust "pcp"')
    found = findings(bundle)
    one_kind(found, "RD072", {f"{HOST}:ens{k}np0" for k in range(1, 5)}, {f"su1-leaf-r{k}:Ethernet4" for k in range(4)})
    assert {(f.host_value, f.switch_value) for f in found} == {("trusts pcp", "trusts dscp (ROCE)")}


def test_trust_switch_port_binds_no_dscp_map(bundle):
    edit_db(bundle, SWITCH, lambda db: db["PORT_QOS_MAP"]["Ethernet4"].pop("dscp_to_tc_map"))
    found = findings(bundle)
    one_kind(found, "RD072", {f"{HOST}:ens2np0"}, {f"{SWITCH}:Ethernet4"})
    assert found[0].switch_value == "classifies by no DSCP map (all class 0)"


def test_ecn_host_disables_the_notification_point(bundle):
    edit_text(bundle / "hosts" / HOST / "roce-qos.sh", 'echo "1" > "/sys/class/net/$dev/ecn/roce_np/enable/3"',
              'echo "0" > "/sys/class/net/$dev/ecn/roce_np/enable/3"')
    found = findings(bundle)
    one_kind(found, "RD073", {f"{HOST}:ens{k}np0" for k in range(1, 5)}, {f"su1-leaf-r{k}:Ethernet4" for k in range(4)})
    f = next(f for f in found if f.host == f"{HOST}:ens2np0")
    assert f.host_value == "has roce_np (CNPs on marked packets) 0 on priority 3"
    assert f.switch_value == "marks ECN on queue 3"
    assert f.host_source.endswith("/sys/class/net/ens2np0/ecn/roce_np/enable/3")


def test_ecn_host_sends_not_ect(bundle):
    edit_text(bundle / "hosts" / HOST / "nccl.env", "NCCL_IB_TC=106", "NCCL_IB_TC=104")     # DSCP 26, Not-ECT
    found = findings(bundle)
    one_kind(found, "RD073", {f"{HOST}:ens{k}np0" for k in range(1, 5)}, {f"su1-leaf-r{k}:Ethernet4" for k in range(4)})
    assert {f.host_value for f in found} == {"sends RoCE data Not-ECT (ToS 104)"}


def test_ecn_switch_queue_marks_none(bundle):
    edit_db(bundle, SWITCH, lambda db: db["WRED_PROFILE"]["ROCE_LOSSLESS"].update({"ecn": "ecn_none"}))
    found = findings(bundle)
    one_kind(found, "RD073", {f"su1-srv0{s}:ens2np0" for s in range(1, 5)}, {f"{SWITCH}:Ethernet{4 * k}" for k in range(4)})
    assert {f.switch_value for f in found} == {"marks no ECN on queue 3"}
    assert found[0].switch_source == f"switches/{SWITCH}/config_db.json: WRED_PROFILE|ROCE_LOSSLESS ecn ecn_none"


def test_mtu_host_netplan_above_the_port(bundle):
    path = bundle / "hosts" / HOST / "netplan.yaml"
    text = path.read_text()
    head, _, tail = text.partition("    ens2np0:")
    path.write_text(head + "    ens2np0:" + tail.replace("mtu: 9000", "mtu: 9216", 1))
    found = findings(bundle)
    one_kind(found, "RD074", {f"{HOST}:ens2np0"}, {f"{SWITCH}:Ethernet4"})
    assert [(f.host_value, f.switch_value, f.host_source) for f in found] == [
        ("MTU 9216", "port MTU 9100", f"hosts/{HOST}/netplan.yaml: ethernets.ens2np0.mtu")]


def test_mtu_switch_port_below_the_host(bundle):
    edit_db(bundle, SWITCH, lambda db: db["PORT"]["Ethernet4"].update({"mtu": "1500"}))
    found = findings(bundle)
    one_kind(found, "RD074", {f"{HOST}:ens2np0"}, {f"{SWITCH}:Ethernet4"})
    assert {f.host_source.split(":")[0] for f in found} == {f"hosts/{HOST}/netplan.yaml", f"hosts/{HOST}/policy-routing.sh"}


def test_mtu_a_spine_port_lowers_the_path_mtu(bundle):
    edit_db(bundle, "spine-02", lambda db: db["PORT"]["Ethernet8"].update({"mtu": "4200"}))
    found = findings(bundle)
    assert {f.code for f in found} == {"RD074"} and {f.what for f in found} == {"path MTU"}
    assert len({f.host for f in found}) == 16                 # one fabric: every NIC's path may cross that port
    assert found[0].switch_value.endswith("spine-02:Ethernet8 has MTU 4200")


def test_cnp_class_switch_maps_48_to_the_default_class(bundle):
    edit_db(bundle, SWITCH, lambda db: db["DSCP_TO_TC_MAP"]["ROCE"].update({"48": "0"}))
    found = findings(bundle)
    one_kind(found, "RD070", {f"su1-srv0{s}:ens2np0" for s in range(1, 5)}, {f"{SWITCH}:Ethernet{4 * k}" for k in range(4)})
    assert {(f.what, f.host_value, f.switch_value) for f in found} == {
        ("CNP DSCP", "sends CNPs with DSCP 48 on priority 6", "maps DSCP 48 to class 0")}


def test_cnp_class_host_sends_cnps_on_another_dscp(bundle):
    edit_text(bundle / "hosts" / HOST / "roce-qos.sh", 'echo "48" > "/sys/class/net/$dev/ecn/roce_np/cnp_dscp"',
              'echo "46" > "/sys/class/net/$dev/ecn/roce_np/cnp_dscp"')
    found = findings(bundle)
    one_kind(found, "RD070", {f"{HOST}:ens{k}np0" for k in range(1, 5)}, {f"su1-leaf-r{k}:Ethernet4" for k in range(4)})
    assert {f.switch_value for f in found} == {"maps DSCP 46 to class 0"}


# -- what devices run (dumps), the command line, export, bad input -----------------------------------------

def test_a_host_dump_is_judged_by_what_it_runs(bundle, tmp_path):
    """roce-qos.sh run with PCP trust (MLNX_OFED's tools as the drift tests' stand-ins), then the bundle's
    own rail-dump.sh: the check reads the dump's roce-qos.txt instead of the script."""
    import os
    root, bindir = tmp_path / "root", tmp_path / "bin"
    install_roce_tools(bindir)
    env = {**os.environ, "PATH": f"{bindir}:{os.environ['PATH']}", "RAIL_DUMP_ROOT": str(root)}
    script = (bundle / "hosts" / HOST / "roce-qos.sh").read_text().replace('--trust "dscp"', '--trust "pcp"')
    (tmp_path / "roce.sh").write_text(roce_script_below(script, root))
    subprocess.run(["bash", str(tmp_path / "roce.sh")], check=True, env=env)
    dumps = tmp_path / "dumps"
    subprocess.run(["bash", str(bundle / "hosts" / HOST / "rail-dump.sh"), str(dumps / HOST)], check=True, env=env,
                   capture_output=True)
    assert designer.qos_check(bundle).clean                              # the bundle itself agrees
    report = designer.qos_check(bundle, dumps=dumps)
    assert report.dumped == [HOST]
    one_kind(report.findings, "RD072", {f"{HOST}:ens{k}np0" for k in range(1, 5)},
             {f"su1-leaf-r{k}:Ethernet4" for k in range(4)})
    assert report.findings[0].host_source.startswith(f"{dumps / HOST}/roce-qos.txt")


def test_without_cabling_csv_the_port_descriptions_pair_the_ends(bundle):
    (bundle / "cabling.csv").unlink()
    assert designer.qos_check(bundle).pairs == 16
    edit_db(bundle, "spine-01", lambda db: db["PORT"]["Ethernet0"].update({"mtu": "4200"}))
    assert {f.what for f in findings(bundle)} == {"path MTU"}


def test_command_line_exit_codes_and_json(bundle, capsys):
    assert main(["qos-check", str(bundle)]) == 0
    assert capsys.readouterr().out.endswith("16 host NIC / switch port pairs: agree\n")
    edit_db(bundle, SWITCH, lambda db: db["PORT_QOS_MAP"]["Ethernet4"].update({"pfc_enable": "4"}))
    assert main(["qos-check", str(bundle), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["clean"] is False and [f["code"] for f in data["findings"]] == ["RD071"]
    (bundle / "switches" / SWITCH / "config_db.json").write_text("{ not json")
    assert main(["qos-check", str(bundle)]) == 2
    err = capsys.readouterr().err
    assert f"{SWITCH}/config_db.json: not valid JSON" in err and "Traceback" not in err


def test_export_reports_a_bundle_that_disagrees_with_itself(tmp_path, capsys):
    """A design whose host MTU (9216) is above the 9100 of SONiC's ports: validate's RD076 refuses it, and
    forced past that, the QoS check of the written bundle reports it from the files."""
    design = tmp_path / "d.fabric.yaml"
    designer.save(preset_fabric("rail-optimized-64x4", sus=1, servers_per_su=4, mtu=9216), design)
    assert main(["export", str(design), "-o", str(tmp_path / "b")]) != 0
    assert "RD076" in capsys.readouterr().err and not (tmp_path / "b").exists()
    assert main(["export", str(design), "-o", str(tmp_path / "b"), "--force"]) == 1
    out = capsys.readouterr().out
    # 16 NICs, each in netplan.yaml and policy-routing.sh
    assert "QoS: 32 disagreement(s)" in out and "RD074 MTU: host su1-srv01:ens1np0 MTU 9216" in out
    assert f"rail-designer qos-check {tmp_path / 'b'}" in out


def test_a_switch_dump_is_judged_by_its_running_config_db(bundle, tmp_path):
    """A dump folder as `rail-switch-apply.py dump` writes it (MANIFEST.json + the running CONFIG_DB), where
    someone moved PFC on one port by hand after the apply."""
    running = json.loads((bundle / "switches" / SWITCH / "config_db.json").read_text())
    running["PORT_QOS_MAP"]["Ethernet8"]["pfc_enable"] = "3,4"
    folder = tmp_path / "dumps" / SWITCH
    folder.mkdir(parents=True)
    (folder / "config_db.json").write_text(json.dumps(running))
    (folder / "MANIFEST.json").write_text(json.dumps({
        "format": 1, "kind": "switch", "device": SWITCH, "time": "2026-01-01T00:00:00Z",
        "files": {"config_db.json": "the running CONFIG_DB"}, "unreadable": {}}))
    report = designer.qos_check(bundle, dumps=tmp_path / "dumps")
    assert report.dumped == [SWITCH]
    one_kind(report.findings, "RD071", {"su1-srv03:ens2np0"}, {f"{SWITCH}:Ethernet8"})
    assert report.findings[0].switch_value == "pfc_enable 3, 4"
    assert report.findings[0].switch_source == f"{folder / 'config_db.json'}: PORT_QOS_MAP|Ethernet8"


def test_a_host_without_roce_qos_sh_sets_no_qos_on_its_nics(bundle):
    (bundle / "hosts" / HOST / "roce-qos.sh").unlink()
    found = findings(bundle)
    one_kind(found, "RD072", {f"{HOST}:ens{k}np0" for k in range(1, 5)}, {f"su1-leaf-r{k}:Ethernet4" for k in range(4)})
    assert found[0].host_value == "has no roce_nic call for ens1np0: its RoCE QoS is not set"


def test_a_config_db_entry_that_is_not_an_object_is_one_message(bundle, capsys):
    edit_db(bundle, SWITCH, lambda db: db["PORT_QOS_MAP"].update({"Ethernet4": "ROCE"}))
    assert main(["qos-check", str(bundle)]) == 2
    err = capsys.readouterr().err
    assert "PORT_QOS_MAP|Ethernet4" in err and "is not an object of fields" in err and "Traceback" not in err


def test_both_ends_moved_off_the_lossless_priority_alike_is_still_reported(bundle):
    """Host and leaf agree on DSCP 8 -> class 1, but neither has PFC on 1: RoCE data is lossy."""
    edit_text(bundle / "hosts" / HOST / "nccl.env", "NCCL_IB_TC=106", "NCCL_IB_TC=34")         # DSCP 8, ECT(0)
    for k in range(4):
        edit_db(bundle, f"su1-leaf-r{k}", lambda db: db["DSCP_TO_TC_MAP"]["ROCE"].update({"8": "1"}))
    found = findings(bundle)
    lossy = [f for f in found if f.code == "RD071"]
    one_kind(lossy, "RD071", {f"{HOST}:ens{k}np0" for k in range(1, 5)}, {f"su1-leaf-r{k}:Ethernet4" for k in range(4)})
    assert {f.host_value for f in lossy} == {"sends RoCE data on priority 1 without PFC (PFC on 3)"}
    # and queue 1 marks no ECN for the ECT(0) packets: the other consequence, said too
    assert {f.code for f in found} == {"RD071", "RD073"} and len(found) == 8


def test_what_a_host_dump_could_not_read_stays_the_scripts_and_says_so(bundle, tmp_path):
    """Dumped where mlnx_qos is missing (trust and PFC unread): those keep roce-qos.sh's values, named as
    such, so no false trust finding; the CNP DSCP the host really runs (46) is still caught."""
    import os
    root, bindir = tmp_path / "root", tmp_path / "bin"
    install_roce_tools(bindir)
    env = {**os.environ, "PATH": f"{bindir}:{os.environ['PATH']}", "RAIL_DUMP_ROOT": str(root)}
    script = (bundle / "hosts" / HOST / "roce-qos.sh").read_text().replace(
        'echo "48" > "/sys/class/net/$dev/ecn/roce_np/cnp_dscp"', 'echo "46" > "/sys/class/net/$dev/ecn/roce_np/cnp_dscp"')
    (tmp_path / "roce.sh").write_text(roce_script_below(script, root))
    subprocess.run(["bash", str(tmp_path / "roce.sh")], check=True, env=env)
    dumps = tmp_path / "dumps"
    bare = {**env, "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}                       # no mlnx_qos when dumping
    subprocess.run(["bash", str(bundle / "hosts" / HOST / "rail-dump.sh"), str(dumps / HOST)], check=True, env=bare,
                   capture_output=True)
    report = designer.qos_check(bundle, dumps=dumps)
    one_kind(report.findings, "RD070", {f"{HOST}:ens{k}np0" for k in range(1, 5)},
             {f"su1-leaf-r{k}:Ethernet4" for k in range(4)})
    assert {f.switch_value for f in report.findings} == {"maps DSCP 46 to class 0"}
    nic = read_sides(bundle, dumps).hosts[HOST][0]
    assert nic.trust.text == "dscp" and "(not in the dump)" in nic.trust.source


def test_forked_workers_report_what_one_process_does(bundle):
    """The hosts are read and compared in forked workers on a large bundle: same findings, same order,
    and an unreadable host file is the same one message from a worker."""
    from designer.qos.check import check_bundle
    from designer.qos.sides import QosInputError
    edit_text(bundle / "hosts" / HOST / "nccl.env", "NCCL_IB_TC=106", "NCCL_IB_TC=104")
    edit_db(bundle, "su1-leaf-r3", lambda db: db["PORT"]["Ethernet4"].update(mtu="1500"))
    one = check_bundle(bundle, workers=1)
    assert len(one.findings) > 2 and one.pairs == 16
    for workers in (2, 3):
        forked = check_bundle(bundle, workers=workers)
        assert (forked.pairs, forked.findings) == (one.pairs, one.findings)
    (bundle / "hosts" / "su1-srv04" / "netplan.yaml").write_text("network: [\n")
    for workers in (1, 2):
        with pytest.raises(QosInputError, match="su1-srv04/netplan.yaml, line 2: not valid YAML"):
            check_bundle(bundle, workers=workers)


def test_cabling_csv_is_read_by_its_header_whatever_the_column_order(bundle):
    import csv
    import io
    path = bundle / "cabling.csv"
    rows = list(csv.reader(io.StringIO(path.read_text())))
    order = list(reversed(range(len(rows[0]))))
    out = io.StringIO()
    csv.writer(out).writerows([[row[i] for i in order] for row in rows])
    path.write_text(out.getvalue() + "\n")
    assert designer.qos_check(bundle).pairs == 16 and not designer.qos_check(bundle).findings
    path.write_text("x,y\n1,2\n")
    with pytest.raises(designer.DesignerError, match="lacks the a_device, a_port, b_device and b_port columns"):
        designer.qos_check(bundle)
