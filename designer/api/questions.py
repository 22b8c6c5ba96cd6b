"""Questions about a design's forwarding: trace a flow hop by hop, predict a collective's collisions, and
judge nccl-tests logs against what the design predicts."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from .common import read_input

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..analysis.collisions import Analysis
    from ..analysis.paths import Trace
    from ..model.fabric import Fabric
    from ..nccl.check import CheckResult


def trace(fabric: Fabric, source: str, target: str, *, bundle: str | os.PathLike | None = None,
          ib_routes: tuple[str | os.PathLike, str | os.PathLike] | None = None) -> list[Trace]:
    """Follow a flow and its reply through what the bundle configures: the host's rule and table, the
    leaf (local delivery or its PPD pin), the spine, the far leaf and host, and back.

    ``source`` / ``target``: ``HOST`` or ``HOST:NIC`` (a server id or host name; ``nicK`` or the netdev);
    without a NIC every same-rail NIC pair of the two hosts is traced. ``bundle``: take the hosts' rules
    and tables from an exported bundle's netplan files (as edited) instead of from the design. Returns one
    ``Trace`` per pair: ``src_nic``, ``dst_nic``, the ``request`` and ``reply`` legs (``hops``, each with
    ``device``, ``ingress``, ``egress``, ``decision``; ``delivered``, ``spines``, ``problem``), ``flags``
    (findings) and ``ok``. An InfiniBand design is routed by its subnet manager: give ``ib_routes``,
    (``ibnetdiscover`` output, ``dump_fts`` output) read from the fabric, and each hop follows the
    forwarding table OpenSM programmed. Raises a DesignerError (``AnalysisError``) for a host or NIC it
    cannot find, or an InfiniBand design without its routes."""
    from ..analysis.select import pairs
    if _ib_routing(fabric, ib_routes, bundle):
        from ..infiniband.routes import trace as trace_ib
        routes = _ib_routes(fabric, ib_routes)
        return [trace_ib(routes, src, dst) for src, dst in pairs(routes, source, target)]
    from ..analysis.paths import trace as trace_pair
    fw = _forwarding(fabric, bundle)
    return [trace_pair(fw, src, dst) for src, dst in pairs(fw, source, target)]


def _ib_routing(fabric: Fabric, ib_routes, bundle=None) -> bool:
    """True when the question is answered from the subnet manager's routes; refuses a mix-up."""
    from ..analysis import AnalysisError
    if not fabric.settings.infiniband:
        if ib_routes:
            raise AnalysisError("ibnetdiscover and dump_fts routes are for an InfiniBand design; this one is "
                                "Ethernet (its routes come from the design and bundle)")
        return False
    if not ib_routes:
        raise AnalysisError("an InfiniBand fabric is routed by its subnet manager, not by the design: give the "
                            "routes OpenSM computed, --ibnetdiscover DUMP and --fts DUMP (the output of "
                            "`ibnetdiscover` and `dump_fts` run on the fabric)")
    if bundle:
        raise AnalysisError("--bundle reads an Ethernet bundle's host routes; an InfiniBand design takes "
                            "--ibnetdiscover and --fts instead")
    return True


def _refuse_infiniband(fabric: Fabric, what: str) -> None:
    if fabric.settings.infiniband:
        from ..analysis import AnalysisError
        raise AnalysisError(f"{what}; an InfiniBand fabric is routed by its subnet manager: `rail-designer analyze "
                            "FILE --pattern P --ibnetdiscover DUMP --fts DUMP` shows the collisions on its routes")


def _ib_routes(fabric: Fabric, ib_routes):
    from ..importers.ibnd import parse_ibnd
    from ..infiniband.routes import IbRoutes, parse_fts
    from ..model.limits import MAX_FTS_BYTES, MAX_IBND_BYTES
    ibnd, fts = ib_routes
    nodes = parse_ibnd(read_input(ibnd, MAX_IBND_BYTES, "ibnetdiscover output"), _source(ibnd))
    tables = parse_fts(read_input(fts, MAX_FTS_BYTES, "dump_fts output"), _source(fts))
    return IbRoutes(fabric, nodes, tables)


def _source(name: str | os.PathLike) -> str:
    return "standard input" if os.fspath(name) == "-" else os.fspath(name)


def _forwarding(fabric: Fabric, bundle: str | os.PathLike | None = None):
    if bundle:
        from ..analysis.bundle_hosts import forwarding_from_bundle
        return forwarding_from_bundle(fabric, Path(bundle))
    from ..analysis.routing import Forwarding
    return Forwarding(fabric)


