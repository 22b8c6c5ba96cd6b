"""What the design says a run should reach, and where its ranks and connections sit in the design.

- Hosts: a log's host name is matched to a server by host name, server id, or its first DNS label.
- A rank's NIC: the cabled rail NIC whose ``gpus`` (PCIe affinity) hold the rank's CUDA device.
- An NCCL net device (``NET/IB/<n>``) is the NIC with that RDMA name (``NET/IB : Using [n]mlx5_x``).
- Rate (bus bandwidth with no collision, GB/s = Gb/s / 8): for the ring collectives NCCL runs one ring
  channel set per NIC and busbw adds up over them, so it is the number of rail NICs carrying a host's
  traffic (`nics_in_use`) times the slowest of them (a 400G NIC gives 46-49 GB/s of it); alltoall,
  gather, scatter and sendrecv cannot aggregate NICs, so their rate is one NIC. The slowest host sets it.
- Ceiling: the rate times `share_factor`, for the collectives whose busbw also counts what NVLink
  carries inside a node; a measured busbw above it means the design is not the cluster that ran.
- Flows: from the log's ``Channel ... via NET`` lines when present (each connection is a flow, from
  the sender's net device to the receiver's), otherwise the ring model of `analysis.flows`
  (``allreduce-ring`` for all_reduce/all_gather/reduce_scatter, ``alltoall``, ``rail-ring`` for
  sendrecv) over the run's servers in rank order. `analysis.collisions` places them under PPD or ECMP
  and gives the fraction of line rate the slowest flow gets.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..analysis.collisions import analyze, summary
from ..analysis.flows import Flow, flows
from ..analysis.routing import Forwarding
from ..model.fabric import Fabric
from ..model.ids import natural_key, split_endpoint
from .runs import Connection, Run

AGGREGATING = ("all_reduce_perf", "all_gather_perf", "reduce_scatter_perf", "broadcast_perf", "reduce_perf")
# The collectives whose busbw counts the transfers that stay inside a node (NVLink) as well as those that
# leave it: with g ranks on each of N nodes (n = gN), at least (N-1)/N of what busbw counts, (n-1)/n, has to
# cross the network, so busbw can reach the network's rate times ((n-1)/n) / ((N-1)/N) (1.875 on 2 x 8 GPUs).
SHARES_INSIDE = ("all_reduce_perf", "all_gather_perf", "reduce_scatter_perf", "alltoall_perf")
PATTERN_OF = {"all_reduce_perf": "allreduce-ring", "all_gather_perf": "allreduce-ring",
              "reduce_scatter_perf": "allreduce-ring", "broadcast_perf": "allreduce-ring",
              "reduce_perf": "allreduce-ring", "alltoall_perf": "alltoall", "gather_perf": "alltoall",
              "scatter_perf": "alltoall", "hypercube_perf": "alltoall", "sendrecv_perf": "rail-ring"}


@dataclass
class Placement:
    host_server: dict[str, str] = field(default_factory=dict)      # log host -> server id
    unknown_hosts: list[str] = field(default_factory=list)
    rank_nic: dict[int, str | None] = field(default_factory=dict)  # rank -> NIC id by GPU affinity
    netdev_nic: dict[tuple[str, int], str] = field(default_factory=dict)   # (host, NET index) -> NIC id
    unknown_netdevs: list[tuple[str, int, str]] = field(default_factory=list)

    @property
    def servers(self) -> list[str]:
        return list(dict.fromkeys(self.host_server.values()))


@dataclass
class Prediction:
    routing: str
    line_gbs: float | None            # busbw rate with no collision, GB/s (None: nothing to predict)
    reported_gbs: float | None        # the same with the NIC speeds NCCL reported, where it did
    nics_per_host: int                # NICs whose rates add up in the rate (1 but for the ring collectives)
    fraction: dict                    # collision fraction over trials: min, median, mean, max
    collision_free_share: float
    trials: int
    flows_from: str
    flow_count: int
    crosses_spines: bool
    unroutable: list[tuple[str, str, str]]
    cross_rail: list[tuple[str, str, Connection | None]]     # (src NIC, dst NIC, the line that shows it)
    busiest: str | None = None        # the most loaded link, when some flow gets less than line rate
    single_host: bool = False
    ceiling_gbs: float | None = None  # the most busbw can reach: line_gbs with the share kept inside the node
    nics_speed_gbps: float = 0.0      # the slowest of those NICs (Gb/s)
    ranks: int = 0
    nodes: int = 0
    unknown_collective: bool = False

    @property
    def share_inside(self) -> float:
        """ceiling / line rate: what NVLink inside the node adds for the collectives that count it."""
        return self.ceiling_gbs / self.line_gbs if self.ceiling_gbs and self.line_gbs else 1.0

    def assumed(self) -> str:
        """What the model took the cluster to be, in one phrase."""
        inside = (f", NVLink inside the node carrying the rest (x{self.share_inside:.3g} over the network's rate)"
                  if self.share_inside > 1 else "")
        return (f"{self.nics_per_host} NIC(s) of {self.nics_speed_gbps:g} Gb/s per host carrying the traffic between "
                f"hosts, {self.ranks} ranks on {self.nodes} node(s){inside}")


def share_factor(collective: str | None, ranks: int, nodes: int) -> float:
    """((n-1)/n) / ((N-1)/N) for the collectives in SHARES_INSIDE (1 when every rank has its own node)."""
    if collective not in SHARES_INSIDE or nodes < 2 or ranks <= nodes:
        return 1.0
    return ((ranks - 1) / ranks) / ((nodes - 1) / nodes)


def server_of(fabric: Fabric, host: str) -> str | None:
    for name in dict.fromkeys((host, host.split(".")[0])):
        if name in fabric.servers:
            return name
        owner = fabric.hostname_owner(name)
        if owner in fabric.servers:
            return owner
    return None


def place(fabric: Fabric, run: Run) -> Placement:
    p = Placement()
    for host in run.hosts + list(run.nccl_hosts):
        if host in p.host_server or host in p.unknown_hosts:
            continue
        server = server_of(fabric, host)
        if server is None:
            p.unknown_hosts.append(host)
        else:
            p.host_server[host] = server
    for r in run.ranks:
        server = p.host_server.get(r.host)
        p.rank_nic[r.rank] = _affinity_nic(fabric, server, r.device) if server else None
    for report in run.nics:
        server = p.host_server.get(report.host)
        if server is None:
            continue
        nic = next((n for n in fabric.servers[server].nics if n.rdma == report.rdma), None)
        if nic is None:
            p.unknown_netdevs.append((report.host, report.index, report.rdma))
        else:
            p.netdev_nic[(report.host, report.index)] = nic.id
    return p


def _affinity_nic(fabric: Fabric, server_id: str, device: int) -> str | None:
    for nic in sorted(fabric.servers[server_id].nics, key=lambda n: n.index):
        if device in nic.gpus and nic.rail is not None and fabric.peer(nic.id) is not None:
            return nic.id
    return None


def nics_in_use(fabric: Fabric, run: Run, p: Placement) -> dict[str, set[str]]:
    """The rail NICs that carry each placed host's traffic: those of its ranks' GPUs (affinity) and those its
    connection lines name. A host whose ranks the log does not list in full (a rank table cut or missing, as
    in an excerpt) is taken to use every cabled rail NIC of its server, as NCCL spreads its rings over every
    NIC it may use."""
    used: dict[str, set[str]] = {host: set() for host in p.host_server}
    listed = Counter(r.host for r in run.ranks)
    for r in run.ranks:
        nic = p.rank_nic.get(r.rank)
        if nic is not None and r.host in used:
            used[r.host].add(nic)
    for (host, _index), nic in p.netdev_nic.items():
        if host in used:
            used[host].add(nic)
    hosts = len(p.host_server) or 1
    for host, server in p.host_server.items():
        if listed[host] * hosts < run.rank_count or not listed[host]:
            used[host] |= {n.id for n in fabric.servers[server].nics
                           if n.rail is not None and fabric.peer(n.id) is not None}
    return {host: nics for host, nics in used.items() if nics}


def _ceiling(used: dict[str, set[str]], speeds: dict[str, float],
             aggregate: bool) -> tuple[float, int, float] | None:
    """(Gb/s, NICs per host, the slowest NIC's Gb/s) of the slowest host: its rail NICs in use times the
    slowest of them for the ring collectives (``aggregate``), one NIC otherwise."""
    used = {host: {n for n in nics if n in speeds} for host, nics in used.items()}
    used = {host: nics for host, nics in used.items() if nics}
    if not used:
        return None
    return min((min(speeds[n] for n in nics) * (len(nics) if aggregate else 1), len(nics) if aggregate else 1,
                min(speeds[n] for n in nics)) for nics in used.values())


def _connection_flows(fabric: Fabric, run: Run, p: Placement) -> tuple[list[Flow], list]:
    """One flow per NET connection, sender's NIC -> receiver's NIC; and the cross-rail ones."""
    by_key: dict[tuple, dict[str, Connection]] = {}
    for c in run.connections:
        by_key.setdefault((c.channel, c.conn, c.src_rank, c.dst_rank), {})[c.direction] = c
    ends = []
    for key in sorted(by_key):
        sides = by_key[key]
        send, recv = sides.get("send"), sides.get("receive")
        src = p.netdev_nic.get((send.host, send.netdev)) if send else None
        src = src or p.rank_nic.get(key[2])
        dst = p.netdev_nic.get((recv.host, recv.netdev)) if recv else None
        dst = dst or p.rank_nic.get(key[3])
        if src and dst and split_endpoint(src)[0] != split_endpoint(dst)[0]:
            ends.append((src, dst, send or recv))
    per_src = Counter(src for src, _, _ in ends)
    out, cross = [], []
    for src, dst, line in ends:
        nic_s, nic_d = fabric.nic(src), fabric.nic(dst)
        out.append(Flow(src, dst, float(nic_s.speed) / per_src[src], nic_s.rail))
        if nic_s.rail != nic_d.rail:
            cross.append((src, dst, line))
    out.sort(key=lambda f: (natural_key(f.src), natural_key(f.dst)))
    return out, cross


def predict(fw: Forwarding, run: Run, p: Placement, routing: str = "ppd", trials: int = 100,
            seed: int = 0, qps: int = 1) -> Prediction:
    fabric = fw.fabric
    servers = p.servers
    empty = dict(routing=routing, reported_gbs=None, nics_per_host=0, fraction={}, collision_free_share=1.0,
                 trials=0, flow_count=0, crosses_spines=False, unroutable=[], cross_rail=[])
    if len(servers) < 2:
        return Prediction(line_gbs=None, flows_from="", single_host=len(servers) == 1, **empty)
    if run.collective is None:
        return Prediction(line_gbs=None, flows_from="", unknown_collective=True, **empty)
    design_speed = {n.id: float(n.speed) for s in servers for n in fabric.servers[s].nics}
    reported = dict(design_speed)
    for r in run.nics:
        nic = p.netdev_nic.get((r.host, r.index))
        if nic and r.speed_mbps:
            reported[nic] = r.speed_mbps / 1000
    aggregate = run.collective in AGGREGATING
    used = nics_in_use(fabric, run, p)
    ceiling = _ceiling(used, design_speed, aggregate)
    hosts = len(servers)
    net_flows, cross = _connection_flows(fabric, run, p)
    if net_flows:
        flow_list, source = net_flows, f"{len(run.connections)} NCCL channel lines"
    else:
        pattern = PATTERN_OF.get(run.collective or "", "allreduce-ring")
        flow_list, source = flows(fabric, pattern, servers), f"the {pattern} model over {hosts} servers"
    result = analyze(fw, flow_list, routing, trials, seed, run.collective or "", qps)
    worst = _ceiling(used, reported, aggregate)
    ranks = run.rank_count
    return Prediction(
        routing=routing,
        line_gbs=ceiling[0] / 8 if ceiling else None,
        ceiling_gbs=ceiling[0] / 8 * share_factor(run.collective, ranks, hosts) if ceiling else None,
        nics_speed_gbps=ceiling[2] if ceiling else 0.0, ranks=ranks, nodes=hosts,
        reported_gbs=worst[0] / 8 if worst and ceiling and worst[0] < ceiling[0] else None,
        nics_per_host=ceiling[1] if ceiling else 0, fraction=summary(result)["fraction"],
        collision_free_share=result.upstream_collision_free / result.trials, trials=result.trials,
        flows_from=source, flow_count=len(flow_list),
        crosses_spines=any(l.tier == "up" for l in result.links),
        unroutable=result.unroutable, cross_rail=cross,
        busiest=result.busiest.link if result.busiest and min(result.fraction) < 1 - 1e-9 else None)
