"""The ``monitoring`` part: Prometheus targets, scrape config and alerting rules, the design's expected
LLDP neighbours as series, and Grafana dashboards with their provisioning file.

- ``monitoring/prometheus-targets.json``: file_sd list, servers on node_exporter (:9100), switches on
  sonic-exporter (:9101); labels in `monitoring_data`.
- ``monitoring/prometheus.yml``: the scrape jobs and ``rule_files`` to merge into Prometheus' config.
- ``monitoring/alerts.rules.yml``: `alerts.rules` (``promtool check rules`` clean).
- ``monitoring/design-neighbors.prom``: one series per cable end on a switch, for a node_exporter
  textfile collector, so that alerts can tell a designed port from an unused one.
- ``monitoring/grafana/``: `dashboards` (one per SU, one for the spines) and the provider file.

Metric names and ports come from the exporters themselves; `metrics` says which, with sources.
"""

from __future__ import annotations

from ..model.fabric import Fabric
from . import alerts, dashboards
from .jsondump import indented
from .monitoring_data import targets
from .parts import Files, Part


def render_global(fabric: Fabric) -> Files:
    files: Files = {
        f"monitoring/{alerts.TARGETS_FILE}": indented(targets(fabric)) + "\n",
        "monitoring/prometheus.yml": alerts.prometheus_yaml(),
        f"monitoring/{alerts.RULES_FILE}": alerts.rules_yaml(fabric),
        f"monitoring/{alerts.NEIGHBORS_FILE}": alerts.neighbors_prom(fabric),
    }
    files.update(dashboards.render(fabric))
    return files


PARTS: list[Part] = [
    Part(name="monitoring",
         description="Prometheus targets, scrape config and alert rules; Grafana dashboards per SU and rail",
         render_global=render_global, refused_by=frozenset({"RD010"}),               # the targets' host names
         apply="merge monitoring/prometheus.yml into Prometheus (targets and rules beside it); put "
               "design-neighbors.prom in a node_exporter textfile directory; copy monitoring/grafana/ into "
               "Grafana's provisioning; hosts run node_exporter --collector.ethtool, switches sonic-exporter"),
]
