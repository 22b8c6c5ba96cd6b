"""The ``monitoring`` part: ``monitoring/prometheus-targets.json``, a Prometheus ``file_sd`` list.

One entry per device (servers, then leaves, then spines, in natural id order), target
``<hostname>:9100`` (node_exporter). Labels: ``hostname``, ``role`` (gpu_server, leaf, spine),
``su`` and ``rail``. A label holds every value the device carries, comma-separated: a leaf has
one rail, a server has all its rails ("0,1,2,3"), a shared spine the rails of the leaves it
meets; a per-rail spine its plane. Match with e.g. ``rail=~"(.*,)?3(,.*)?"``.
"""

from __future__ import annotations

import json

from ..model.entities import Role
from ..model.fabric import Fabric
from ..model.ids import split_endpoint
from .names import checked_hostname
from .parts import Files, Part

EXPORTER_PORT = 9100


def _join(values) -> str:
    return ",".join(str(v) for v in sorted({v for v in values if v is not None}))


def _spine_reach(fabric: Fabric, spine_id: str) -> tuple[set, set]:
    rails, sus = set(), set()
    for link in fabric.links_of(spine_id):
        other = split_endpoint(link.other(link.a if link.a.startswith(spine_id + "/") else link.b))[0]
        switch = fabric.switches.get(other)
        if switch is not None and switch.role is Role.LEAF:
            rails.add(switch.rail)
            sus.add(switch.su)
    return rails, sus


def targets(fabric: Fabric) -> list[dict]:
    out = []

    def entry(device, role, sus, rails):
        name = checked_hostname(device)
        out.append({"targets": [f"{name}:{EXPORTER_PORT}"],
                    "labels": {"hostname": name, "role": role, "su": _join(sus), "rail": _join(rails)}})

    for server in fabric.sorted_servers():
        entry(server, "gpu_server", [server.su], [n.rail for n in server.nics if fabric.peer(n.id)])
    for leaf in fabric.leaves():
        entry(leaf, "leaf", [leaf.su], [leaf.rail])
    for spine in fabric.spines():
        rails, sus = _spine_reach(fabric, spine.id)
        entry(spine, "spine", sus, [spine.plane] if spine.plane is not None else rails)
    return out


def render_global(fabric: Fabric) -> Files:
    return {"monitoring/prometheus-targets.json": json.dumps(targets(fabric), sort_keys=True, indent=2) + "\n"}


PARTS: list[Part] = [
    Part(name="monitoring", description="Prometheus file_sd targets for every host and switch (labels su, rail, role)",
         render_global=render_global,
         apply="point a Prometheus file_sd_configs entry at monitoring/prometheus-targets.json"),
]
