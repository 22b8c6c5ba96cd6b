"""NCCL's lines about the network, as every common net plugin prints them (`parse` hands them here).

- ``NET/<network> : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/IB ; OOB ...``: NCCL's verbs (``IB``) and the HPC-X
  plugin (``IBext``, ``IBext_v8``); ``NET/Socket : Using [0]eth0:10.1.0.1<0> [1]...`` for sockets;
- ``NET/IB: [0] mlx5_0:uverbs0:1/RoCE provider=Mlx5 speed=400000 ...`` (``NCCL_DEBUG_SUBSYS=NET``);
- ``Channel 00/0 : 0[0] -> 8[0] [send] via NET/<network>/<dev>[(proxy rank)][/GDRDMA][/Shared]`` and the older
  ``Ring 00 : 7 -> 0 [send] via NET/IB/0``, where <network> is the plugin's name: ``IB``, ``Socket``,
  ``IBext_v8`` or ``NCCL RDMA Plugin v8`` (HPC-X), ``AWS Libfabric`` (aws-ofi-nccl), ``GPUDirectTCPX``;
- ``Using network AWS Libfabric``, ``NET/Plugin: Loaded net plugin NCCL RDMA Plugin v8 (v8)``.
"""

from __future__ import annotations

import re

from .runs import Connection, Where

_USING = re.compile(r"NET/(?!Plugin\b)([\w.-]+) ?: Using (.*?)(?:;|$)")
_USING_DEV = re.compile(r"\[(\d+)\]([\w.-]+):(\d+)/(RoCE|IB)")
_USING_SOCKET = re.compile(r"\[(\d+)\]([\w.-]+):[0-9a-fA-F.:%]+<\d+>")
_SPEED = re.compile(r"NET/[\w.-]+: \[(\d+)\] ([\w.-]+):[\w.-]*:(\d+)/(RoCE|IB)\b.*?\bspeed=(\d+)")
_VIA_NET = re.compile(r"via NET/(?P<net>[^/]+?)/(?P<dev>\d+)(?:\((?P<proxy>\d+)\))?(?:/[\w-]+)*(?:\s|$)")
_CHANNEL = re.compile(r"Channel (\d+)(?:/(\d+))? : (\d+)\[[0-9a-fA-Fx]+\] -> (\d+)\[[0-9a-fA-Fx]+\] "
                      r"\[(send|receive)\] ")
_RING = re.compile(r"Ring (\d+) : (\d+)(?:\[[0-9a-fA-Fx]+\])? -> (\d+)(?:\[[0-9a-fA-Fx]+\])? \[(send|receive)\] ")
_NETWORK = re.compile(r"(?:Using network|NET/Plugin: Loaded net plugin|Initialized NET plugin) ([^(\n]+?)\s*(?:\(|$)")


def is_connection(msg: str) -> bool:
    return "via NET/" in msg


def connection(host: str, msg: str, where: Where) -> Connection | None:
    """The connection a ``... via NET/...`` line makes, or None when the line does not read as one."""
    via = _VIA_NET.search(msg)
    if via is None:
        return None
    if (c := _CHANNEL.search(msg)) is not None:
        channel, conn, src, dst, direction = int(c.group(1)), int(c.group(2) or 0), int(c.group(3)), \
            int(c.group(4)), c.group(5)
    elif (r := _RING.search(msg)) is not None:
        channel, conn, src, dst, direction = int(r.group(1)), 0, int(r.group(2)), int(r.group(3)), r.group(4)
    else:
        return None
    proxy = via.group("proxy")
    return Connection(host, channel, conn, src, dst, direction, int(via.group("dev")),
                      int(proxy) if proxy else None, where, via.group("net"))


def using(msg: str) -> tuple[str, list[tuple[int, str, str]]] | None:
    """(network, [(index, device, link)]) from a ``NET/... : Using ...`` line."""
    u = _USING.search(msg)
    if u is None:
        return None
    devices = [(int(d.group(1)), d.group(2), d.group(4)) for d in _USING_DEV.finditer(u.group(2))]
    devices += [(int(d.group(1)), d.group(2), "Socket") for d in _USING_SOCKET.finditer(u.group(2))]
    return u.group(1), devices


def speed(msg: str) -> tuple[int, str, str, int] | None:
    """(index, device, link, Mb/s) from a ``NET/IB: [i] ... speed=`` line."""
    s = _SPEED.search(msg)
    return (int(s.group(1)), s.group(2), s.group(4), int(s.group(5))) if s else None


def network(msg: str) -> str | None:
    """The plugin a ``Using network X`` / ``Loaded net plugin X`` line names."""
    n = _NETWORK.search(msg)
    return n.group(1) if n else None
