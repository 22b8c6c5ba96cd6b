"""The monitoring part, proved by the real tools: promtool checks the rules, the scrape config and the
design series, and fires the alerts in a unit test; node_exporter itself produces the host metric
names; Grafana's own dashboard models (grafana-foundation-sdk) keep every field the dashboards use."""

from __future__ import annotations

import json
import re
import subprocess

import pytest
import yaml

from designer.export import alerts
from designer.export import metrics as m
from designer.export.monitoring import PARTS
from designer.export.monitoring_data import expected_neighbors
from tests.export.helpers_hosts import need_tool
from tests.export.shapes import design as fabric


MONITORING = PARTS[0]
TARGETS = "monitoring/prometheus-targets.json"


def files(preset="default", **overrides) -> dict[str, str]:
    return MONITORING.render_global(fabric(preset, **overrides))


def write(tmp_path, rendered: dict[str, str]):
    for path, text in rendered.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return tmp_path / "monitoring"


def test_hosts_on_node_exporter_switches_on_sonic_exporter():
    f = fabric("default")
    entries = json.loads(files()[TARGETS])
    names = [e["labels"]["hostname"] for e in entries]
    assert sorted(names) == sorted(d.hostname for d in [*f.servers.values(), *f.switches.values()])
    by_name = {e["labels"]["hostname"]: e for e in entries}
    assert by_name["su1-srv01"]["targets"] == ["su1-srv01:9100"]
    assert by_name["su1-srv01"]["labels"] == {"hostname": "su1-srv01", "role": "gpu_server", "su": "1",
                                              "rail": "0,1,2,3", "exporter": "node_exporter"}
    assert by_name["su2-leaf-r3"]["targets"] == ["su2-leaf-r3:9101"]
    assert by_name["su2-leaf-r3"]["labels"]["exporter"] == "sonic-exporter"
    assert by_name["spine-01"]["labels"]["su"] == "1,2"


def test_per_rail_spine_planes_label_the_plane():
    f = fabric("superpod-su", sus=2, spine_planes="per-rail")
    labels = {e["labels"]["hostname"]: e["labels"] for e in json.loads(MONITORING.render_global(f)[TARGETS])}
    assert f.spines() and all(labels[s.hostname]["rail"] == str(s.plane) for s in f.spines())


@pytest.mark.parametrize("preset", ["default", "rail-only-32x4", "rail-optimized-64x4", "superpod-su",
                                    "b200-three-tier-p2p31", "twin-plane-p2p31"])
