"""The host routing plan's numbers: which Linux routing table and policy-rule priority the NIC port on
rail k of fabric plane p gets. The host exporter writes them, path trace reads them, and the check
catalogue (RD031) refuses a port whose table the plan cannot give.

- Table ``TABLE_BASE + PLANE_STRIDE p + k`` (100 + k on plane 0, 200 + k on plane 1, ...).
- Rule priority ``RULE_PRIORITY_BASE + PLANE_STRIDE p + k``: after the ``local`` rule (0), before
  ``main`` (32766).
- Linux reserves tables 253-255 (default, main, local), so rails 53-55 of plane 1 have no table.
"""

from __future__ import annotations

TABLE_BASE = 100
RULE_PRIORITY_BASE = 1000
PLANE_STRIDE = 100                            # tables and priorities of plane p start 100 p higher
RESERVED_TABLES = range(253, 256)             # Linux's default, main and local tables


def host_table(rail: int, plane: int = 0) -> int:
    """The routing table of the NIC port on ``rail`` and fabric ``plane``."""
    return TABLE_BASE + PLANE_STRIDE * plane + rail


def rule_priority(rail: int, plane: int = 0) -> int:
    """The priority of the policy rule that sends what a port sources to its table."""
    return RULE_PRIORITY_BASE + PLANE_STRIDE * plane + rail


def table_problem(rail: int, plane: int = 0) -> str | None:
    """Why the port on ``rail`` and ``plane`` cannot get a routing table, or None."""
    table = host_table(rail, plane)
    if rail >= PLANE_STRIDE or table in RESERVED_TABLES:
        return (f"rail {rail} of plane {plane} would need routing table {table}: the host plan gives each plane "
                f"{PLANE_STRIDE} tables and avoids Linux's reserved {RESERVED_TABLES.start}-"
                f"{RESERVED_TABLES.stop - 1}")
    return None
