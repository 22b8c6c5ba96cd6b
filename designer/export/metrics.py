"""Where every metric the dashboards and alerts use comes from: real exporters, named with sources.

Hosts: Prometheus node_exporter (port 9100, its registered default).
- ``infiniband`` collector (on by default) reads /sys/class/infiniband/<rdma>/ports/<n>/: port
  counters (RoCE traffic bypasses the kernel's netdev counters, so RDMA bytes are here) and, since
  node_exporter 1.11, ``hw_counters`` such as ``np_ecn_marked_roce_packets`` (RoCE packets that
  arrived with ECN CE set: marks made by the switches on the path) and ``np_cnp_sent``.
- ``ethtool`` collector (off by default: ``--collector.ethtool``) turns mlx5's ``ethtool -S``
  names into ``node_ethtool_<name>`` with ``rx``/``tx`` spelled ``received``/``transmitted``:
  ``rx_prio3_pause`` -> ``node_ethtool_received_prio3_pause`` (PFC frames the leaf sent this NIC),
  ``rx_prio3_pause_duration`` (microseconds paused), ``tx_prio3_pause``,
  ``tx_pause_storm_warning_events`` (the NIC's own storm detector).
- ``netclass`` collector: ``node_network_carrier``, ``node_network_carrier_changes_total`` (flaps).

Switches: SONiC ships no Prometheus endpoint (its telemetry container speaks gNMI). The community
exporter that reads SONiC's Redis databases, sonic-exporter (github.com/vinted/sonic-exporter and
its maintained fork rokernel/sonic-exporter), listens on port 9101 and exposes
``sonic_interface_{receive,transmit}_bytes_total``, ``sonic_interface_speed_bytes``,
``sonic_interface_operational_status``, ``sonic_interface_{receive,transmit}_errs_total``,
``sonic_queue_dropped_packets_total`` and ``sonic_lldp_neighbor_info`` (label ``device`` = the
SONiC port name). It exports no PFC or ECN counters (they are in SONiC's COUNTERS_DB as
``SAI_PORT_STAT_PFC_3_RX_PKTS`` and ``SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS``, reachable over
gNMI only), so PFC and ECN on a leaf's server ports are read from the hosts' NICs on the other end
of the cable; leaf-spine PFC and ECN have no Prometheus source here.
"""

from __future__ import annotations

HOST_EXPORTER = ("node_exporter", 9100)
SWITCH_EXPORTER = ("sonic-exporter", 9101)

# hosts (node_exporter)
IB_RX_BYTES = "node_infiniband_port_data_received_bytes_total"
IB_TX_BYTES = "node_infiniband_port_data_transmitted_bytes_total"
IB_RATE = "node_infiniband_rate_bytes_per_second"
IB_RX_DISCARDS = "node_infiniband_port_discards_received_total"
IB_TX_DISCARDS = "node_infiniband_port_discards_transmitted_total"
IB_ECN_MARKED = "node_infiniband_np_ecn_marked_roce_packets_received_total"
IB_CNP_SENT = "node_infiniband_np_cnp_packets_sent_total"
PFC_RX = "node_ethtool_received_prio{prio}_pause"
PFC_RX_DURATION = "node_ethtool_received_prio{prio}_pause_duration"
PFC_TX = "node_ethtool_transmitted_prio{prio}_pause"
PFC_STORM = "node_ethtool_transmitted_pause_storm_warning_events"
CARRIER = "node_network_carrier"
CARRIER_CHANGES = "node_network_carrier_changes_total"

# switches (sonic-exporter)
SW_RX_BYTES = "sonic_interface_receive_bytes_total"
SW_TX_BYTES = "sonic_interface_transmit_bytes_total"
SW_SPEED = "sonic_interface_speed_bytes"
SW_OPER = "sonic_interface_operational_status"
SW_RX_ERRS = "sonic_interface_receive_errs_total"
SW_TX_ERRS = "sonic_interface_transmit_errs_total"
SW_QUEUE_DROPS = "sonic_queue_dropped_packets_total"
SW_LLDP = "sonic_lldp_neighbor_info"

# the design's own series (monitoring/design-neighbors.prom, served by a node_exporter textfile collector)
EXPECTED_NEIGHBOR = "rail_designer_expected_lldp_neighbor"


def regex(values) -> str:
    """A PromQL ``=~`` alternation of literal names (sorted, dots escaped)."""
    return "|".join(v.replace(".", "\\\\.") for v in sorted(set(values)))
