"""The ``sim`` part: the fabric for the simulators that answer performance questions.

``sim/simai-topology.txt``: SimAI's topology file, as its generator writes it (a header line: nodes,
GPUs per server, NVSwitches, other switches, links, GPU type; a line of the switch nodes' numbers;
then ``src dst bandwidth latency error-rate`` per link). ``sim/simai-nodes.csv`` maps its node
numbers to the design's devices. ``sim/astra-sim-network.yml``: ASTRA-sim's analytical network, one
dimension per level (NVSwitch, rail leaf, spines, cores), when the fabric is one regular shape.
Neither simulator runs here; `sim_data` says how the design maps onto them.
"""

from __future__ import annotations

from ..model.entities import ETHERNET, INFINIBAND
from ..model.fabric import Fabric
from .csvtext import csv_text
from .parts import Files, Part
from .sim_data import SIMAI_DEFAULTS, SimTopology, astra_dimensions, simai_topology


def simai_text(topo: SimTopology) -> str:
    """The file as SimAI's gen_Topo_Template.py lays it out (its second line ends with a space)."""
    nvswitches = sum(1 for n in topo.nodes if n.kind == "nvswitch")
    switches = [n.number for n in topo.nodes if n.kind != "gpu"]
    lines = [f"{len(topo.nodes)} {topo.gpus_per_server} {nvswitches} {len(switches) - nvswitches} "
             f"{len(topo.links)} {topo.gpu_type}",
             "".join(f"{n} " for n in switches)]
    error = SIMAI_DEFAULTS["error_rate"]
    lines += [f"{l.a} {l.b} {l.bandwidth} {l.latency} {error}" for l in topo.links]
    return "\n".join(lines) + "\n"


def astra_yaml(fabric: Fabric, dims: list[dict]) -> str:
    head = [f"# ASTRA-sim analytical network for design '{fabric.settings.name}' (rail-designer): "
            + " x ".join(f"{d['npus']} ({d['what']})" for d in dims),
            "# Bandwidth is per GPU and direction; NVLink and latencies are SimAI's generator defaults."]
    def row(key: str) -> str:
        return ", ".join(format(d[key], "g") if isinstance(d[key], float) else str(d[key]) for d in dims)
    body = [f"topology: [ {row('topology')} ]", f"npus_count: [ {row('npus')} ]",
            f"bandwidth: [ {row('bandwidth')} ]  # GB/s", f"latency: [ {row('latency')} ]  # ns"]
    return "\n".join(head + body) + "\n"


def render_sim(fabric: Fabric) -> Files:
    topo = simai_topology(fabric)
    rows = [(n.number, n.kind, n.device, n.detail) for n in topo.nodes]
    files = {"sim/simai-topology.txt": simai_text(topo),
             "sim/simai-nodes.csv": csv_text(["node", "kind", "device", "detail"], rows)}
    dims = astra_dimensions(fabric, topo)
    if dims:
        files["sim/astra-sim-network.yml"] = astra_yaml(fabric, dims)
    notes = [f"SimAI: {len(topo.nodes)} nodes, {len(topo.links)} links; intra-server figures are SimAI's "
             f"defaults ({', '.join(f'{k} {v}' for k, v in SIMAI_DEFAULTS.items())})."]
    notes.append("ASTRA-sim: " + ("astra-sim-network.yml" if "sim/astra-sim-network.yml" in files else
                                  f"not written: {topo.irregular or 'no servers'} (its dimensions need one regular "
                                  "shape)") + ". Neither simulator was run on these files by rail-designer.")
    files["sim/README.txt"] = "\n".join(notes) + "\n"
    return files


PARTS: list[Part] = [
    Part("sim", "the fabric for simulators: SimAI's topology file (with a node map) and ASTRA-sim's analytical "
         "network YAML", render_global=render_sim, default=False, kinds=frozenset({ETHERNET, INFINIBAND}),
         apply="SimAI: pass sim/simai-topology.txt as the topology (-n); ASTRA-sim: "
               "--network-configuration=sim/astra-sim-network.yml"),
]
