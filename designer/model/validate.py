"""Value checks that every reader (design file, AID) applies before values enter a `Fabric`.

Each returns problems as ``(field path, message)`` pairs so the reader can say where, in its own
terms (a line of YAML, a JSON path). One definition: a design file and an AID that hold the same
values are refused, or accepted, alike.
"""

from __future__ import annotations

import math

from .addressing import parse_network
from .entities import (FABRIC_KINDS, INFINIBAND, LOAD_BALANCING_MODES, QPS_RANGE, SCHEMES, SPINE_ASN_MODES,
                       SPINE_PLANE_MODES, DesignSettings)
from .errors import ModelError
from .limits import MAX_FABRIC_PLANES, MAX_RAILS, MAX_SU, MAX_SWITCHES, MAX_TEXT, excerpt
from .lossless import lossless_problems

ASN_RANGE = (1, 4_294_967_294)
MTU_RANGE = (576, 9_216)               # IPv4 minimum to the largest jumbo frame NICs and switches take
OVERSUBSCRIPTION_RANGE = (0.01, 1_000.0)
RAIL_RANGE = (0, MAX_RAILS - 1)
SU_RANGE = (1, MAX_SU)
GID_RANGE = (0, 255)
PLANE_RANGE = (0, MAX_FABRIC_PLANES - 1)
GROUP_RANGE = (1, MAX_SWITCHES)
POSITION_RANGE = (0, 100_000)

Problem = tuple[tuple, str]


def settings_problems(s: DesignSettings) -> list[Problem]:
    """What is wrong with a design's settings (empty when nothing is)."""
    a, n = s.addressing, s.asn
    out: list[Problem] = []
    for path, text in ((("name",), s.name), (("description",), s.description)):
        if len(text) > MAX_TEXT:
            out.append((path, f"has {len(text):,} characters; at most {MAX_TEXT:,} are allowed"))
    _number(out, ("settings", "max_oversubscription"), s.max_oversubscription, OVERSUBSCRIPTION_RANGE)
    _number(out, ("settings", "max_spine_oversubscription"), s.max_spine_oversubscription, OVERSUBSCRIPTION_RANGE)
    _choice(out, ("settings", "spine_planes"), s.spine_planes, SPINE_PLANE_MODES)
    _number(out, ("settings", "fabric_planes"), s.fabric_planes, (1, MAX_FABRIC_PLANES))
    _choice(out, ("settings", "fabric_kind"), s.fabric_kind, FABRIC_KINDS)
    p = ("settings", "addressing")
    _choice(out, p + ("scheme",), a.scheme, SCHEMES)
    for key in ("rail_supernet", "fabric_pool", "loopback_pool"):
        try:
            parse_network(getattr(a, key), "pool")
        except ModelError as exc:
            out.append((p + (key,), str(exc)))
    _number(out, p + ("rail_prefix",), a.rail_prefix, (1, 31))
    _number(out, p + ("mtu",), a.mtu, MTU_RANGE)
    p = ("settings", "asn")
    _number(out, p + ("leaf_base",), n.leaf_base, ASN_RANGE)
    _number(out, p + ("spine_base",), n.spine_base, ASN_RANGE)
    _choice(out, p + ("spine_mode",), n.spine_mode, SPINE_ASN_MODES)
    _number(out, p + ("core_asn",), s.core_asn, ASN_RANGE)
    out += lossless_problems(s.lossless)
    p = ("settings", "load_balancing")
    _choice(out, p + ("mode",), s.load_balancing.mode, LOAD_BALANCING_MODES)
    _number(out, p + ("qps",), s.load_balancing.qps, QPS_RANGE)
    if s.fabric_kind == INFINIBAND and s.load_balancing.mode != "ppd":
        out.append((p + ("mode",), f"{excerpt(s.load_balancing.mode)} applies to Ethernet (RoCE) fabrics: an "
                    "InfiniBand fabric is routed by its subnet manager (adaptive routing there is OpenSM's or "
                    "UFM's); remove load_balancing"))
    return out


def _number(out: list[Problem], path: tuple, value, bounds: tuple) -> None:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        out.append((path, f"should be a number, not {excerpt(value)}"))
    elif isinstance(value, float) and not math.isfinite(value) or not low <= value <= high:
        out.append((path, f"{excerpt(value)} is out of range: use {low} to {high}"))


def _choice(out: list[Problem], path: tuple, value, choices: tuple) -> None:
    if value not in choices:
        out.append((path, f"{excerpt(value)} is not one of: {', '.join(choices)}"))
