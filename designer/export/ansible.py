"""The ``ansible`` part: ``ansible/inventory.yml`` (from the design) and ``ansible/site.yml`` (the playbook;
its switch commands come from `deploy.SWITCH_STEPS`, the same steps README.txt and NOTES.txt print).

Groups: ``gpu_servers``, ``leaves``, ``spines`` and ``rail_<k>`` (the servers with a NIC on rail k
and the leaves of rail k). A three-tier design adds ``cores`` and ``spine_group_<g>`` (the leaves
and spines of spine group g); a multi-plane design adds ``fabric_plane_<p>`` (the switches of plane
p and the servers with a NIC port on it). Inventory host names are the devices' host names. Host
variables point into the bundle: ``host_dir: hosts/<hostname>`` or ``switch_dir:
switches/<hostname>``, relative to ``bundle_dir`` (the bundle root, one folder above the inventory);
switches also carry ``group`` and ``fabric_plane`` where the design has them. The switch play runs
on every switch group the inventory has (`switch_groups`).
"""

from __future__ import annotations

from ..model.entities import Role
from ..model.fabric import Fabric
from ..resources import templates_dir
from .deploy import playbook
from .names import checked_hostname
from .parts import Files, Part
from .yamldump import dump


def rail_group(rail: int) -> str:
    return f"rail_{rail}"


def switch_groups(fabric: Fabric) -> list[str]:
    """The inventory groups that hold switches: the hosts of the playbook's switch play."""
    return ["leaves", "spines"] + (["cores"] if fabric.cores() else [])


def _switch_vars(fabric: Fabric, switch, name: str, **fields) -> dict:
    out = {"switch_dir": f"switches/{name}", **fields}
    if switch.group is not None:
        out["group"] = switch.group
    if fabric.settings.fabric_planes > 1:
        out["fabric_plane"] = switch.fabric_plane
    return out


def inventory(fabric: Fabric) -> dict:
    rails: dict[int, dict] = {}
    planes: dict[int, dict] = {}
    groups: dict[int, dict] = {}
    servers = {}
    for server in fabric.sorted_servers():
        name = checked_hostname(server)
        servers[name] = {"host_dir": f"hosts/{name}", "su": server.su}
        for nic in server.nics:
            if nic.rail is not None and fabric.peer(nic.id) is not None:
                rails.setdefault(nic.rail, {})[name] = None
                planes.setdefault(nic.fabric_plane, {})[name] = None
    leaves = {}
    for leaf in fabric.leaves():
        name = checked_hostname(leaf)
        leaves[name] = _switch_vars(fabric, leaf, name, su=leaf.su, rail=leaf.rail)
        rails.setdefault(leaf.rail, {})[name] = None
    spines = {}
    for spine in fabric.spines():
        name = checked_hostname(spine)
        spines[name] = _switch_vars(fabric, spine, name, plane=spine.plane)
    cores = {}
    for core in fabric.cores():
        name = checked_hostname(core)
        cores[name] = _switch_vars(fabric, core, name)
    for switch in fabric.leaves() + fabric.spines() + fabric.cores():
        planes.setdefault(switch.fabric_plane, {})[switch.hostname] = None
        if switch.group is not None and switch.role is not Role.CORE:
            groups.setdefault(switch.group, {})[switch.hostname] = None
    children = {"gpu_servers": {"hosts": servers}, "leaves": {"hosts": leaves}, "spines": {"hosts": spines}}
    if cores:
        children["cores"] = {"hosts": cores}
    for rail in sorted(rails):
        children[rail_group(rail)] = {"hosts": rails[rail]}
    for group in sorted(groups):
        children[f"spine_group_{group}"] = {"hosts": groups[group]}
    if fabric.settings.fabric_planes > 1:
        for plane in sorted(planes):
            children[f"fabric_plane_{plane}"] = {"hosts": planes[plane]}
    return {"all": {"vars": {"bundle_dir": "{{ inventory_dir }}/.."}, "children": children}}


def render_inventory(fabric: Fabric) -> str:
    header = "# Ansible inventory for a rail-designer bundle; use with site.yml in this folder.\n"
    return header + dump(inventory(fabric), sort_keys=True)


def render_global(fabric: Fabric) -> Files:
    return {
        "ansible/inventory.yml": render_inventory(fabric),
        "ansible/site.yml": playbook((templates_dir() / "ansible" / "site.yml").read_text(encoding="utf-8"),
                                     switch_groups(fabric)),
    }


PARTS: list[Part] = [
    Part(name="ansible", description="Ansible inventory (groups per role and per rail; cores, spine groups and fabric "
                                     "planes where the design has them) and site.yml that deploys the bundle",
         render_global=render_global, refused_by=frozenset({"RD010"}),               # the inventory's host names
         apply="cd ansible && ansible-playbook -i inventory.yml site.yml "
               "(-e host_network=policy-routing to use the iproute2 script instead of netplan; "
               "-e rail_action=diff for the switches' dry run, -e rail_action=rollback to restore their last backup)"),
]

