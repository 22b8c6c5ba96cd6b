"""Adding and removing devices (one, or servers in bulk, cabled and addressed)."""

from __future__ import annotations

from ...model.entities import Server, Switch
from ...model.fabric import Fabric
from ...planning.bulk import rail_cabling
from ...planning.link_addressing import address_switches, restore
from .base import FabricCommand
from .cables import RecableCommand


class AddDeviceCommand(FabricCommand):
    """Add a server or a switch; a switch gets its loopback and ASN as a built one would."""

    def __init__(self, fabric: Fabric, device: Server | Switch):
        super().__init__(fabric, f"Add {device.id}")
        self.device = device
        self.addressing = None

    def apply(self) -> None:
        if isinstance(self.device, Server):
            self.fabric.add_server(self.device)
            return
        self.fabric.add_switch(self.device)
        try:
            self.addressing = address_switches(self.fabric, [self.device.id])
            self.problems = self.addressing.problems
        except Exception:
            self.fabric.remove_device(self.device.id)
            raise

    def revert(self) -> None:
        if isinstance(self.device, Switch):
            restore(self.fabric, self.addressing, {self.device.id: None})
        self.fabric.remove_device(self.device.id)


class RemoveDeviceCommand(FabricCommand):
    """Delete a device with its cables, addresses and ASN; undo puts every one of them back as it was."""

    def __init__(self, fabric: Fabric, device_id: str):
        super().__init__(fabric, f"Delete {device_id}")
        self.device_id = device_id
        self.removed = self.plan = None

    def apply(self) -> None:
        self.plan = self.fabric.plan_of(self.device_id)
        self.removed = self.fabric.remove_device(self.device_id)

    def revert(self) -> None:
        f = self.fabric
        device, links = self.removed
        addresses, asn = self.plan
        with f.batch():
            (f.add_server if isinstance(device, Server) else f.add_switch)(device)
            for link in links:
                f.connect(link.a, link.b)
            for key, (cidr, pinned) in addresses.items():
                f.set_address(key, cidr, pinned)
            if asn is not None:
                f.set_asn(device.id, *asn)


class AddServersCommand(FabricCommand):
    """Add servers and (``cable``) cable every rail NIC of theirs onto a leaf of its rail, as one step."""

    def __init__(self, fabric: Fabric, servers, cable: bool = True):
        super().__init__(fabric, f"Add {len(servers)} servers")
        self.servers, self.cable = list(servers), cable
        self.recable: RecableCommand | None = None

    def apply(self) -> None:
        f = self.fabric
        added = []
        with f.batch():
            try:
                for server in self.servers:
                    f.add_server(server)
                    added.append(server.id)
                if self.cable:
                    plan = rail_cabling(f, [n.id for s in self.servers for n in s.nics if n.rail is not None])
                    self.problems = plan.problems
                    self.recable = RecableCommand(f, [(nic, *port.split("/", 1)) for nic, port in plan.steps])
                    self.recable.apply()
                    self.problems += self.recable.problems
            except Exception:
                for server_id in reversed(added):
                    f.remove_device(server_id)
                raise

    def revert(self) -> None:
        with self.fabric.batch():
            if self.recable is not None:
                self.recable.revert()
            for server in reversed(self.servers):
                self.fabric.remove_device(server.id)
