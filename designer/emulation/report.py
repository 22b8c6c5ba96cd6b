"""The pass/fail table and the honest notes on what the emulation does and does not run."""

from __future__ import annotations

from .checks import Row
from .plan import Plan

NOTES = (
    "Hosts run their exported policy-routing.sh and sysctl.conf unchanged.",
    "Switches are Linux routers: FRR daemons are not run; each switch holds the static routes eBGP would "
    "install (shortest AS path, multipath), computed from the design.",
    "PPD pins are Linux policy rules (to <local prefix> lookup main; from <nic> iif <downlink> lookup "
    "<uplink table>), standing in for the SONiC ACL redirect / FRR PBR in the bundle.",
)


def table(rows: list[Row]) -> str:
    head = ("", "check", "from", "to", "detail")
    body = [("PASS" if r.ok else "FAIL", r.kind, r.source, r.target, r.detail) for r in rows]
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(4)]
    out = []
    for line in [head, *body]:
        out.append("  ".join(cell.ljust(w) for cell, w in zip(line[:4], widths)) + "  " + line[4])
    return "\n".join(x.rstrip() for x in out) + "\n"


def summary(plan: Plan, rows: list[Row]) -> str:
    failed = sum(not r.ok for r in rows)
    pings = sum(r.kind == "ping" for r in rows)
    lines = [f"{len(plan.namespaces)} namespaces, {len(plan.cables)} veth pairs; "
             f"{pings} NIC pairs, {len(rows) - pings} leaf pins: "
             + (f"{failed} FAILED" if failed else "all passed")]
    lines += [f"note: {n}" for n in NOTES]
    if plan.renamed:
        lines.append("renamed interfaces (Linux allows 15 characters, no '/'): "
                     + ", ".join(f"{k} -> {v}" for k, v in plan.renamed.items()))
    return "\n".join(lines) + "\n"
