"""Prometheus alerting rules for the fabric, the scrape configuration, and the design's expected LLDP
neighbours as series (Prometheus text format, for a node_exporter textfile collector).

Every rule selects only what the design has: switch ports with a designed cable (joined with the
``rail_designer_expected_lldp_neighbor`` series) and the hosts' rail NICs (by netdev name).
Thresholds are stated with their reason next to them.
"""

from __future__ import annotations

from .host_data import ROCE_PRIORITY
from ..model.fabric import Fabric
from . import metrics as m
from .monitoring_data import expected_neighbors
from .yamldump import dump

JOB, DESIGN_JOB = "rail-fabric", "rail-design"
RULES_FILE, TARGETS_FILE, NEIGHBORS_FILE = "alerts.rules.yml", "prometheus-targets.json", "design-neighbors.prom"
PAUSED_SHARE = 0.5          # PFC storm: the leaf keeps the NIC paused more than half of the time...
PAUSED_FOR = "2m"           # ...for two minutes (a burst pauses for microseconds, a storm for good)
FLAPS = 2                   # link flapping: more than two down/up cycles in 15 minutes
ECN_MIN_RATE = 1000         # ECN rising: at least 1000 marked packets/s arriving...
ECN_GROWTH = 2              # ...and twice the last hour's rate


def _switch_port(expr: str) -> str:
    """A sonic-exporter series relabelled to the design series' (switch, local_interface)."""
    return (f'label_replace(label_replace({expr}, "switch", "$1", "hostname", "(.*)"), '
            f'"local_interface", "$1", "device", "(.*)")')


def _rule(name: str, expr: str, duration: str, severity: str, summary: str, description: str) -> dict:
    return {"alert": name, "expr": expr, "for": duration, "labels": {"severity": severity},
            "annotations": {"summary": summary, "description": description}}


