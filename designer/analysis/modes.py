"""Which load-balancing mode an analysis runs: the one asked for, else the design's setting.

The design's `LoadBalancing` names the same modes the collision analysis has (ppd, ecmp, qp-hash,
adaptive), so the prediction for a design is the analysis under its own setting and a comparison is
the same flows under each mode (`compare`).
"""

from __future__ import annotations

from ..model.entities import DesignSettings, LoadBalancing

DEFAULT_QPS = LoadBalancing().qps


def resolve(settings: DesignSettings, routing: str | None, qps: int | None) -> tuple[str, int]:
    """(routing, qps): None takes the design's mode, and its QP count when that mode is qp-hash
    (else `DEFAULT_QPS`)."""
    lb = settings.load_balancing
    routing = lb.mode if routing is None else routing
    if qps is None:
        qps = lb.qps if lb.mode == "qp-hash" else DEFAULT_QPS
    return routing, qps
