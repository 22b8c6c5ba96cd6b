"""The ``lab`` part: ``lab/<name>.clab.yml``, the fabric as a containerlab topology.

- Switches: ``linux`` nodes on the FRR image, running the bundle's own ``switches/<host>/frr.conf``
  (bind-mounted, never re-rendered here) with ``lab/frr-daemons`` (zebra, bgpd, pbrd, staticd).
  SONiC keeps addresses in CONFIG_DB, not in frr.conf, so each switch node's ``exec`` adds the
  addresses the bundle's config_db.json holds (loopback, routed ports, the server VLAN as a bridge
  for subnet-per-leaf), from the same stage-1 data (`switch_data`), and turns on forwarding.
- Hosts: ``linux`` nodes with the bundle's ``hosts/<host>/`` mounted at ``/etc/rail-designer``;
  ``exec`` runs its ``policy-routing.sh`` and loads its ``sysctl.conf``.
- Links: one veth per cable of ``cabling.csv``, named as on the real devices (SONiC port names,
  host netdevs), MTU 9100 as on the switch ports.
- Three tiers and planes: cores are switch nodes like the others (group ``core``); switches carry
  ``rail-designer.group`` and ``rail-designer.fabric-plane`` labels where the design has them. A
  multi-plane fabric stays one lab: its servers hold a port on every plane, so the planes share
  those nodes and nothing else.

``clab deploy -t lab/<name>.clab.yml`` from the bundle folder brings it up on one machine; a fabric
larger than one machine goes through containerlab's Kubernetes runtime, clabernetes
(``clabverter`` converts this file into its resources). Images are plain defaults (`FRR_IMAGE`,
`HOST_IMAGE`); use a lab's ``kinds`` section to change them.
"""

from __future__ import annotations

from ..model.entities import SWITCH_PORT_MTU
from ..model.fabric import Fabric
from ..model.ids import natural_key, split_endpoint
from .hosts import HOST_FILES_REFUSED_BY
from .names import checked_hostname, design_stem
from .parts import Files, Part
from .switch_data import switch_data
from .switches import SWITCH_CONFIGS_REFUSED_BY
from .yamldump import dump

FRR_IMAGE = "quay.io/frrouting/frr:10.2.1"
HOST_IMAGE = "ghcr.io/srl-labs/network-multitool:latest"
LINK_MTU = SWITCH_PORT_MTU
HOST_DIR = "/etc/rail-designer"
DAEMONS = "frr-daemons"
FRR_DAEMONS = ("zebra", "bgpd", "pbrd", "staticd")


def lab_name(fabric: Fabric) -> str:
    """containerlab's name pattern: letters, digits, '-', '.', '_', starting with a letter or digit."""
    return design_stem(fabric.settings.name)


def switch_exec(sw: dict) -> list[str]:
    """The commands that give a Linux router the addresses SONiC keeps in CONFIG_DB."""
    out = ["sysctl -w net.ipv4.ip_forward=1", "ip link set lo up", f"ip address add {sw['loopback']} dev lo"]
    cabled = [p["name"] for p in sw["ports"] if p["cabled"]]
    out += [f"ip link set dev {name} mtu {sw['mtu']} up" for name in cabled]
    out += [f"ip address add {i['address']} dev {i['port']}" for i in sw["interfaces"]]
    vlan = sw["vlan"]
    if vlan:
        out.append(f"ip link add {vlan['name']} type bridge")
        out += [f"ip link set dev {member} master {vlan['name']}" for member in vlan["members"]]
        out += [f"ip link set dev {vlan['name']} mtu {sw['mtu']} up", f"ip address add {vlan['address']} dev {vlan['name']}"]
    return out


def topology(fabric: Fabric) -> dict:
    nodes: dict[str, dict] = {}
    hostnames: dict[str, str] = {}           # device id -> its (checked) host name, for the links
    for switch_id in sorted(fabric.switches, key=natural_key):
        sw = switch_data(fabric, switch_id)
        host = hostnames[switch_id] = sw["hostname"]
        labels = {"rail-designer.role": sw["role"], "rail-designer.id": switch_id}
        if sw["group"] is not None:
            labels["rail-designer.group"] = str(sw["group"])
        if fabric.settings.fabric_planes > 1:
            labels["rail-designer.fabric-plane"] = str(sw["fabric_plane"])
        nodes[host] = {"kind": "linux", "image": FRR_IMAGE, "group": sw["role"], "labels": labels,
                       "binds": [f"../switches/{host}/frr.conf:/etc/frr/frr.conf:ro",
                                 f"{DAEMONS}:/etc/frr/daemons:ro"],
                       "exec": switch_exec(sw)}
    for server in fabric.sorted_servers():
        host = hostnames[server.id] = checked_hostname(server)
        nodes[host] = {"kind": "linux", "image": HOST_IMAGE, "group": "gpu_server",
                       "labels": {"rail-designer.role": "gpu_server", "rail-designer.id": server.id},
                       "binds": [f"../hosts/{host}:{HOST_DIR}:ro"],
                       "exec": [f"bash {HOST_DIR}/policy-routing.sh", f"sysctl -p {HOST_DIR}/sysctl.conf"]}
    links = [{"endpoints": [_endpoint(fabric, hostnames, link.a), _endpoint(fabric, hostnames, link.b)],
              "mtu": LINK_MTU} for link in fabric.sorted_links()]
    return {"name": lab_name(fabric), "topology": {"nodes": nodes, "links": links}}


def _endpoint(fabric: Fabric, hostnames: dict[str, str], ep: str) -> str:
    device, port = split_endpoint(ep)
    return f"{hostnames[device]}:{port if device in fabric.switches else fabric.nic(ep).netdev}"


def daemons_file() -> str:
    lines = ["# FRR daemons for the lab's switch nodes (the bundle's frr.conf needs bgpd and pbrd)."]
    lines += [f"{d}=yes" for d in FRR_DAEMONS]
    lines += ["vtysh_enable=yes", 'zebra_options="  -A 127.0.0.1 -s 90000000"', 'bgpd_options="   -A 127.0.0.1"',
              'pbrd_options="   -A 127.0.0.1"', 'staticd_options="-A 127.0.0.1"']
    return "\n".join(lines) + "\n"


def render_global(fabric: Fabric) -> Files:
    name = lab_name(fabric)
    head = (f"# containerlab topology of '{fabric.settings.name}', generated by rail-designer.\n"
            f"# Deploy from the bundle folder: sudo containerlab deploy -t lab/{name}.clab.yml\n"
            "# Larger than one machine: convert it for clabernetes (containerlab on Kubernetes) with\n"
            f"#   clabverter -t lab/{name}.clab.yml --stdout | kubectl apply -f -\n")
    body = dump(topology(fabric))
    return {f"lab/{name}.clab.yml": head + body, f"lab/{DAEMONS}": daemons_file()}


PARTS: list[Part] = [
    Part(name="lab", description="containerlab topology: FRR nodes with the bundle's frr.conf, Linux hosts "
                                 "with its host files, links from the cabling",
         render_global=render_global, refused_by=SWITCH_CONFIGS_REFUSED_BY | HOST_FILES_REFUSED_BY,   # runs both
         apply="sudo containerlab deploy -t lab/<name>.clab.yml from the bundle folder; for large fabrics "
               "convert it with clabverter for clabernetes"),
]
