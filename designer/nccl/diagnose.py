"""The verdict on one run: measured bus bandwidth against the design's prediction, and the likely cause.

Judged sizes: the rows of at least 1/8 of the largest size (small messages are latency-bound).
``ratio`` = the median out-of-place busbw of those rows / the design's no-collision rate (what a ring
over the host's NICs reaches). A median above the design's ceiling (the rate with the share NVLink
carries inside the node, `predict.share_factor`) is a model that does not match the cluster
(``NCCL-MODEL``), never OK; a run of unknown collective is not judged (``NCCL-UNKNOWN-COLLECTIVE``).
Otherwise at or above `HEALTHY` the run is fine. Below it, the cause is named from what the log and
the design show:

- a NIC that NCCL reports slower than the design (``speed=`` lines): one slow host or rail, named;
- traffic between NICs of different rails (``Channel ... via NET/IB/n`` lines): cross-rail;
- a ratio near 1/k (k = 2, 3, 4) where the design lets flows share an uplink (ECMP over spines):
  hash collisions, the 50 % (or 33 %) step;
- the same ratio where the design pins every flow (PPD predicts 100 %): flows are being hashed all
  the same, so a policy rule is missing or not applied;
- a shortfall with no spine on the path (no collision possible): one slow host or rail;
- RDMA retry errors (``status=12``), or a traffic class outside the lossless one: PFC/ECN trouble.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field

from ..checks.finding import Finding, Severity
from ..export.host_data import ROCE_DSCP
from ..model.addressing import ip_int
from ..model.fabric import Fabric
from .predict import Placement, Prediction
from .runs import Row, Run

HEALTHY = 0.8                 # of the design's rate: "near line rate" (DOMAIN.md section 8)
STEP_BAND = (0.8, 1.05)       # a ratio r matches 1/k when 0.8/k <= r <= 1.05/k
RELIABLE_BYTES = 64 << 20     # below this largest size busbw has not reached its plateau
_RETRY = re.compile(r"status=12\b|error 12\b|retry", re.IGNORECASE)
_PEER = re.compile(r"peer (\d+\.\d+\.\d+\.\d+)")
CAUSES = ("NCCL-MODEL", "NCCL-UNKNOWN-COLLECTIVE", "NCCL-NO-HOST",
          "NCCL-SLOW-NIC", "NCCL-SLOW-HOST", "NCCL-CROSS-RAIL", "NCCL-COLLISION", "NCCL-POLICY",
          "NCCL-SLOW-HOST-OR-RAIL", "NCCL-PFC", "NCCL-SHORTFALL")


@dataclass
class Judgement:
    run: Run
    placement: Placement
    prediction: Prediction
    judged: list[Row]
    plateau: float | None
    ratio: float | None
    step: tuple[int, int] | None             # (last size before, first size after) a halving
    findings: list[Finding] = field(default_factory=list)

    @property
    def verdict(self) -> Finding | None:
        """The most telling finding: a named cause first, then by severity."""
        ranked = sorted(self.findings, key=lambda f: (f.code not in CAUSES, f.severity.rank,
                                                      CAUSES.index(f.code) if f.code in CAUSES else 0))
        return ranked[0] if ranked else None

    @property
    def healthy(self) -> bool:
        """Near the design's rate and not above what the design can carry at all."""
        return self.ratio is not None and self.ratio >= HEALTHY and not self.beyond_model

    @property
    def beyond_model(self) -> bool:
        """Faster than the design's ceiling: the model, not the cluster, is wrong."""
        ceiling = self.prediction.ceiling_gbs
        return self.plateau is not None and ceiling is not None and self.plateau > ceiling


def by_size(rows: list[Row]) -> list[Row]:
    """One row per size (the best out-of-place, when -d/-o all repeat sizes), in size order."""
    best: dict[int, Row] = {}
    for r in rows:
        if r.size not in best or r.busbw > best[r.size].busbw:
            best[r.size] = r
    return [best[s] for s in sorted(best)]


