"""The ``scheduler`` part: the fabric's tree for topology-aware job placement.

``scheduler/topology.conf``: Slurm's topology/tree (a switch per SU over its servers, then the spine
tier or the spine groups and the cores; `scheduler_data` says why the SU is the lowest level).
``scheduler/node-labels.yaml`` and ``scheduler/label-nodes.sh``: the same tree as Kubernetes node
labels under the names NVIDIA's topograph writes (``network.topology.nvidia.com/block``, ``spine``,
``datacenter``), so that Kueue, KAI or Run:ai place pods by it without discovering it again.
No ``accelerator`` label: the design's servers keep NVLink inside the server, so there is no
multi-node NVLink domain to name.
"""

from __future__ import annotations

from ..model.entities import ETHERNET, INFINIBAND
from ..model.fabric import Fabric
from .env import render
from .hostlist import compress
from .parts import Files, Part
from .scheduler_data import Tree, tree
from .yamldump import dump

LABELS = ("network.topology.nvidia.com/block", "network.topology.nvidia.com/spine",
          "network.topology.nvidia.com/datacenter")


def topology_conf(fabric: Fabric, found: Tree) -> str:
    notes = []
    if found.uncabled:
        notes.append(f"Not in any switch (no NIC cabled to a leaf): {compress(list(found.uncabled))}")
    roots = found.roots()
    if len(roots) + (found.top is not None) > 1:
        notes.append(f"Not cabled to the tier above, so a tree of its own each (Slurm does not span jobs "
                     f"across trees): {', '.join(roots)}")
    return render("scheduler/topology.conf.j2", name=fabric.settings.name, rails=len(fabric.rails), notes=notes,
                  blocks=[{"name": b.name, "nodes": compress(list(b.hostnames))} for b in found.blocks],
                  groups=[{"name": g, "children": ",".join(children)} for g, children in found.groups],
                  top={"name": found.top[0], "children": ",".join(found.top[1])} if found.top else None)


def node_labels(found: Tree) -> dict[str, dict[str, str]]:
    """Kubernetes node name (the host name in lower case, as the kubelet registers it) -> its labels."""
    labels = {}
    for block in found.blocks:
        values = (block.name, block.above, found.top_of(block) if found.groups else None)
        for hostname in block.hostnames:
            labels[hostname.lower()] = {key: value for key, value in zip(LABELS, values) if value}
    return labels


def render_scheduler(fabric: Fabric) -> Files:
    found = tree(fabric)
    labels = node_labels(found)
    lines = [" ".join([node, *(values.get(key, "-") for key in LABELS)]) for node, values in labels.items()]
    header = (f"# Kubernetes node labels for design '{fabric.settings.name}' (rail-designer), under topograph's "
              "names; label-nodes.sh sets them.\n")
    return {
        "scheduler/topology.conf": topology_conf(fabric, found),
        "scheduler/node-labels.yaml": header + dump({"nodes": labels}),
        "scheduler/label-nodes.sh": render("scheduler/label-nodes.sh.j2", name=fabric.settings.name,
                                           keys=LABELS, wanted="\n".join(lines)),
    }


PARTS: list[Part] = [
    Part("scheduler", "the fabric's tree for job placement: Slurm's topology.conf (topology/tree, a switch per SU) "
         "and Kubernetes node labels under topograph's names (node-labels.yaml, label-nodes.sh)",
         render_global=render_scheduler, default=False, kinds=frozenset({ETHERNET, INFINIBAND}),
         apply="Slurm: copy scheduler/topology.conf beside slurm.conf (keep the old one), set "
               "TopologyPlugin=topology/tree, `scontrol reconfigure`; Kubernetes: `scheduler/label-nodes.sh "
               "--dry-run`, then without it (`--rollback` undoes)"),
]
