"""The bundle parts this package renders: ``switches``, ``ppd`` and ``cabling``."""

from __future__ import annotations

from ..model.fabric import Fabric
from ..model.ids import natural_key
from ..planning.topology import leaf_links
from .cabling import cable_rows, cabling_csv, topology_dot
from .config_db import config_db_json
from .deploy import steps_text, switch_global_files
from .env import render
from .parts import Files, Part
from .errors import require_hostname
from .ppd_csv import ppd_csv
from .ppd_data import leaf_ppd_data
from .switch_data import switch_data


def switch_ids(fabric: Fabric) -> list[str]:
    return sorted(fabric.switches, key=natural_key)


def leaf_ids_with_ppd(fabric: Fabric) -> list[str]:
    """Leaves that have uplinks (a rail-only leaf has no path to pin)."""
    return [leaf.id for leaf in fabric.leaves() if leaf_links(fabric, leaf.id).uplinks]


def render_switch(fabric: Fabric, switch_id: str) -> Files:
    sw = switch_data(fabric, switch_id)
    folder = f"switches/{sw['hostname']}"
    return {
        f"{folder}/config_db.json": config_db_json(sw),
        f"{folder}/frr.conf": render("frr/main.j2", sw=sw),
        f"{folder}/NOTES.txt": render("sonic/notes.j2", sw=sw, steps=steps_text(sw["hostname"])),
    }


def render_ppd(fabric: Fabric, leaf_id: str) -> Files:
    hostname = require_hostname(fabric.switches[leaf_id].hostname, leaf_id)
    ppd = leaf_ppd_data(fabric, leaf_id, hostname, local=[])   # the CSV lists pins only
    return {f"ppd/{hostname}.csv": ppd_csv(ppd)} if ppd else {}


def render_cabling(fabric: Fabric) -> Files:
    rows = cable_rows(fabric)
    return {"cabling.csv": cabling_csv(rows), "topology.dot": topology_dot(rows)}


PARTS: list[Part] = [
    Part("switches", "SONiC config_db.json (merged, never reloaded), FRR frr.conf and NOTES.txt per switch; "
                     "rail-switch-apply.py does every change on a switch (dry run, apply, rollback)",
         devices=switch_ids, render_device=render_switch, render_global=lambda fabric: switch_global_files(),
         apply="on each switch, in this order (the Ansible playbook runs the same commands):\n"
               + steps_text(indent=" " * 16)),
    Part("ppd", "each leaf's proactive path plan: downlink, source, uplink, spine, next hop",
         devices=leaf_ids_with_ppd, render_device=render_ppd,
         apply="reference only: each leaf's PPD agent installs these pins at run time (see the leaf's NOTES.txt)"),
    Part("cabling", "cabling.csv (one row per cable, switch by switch) and topology.dot (Cumulus PTM)",
         render_global=render_cabling,
         apply="cable from cabling.csv switch by switch; verify with `rail-designer verify DESIGN --lldp DIR`"),
]