def rules(fabric: Fabric) -> dict:
    netdevs = m.regex(n.netdev for n in fabric.nics() if n.rail is not None and fabric.peer(n.id))
    nic = f'role="gpu_server", device=~"{netdevs}"'
    designed = f"on (switch, local_interface) {m.EXPECTED_NEIGHBOR}"
    paused = m.PFC_RX_DURATION.format(prio=ROCE_PRIORITY)
    lldp = (f'label_replace(label_replace({m.SW_LLDP}, "switch", "$1", "hostname", "(.*)"), '
            '"remote_port", "$1", "remote_port_display", "(.*)")')
    ecn = f"rate({m.IB_ECN_MARKED}{{role=\"gpu_server\"}}[5m])"
    return {"groups": [{"name": "rail-fabric", "rules": [
        _rule("RailExporterDown", f'up{{job="{JOB}"}} == 0', "5m", "warning",
              "{{ $labels.hostname }}: its {{ $labels.exporter }} does not answer",
              "No metrics from {{ $labels.instance }} for 5 minutes: the dashboards and the other alerts are blind there."),
        _rule("RailSwitchPortDown", f"({_switch_port(m.SW_OPER)} == 0) and {designed}", "1m", "critical",
              "{{ $labels.switch }} {{ $labels.local_interface }} is down",
              "The design has a cable on this port (see cabling.csv); every flow pinned to it is lost or rerouted."),
        _rule("RailHostNicDown", f"{m.CARRIER}{{{nic}}} == 0", "1m", "critical",
              "{{ $labels.hostname }} rail NIC {{ $labels.device }} has no carrier",
              "NCCL loses this rail on this host: collectives fall back to other NICs or stop."),
        _rule("RailSwitchLinkFlapping", f"({_switch_port(f'changes({m.SW_OPER}[15m])')} > {2 * FLAPS}) and {designed}",
              "0m", "warning", "{{ $labels.switch }} {{ $labels.local_interface }} is flapping",
              f"More than {FLAPS} down/up cycles in 15 minutes: check the optic and cable."),
        _rule("RailHostNicFlapping", f"increase({m.CARRIER_CHANGES}{{{nic}}}[15m]) > {2 * FLAPS}", "0m", "warning",
              "{{ $labels.hostname }} {{ $labels.device }} is flapping",
              f"More than {FLAPS} carrier losses in 15 minutes: check the optic, cable and leaf port."),
        _rule("RailPfcStorm", f"rate({paused}{{{nic}}}[1m]) > {int(PAUSED_SHARE * 1e6)}", PAUSED_FOR, "critical",
              "{{ $labels.hostname }} {{ $labels.device }} is paused by its leaf most of the time",
              f"PFC on priority {ROCE_PRIORITY} holds this NIC more than {PAUSED_SHARE:.0%} of each second "
              f"(pause duration counts microseconds) for {PAUSED_FOR}: a pause storm or a stuck receiver "
              "downstream; the SONiC PFC watchdog should break it."),
        _rule("RailPfcStormDetected", f"increase({m.PFC_STORM}{{{nic}}}[5m]) > 0", "0m", "critical",
              "{{ $labels.hostname }} {{ $labels.device }}: the NIC's pause-storm detector fired",
              "mlx5 counts tx_pause_storm_warning_events when it has been sending pauses for too long."),
        _rule("RailEcnRising", f"{ecn} > {ECN_MIN_RATE} and {ecn} > {ECN_GROWTH} * rate({m.IB_ECN_MARKED}[1h])",
              "10m", "warning", "{{ $labels.hostname }} {{ $labels.device }}: ECN marks rising",
              f"More than {ECN_MIN_RATE} CE-marked RoCE packets/s and over {ECN_GROWTH}x the last hour's rate: "
              "congestion on the path to this NIC (collisions, or a slow receiver)."),
        _rule("RailCableMismatch",
              f"max by (switch, local_interface, remote_system_name) ({m.EXPECTED_NEIGHBOR}) "
              f"unless on (switch, local_interface) ({m.EXPECTED_NEIGHBOR} "
              f"and on (switch, local_interface, remote_system_name, remote_port) {lldp}) "
              f'and on (switch) label_replace({m.SW_LLDP.replace("_info", "s")}, "switch", "$1", "hostname", "(.*)")',
              "10m", "warning",
              "{{ $labels.switch }} {{ $labels.local_interface }} does not see {{ $labels.remote_system_name }}",
              "LLDP on this port reports another neighbour, or none, than the design's cable: a miswired or "
              "missing cable (`rail-designer verify DESIGN --lldp DIR` lists the work order)."),
    ]}]}


def rules_yaml(fabric: Fabric) -> str:
    return dump(rules(fabric))


def neighbors_prom(fabric: Fabric) -> str:
    lines = [f"# HELP {m.EXPECTED_NEIGHBOR} A cable of the design: the LLDP neighbour this switch port should see.",
             f"# TYPE {m.EXPECTED_NEIGHBOR} gauge"]
    for r in expected_neighbors(fabric):
        labels = ",".join(f'{k}="{r[k]}"' for k in ("switch", "local_interface", "remote_system_name", "remote_port"))
        lines.append(f"{m.EXPECTED_NEIGHBOR}{{{labels}}} 1")
    return "\n".join(lines) + "\n"


def prometheus_yaml() -> str:
    config = {
        "global": {"scrape_interval": "15s", "evaluation_interval": "15s"},
        "rule_files": [RULES_FILE],
        "scrape_configs": [
            {"job_name": JOB, "file_sd_configs": [{"files": [TARGETS_FILE]}]},
            {"job_name": DESIGN_JOB, "honor_labels": True, "static_configs": [{"targets": ["localhost:9100"]}]},
        ],
    }
    head = ("# Scrape the fabric (node_exporter on the hosts, sonic-exporter on the switches) and the design's\n"
            f"# expected LLDP neighbours: put {NEIGHBORS_FILE} in the --collector.textfile.directory of the\n"
            "# node_exporter on the Prometheus host (localhost:9100). Merge into your prometheus.yml.\n")
    return head + dump(config)
