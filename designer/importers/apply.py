"""Apply real NIC names to a design's servers through the Fabric API."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UnknownDevice
from ..model.fabric import Fabric
from ..model.ids import natural_key
from .errors import ImportRefused
from .nicnames import NicNames


@dataclass(frozen=True, slots=True)
class NicRename:
    nic_id: str
    rdma: str
    old: str
    new: str


@dataclass
class ApplyResult:
    servers: list[str]
    renamed: list[NicRename] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)       # NIC ids already named as the input says
    not_in_input: list[str] = field(default_factory=list)    # NIC ids whose RDMA device the input lacks
    unused: list[str] = field(default_factory=list)          # RDMA devices in the input on no rail NIC
    gid_index: int | None = None                             # the RoCE v2 GID index the rail NICs agree on
    notes: list[str] = field(default_factory=list)


def target_servers(fabric: Fabric, server: str | None = None, model: str | None = None) -> list[str]:
    """Server ids for ``--server`` (an id or a host name) or ``--model``; UnknownDevice when none match."""
    if server is not None:
        owner = server if server in fabric.servers else fabric.hostname_owner(server)
        if owner not in fabric.servers:
            raise UnknownDevice(f"there is no server '{server}' in the design (give a server id or host name)")
        return [owner]
    ids = [s.id for s in fabric.sorted_servers() if s.model == model]
    if not ids:
        used = sorted({s.model for s in fabric.servers.values()})
        raise UnknownDevice(f"no server of model '{model}' in the design (models used: {', '.join(used) or 'none'})")
    return ids


def apply_nic_names(fabric: Fabric, server_ids: list[str], names: NicNames) -> ApplyResult:
    """Rename the rail NICs of ``server_ids`` whose RDMA device the input names (one batch of edits)."""
    result = ApplyResult(list(server_ids))
    used_rdma = set()
    _refuse_shared_names(fabric, server_ids, names)
    with fabric.batch():
        for sid in server_ids:
            for nic in fabric.servers[sid].nics:
                new = names.netdevs.get(nic.rdma)
                if new is None:
                    result.not_in_input.append(nic.id)
                    continue
                used_rdma.add(nic.rdma)
                if new == nic.netdev:
                    result.unchanged.append(nic.id)
                else:
                    fabric.set_nic_names(nic.id, new, nic.rdma)
                    result.renamed.append(NicRename(nic.id, nic.rdma, nic.netdev, new))
    if not used_rdma and names.netdevs:
        wanted = sorted({n.rdma for sid in server_ids for n in fabric.servers[sid].nics}, key=natural_key)
        raise ImportRefused(f"none of the input's RDMA devices ({', '.join(sorted(names.netdevs, key=natural_key))}) "
                            f"is a rail NIC of {', '.join(server_ids[:3])}{' ...' if len(server_ids) > 3 else ''} "
                            f"(which has {', '.join(wanted)})")
    result.unused = sorted(set(names.netdevs) - used_rdma, key=natural_key)
    _gid(fabric, server_ids, names, result)
    return result


def _refuse_shared_names(fabric: Fabric, server_ids: list[str], names: NicNames) -> None:
    """Two NICs of one server would end up with one interface name (a partial input that names a
    NIC after one it leaves alone): refuse before anything changes, naming both."""
    for sid in server_ids:
        after: dict[str, str] = {}
        for nic in fabric.servers[sid].nics:
            netdev = names.netdevs.get(nic.rdma, nic.netdev)
            if netdev in after:
                other = after[netdev]
                raise ImportRefused(f"{nic.id} and {other} would both be named {netdev} on {sid}; give the whole "
                                    "ibdev2netdev output of the server, so that every NIC gets its own name")
            after[netdev] = nic.id


def _gid(fabric: Fabric, server_ids: list[str], names: NicNames, result: ApplyResult) -> None:
    rail_rdma = {n.rdma for sid in server_ids for n in fabric.servers[sid].nics if n.rail is not None}
    indexes = {names.gid_index[r] for r in rail_rdma if r in names.gid_index}
    if not indexes:
        if names.gid_index:
            result.notes.append("show_gids lists no RoCE v2 GID for the rail NICs")
        return
    if len(indexes) > 1:
        per = ", ".join(f"{r}={names.gid_index[r]}" for r in sorted(rail_rdma & set(names.gid_index), key=natural_key))
        result.notes.append(f"the rail NICs have different RoCE v2 GID indexes ({per}); "
                            "NCCL_IB_GID_INDEX takes one value: give the NICs IPv4 addresses at the same index")
        return
    result.gid_index = indexes.pop()
    for sid in server_ids:                     # the host configs' NCCL_IB_GID_INDEX follows it
        fabric.set_gid_index(sid, result.gid_index)
