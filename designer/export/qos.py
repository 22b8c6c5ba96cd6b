"""The RoCE lossless QoS profile as SONiC CONFIG_DB tables (DOMAIN.md section 5).

RoCE data rides DSCP 26 in traffic class / queue / priority group 3, which is lossless (PFC on
priority 3, PFC priority 3 -> PG 3) and ECN-marked by WRED; congestion notification packets (CNP)
ride DSCP 48 in class / queue 6, served strictly first. Everything else is class 0. Map references
use plain object names, as current SONiC does (``"dscp_to_tc_map": "ROCE"``; the old
``"[DSCP_TO_TC_MAP|ROCE]"`` form is from releases before 202012).

Buffers. Pool and headroom sizes are the platform's: they exist in the switch's running config
(buffers_config.j2 of its HWSKU) and this file does not carry BUFFER_POOL, BUFFER_PROFILE or
BUFFER_PG. Every priority group a class lands in has a profile all the same:
- PG 3 (lossless): SONiC's buffer manager creates ``BUFFER_PG|<port>|3`` itself from
  ``PORT_QOS_MAP.pfc_enable`` plus the port's speed and ``CABLE_LENGTH`` (sonic-swss
  cfgmgr/buffermgr.cpp ``doSpeedUpdateTask``: profile ``pg_lossless_<speed>_<length>_profile`` from
  the platform's pg_profile_lookup.ini; the dynamic model computes the headroom instead). So the
  file carries CABLE_LENGTH for every cabled port: with a floor, the cable's bought length in whole
  metres (export/floor_data.py); without one, 5 m to servers, 40 m between switches (SONiC's own
  defaults for those neighbour roles in buffers_config.j2).
- CNP (class 6) and the default class share PG 0, the lossy PG every SONiC platform already
  buffers with its ``ingress_lossy_profile`` (SONiC's default TC_TO_PRIORITY_GROUP_MAP also maps
  class 6 to PG 0). CNPs are small and few, and egress queue 6 is strict, so a PG of their own
  would only cost headroom.
ECN marking and the PFC watchdog: the values of `model.lossless` (its defaults, with their sources:
the watchdog's are SONiC's ``pfcwd start_default``, drop after 200 ms of pause storm, restore after
200 ms, 200 ms polling) or the design's ``settings.lossless`` overrides, on the lossless priority of
every cabled port.
``PFC_PRIORITY_TO_PRIORITY_GROUP_MAP`` is what SONiC's own qos template writes on Mellanox and
Barefoot ASICs; on others remove ``pfc_to_pg_map`` if the SAI refuses it (see NOTES.txt).
"""

from __future__ import annotations

from functools import lru_cache

from ..model.lossless import DEFAULTS, Lossless

PROFILE = "ROCE"
ROCE_DSCP, ROCE_TC = 26, 3
CNP_DSCP, CNP_TC = 48, 6
LOSSLESS_WRED = "ROCE_LOSSLESS"
STRICT_SCHEDULER, DWRR_SCHEDULER = "ROCE_STRICT", "ROCE_DWRR"
LOSSY_PG = 0
CABLE_LENGTH_NAME = "AZURE"               # the name SONiC's own buffers_config.j2 uses (merges with it)
SERVER_CABLE, FABRIC_CABLE = "5m", "40m"


def _map(pairs: dict[int, int], keys: range) -> dict[str, str]:
    return {str(k): str(pairs.get(k, 0)) for k in keys}


def qos_tables(ports: list[str], server_ports: set[str] = frozenset(),
               lossless: Lossless = DEFAULTS, lengths: dict[str, str] | None = None) -> dict[str, dict]:
    """The global maps and profiles, plus QUEUE, PORT_QOS_MAP, CABLE_LENGTH and PFC_WD for each of
    ``ports`` (the cabled ones); ``server_ports`` are those cabled to servers; ``lossless`` has the ECN
    and watchdog values. ``lengths``: each port's cable length from the floor (``"7m"``); a port without
    one keeps the SERVER_CABLE / FABRIC_CABLE default.

    The per-port entries are the same for every port, so each is one object shared by all ports, and
    the global tables are built once for every switch: the result is for writing out, not for editing."""
    tables = dict(_global_tables(lossless))
    lossless_queue = {"wred_profile": LOSSLESS_WRED, "scheduler": DWRR_SCHEDULER}
    strict = {"scheduler": STRICT_SCHEDULER}
    port_qos = {
        "dscp_to_tc_map": PROFILE, "tc_to_queue_map": PROFILE, "tc_to_pg_map": PROFILE,
        "pfc_to_queue_map": PROFILE, "pfc_to_pg_map": PROFILE,
        "pfc_enable": str(ROCE_TC), "pfcwd_sw_enable": str(ROCE_TC),
    }
    watchdog = {"action": lossless.pfcwd_action, "detection_time": str(lossless.pfcwd_detection_ms),
                "restoration_time": str(lossless.pfcwd_restoration_ms)}
    queues, port_maps, cable_lengths = {}, {}, {}
    pfc_wd = {"GLOBAL": {"POLL_INTERVAL": str(lossless.pfcwd_poll_ms)}}
    for port in ports:
        queues[f"{port}|{ROCE_TC}"] = lossless_queue
        queues[f"{port}|{CNP_TC}"] = strict
        port_maps[port] = port_qos
        pfc_wd[port] = watchdog
        cable_lengths[port] = (lengths or {}).get(port) or (SERVER_CABLE if port in server_ports else FABRIC_CABLE)
    tables.update(QUEUE=queues, PORT_QOS_MAP=port_maps, PFC_WD=pfc_wd)
    if cable_lengths:
        tables["CABLE_LENGTH"] = {CABLE_LENGTH_NAME: cable_lengths}
    return tables


@lru_cache(maxsize=8)
def _global_tables(lossless: Lossless) -> dict[str, dict]:
    """The maps, the WRED profile and the schedulers: the same on every switch."""
    low, high, mark = str(lossless.ecn_min_bytes), str(lossless.ecn_max_bytes), str(lossless.ecn_mark_percent)
    classes = range(8)
    identity = {tc: tc for tc in classes}
    return {
        "DSCP_TO_TC_MAP": {PROFILE: _map({ROCE_DSCP: ROCE_TC, CNP_DSCP: CNP_TC}, range(64))},
        "TC_TO_QUEUE_MAP": {PROFILE: _map(identity, classes)},
        "TC_TO_PRIORITY_GROUP_MAP": {PROFILE: _map({ROCE_TC: ROCE_TC}, classes)},     # the rest to PG 0
        "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": {PROFILE: {str(ROCE_TC): str(ROCE_TC)}},
        "MAP_PFC_PRIORITY_TO_QUEUE": {PROFILE: _map(identity, classes)},
        "WRED_PROFILE": {LOSSLESS_WRED: {
            "ecn": "ecn_all",
            "wred_green_enable": "true", "wred_yellow_enable": "true", "wred_red_enable": "true",
            "green_min_threshold": low, "green_max_threshold": high,
            "yellow_min_threshold": low, "yellow_max_threshold": high,
            "red_min_threshold": low, "red_max_threshold": high,
            "green_drop_probability": mark, "yellow_drop_probability": mark, "red_drop_probability": mark,
        }},
        "SCHEDULER": {
            STRICT_SCHEDULER: {"type": "STRICT"},
            DWRR_SCHEDULER: {"type": "DWRR", "weight": "50"},
        },
    }
