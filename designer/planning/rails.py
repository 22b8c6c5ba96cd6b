"""Rail assignment: a NIC's rail is its rank in GPU-affinity order on its server model."""

from __future__ import annotations

from ..model.fabric import Fabric


def affinity_rails(fabric: Fabric, server_id: str) -> dict[int, int]:
    """NIC index -> rail for one server, from its model's GPU affinity (NICs past the rail count get none)."""
    server = fabric.servers[server_id]
    return fabric.catalog.server(server.model).rails_by_nic(len(fabric.rails) or None)


def assign_rails(fabric: Fabric) -> int:
    """Reset every NIC's rail to its affinity rank; returns how many NICs changed. Re-runnable."""
    changed = 0
    with fabric.batch():
        for server in fabric.sorted_servers():
            rails = affinity_rails(fabric, server.id)
            for nic in server.nics:
                rail = rails.get(nic.index)
                if nic.rail != rail:
                    fabric.set_nic_rail(nic.id, rail)
                    changed += 1
    return changed
