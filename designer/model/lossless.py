"""ECN (WRED) marking and the PFC watchdog of the RoCE class: the defaults, whose they are, the
design's overrides (`entities.LosslessSettings`) resolved over them, and the checks on an override.

Defaults:
- PFC watchdog: SONiC's own ``pfcwd start_default`` (sonic-utilities pfcwd/main.py:
  DEFAULT_DETECTION_TIME, DEFAULT_RESTORATION_TIME, DEFAULT_POLL_INTERVAL = 200 ms,
  DEFAULT_ACTION "drop"). Nokia EDA's rocev2QoS uses 750 ms for PFC deadlock detection and recovery:
  set ``pfc_watchdog: {detection_ms: 750, restoration_ms: 750}`` to follow it.
- ECN: the designer's starting point for 400G/800G RoCE, marking from 150 KiB to 1.5 MiB of queue at
  5 %; not a vendor's number. For comparison, SONiC's own AZURE_LOSSLESS profile
  (sonic-buildimage files/build_templates/qos_config.j2) marks from 1 MiB to 2 MiB at 5 %, and Nokia
  EDA's rocev2QoS sets its thresholds as shares of the queue (min 5 %, max 80 %), which SONiC's
  WRED_PROFILE cannot express (it takes bytes): 5 % / 80 % of a queue's byte limit, if you know it.
Ranges are SONiC YANG's (sonic-pfcwd.yang: detection 100-5000, restoration 100-60000, POLL_INTERVAL
100-1000, detection and restoration not under the poll interval; sonic-wred-profile.yang: drop
probability 0-100), plus min below max.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from .entities import LosslessSettings
from .limits import excerpt


@dataclass(frozen=True)
class Lossless:
    """Every value resolved: the override where the design sets one, the default elsewhere."""

    ecn_min_bytes: int
    ecn_max_bytes: int
    ecn_mark_percent: int
    pfcwd_detection_ms: int
    pfcwd_restoration_ms: int
    pfcwd_poll_ms: int
    pfcwd_action: str


DEFAULTS = Lossless(ecn_min_bytes=153600, ecn_max_bytes=1536000, ecn_mark_percent=5,
                    pfcwd_detection_ms=200, pfcwd_restoration_ms=200, pfcwd_poll_ms=200, pfcwd_action="drop")
SOURCES = {
    "ecn": "the designer's starting point (SONiC's AZURE_LOSSLESS: 1048576-2097152 bytes at 5 %)",
    "pfcwd": "SONiC's pfcwd start_default (sonic-utilities pfcwd/main.py)",
}
PFCWD_ACTIONS = ("drop", "forward", "alert")
MAX_ECN_BYTES = 1 << 30
# where each field sits in the design file: settings.lossless.<section>.<key>
FILE_KEYS = {
    "ecn_min_bytes": ("ecn", "min_bytes"), "ecn_max_bytes": ("ecn", "max_bytes"),
    "ecn_mark_percent": ("ecn", "mark_percent"),
    "pfcwd_detection_ms": ("pfc_watchdog", "detection_ms"), "pfcwd_restoration_ms": ("pfc_watchdog", "restoration_ms"),
    "pfcwd_poll_ms": ("pfc_watchdog", "poll_ms"), "pfcwd_action": ("pfc_watchdog", "action"),
}
RANGES = {"ecn_min_bytes": (1, MAX_ECN_BYTES), "ecn_max_bytes": (1, MAX_ECN_BYTES), "ecn_mark_percent": (0, 100),
          "pfcwd_detection_ms": (100, 5000), "pfcwd_restoration_ms": (100, 60000), "pfcwd_poll_ms": (100, 1000)}


def resolve(settings: LosslessSettings) -> Lossless:
    """The values in force: the defaults, with the design's overrides over them (same field names)."""
    return replace(DEFAULTS, **overridden(settings))


def overridden(settings: LosslessSettings) -> dict[str, object]:
    """The fields the design sets, by name."""
    return {f.name: getattr(settings, f.name) for f in fields(LosslessSettings) if getattr(settings, f.name) is not None}


def path_of(name: str) -> tuple[str, ...]:
    return ("settings", "lossless") + FILE_KEYS[name]


def lossless_problems(settings: LosslessSettings) -> list[tuple[tuple, str]]:
    """What is wrong with the overrides (each with its design-file path), empty when nothing is."""
    out: list[tuple[tuple, str]] = []
    for name, value in overridden(settings).items():
        if name == "pfcwd_action":
            if value not in PFCWD_ACTIONS:
                out.append((path_of(name), f"{excerpt(value)} is not one of: {', '.join(PFCWD_ACTIONS)}"))
            continue
        low, high = RANGES[name]
        if isinstance(value, bool) or not isinstance(value, int):
            out.append((path_of(name), f"should be a whole number, not {excerpt(value)}"))
        elif not low <= value <= high:
            out.append((path_of(name), f"{excerpt(value)} is out of range: use {low} to {high}"))
    if out:
        return out
    r = resolve(settings)
    if r.ecn_min_bytes >= r.ecn_max_bytes:
        where = "ecn_min_bytes" if settings.ecn_min_bytes is not None else "ecn_max_bytes"
        out.append((path_of(where), f"ECN marking must start below where it ends: min_bytes {r.ecn_min_bytes} is not "
                                    f"under max_bytes {r.ecn_max_bytes}"))
    for name in ("pfcwd_detection_ms", "pfcwd_restoration_ms"):
        if getattr(r, name) < r.pfcwd_poll_ms:
            where = name if getattr(settings, name) is not None else "pfcwd_poll_ms"
            out.append((path_of(where), f"{FILE_KEYS[name][1]} {getattr(r, name)} is under poll_ms {r.pfcwd_poll_ms}: "
                                        "the watchdog cannot detect or restore faster than it polls (SONiC refuses it)"))
    return out
