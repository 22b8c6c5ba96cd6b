"""The ``ansible`` part: ``ansible/inventory.yml`` (from the design) and ``ansible/site.yml`` (the playbook;
its switch commands come from `deploy.SWITCH_STEPS`, the same steps README.txt and NOTES.txt print).

Groups: ``gpu_servers``, ``leaves``, ``spines`` and ``rail_<k>`` (the servers with a NIC on rail k
and the leaves of rail k). Inventory host names are the devices' host names. Host variables
point into the bundle: ``host_dir: hosts/<hostname>`` or ``switch_dir: switches/<hostname>``,
relative to ``bundle_dir`` (the bundle root, one folder above the inventory).
"""

from __future__ import annotations

import yaml

from ..model.fabric import Fabric
from ..resources import templates_dir
from .deploy import playbook
from .names import checked_hostname
from .parts import Files, Part

_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def rail_group(rail: int) -> str:
    return f"rail_{rail}"


def inventory(fabric: Fabric) -> dict:
    rails: dict[int, dict] = {}
    servers = {}
    for server in fabric.sorted_servers():
        name = checked_hostname(server)
        servers[name] = {"host_dir": f"hosts/{name}", "su": server.su}
        for nic in server.nics:
            if nic.rail is not None and fabric.peer(nic.id) is not None:
                rails.setdefault(nic.rail, {})[name] = None
    leaves = {}
    for leaf in fabric.leaves():
        name = checked_hostname(leaf)
        leaves[name] = {"switch_dir": f"switches/{name}", "su": leaf.su, "rail": leaf.rail}
        rails.setdefault(leaf.rail, {})[name] = None
    spines = {}
    for spine in fabric.spines():
        name = checked_hostname(spine)
        spines[name] = {"switch_dir": f"switches/{name}", "plane": spine.plane}
    children = {"gpu_servers": {"hosts": servers}, "leaves": {"hosts": leaves}, "spines": {"hosts": spines}}
    for rail in sorted(rails):
        children[rail_group(rail)] = {"hosts": rails[rail]}
    return {"all": {"vars": {"bundle_dir": "{{ inventory_dir }}/.."}, "children": children}}


def render_inventory(fabric: Fabric) -> str:
    header = "# Ansible inventory for a rail-designer bundle; use with site.yml in this folder.\n"
    body = yaml.dump(inventory(fabric), Dumper=_Dumper, sort_keys=True, default_flow_style=False, width=1000)
    return header + body


def render_global(fabric: Fabric) -> Files:
    return {
        "ansible/inventory.yml": render_inventory(fabric),
        "ansible/site.yml": playbook((templates_dir() / "ansible" / "site.yml").read_text(encoding="utf-8")),
    }


PARTS: list[Part] = [
    Part(name="ansible", description="Ansible inventory (groups per role and per rail) and site.yml that deploys the bundle",
         render_global=render_global,
         apply="cd ansible && ansible-playbook -i inventory.yml site.yml "
               "(-e host_network=policy-routing to use the iproute2 script instead of netplan; "
               "-e rail_action=diff for the switches' dry run, -e rail_action=rollback to restore their last backup)"),
]

