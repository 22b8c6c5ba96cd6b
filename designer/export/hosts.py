"""The ``hosts`` part: per GPU server, ``hosts/<hostname>/`` with netplan, iproute2, sysctl, RoCE and NCCL files.

Stage 1 is `host_data.host_data`; this module only renders its dict through the templates.
"""

from __future__ import annotations

from ..model.fabric import Fabric
from ..resources import templates_dir
from .env import render
from .host_data import NETPLAN_FILE, host_data, server_ids
from .parts import Files, Part

# file name in hosts/<hostname>/ -> template
HOST_FILES = {
    "netplan.yaml": "netplan/rail.yaml.j2",
    "policy-routing.sh": "iproute2/policy-routing.sh.j2",
    "sysctl.conf": "sysctl/rail.conf.j2",
    "roce-qos.sh": "roce/roce-qos.sh.j2",
    "nccl.env": "nccl/nccl.env.j2",
    "rail-dump.sh": "dump/host-dump.sh.j2",
}


def render_host(data: dict) -> dict[str, str]:
    """File name -> text for one host's stage-1 dict."""
    return {name: render(template, netplan_file=NETPLAN_FILE, **data) for name, template in HOST_FILES.items()}


# Units that run the host scripts at every boot (the same for every host, so once per bundle).
HOST_UNITS = ["rail-roce-qos.service", "rail-policy-routing.service"]


def render_units(fabric: Fabric) -> Files:
    return {f"hosts/{unit}": (templates_dir() / "systemd" / unit).read_text(encoding="utf-8") for unit in HOST_UNITS}


def render_device(fabric: Fabric, server_id: str) -> Files:
    data = host_data(fabric, server_id)
    return {f"hosts/{data['hostname']}/{name}": text for name, text in render_host(data).items()}


# host names (RD010), the leaf gateway or /31 partner each NIC routes by (RD015, RD025; none for a NIC
# cabled above the leaves, RD032), interface and RDMA names (RD027), a routing table per NIC port (RD031)
HOST_FILES_REFUSED_BY = frozenset({"RD010", "RD015", "RD025", "RD027", "RD031", "RD032"})

PARTS: list[Part] = [
    Part(
        name="hosts",
        description="per GPU server: netplan, policy-routing.sh, sysctl.conf, roce-qos.sh, nccl.env; "
                    "systemd units that rerun the scripts at every boot; rail-dump.sh writes what the host runs "
                    "for `rail-designer drift`",
        devices=server_ids,
        render_device=render_device,
        render_global=render_units,
        refused_by=HOST_FILES_REFUSED_BY,
        apply="netplan.yaml to /etc/netplan/50-rail.yaml and `netplan apply` (or policy-routing.sh as "
              "/usr/local/sbin/rail-policy-routing.sh with hosts/rail-policy-routing.service enabled); "
              "sysctl.conf to /etc/sysctl.d/60-rail.conf; roce-qos.sh as /usr/local/sbin/rail-roce-qos.sh "
              "with hosts/rail-roce-qos.service enabled (`systemctl enable --now`), so both survive a reboot; "
              "nccl.env as /etc/nccl.conf. The Ansible playbook does exactly this",
    ),
]