def collision_k(ratio: float) -> int | None:
    for k in (2, 3, 4):
        if STEP_BAND[0] / k <= ratio <= STEP_BAND[1] / k:
            return k
    return None


def find_step(rows: list[Row]) -> tuple[int, int] | None:
    """The first size from which busbw stays at or under 0.65 of the best seen before it."""
    big = [r for r in rows if r.size >= 1 << 20]
    for i in range(1, len(big)):
        before = max(r.busbw for r in big[:i])
        if before > 0 and all(r.busbw <= 0.65 * before for r in big[i:]):
            return big[i - 1].size, big[i].size
    return None


def _f(code, severity, message, ids=(), hint="") -> Finding:
    return Finding(code, severity, message, tuple(ids), hint)


def judge(fabric: Fabric, run: Run, p: Placement, pred: Prediction, owner_of_address: dict) -> Judgement:
    rows = by_size(run.rows)
    largest = rows[-1].size
    judged = [r for r in rows if r.size * 8 >= largest]
    plateau = statistics.median(r.busbw for r in judged)
    ratio = plateau / pred.line_gbs if pred.line_gbs else None
    j = Judgement(run, p, pred, judged, plateau, ratio, find_step(rows))
    out = j.findings
    for problem in run.problems:
        out.append(_f("NCCL-LOG", Severity.WARNING, f"{problem.where}: {problem.message}"))
    _data_findings(run, out)
    if not p.host_server and not p.unknown_hosts:
        out.append(_f("NCCL-NO-HOST", Severity.WARNING,
                      f"{run.name} names no host (no '#  Rank ... on HOST' table, no NCCL line), so it "
                      "cannot be placed on the design and is not judged",
                      hint="give nccl-check the job's whole output, with the rank table (or NCCL_DEBUG=INFO lines)"))
    for host in p.unknown_hosts:
        out.append(_f("NCCL-UNKNOWN-HOST", Severity.ERROR, f"{run.name}: host '{host}' is not a server of the design",
                      hint="check the hostnames in the design against the cluster's, or pass the matching design"))
    for host, index, rdma in p.unknown_netdevs:
        out.append(_f("NCCL-UNKNOWN-NIC", Severity.WARNING,
                      f"{run.name}: {host} uses NET/IB/{index} = {rdma}, which is not one of its rail NICs in the "
                      "design",
                      hint="NCCL_IB_HCA should list only the rail NICs (see the bundle's nccl.env)"))
    if pred.unknown_collective:
        out.append(_f("NCCL-UNKNOWN-COLLECTIVE", Severity.WARNING,
                      f"{run.name}: unknown collective: pass --collective (the log names no nccl-tests binary, has no "
                      "'# Collective test starting' line, and its result columns fit more than one test), so no "
                      "ceiling is predicted and the run is not judged",
                      hint="rerun nccl-check with --collective all_reduce_perf (or whichever test made the log)"))
        return j
    if pred.single_host:
        out.append(_f("NCCL-SINGLE-HOST", Severity.INFO, f"{run.name}: every rank is on one host; the traffic stays on "
                      "NVLink/PCIe and never reaches the fabric", hint="run across two or more servers"))
        return j
    if pred.line_gbs is None:
        return j
    if largest < RELIABLE_BYTES:
        out.append(_f("NCCL-SMALL-SIZES", Severity.INFO, f"{run.name}: the largest message is {_size(largest)}; "
                      "busbw reaches its plateau only from about 64 MiB", hint="rerun with -e 8G (or at least -e 1G)"))
    slow = _slow_nics(fabric, run, p, out)
    cross = _cross_rail(fabric, run, pred, out)
    _qos_findings(fabric, run, p, owner_of_address, out)
    if j.beyond_model:
        out.append(_f("NCCL-MODEL", Severity.WARNING,
                      f"{run.name}: out-of-place busbw {plateau:.1f} GB/s is {plateau / pred.ceiling_gbs:.0%} of the "
                      f"design's {pred.ceiling_gbs:.1f} GB/s ceiling, more than the design can carry: the model is "
                      f"wrong, not the cluster. It assumed {pred.assumed()}",
                      hint="check that the design's servers have the cluster's NIC count and speed and that the log's "
                           "hosts are the servers they were matched to; no verdict on the fabric is given"))
        return j
    if j.healthy:
        beyond_ring = (f"; above the {pred.line_gbs:.1f} GB/s the NICs carry alone, as NCCL keeps part of the traffic "
                       f"inside the node (ceiling {pred.ceiling_gbs:.1f} GB/s)" if plateau > pred.line_gbs else "")
        out.append(_f("NCCL-OK", Severity.INFO, f"{run.name}: out-of-place busbw {plateau:.1f} GB/s is {ratio:.0%} of "
                      f"the design's {pred.line_gbs:.1f} GB/s{beyond_ring}"))
        return j
    _shortfall(j, slow, cross, out)
    return j


