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


_GREEN, _RED, _PLAIN = "\033[32m", "\033[31m", "\033[0m"


def table(rows: list[Row], colour: bool = False) -> str:
    """The rows as aligned text; with ``colour`` (a terminal), passing rows green and failing rows red."""
    head = ("", "check", "from", "to", "detail")
    body = [("PASS" if r.ok else "FAIL", r.kind, r.source, r.target, r.detail) for r in rows]
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(4)]
    out = []
    for n, line in enumerate([head, *body]):
        text = ("  ".join(cell.ljust(w) for cell, w in zip(line[:4], widths)) + "  " + line[4]).rstrip()
        if colour and n:
            text = f"{_GREEN if rows[n - 1].ok else _RED}{text}{_PLAIN}"
        out.append(text)
    return "\n".join(out) + "\n"


def summary(plan: Plan, rows: list[Row]) -> str:
    failed = sum(not r.ok for r in rows)
    count = {kind: sum(r.kind == kind for r in rows) for kind in ("ping", "pin", "rule")}
    lines = [f"{len(plan.namespaces)} namespaces, {len(plan.cables)} veth pairs; "
             f"{count['ping']} NIC pairs, {count['pin']} leaf pins, {count['rule']} host rules: "
             + (f"{failed} FAILED" if failed else "all passed")]
    lines += [f"note: {n}" for n in NOTES]
    if plan.renamed:
        lines.append("renamed interfaces (Linux allows 15 characters, no '/'): "
                     + ", ".join(f"{k} -> {v}" for k, v in plan.renamed.items()))
    return "\n".join(lines) + "\n"