def analyze(fabric: Fabric, pattern: str, *, routing: str | None = None, trials: int = 100, seed: int = 0,
            qps: int | None = None, ib_routes: tuple[str | os.PathLike, str | os.PathLike] | None = None) -> Analysis:
    """Place a collective's inter-server flows on the designed links and predict the collisions.

    ``pattern``: ``rail-ring``, ``allreduce-ring`` or ``alltoall``; ``routing``: ``ppd`` (the leaves' pins,
    as the bundle configures), ``ecmp`` (a hash per flow, sampled ``trials`` times from ``seed``; spines always
    hash), ``qp-hash`` (``qps`` queue pairs per flow, each hashed) or ``adaptive`` (per-packet spraying as the
    ideal: an even split at every switch); None: the design's load-balancing setting. ``qps`` None: the
    design's, else 4. Returns an ``Analysis``: per-link loads (``links``, ``busiest``), the collective's bus-bandwidth
    fraction per trial (``fraction``), the flows that found no route (``unroutable``). An InfiniBand
    design takes ``ib_routes`` as `trace` does and places each flow on the links OpenSM's tables send it
    over (routing ``opensm``, one trial). Raises a DesignerError (``AnalysisError``) for an unknown pattern
    or routing, or an InfiniBand design without its routes."""
    from ..analysis.flows import flows
    if _ib_routing(fabric, ib_routes):
        from ..infiniband.routes import analyze as place_on_tables
        return place_on_tables(_ib_routes(fabric, ib_routes), flows(fabric, pattern), pattern)
    from ..analysis.collisions import analyze as place_flows
    from ..analysis.modes import resolve
    routing, qps = resolve(fabric.settings, routing, qps)
    return place_flows(_forwarding(fabric), flows(fabric, pattern), routing, trials, seed, pattern, qps)


def nccl_check(fabric: Fabric, logs: Iterable[str | os.PathLike] | str | os.PathLike, *, routing: str | None = None,
               trials: int = 100, seed: int = 0, collective: str | None = None, qps: int | None = None) -> CheckResult:
    """Judge nccl-tests logs (all_reduce_perf, all_gather_perf, reduce_scatter_perf, alltoall_perf,
    sendrecv_perf; mpirun/srun output and NCCL_DEBUG=INFO lines may be mixed in) against the design.

    Ranks are mapped to the design's servers and NICs; measured bus bandwidth by size is compared with
    the design's ceiling and the collision analysis under ``routing`` (None: the design's load-balancing mode,
    and ``qps`` None its QP count, as `analyze`). ``collective`` names the test for
    logs that do not say. Returns a ``CheckResult``: ``judgements`` per run, ``verdicts`` (findings naming
    the likely cause: NCCL-... codes) and ``ok``. Raises a DesignerError (``LogError``, naming the file and
    line) for a log that cannot be used at all, and ``AnalysisError`` for an InfiniBand design (its
    verdicts speak of PPD pins and ECMP hashing, which OpenSM's routes do not have)."""
    from ..analysis.modes import resolve
    from ..nccl.check import check_logs
    _refuse_infiniband(fabric, "nccl-check judges logs against Ethernet routing (PPD pins, ECMP hashing); it does "
                               "not judge an InfiniBand fabric yet")
    routing, qps = resolve(fabric.settings, routing, qps)
    paths = [logs] if isinstance(logs, (str, os.PathLike)) else list(logs)
    return check_logs(fabric, [Path(p) for p in paths], routing, trials, seed, collective, qps)


def compare_modes(fabric: Fabric, pattern: str, *, qps: int | None = None, trials: int = 100, seed: int = 0) -> list:
    """The collective's flows under every load-balancing mode (ppd, ecmp, qp-hash with ``qps`` queue pairs,
    None: the design's or 4; adaptive), same flows and seed. Returns ``analysis.compare.ModeRow`` rows:
    ``mode``, ``label``, ``trials``, ``fraction_mean`` / ``_min`` / ``_max``, ``uplink_load_mean``,
    ``collision_free_share``. Raises a DesignerError (``AnalysisError``) for an unknown pattern."""
    from ..analysis.compare import compare
    from ..analysis.flows import flows
    from ..analysis.modes import resolve
    _refuse_infiniband(fabric, "the load-balancing modes are Ethernet's (PPD, ECMP, QP hashing, adaptive)")
    _, qps = resolve(fabric.settings, "qp-hash", qps)
    return compare(_forwarding(fabric), flows(fabric, pattern), qps, trials, seed, pattern)


def failure_capacity(fabric: Fabric) -> list:
    """Per tier (leaf uplinks, spines; spine uplinks and cores in three tiers), how many failures the design
    takes with every switch still within its allowed downlink:uplink ratio (1:1: non-blocking). Returns
    ``planning.failures.TierCapacity`` rows: ``tier``, ``failures`` (-1: over the ratio with nothing failed),
    ``limiting`` (the switch that sets it), ``down_gbps``, ``up_gbps``, ``parts``, ``ratio``, ``text``."""
    from ..planning.failures import failure_capacity as tiers
    return tiers(fabric)
