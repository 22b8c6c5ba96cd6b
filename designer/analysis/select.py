"""Turn ``HOST[:NIC]`` arguments into NIC pairs to trace."""

from __future__ import annotations

from ..model.ids import natural_key
from . import AnalysisError
from .routing import Forwarding


def resolve_host(fw: Forwarding, text: str) -> str:
    """A server id or hostname -> server id."""
    fabric = fw.fabric
    if text in fabric.servers:
        return text
    owner = fabric.hostname_owner(text)
    if owner in fabric.servers:
        return owner
    raise AnalysisError(f"no server is called '{text}' (give a server id such as su1-srv01 or its hostname)")


def resolve(fw: Forwarding, text: str) -> tuple[str, str | None]:
    """``HOST`` or ``HOST:NIC`` (NIC = nicK or the netdev) -> (server id, NIC id or None)."""
    host, _, nic = text.partition(":")
    server_id = resolve_host(fw, host)
    if not nic:
        return server_id, None
    server = fw.fabric.servers[server_id]
    for n in server.nics:
        if nic in (n.port, n.netdev):
            return server_id, n.id
    known = ", ".join(f"{n.port} ({n.netdev})" for n in server.nics)
    raise AnalysisError(f"{server_id} has no NIC '{nic}'; it has {known}")


def pairs(fw: Forwarding, source: str, target: str) -> list[tuple[str, str]]:
    """The NIC pairs to trace. A side without a NIC takes every rail NIC on the other side's rail (and plane)."""
    (src_host, src_nic), (dst_host, dst_nic) = resolve(fw, source), resolve(fw, target)
    if src_nic and dst_nic:
        return [(src_nic, dst_nic)]
    out = []
    for s in _rail_nics(fw, src_host, src_nic):
        for d in _rail_nics(fw, dst_host, dst_nic):
            a, b = fw.fabric.nic(s), fw.fabric.nic(d)
            if (a.rail, a.fabric_plane) == (b.rail, b.fabric_plane):
                out.append((s, d))
    if not out:
        raise AnalysisError(f"{source} and {target} have no rail NICs on the same rail; name both NICs "
                            "(HOST:nicK) to trace a cross-rail pair")
    return out


def _rail_nics(fw: Forwarding, server_id: str, nic_id: str | None) -> list[str]:
    if nic_id:
        return [nic_id]
    server = fw.fabric.servers[server_id]
    nics = [n for n in server.nics if n.rail is not None]
    return [n.id for n in sorted(nics, key=lambda n: (n.fabric_plane, n.rail, natural_key(n.id)))]
