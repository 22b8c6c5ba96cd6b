"""Choosing ports for a cable drawn by hand between two switches (a leaf uplink to a spine)."""

from __future__ import annotations

from ..model.errors import ModelError
from ..model.fabric import Fabric
from ..model.ids import endpoint


def free_port_pair(fabric: Fabric, a: str, b: str) -> tuple[str, str]:
    """The first free ports of ``a`` and ``b`` that share a speed (the fastest such speed)."""
    if a == b:
        raise ModelError(f"a cable needs two different switches; both ends are on {a}", (a,))
    for dev in (a, b):
        if dev not in fabric.switches:
            raise ModelError(f"{dev} is not a switch; drag a NIC onto a leaf to cable a server", (dev,))
    free_a, free_b = fabric.free_ports(a), fabric.free_ports(b)
    speeds_b = {p.speed for p in free_b}
    for speed in sorted({p.speed for p in free_a} & speeds_b, reverse=True):
        pa = next(p for p in free_a if p.speed == speed)
        pb = next(p for p in free_b if p.speed == speed)
        return endpoint(a, pa.name), endpoint(b, pb.name)
    if not free_a or not free_b:
        full = a if not free_a else b
        raise ModelError(f"{full} has no free port left", (full,))
    raise ModelError(
        f"{a} has free ports at {_speeds(free_a)} and {b} at {_speeds(free_b)}: no common speed", (a, b))


def _speeds(ports) -> str:
    return "/".join(f"{s}G" for s in sorted({p.speed for p in ports}))
