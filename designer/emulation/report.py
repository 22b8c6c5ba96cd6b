"""The pass/fail table and the honest notes on what the emulation does and does not run."""

from __future__ import annotations

from .checks import Row
from .plan import Plan

NOTES = (
    "Hosts run their exported policy-routing.sh and sysctl.conf unchanged.",
    "Switches run FRR's own zebra, staticd and bgpd (what SONiC's bgp container runs) on their exported "
    "frr.conf, applied with vtysh -b; every route is what FRR converged to.",
    "config_db.json is applied as SONiC's managers would, in Linux: PORT mtu/admin up, INTERFACE / "
    "VLAN_INTERFACE / LOOPBACK_INTERFACE addresses (intfmgrd; Loopback0 on lo), VLAN + VLAN_MEMBER as a "
    "bridge (vlanmgrd), the PPD ACL's FORWARD rules as ip rules (orchagent programs them into the ASIC).",
    "PPD pins are installed by the bundle's rail-ppd-agent.py run --backend linux on each leaf's "
    "ppd-pins.json, with its shipped settings (a pass every 2 s and on each link, route or neighbour event, "
    "5 s wait-to-restore): ip rules standing in for the SONiC ACL redirects its sonic backend writes "
    "(orchagent and the ASIC are not run). Each uplink table ends in a blackhole route, so a pin on a dead "
    "uplink drops its packets, as a redirect to a dead next hop does, until the agent moves it.",
    "Three tiers: cores run FRR like every switch; where a route should reach (through the cores to another "
    "spine group, never into another fabric plane) is the design's eBGP path vector, held against FRR's own tables.",
    "QoS (qos rows): RoCE data (the ToS of the host's nccl.env) and CNPs (roce-qos.sh's cnp_dscp) are real UDP "
    "datagrams to port 4791 across the fabric, counted per class by tc on every egress port; the host NIC's "
    "DSCP -> priority (mlx5's default, under mlnx_qos --trust dscp) and the ASIC's DSCP -> class -> queue (from "
    "each config_db.json) are HTB classes and u32 filters standing in for hardware that is not here. PFC, PG "
    "buffers and ECN marking are read from the maps, not shown by Linux.",
    "Failover: an uplink fails as a pulled cable (link down at both ends), a spine as a power loss (all its "
    "links down, so every leaf loses carrier); BGP uses frr.conf's timers (keepalive 3 s, hold 9 s, no BFD: "
    "SONiC's bgp container runs no bfdd by default) and drops a session at once when its link goes down.",
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


GOAL = 1.0          # seconds: a pinned flow's outage from link loss to its moved pin


def outage_lines(rows: list[Row]) -> list[str]:
    """Per failure scenario, the worst outage of a pinned flow from the break until it is delivered again
    (the link loss, then the agent moving the pin): the figure the failover is judged by."""
    worst: dict[str, float] = {}
    for r in rows:
        if r.kind.startswith("flow [") and r.outages is not None:
            scenario = r.kind[len("flow ["):-1]
            worst[scenario] = max(worst.get(scenario, 0.0), r.outages[0])
    if not worst:
        return []
    return [f"failover outage of pinned flows (link loss to moved pin, worst flow; goal under {GOAL:.0f} s): "
            + "; ".join(f"{scenario}: {took:.2f} s" + ("" if took < GOAL else " OVER THE GOAL")
                        for scenario, took in sorted(worst.items()))]


def summary(plan: Plan, rows: list[Row]) -> str:
    failed = sum(not r.ok for r in rows)
    count = {kind: sum(r.kind == kind for r in rows) for kind in ("routes", "ping", "pin", "rule", "plane", "qos")}
    flows = sum(r.kind.startswith("flow [") for r in rows)
    broken = sum("[" in r.kind and not r.kind.startswith("flow [") for r in rows)
    across = sum(r.kind == "ping" and r.detail.endswith("through the cores)") for r in rows)
    lines = [f"{len(plan.namespaces)} namespaces, {len(plan.cables)} veth pairs; {count['routes']} BGP tables, "
             f"{count['ping']} NIC pairs" + (f" ({across} across spine groups)" if across else "")
             + (f", {count['plane']} cross-plane probes" if count["plane"] else "")
             + f", {count['pin']} leaf pins, {count['rule']} host rules"
             + (f", {count['qos']} QoS hops" if count["qos"] else "")
             + (f"; failover: {flows} flows, {broken} checks while broken and after the repair" if flows else "")
             + ": " + (f"{failed} FAILED" if failed else "all passed")]
    lines += outage_lines(rows)
    lines += [f"note: {n}" for n in NOTES]
    if plan.skipped_redirects:
        lines.append(f"note: config_db.json carries {plan.skipped_redirects} REDIRECT rules; they are not applied "
                     "(installing pins is rail-ppd-agent's job)")
    hashed = sorted({v for setup in plan.switches.values() for v in setup.sysctls})
    if hashed:
        lines.append(f"note: SWITCH_HASH ecmp_hash is applied as the kernel's multipath hash ({', '.join(hashed)}; "
                     "1 hashes addresses, protocol and ports); with no pins the failover probes have no flow to follow")
    if plan.renamed:
        lines.append("renamed interfaces (Linux allows 15 characters, no '/'): "
                     + ", ".join(f"{k} -> {v}" for k, v in plan.renamed.items()))
    return "\n".join(lines) + "\n"
