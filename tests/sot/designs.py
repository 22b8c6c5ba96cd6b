"""What the sot tests share about their designs."""

from __future__ import annotations


def free_cage(fabric, switch_id: str) -> int:
    """The highest cage of a switch with no cable on any of its ports (one a breakout may change)."""
    cabled = {port.cage for port, _ in fabric.cabled_ports(switch_id)}
    return max(p.cage for p in fabric.ports(switch_id).values() if p.cage not in cabled)