def _size(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):g} {unit}"
    return f"{n} B"


def _data_findings(run: Run, out: list) -> None:
    wrong = [r for r in run.rows if r.wrong]
    if wrong or run.out_of_bounds:
        where = wrong[0].where if wrong else run.start
        out.append(_f("NCCL-WRONG-DATA", Severity.ERROR,
                      f"{where}: {run.name} returned wrong data ({sum(r.wrong for r in wrong)} wrong elements, "
                      f"out-of-bounds values {run.out_of_bounds or 0})",
                      hint="data corruption is never a tuning matter: check GPU/NIC firmware and GPUDirect RDMA"))
    for note in run.notes:
        if note.kind == "failure":
            out.append(_f("NCCL-FAILED", Severity.ERROR, f"{note.where}: {note.text}",
                          hint="rerun with NCCL_DEBUG=INFO to see which connection failed"))


def _slow_nics(fabric: Fabric, run: Run, p: Placement, out: list) -> list[str]:
    slow = []
    for r in run.nics:
        nic_id = p.netdev_nic.get((r.host, r.index))
        if nic_id is None or not r.speed_mbps:
            continue
        nic = fabric.nic(nic_id)
        if r.speed_mbps < nic.speed * 1000:
            slow.append(nic_id)
            out.append(_f("NCCL-SLOW-NIC", Severity.ERROR,
                          f"{r.where}: {r.host} {r.rdma} ({nic_id}, rail {nic.rail}) runs at {r.speed_mbps / 1000:g} Gb/s; "
                          f"the design has {nic.speed} Gb/s, so every collective through it runs at "
                          f"{r.speed_mbps / 1000 / nic.speed:.0%} at best",
                          ids=(nic_id, fabric.peer(nic_id) or nic_id),
                          hint="check the cable and transceiver of that NIC and the leaf port's speed/FEC "
                               "(ethtool, `show interfaces status`)"))
    return slow


def _cross_rail(fabric: Fabric, run: Run, pred: Prediction, out: list) -> bool:
    if not pred.cross_rail:
        return False
    unroutable = {(s, d) for s, d, _ in pred.unroutable}
    src, dst, line = pred.cross_rail[0]
    where = f"{line.where}: " if line else ""
    dead = any((s, d) in unroutable for s, d, _ in pred.cross_rail)
    out.append(_f("NCCL-CROSS-RAIL", Severity.ERROR if dead else Severity.WARNING,
                  f"{where}{run.name}: {len(pred.cross_rail)} connection(s) cross rails, e.g. {src} (rail "
                  f"{fabric.nic(src).rail}) -> {dst} (rail {fabric.nic(dst).rail})"
                  + ("; the design has no path for them" if dead else "; they load the spines the rails should keep free"),
                  ids=(src, dst),
                  hint="give every host the same NCCL_IB_HCA order (the bundle's nccl.env) and keep PXN on "
                       "(NCCL_PXN_DISABLE unset) so traffic leaves by the NIC on the peer's rail"))
    return True


