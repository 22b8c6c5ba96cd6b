"""Grafana dashboards (JSON model, file provisioning) for the fabric: one per SU with a row per rail (per
rail and fabric plane in a multi-plane design), one for the spines (with their core uplinks in three
tiers), one for the cores, and the provider file that loads them.

Per rail of an SU: the leaf's port utilisation, the hosts' rail NIC utilisation, PFC pause frames
between the leaf and the hosts, ECN-marked RoCE packets arriving at the hosts (and the CNPs they
answer with), drops, and link state changes. Where the switch side has no Prometheus source (PFC and
ECN, see `metrics`), the panel reads the hosts' end of the same cables and says so in its title.
"""

from __future__ import annotations

from ..model.fabric import Fabric
from . import metrics as m
from .host_data import ROCE_PRIORITY
from .jsondump import indented
from .monitoring_data import core_uplinks, rail_groups
from .names import design_stem

SCHEMA_VERSION = 39
DS = {"type": "prometheus", "uid": "${datasource}"}
FOLDER = "monitoring/grafana"
PROVIDER = f"{FOLDER}/provisioning/dashboards/rail-designer.yaml"
WIDTH, HEIGHT = 8, 8


def _target(expr: str, legend: str, ref: str) -> dict:
    return {"datasource": DS, "expr": expr, "legendFormat": legend, "refId": ref}


def _panel(title: str, unit: str, exprs: list[tuple[str, str]]) -> dict:
    return {"type": "timeseries", "title": title, "datasource": DS,
            "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
            "options": {"legend": {"displayMode": "table", "placement": "bottom", "showLegend": True},
                        "tooltip": {"mode": "multi", "sort": "desc"}},
            "targets": [_target(e, legend, "ABCDEFGH"[i]) for i, (e, legend) in enumerate(exprs)]}


