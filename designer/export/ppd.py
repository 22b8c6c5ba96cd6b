"""The ``ppd`` bundle part: each leaf's path plan (``ppd/<leaf>.csv``), the pins its agent installs
(``switches/<leaf>/ppd-pins.json``) and the agent itself (``ppd/rail-ppd-agent.py``, one global file).

The agent's source is ``resources/ppd/rail-ppd-agent.py``, copied byte for byte (linted and tested there).
"""

from __future__ import annotations

import json

from ..model.fabric import Fabric
from ..resources import resources_dir
from .errors import require_hostname
from .parts import Files, Part
from .ppd_csv import ppd_csv
from .ppd_data import leaf_ppd_data, links_of, pins_file, server_prefixes
from .switch_data import SERVER_VLAN

AGENT = "ppd/rail-ppd-agent.py"


def agent_source() -> bytes:
    return (resources_dir() / "ppd" / "rail-ppd-agent.py").read_bytes()


def leaf_ids_with_ppd(fabric: Fabric) -> list[str]:
    """Leaves that have uplinks and servers (a rail-only leaf has no path to pin)."""
    out = []
    for leaf in fabric.leaves():
        links = links_of(fabric, leaf.id)
        if links.uplinks and links.downlinks:
            out.append(leaf.id)
    return out


def leaf_pins(fabric: Fabric, leaf_id: str) -> tuple[str, dict, dict] | None:
    """(hostname, the leaf's PPD data, its ppd-pins.json data), or None for a leaf with nothing to pin."""
    hostname = require_hostname(fabric.switches[leaf_id].hostname, leaf_id)
    ppd = leaf_ppd_data(fabric, leaf_id, hostname, server_prefixes(fabric, leaf_id))
    if ppd is None:
        return None
    vlan = None if fabric.settings.addressing.scheme == "p2p31" else f"Vlan{SERVER_VLAN}"
    return hostname, ppd, pins_file(fabric, leaf_id, hostname, ppd, vlan)


def pins_json(pins: dict) -> str:
    """Keys in the data's order; one line per uplink and per pin, so a 64-port leaf's file stays readable."""
    lines = []
    for key, value in pins.items():
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            inner = [f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items()]
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            inner = [f"    {json.dumps(v)}" for v in value]
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
            continue
        opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
        lines.append(f"  {json.dumps(key)}: {opening}\n" + ",\n".join(inner) + f"\n  {closing}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def render_ppd(fabric: Fabric, leaf_id: str) -> Files:
    found = leaf_pins(fabric, leaf_id)
    if found is None:
        return {}
    hostname, ppd, pins = found
    return {f"ppd/{hostname}.csv": ppd_csv(ppd), f"switches/{hostname}/ppd-pins.json": pins_json(pins)}


def render_agent(fabric: Fabric) -> Files:
    return {AGENT: agent_source()} if leaf_ids_with_ppd(fabric) else {}


PARTS: list[Part] = [
    Part("ppd", "proactive path pins: ppd/<leaf>.csv (the plan), switches/<leaf>/ppd-pins.json and "
                "ppd/rail-ppd-agent.py, which installs them on the leaf at run time and moves them on failures",
         devices=leaf_ids_with_ppd, render_device=render_ppd, render_global=render_agent,
         refused_by=frozenset({"RD010", "RD013", "RD025", "RD028", "RD032"}),     # the pins' names and addresses
         apply="on each leaf the deploy installs the agent and the leaf's ppd-pins.json and runs `rail-ppd-agent.py "
               "run --backend sonic --pins FILE` as a service after swss and bgp; `plan` is its dry run, `remove` "
               "its rollback"),
]
