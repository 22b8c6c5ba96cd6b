"""The RoCE lossless QoS profile as SONiC CONFIG_DB tables (DOMAIN.md section 5).

RoCE data rides DSCP 26 in traffic class / queue / priority group 3, which is lossless (PFC on
priority 3) and ECN-marked by WRED; congestion notification packets (CNP) ride DSCP 48 in class 6,
served strictly first. Everything else is class 0. Map references use plain object names, as
current SONiC does (e.g. ``"dscp_to_tc_map": "ROCE"``; the old ``"[DSCP_TO_TC_MAP|ROCE]"`` form
is from releases before 202012).
"""

from __future__ import annotations

PROFILE = "ROCE"
ROCE_DSCP, ROCE_TC = 26, 3
CNP_DSCP, CNP_TC = 48, 6
LOSSLESS_WRED = "ROCE_LOSSLESS"
STRICT_SCHEDULER, DWRR_SCHEDULER = "ROCE_STRICT", "ROCE_DWRR"
# ECN marking between 150 KB and 1.5 MB of queue depth: a common starting point for 400G/800G
# RoCE; tune on site with the switch vendor's buffer guidance.
ECN_MIN_BYTES, ECN_MAX_BYTES, ECN_MARK_PERCENT = 153600, 1536000, 5


def _map(pairs: dict[int, int], keys: range) -> dict[str, str]:
    return {str(k): str(pairs.get(k, 0)) for k in keys}


def qos_tables(ports: list[str]) -> dict[str, dict]:
    """The global maps and profiles, plus QUEUE and PORT_QOS_MAP for each of ``ports``."""
    classes = range(8)
    identity = {tc: tc for tc in classes}
    tables: dict[str, dict] = {
        "DSCP_TO_TC_MAP": {PROFILE: _map({ROCE_DSCP: ROCE_TC, CNP_DSCP: CNP_TC}, range(64))},
        "TC_TO_QUEUE_MAP": {PROFILE: _map(identity, classes)},
        "TC_TO_PRIORITY_GROUP_MAP": {PROFILE: _map({ROCE_TC: ROCE_TC, CNP_TC: CNP_TC}, classes)},
        "MAP_PFC_PRIORITY_TO_QUEUE": {PROFILE: _map(identity, classes)},
        "WRED_PROFILE": {LOSSLESS_WRED: {
            "ecn": "ecn_all",
            "wred_green_enable": "true", "wred_yellow_enable": "true", "wred_red_enable": "true",
            "green_min_threshold": str(ECN_MIN_BYTES), "green_max_threshold": str(ECN_MAX_BYTES),
            "yellow_min_threshold": str(ECN_MIN_BYTES), "yellow_max_threshold": str(ECN_MAX_BYTES),
            "red_min_threshold": str(ECN_MIN_BYTES), "red_max_threshold": str(ECN_MAX_BYTES),
            "green_drop_probability": str(ECN_MARK_PERCENT),
            "yellow_drop_probability": str(ECN_MARK_PERCENT),
            "red_drop_probability": str(ECN_MARK_PERCENT),
        }},
        "SCHEDULER": {
            STRICT_SCHEDULER: {"type": "STRICT"},
            DWRR_SCHEDULER: {"type": "DWRR", "weight": "50"},
        },
        "QUEUE": {},
        "PORT_QOS_MAP": {},
    }
    for port in ports:
        tables["QUEUE"][f"{port}|{ROCE_TC}"] = {"wred_profile": LOSSLESS_WRED, "scheduler": DWRR_SCHEDULER}
        tables["QUEUE"][f"{port}|{CNP_TC}"] = {"scheduler": STRICT_SCHEDULER}
        tables["PORT_QOS_MAP"][port] = {
            "dscp_to_tc_map": PROFILE, "tc_to_queue_map": PROFILE, "tc_to_pg_map": PROFILE,
            "pfc_to_queue_map": PROFILE, "pfc_enable": str(ROCE_TC),
        }
    return tables