def test_promtool_accepts_rules_config_and_design_series(tmp_path, preset):
    promtool = need_tool("promtool")
    folder = write(tmp_path, files(preset))
    for args in (["check", "rules", "alerts.rules.yml"], ["check", "config", "prometheus.yml"]):
        run = subprocess.run([promtool, *args], cwd=folder, capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr
    run = subprocess.run([promtool, "check", "metrics"], input=(folder / "design-neighbors.prom").read_text(),
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def _render(template: str, labels: dict) -> str:
    return re.sub(r"\{\{ \$labels\.(\w+) \}\}", lambda mt: labels[mt.group(1)], template)


def _expect(rule_name: str, labels: dict) -> dict:
    rule = next(r for r in alerts.rules(fabric("default"))["groups"][0]["rules"] if r["alert"] == rule_name)
    return {"exp_labels": {**labels, **rule["labels"]},
            "exp_annotations": {k: _render(v, labels) for k, v in rule["annotations"].items()}}


def _series(name: str, labels: dict, values: str) -> dict:
    return {"series": name + "{" + ", ".join(f'{k}="{v}"' for k, v in sorted(labels.items())) + "}",
            "values": values}


def test_alerts_fire_in_promtool_unit_tests(tmp_path):
    """Fault injected per alert, with a healthy twin beside it that must stay quiet."""
    promtool = need_tool("promtool")
    folder = write(tmp_path, files())
    rows = [r for r in expected_neighbors(fabric("default")) if r["switch"] == "su1-leaf-r0"
            and r["remote_system_name"].startswith("su1-srv")]
    wrong, right = rows[0], rows[1]
    leaf = {"job": "rail-fabric", "instance": "su1-leaf-r0:9101", "hostname": "su1-leaf-r0", "role": "leaf",
            "su": "1", "rail": "0", "exporter": "sonic-exporter"}
    host = {"job": "rail-fabric", "instance": "su1-srv01:9100", "hostname": "su1-srv01", "role": "gpu_server",
            "su": "1", "rail": "0,1,2,3", "exporter": "node_exporter"}
    design = {"job": "rail-design", "instance": "localhost:9100"}
    series = [_series(m.EXPECTED_NEIGHBOR, {**design, **r}, "1x30") for r in (wrong, right)]
    series += [
        _series(m.SW_LLDP, {**leaf, "local_interface": wrong["local_interface"], "remote_system_name": "su1-srv04",
                            "remote_port_display": wrong["remote_port"]}, "1x30"),
        _series(m.SW_LLDP, {**leaf, "local_interface": right["local_interface"],
                            "remote_system_name": right["remote_system_name"],
                            "remote_port_display": right["remote_port"]}, "1x30"),
        _series(m.SW_LLDP.replace("_info", "s"), leaf, "2x30"),
        _series(m.SW_OPER, {**leaf, "device": wrong["local_interface"]}, "0x30"),
        _series(m.SW_OPER, {**leaf, "device": "Ethernet248"}, "0x30"),          # no cable in the design
        _series(m.CARRIER, {**host, "device": "ens1np0"}, "0x30"),
        _series(m.CARRIER, {**host, "device": "ens2np0"}, "1x30"),
        _series(m.PFC_RX_DURATION.format(prio=3), {**host, "device": "ens3np0"}, "0+48000000x30"),
        _series(m.PFC_RX_DURATION.format(prio=3), {**host, "device": "ens4np0"}, "0+600000x30"),
    ]
    tests = {"rule_files": ["alerts.rules.yml"], "evaluation_interval": "1m", "tests": [{
        "interval": "1m", "input_series": series,
        "alert_rule_test": [
            {"eval_time": "15m", "alertname": "RailCableMismatch", "exp_alerts": [_expect("RailCableMismatch", {
                "switch": "su1-leaf-r0", "local_interface": wrong["local_interface"],
                "remote_system_name": wrong["remote_system_name"]})]},
            {"eval_time": "5m", "alertname": "RailSwitchPortDown", "exp_alerts": [_expect("RailSwitchPortDown", {
                **leaf, "device": wrong["local_interface"], "switch": "su1-leaf-r0",
                "local_interface": wrong["local_interface"]})]},
            {"eval_time": "5m", "alertname": "RailHostNicDown",
             "exp_alerts": [_expect("RailHostNicDown", {**host, "device": "ens1np0"})]},
            {"eval_time": "10m", "alertname": "RailPfcStorm",
             "exp_alerts": [_expect("RailPfcStorm", {**host, "device": "ens3np0"})]},
            {"eval_time": "10m", "alertname": "RailExporterDown", "exp_alerts": []},
        ]}]}
    (folder / "alerts.test.yml").write_text(yaml.safe_dump(tests, sort_keys=False))
    run = subprocess.run([promtool, "test", "rules", "alerts.test.yml"], cwd=folder, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_node_exporter_produces_the_host_metric_names(tmp_path):
    """The real node_exporter on a sysfs tree shaped like a host's rail NIC: the infiniband and netclass
    names the rules and dashboards use must be in its output. (hw_counters need node_exporter 1.11+ and
    ethtool statistics come through an ioctl, so those two are taken from the exporter's source.)"""
    import socket
    import time
    import urllib.request
    exporter = need_tool("prometheus-node-exporter")
    sysfs = tmp_path / "sys"
    port_dir = sysfs / "class/infiniband/mlx5_0/ports/1"
    (port_dir / "counters").mkdir(parents=True)
    for name, value in {"rate": "400 Gb/sec (4X NDR)", "state": "4: ACTIVE", "phys_state": "5: LinkUp",
                        "link_layer": "Ethernet"}.items():
        (port_dir / name).write_text(value + "\n")
    for name, value in {"board_id": "MT_0000000838", "fw_ver": "28.39.1002", "hca_type": "MT4129"}.items():
        (sysfs / "class/infiniband/mlx5_0" / name).write_text(value + "\n")
    for counter in ("port_rcv_data", "port_xmit_data", "port_rcv_discards", "port_xmit_discards"):
        (port_dir / "counters" / counter).write_text("100\n")
    net = sysfs / "class/net/ens1np0"
    net.mkdir(parents=True)
    for name, value in {"carrier": "1", "carrier_changes": "3", "operstate": "up", "speed": "400000",
                        "mtu": "9000", "type": "1", "flags": "0x1003", "ifindex": "6", "iflink": "6"}.items():
        (net / name).write_text(value + "\n")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([exporter, f"--path.sysfs={sysfs}", "--collector.disable-defaults",
                             "--collector.infiniband", "--collector.netclass",
                             f"--web.listen-address=127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        text = ""
        for _ in range(50):
            try:
                text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2).read().decode()
                break
            except OSError:
                time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    produced = {line.split("{")[0].split(" ")[0] for line in text.splitlines() if line and not line.startswith("#")}
    used = {m.IB_RX_BYTES, m.IB_TX_BYTES, m.IB_RATE, m.IB_RX_DISCARDS, m.IB_TX_DISCARDS, m.CARRIER, m.CARRIER_CHANGES}
    assert used <= produced, sorted(used - produced)
    assert 'node_infiniband_rate_bytes_per_second{device="mlx5_0",port="1"} 5e+10' in text


def _dashboards(preset="default", **overrides) -> dict[str, dict]:
    return {p: json.loads(t) for p, t in files(preset, **overrides).items() if p.endswith(".json")
            and "/dashboards/" in p}


def _kept(ours, theirs, path="") -> list[str]:
    """Keys of ours that Grafana's model dropped or changed (targets are free-form per data source)."""
    lost = []
    if isinstance(ours, dict):
        for k, v in ours.items():
            if k not in theirs:
                lost.append(f"{path}/{k}")
            elif k != "targets":
                lost += _kept(v, theirs[k], f"{path}/{k}")
    elif isinstance(ours, list):
        lost += [x for a, b, i in zip(ours, theirs, range(len(ours))) for x in _kept(a, b, f"{path}[{i}]")]
    elif ours != theirs:
        lost.append(f"{path}: {ours!r} -> {theirs!r}")
    return lost


@pytest.mark.parametrize("preset", ["default", "rail-only-32x4", "superpod-su", "b200-three-tier-p2p31",
                                    "twin-plane-p2p31"])
def test_dashboards_survive_grafanas_dashboard_model(preset):
    from grafana_foundation_sdk.cog.encoder import JSONEncoder
    from grafana_foundation_sdk.models.dashboard import Dashboard
    boards = _dashboards(preset)
    assert boards
    for path, board in boards.items():
        back = json.loads(json.dumps(Dashboard.from_json(board), cls=JSONEncoder))
        assert _kept(board, back) == [], path
        ids = [p["id"] for p in board["panels"]]
        assert len(ids) == len(set(ids)) and all(0 <= p["gridPos"]["x"] and p["gridPos"]["x"] + p["gridPos"]["w"] <= 24
                                                for p in board["panels"])
        assert len(board["uid"]) <= 40


def test_every_dashboard_query_parses_in_promtool(tmp_path):
    promtool = need_tool("promtool")
    boards = [b for preset in ("default", "b200-three-tier-p2p31", "twin-plane-p2p31")
              for b in _dashboards(preset).values()]
    exprs = sorted({t["expr"] for b in boards for p in b["panels"] for t in p.get("targets", [])})
    rules = {"groups": [{"name": "dashboards", "rules": [{"record": f"dashboard:query{i}", "expr": e}
                                                          for i, e in enumerate(exprs)]}]}
    (tmp_path / "q.yml").write_text(yaml.safe_dump(rules))
    run = subprocess.run([promtool, "check", "rules", "q.yml"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_panels_per_su_and_rail_cover_the_fabric():
    boards = _dashboards()
    su1 = boards["monitoring/grafana/dashboards/two-su-demo-su1.json"]
    rows = [p["title"] for p in su1["panels"] if p["type"] == "row"]
    assert rows == [f"Rail {r}: su1-leaf-r{r} and 4 host NICs" for r in range(4)]
    titles = {p["title"] for p in su1["panels"] if p["type"] == "timeseries"}
    for word in ("utilisation", "PFC", "ECN", "Drops", "Link state"):
        assert any(word in t for t in titles), word
    rail3 = json.dumps(su1)
    assert 'device=~\\"mlx5_3\\"' in rail3 and 'hostname=~\\"su1-leaf-r3\\"' in rail3
    assert "monitoring/grafana/dashboards/two-su-demo-spines.json" in boards
    assert "monitoring/grafana/dashboards/rail-only-32x4-spines.json" not in _dashboards("rail-only-32x4")


def test_three_tier_targets_and_dashboards_cover_the_cores():
    f = fabric("b200-three-tier-p2p31")
    labels = {e["labels"]["hostname"]: e["labels"] for e in json.loads(files("b200-three-tier-p2p31")[TARGETS])}
    assert len(labels) == len(f.servers) + len(f.switches)
    for core in f.cores():
        assert labels[core.hostname]["role"] == "core" and labels[core.hostname]["group"] == str(core.group)
        assert labels[core.hostname]["su"] == "1,2" and labels[core.hostname]["rail"] == "0,1"
    assert all(labels[s.hostname]["group"] == str(s.group) for s in f.spines() + f.leaves())
    assert "group" not in labels[f.sorted_servers()[0].hostname]
    boards = _dashboards("b200-three-tier-p2p31")
    name = f.settings.name
    cores = boards[f"monitoring/grafana/dashboards/{name}-cores.json"]
    assert all('role=\\"core\\"' in json.dumps(t) for p in cores["panels"] for t in p.get("targets", []))
    spines = boards[f"monitoring/grafana/dashboards/{name}-spines.json"]
    assert any(p["title"] == "Spine uplinks to cores: utilisation" for p in spines["panels"])
    rules = yaml.safe_load(files("b200-three-tier-p2p31")["monitoring/alerts.rules.yml"])
    assert rules                      # the cable alerts join the design series, which hold every spine-core cable:
    neighbours = files("b200-three-tier-p2p31")[f"monitoring/{alerts.NEIGHBORS_FILE}"]
    for core in f.cores():
        for port, peer in f.cabled_ports(core.id):
            spine = f.switches[peer.split("/")[0]].hostname
            assert (f'switch="{core.hostname}",local_interface="{port.name}",remote_system_name="{spine}"'
                    in neighbours)


def test_twin_plane_targets_and_rows_are_per_plane():
    f = fabric("twin-plane-p2p31")
    labels = {e["labels"]["hostname"]: e["labels"] for e in json.loads(files("twin-plane-p2p31")[TARGETS])}
    assert labels[f.sorted_servers()[0].hostname]["fabric_plane"] == "0,1"
    assert all(labels[w.hostname]["fabric_plane"] == str(w.fabric_plane) for w in f.switches.values())
    board = _dashboards("twin-plane-p2p31")[f"monitoring/grafana/dashboards/{f.settings.name}-su1.json"]
    rows = [p["title"] for p in board["panels"] if p["type"] == "row"]
    assert rows == [f"Rail {r}, plane {p}: pl{p}-su1-leaf-r{r} and 4 host NICs" for r in (0, 1) for p in (0, 1)]


def test_render_is_deterministic():
    assert files("rail-optimized-64x4") == files("rail-optimized-64x4")


def test_a_free_text_design_name_gives_safe_dashboard_and_lab_file_names():
    """The design's name is free text (the property test once named a design '' and export then refused
    'monitoring/grafana/dashboards/-su1.json'): file names and uids are made from a safe stem."""
    import dataclasses
    from designer.export.bundle import render_in_memory
    from designer.export.registry import parts
    from designer.planning.build import build
    from designer.storage.catalog_file import builtin_catalog
    from designer.storage.presets import load_preset
    for name, stem in (("", "fabric"), ("Pod A/B — été", "Pod-A-B-t"), ("..x y..", "x-y")):
        fabric = build(load_preset("default").spec(), builtin_catalog())
        fabric.set_settings(dataclasses.replace(fabric.settings, name=name))
        files = render_in_memory(fabric, [p for p in parts() if p.name in ("monitoring", "lab")])
        dash = sorted(p for p in files if p.startswith("monitoring/grafana/dashboards/"))
        assert dash == [f"monitoring/grafana/dashboards/{stem}-spines.json",
                        f"monitoring/grafana/dashboards/{stem}-su1.json",
                        f"monitoring/grafana/dashboards/{stem}-su2.json"], name
        assert f"lab/{stem}.clab.yml" in files
        for path in dash:
            uid = json.loads(files[path])["uid"]
            assert re.fullmatch(r"[A-Za-z0-9_-]{1,40}", uid), uid
