"""Synthetic nccl-tests logs in the real format (nccl-tests 2.x column layout, NCCL 2.2x INFO lines),
written from a design so that a test can inject one known fault and ask nccl-check to name it.

The bus bandwidth curve: ``peak * size / (size + HALF)``: latency-bound at small sizes, a plateau from
a few hundred MiB. ``peak`` is ``EFFICIENCY`` of the line rate (the host's rail NICs added up for the
ring collectives, one NIC for alltoall and sendrecv) unless overridden.
"""

from __future__ import annotations

from dataclasses import dataclass, field

EFFICIENCY = 0.93
HALF = 4 << 20
FACTOR = {"all_reduce_perf": lambda n: 2 * (n - 1) / n, "all_gather_perf": lambda n: (n - 1) / n,
          "reduce_scatter_perf": lambda n: (n - 1) / n, "alltoall_perf": lambda n: (n - 1) / n,
          "sendrecv_perf": lambda n: 1.0}
REDOP = {"all_reduce_perf": "sum", "all_gather_perf": "none", "reduce_scatter_perf": "sum",
         "alltoall_perf": "none", "sendrecv_perf": "sum"}


@dataclass
class Spec:
    fabric: object
    servers: list[str]
    collective: str = "all_reduce_perf"
    gpus: int | None = None                      # ranks per host (default: the server's GPUs)
    peak: float | None = None                    # GB/s plateau (default: line share * EFFICIENCY)
    scale: dict = field(default_factory=dict)    # size from which busbw is multiplied: {bytes: factor}
    info: bool = False                           # NCCL_DEBUG=INFO lines
    speeds: dict = field(default_factory=dict)   # (server, rdma) -> Mb/s reported by NCCL
    cross_rail: bool = False                     # PXN off: GPU g sends to the next host's GPU g+1
    tag: str = ""                                # "mpi" -> [1,0]<stdout>: prefixes; "srun" -> "0: "
    min_bytes: int = 8
    max_bytes: int = 8 << 30


def _nics(fabric, server_id: str) -> list:
    return sorted((n for n in fabric.servers[server_id].nics if n.rail is not None), key=lambda n: n.rail)


def busbw(spec: Spec, size: int) -> float:
    fabric = spec.fabric
    server = fabric.servers[spec.servers[0]]
    gpus = spec.gpus or server.gpus
    nics = _nics(fabric, server.id)
    used = {n.id for n in nics if any(g in n.gpus for g in range(gpus))}
    aggregate = spec.collective in ("all_reduce_perf", "all_gather_perf", "reduce_scatter_perf")
    line = min(n.speed for n in nics) * (len(used) if aggregate else 1) / 8
    peak = spec.peak if spec.peak is not None else line * EFFICIENCY
    value = peak * size / (size + HALF)
    for start, factor in sorted(spec.scale.items()):
        if size >= start:
            value = peak * factor * size / (size + HALF)
    return value


def _num(value: float, width: int) -> str:
    for fmt in ("%*.2f", "%*.1f", "%*.0f"):
        text = fmt % (width, value)
        if len(text) <= width:
            return text
    return "%*.1e" % (width, value)