def _layout(rows: list[tuple[str, list[dict]]]) -> list[dict]:
    """Row panels with their panels three to a line; ids and grid positions in order."""
    out, y, pid = [], 0, 1
    for title, panels in rows:
        out.append({"type": "row", "title": title, "collapsed": False, "id": pid, "panels": [],
                    "gridPos": {"h": 1, "w": 24, "x": 0, "y": y}})
        pid, y = pid + 1, y + 1
        for i, p in enumerate(panels):
            out.append({**p, "id": pid, "gridPos": {"h": HEIGHT, "w": WIDTH, "x": (i % 3) * WIDTH,
                                                     "y": y + (i // 3) * HEIGHT}})
            pid += 1
        y += HEIGHT * ((len(panels) + 2) // 3)
    return out


def _dashboard(uid: str, title: str, tags: list[str], rows) -> dict:
    return {
        "uid": uid, "title": title, "tags": ["rail-designer", *tags], "editable": True,
        "schemaVersion": SCHEMA_VERSION, "version": 1, "refresh": "30s", "timezone": "browser",
        "time": {"from": "now-6h", "to": "now"}, "graphTooltip": 1,
        "annotations": {"list": []}, "links": [],
        "templating": {"list": [{"name": "datasource", "label": "Prometheus", "type": "datasource",
                                 "query": "prometheus", "hide": 0, "current": {}, "options": [],
                                 "refresh": 1, "regex": ""}]},
        "panels": _layout(rows),
    }


def rail_panels(group: dict) -> list[dict]:
    leaves = f'hostname=~"{m.regex(group["leaves"])}"'
    hosts = f'role="gpu_server", su="{group["su"]}"'
    rdma = f'{hosts}, device=~"{m.regex(group["rdma"])}"'
    net = f'{hosts}, device=~"{m.regex(group["netdevs"])}"'
    prio = ROCE_PRIORITY
    panels = [
        _panel("Leaf ports: utilisation", "percentunit", [
            (f"rate({m.SW_TX_BYTES}{{{leaves}}}[5m]) / {m.SW_SPEED}{{{leaves}}}", "{{hostname}} {{device}} out"),
            (f"rate({m.SW_RX_BYTES}{{{leaves}}}[5m]) / {m.SW_SPEED}{{{leaves}}}", "{{hostname}} {{device}} in")]),
        _panel("Host rail NICs: RDMA utilisation", "percentunit", [
            (f"rate({m.IB_TX_BYTES}{{{rdma}}}[5m]) / {m.IB_RATE}{{{rdma}}}", "{{hostname}} {{device}} out"),
            (f"rate({m.IB_RX_BYTES}{{{rdma}}}[5m]) / {m.IB_RATE}{{{rdma}}}", "{{hostname}} {{device}} in")]),
        _panel(f"PFC pause frames, priority {prio} (leaf <-> hosts, host counters)", "pps", [
            (f"rate({m.PFC_RX.format(prio=prio)}{{{net}}}[5m])", "leaf pauses {{hostname}} {{device}}"),
            (f"rate({m.PFC_TX.format(prio=prio)}{{{net}}}[5m])", "{{hostname}} {{device}} pauses leaf")]),
        _panel("ECN-marked RoCE packets arriving at hosts, and CNPs sent", "pps", [
            (f"rate({m.IB_ECN_MARKED}{{{rdma}}}[5m])", "CE marked to {{hostname}} {{device}}"),
            (f"rate({m.IB_CNP_SENT}{{{rdma}}}[5m])", "CNP from {{hostname}} {{device}}")]),
        _panel("Drops", "pps", [
            (f"sum by (hostname, device) (rate({m.SW_QUEUE_DROPS}{{{leaves}}}[5m]))", "{{hostname}} {{device}} queues"),
            (f"rate({m.IB_RX_DISCARDS}{{{rdma}}}[5m]) + rate({m.IB_TX_DISCARDS}{{{rdma}}}[5m])",
             "{{hostname}} {{device}} discards")]),
        _panel("Link state changes (1h)", "short", [
            (f"changes({m.SW_OPER}{{{leaves}}}[1h]) > 0", "{{hostname}} {{device}}"),
            (f"increase({m.CARRIER_CHANGES}{{{net}}}[1h]) > 0", "{{hostname}} {{device}}")]),
    ]
    if group["uplinks"]:
        up = f'{leaves}, device=~"{m.regex(group["uplinks"])}"'
        panels.insert(1, _panel("Leaf uplinks to spines: utilisation (collisions show as one hot uplink)",
                                "percentunit", [
            (f"rate({m.SW_TX_BYTES}{{{up}}}[5m]) / {m.SW_SPEED}{{{up}}}", "{{hostname}} {{device}} up"),
            (f"rate({m.SW_RX_BYTES}{{{up}}}[5m]) / {m.SW_SPEED}{{{up}}}", "{{hostname}} {{device}} down")]))
    return panels


def tier_panels(role: str, title: str, uplinks: list[str] = ()) -> list[dict]:
    """A tier's ports, drops and link changes; ``uplinks``: the ports to the tier above, in a panel of their own."""
    sel = f'role="{role}"'
    panels = [
        _panel(f"{title} ports: utilisation", "percentunit", [
            (f"rate({m.SW_TX_BYTES}{{{sel}}}[5m]) / {m.SW_SPEED}{{{sel}}}", "{{hostname}} {{device}} out"),
            (f"rate({m.SW_RX_BYTES}{{{sel}}}[5m]) / {m.SW_SPEED}{{{sel}}}", "{{hostname}} {{device}} in")]),
        _panel(f"{title} drops", "pps", [
            (f"sum by (hostname, device) (rate({m.SW_QUEUE_DROPS}{{{sel}}}[5m]))", "{{hostname}} {{device}}"),
            (f"rate({m.SW_RX_ERRS}{{{sel}}}[5m]) + rate({m.SW_TX_ERRS}{{{sel}}}[5m])",
             "{{hostname}} {{device}} errors")]),
        _panel(f"{title} link state changes (1h)", "short", [
            (f"changes({m.SW_OPER}{{{sel}}}[1h]) > 0", "{{hostname}} {{device}}")]),
    ]
    if uplinks:
        up = f'{sel}, device=~"{m.regex(uplinks)}"'
        panels.insert(1, _panel(f"{title} uplinks to cores: utilisation", "percentunit", [
            (f"rate({m.SW_TX_BYTES}{{{up}}}[5m]) / {m.SW_SPEED}{{{up}}}", "{{hostname}} {{device}} up"),
            (f"rate({m.SW_RX_BYTES}{{{up}}}[5m]) / {m.SW_SPEED}{{{up}}}", "{{hostname}} {{device}} down")]))
    return panels


def _row_title(g: dict, planes: bool) -> str:
    plane = f", plane {g['fabric_plane']}" if planes else ""
    return f"Rail {g['rail']}{plane}: {', '.join(g['leaves'])} and {g['servers']} host NICs"


def dashboards(fabric: Fabric) -> dict[str, dict]:
    """Bundle path -> dashboard model."""
    name, stem = fabric.settings.name, design_stem(fabric.settings.name)
    planes = fabric.settings.fabric_planes > 1
    by_su: dict[int, list[dict]] = {}
    for g in rail_groups(fabric):
        by_su.setdefault(g["su"], []).append(g)
    out = {}
    for su, groups in sorted(by_su.items()):
        rows = [(_row_title(g, planes), rail_panels(g)) for g in groups]
        out[f"{FOLDER}/dashboards/{stem}-su{su}.json"] = _dashboard(
            _uid(stem, f"su{su}"), f"{name}: SU {su} by rail", [f"su{su}"], rows)
    if fabric.spines():
        out[f"{FOLDER}/dashboards/{stem}-spines.json"] = _dashboard(
            _uid(stem, "spines"), f"{name}: spines", ["spines"],
            [("Spines", tier_panels("spine", "Spine", core_uplinks(fabric)))])
    if fabric.cores():
        out[f"{FOLDER}/dashboards/{stem}-cores.json"] = _dashboard(
            _uid(stem, "cores"), f"{name}: cores", ["cores"], [("Cores", tier_panels("core", "Core"))])
    return out


def _uid(stem: str, suffix: str) -> str:
    """Grafana uids are at most 40 characters of letters, digits, '-' and '_'."""
    import hashlib
    name = stem.replace(".", "-")
    uid = f"rd-{name}-{suffix}"
    return uid if len(uid) <= 40 else f"rd-{hashlib.sha256(name.encode()).hexdigest()[:12]}-{suffix}"[:40]


def provider_yaml() -> str:
    return ("# Grafana file provisioning: copy monitoring/grafana/ to /etc/grafana/ (or point path at it).\n"
            "apiVersion: 1\nproviders:\n  - name: rail-designer\n    folder: rail-designer\n    type: file\n"
            "    disableDeletion: false\n    allowUiUpdates: false\n    options:\n"
            "      path: /etc/grafana/dashboards/rail-designer\n      foldersFromFilesStructure: false\n")


def render(fabric: Fabric) -> dict[str, str]:
    files = {path: indented(d) + "\n" for path, d in dashboards(fabric).items()}
    files[PROVIDER] = provider_yaml()
    return files