def _qos_findings(fabric: Fabric, run: Run, p: Placement, owner_of_address: dict, out: list) -> None:
    for note in run.notes:
        if note.kind == "env" and note.name == "NCCL_IB_TC" and note.value.isdigit() \
                and int(note.value) >> 2 != ROCE_DSCP:
            out.append(_f("NCCL-PFC", Severity.WARNING,
                          f"{note.where}: {note.host} sets NCCL_IB_TC={note.value} (DSCP {int(note.value) >> 2}); "
                          f"the design's lossless class is DSCP {ROCE_DSCP} on priority 3, so PFC does not protect "
                          "this traffic", hint="use the bundle's nccl.env (NCCL_IB_TC=106)"))
    retries = [n for n in run.notes if n.kind == "warn" and _RETRY.search(n.text)]
    if retries:
        first = retries[0]
        peer = _PEER.search(first.text)
        nic = owner_of_address.get(ip_int(peer.group(1))) if peer else None
        out.append(_f("NCCL-PFC", Severity.WARNING,
                      f"{first.where}: {len(retries)} RDMA retry error(s), e.g. {first.host}: {first.text[:120]}"
                      + (f" (peer {nic})" if nic else ""),
                      ids=(nic,) if nic else (),
                      hint="retries exhausted means packets were lost on the lossless class: check PFC on priority 3 "
                           "and ECN/WRED on the leaves and spines on that path (the PFC and ECN dashboards)"))


def _shortfall(j: Judgement, slow: list[str], cross: bool, out: list) -> None:
    run, pred, ratio = j.run, j.prediction, j.ratio
    k = collision_k(ratio)
    measured = f"out-of-place busbw {j.plateau:.1f} GB/s is {ratio:.0%} of the design's {pred.line_gbs:.1f} GB/s"
    step = f"; it drops between {_size(j.step[0])} and {_size(j.step[1])}" if j.step else ""
    if slow or cross:
        return          # the named cause above explains it
    can_collide = pred.crosses_spines and pred.fraction and pred.fraction["min"] < 1 - 1e-9
    if k and can_collide:
        out.append(_f("NCCL-COLLISION", Severity.WARNING,
                      f"{run.name}: {measured}{step}: the 1/{k} step of {k} flows hashed onto one link; under "
                      f"{pred.routing.upper()} the design lets these flows collide (over {pred.trials} hash draws "
                      f"the slowest flow gets {pred.fraction['min']:.0%} to {pred.fraction['max']:.0%}, median "
                      f"{pred.fraction['median']:.0%}; e.g. on {pred.busiest})",
                      hint="pin the upstream hop with PPD (the bundle's leaf ACLs/pbr-maps); order the hostfile by "
                           "SU so that fewer ring hops cross the spines; a rerun hashes anew"))
    elif k and pred.crosses_spines and pred.routing == "ppd":
        out.append(_f("NCCL-POLICY", Severity.WARNING,
                      f"{run.name}: {measured}{step}: the 1/{k} step of a hash collision, but the design pins every "
                      f"flow to its own uplink ({pred.routing.upper()} predicts 100%): flows are being hashed anyway, "
                      "so a policy rule is missing or not applied",
                      hint="check the leaves' PPD ACL/pbr rules are installed (`show acl rule`, `ip rule`) and the "
                           "hosts' policy rules (`rail-designer paths DESIGN --bundle DIR`)"))
    elif not can_collide:
        why = ("no two of its flows can share an uplink" if pred.crosses_spines else "no flow crosses a spine")
        out.append(_f("NCCL-SLOW-HOST-OR-RAIL", Severity.WARNING,
                      f"{run.name}: {measured}{step}, yet {why} in the design, so no hash collision can "
                      "explain it: one host or rail runs slow",
                      hint="run sendrecv_perf between pairs of these hosts (or give nccl-check several logs of "
                           "different host sets) to find it; NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET shows NIC speeds"))
    else:
        out.append(_f("NCCL-SHORTFALL", Severity.WARNING, f"{run.name}: {measured}{step}",
                      hint="rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,ENV so nccl-check can see NIC "
                           "speeds, rails and traffic classes"))