def _info_lines(spec: Spec, host: str, server_id: str, first_rank: int, gpus: int, n: int) -> list[str]:
    fabric = spec.fabric
    nics = _nics(fabric, server_id)
    pid = 4000 + first_rank
    pre = f"{host}:{pid}:{pid + 90} [0] NCCL INFO "
    lines = [pre + "NCCL_IB_HCA set by environment to =" + ",".join(f"{x.rdma}:1" for x in nics) + ".",
             pre + "NCCL_IB_TC set by environment to 106.",
             pre + "NET/IB : Using " + " ".join(f"[{i}]{x.rdma}:1/RoCE" for i, x in enumerate(nics))
             + " [RO]; OOB eno1:192.168.0.10<0>"]
    for i, x in enumerate(nics):
        speed = spec.speeds.get((server_id, x.rdma), x.speed * 1000)
        lines.append(pre + f"NET/IB: [{i}] {x.rdma}:uverbs{i}:1/RoCE provider=Mlx5 speed={speed} "
                           f"context=0x55d0c0a{i:03x}0 pciPath=/sys/devices/pci0000:00/0000:00:0{i}.0 ar=0")
    hosts = len(spec.servers)
    me = first_rank // gpus
    peer = ((me + 1) % hosts) * gpus
    shift = 1 if spec.cross_rail else 0

    def dev(g: int) -> int:
        return next((i for i, x in enumerate(nics) if g in x.gpus), g % len(nics))

    for g in range(gpus):
        rank, to, frm = first_rank + g, (g + shift) % gpus, (g - shift) % gpus
        lines.append(f"{host}:{pid}:{pid + 91} [{g}] NCCL INFO Channel {g:02d}/0 : {rank}[{g}] -> {peer + to}[{to}] "
                     f"[send] via NET/IB/{dev(g)}/GDRDMA")
        src = ((me - 1) % hosts) * gpus + frm
        lines.append(f"{host}:{pid}:{pid + 91} [{g}] NCCL INFO Channel {g:02d}/0 : {src}[{frm}] -> {rank}[{g}] "
                     f"[receive] via NET/IB/{dev(g)}/GDRDMA")
        lines.append(f"{host}:{pid}:{pid + 91} [{g}] NCCL INFO ncclCommInitRank comm 0x7f00{rank:04x} rank {rank} "
                     f"nranks {n} cudaDev {g} nvmlDev {g} busId {g + 1}8000 commId 0x5eed - Init COMPLETE")
    return lines


def make_log(spec: Spec) -> str:
    fabric = spec.fabric
    hosts = [fabric.servers[s].hostname for s in spec.servers]
    gpus = spec.gpus or fabric.servers[spec.servers[0]].gpus
    n = gpus * len(hosts)
    out = [f"+ mpirun -np {n} -H {','.join(h + ':' + str(gpus) for h in hosts)} -x NCCL_DEBUG=INFO "
           f"./build/{spec.collective} -b {spec.min_bytes} -e {spec.max_bytes} -f 2 -g 1",
           "Warning: Permanently added 'su1-srv01' (ED25519) to the list of known hosts."]
    if spec.info:
        out.append(f"{hosts[0]}:4000:4000 [0] NCCL INFO NCCL version 2.21.5+cuda12.4")
        for i, (host, sid) in enumerate(zip(hosts, spec.servers)):
            out += _info_lines(spec, host, sid, i * gpus, gpus, n)
    out += ["# nccl-tests version 2.13.10 nccl-headers=22105 nccl-library=22105",
            f"# Collective test starting: {spec.collective}",
            f"# nThread 1 nGpus 1 minBytes {spec.min_bytes} maxBytes {spec.max_bytes} step: 2(factor) warmup iters: 5 "
            "iters: 20 agg iters: 1 validation: 1 graph: 0", "#", "# Using devices"]
    for i, host in enumerate(hosts):
        for g in range(gpus):
            out.append("#  Rank %2d Group  0 Pid %6d on %10s device %2d [0000:%02x:00] NVIDIA H100 80GB HBM3"
                       % (i * gpus + g, 4000 + i * gpus + g, host, g, 0x18 + 0x10 * g))
    out += ["#",
            "#                                                              out-of-place                       in-place          ",
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong ",
            "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)         "]
    size, total, count_rows = spec.min_bytes, 0.0, 0
    factor = FACTOR[spec.collective](n)
    while size <= spec.max_bytes:
        bus = busbw(spec, size)
        alg = bus / factor
        time = size / (alg * 1e3) + 12.0
        alg = size / (time * 1e3)
        bus = alg * factor
        per = n if spec.collective in ("all_gather_perf", "reduce_scatter_perf", "alltoall_perf") else 1
        out.append("%12d  %12d  %8s  %6s  %6s" % (size, max(1, size // 4 // per), "float", REDOP[spec.collective], "-1")
                   + ("  %7s  %6s  %6s  %6g" % (_num(time, 7), _num(alg, 6), _num(bus, 6), 0)) * 2)
        total += bus
        count_rows += 1
        size *= 2
    out += ["# Out of bounds values : 0 OK", f"# Avg bus bandwidth    : {total / count_rows:g} ", "#",
            f"# Collective test concluded: {spec.collective}", "#"]
    if spec.tag == "mpi":
        out = [f"[1,0]<stdout>:{line}" for line in out]
    elif spec.tag == "srun":
        out = [f"0: {line}" for line in out]
    return "\n".join(out) + "\n"
