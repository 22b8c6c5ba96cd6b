"""The bundle parts this package renders: ``switches`` and ``cabling`` (``ppd`` is in `ppd`)."""

from __future__ import annotations

from ..model.entities import FABRIC_KINDS
from ..model.fabric import Fabric
from ..model.ids import natural_key
from .cabling import cable_rows, cabling_csv, columns, topology_dot
from .config_db import config_db, config_db_text
from .deploy import steps_text, switch_global_files
from .csvtext import csv_text
from .env import render
from .lossless_notes import buffer_notes
from .floor_data import BOM_COLUMNS, bom_rows
from .parts import Files, Part
from .switch_data import switch_data


def switch_ids(fabric: Fabric) -> list[str]:
    return sorted(fabric.switches, key=natural_key)


def render_switch(fabric: Fabric, switch_id: str) -> Files:
    sw = switch_data(fabric, switch_id)
    folder = f"switches/{sw['hostname']}"
    db = config_db(sw)
    return {
        f"{folder}/config_db.json": config_db_text(db),
        f"{folder}/frr.conf": render("frr/main.j2", sw=sw),
        f"{folder}/NOTES.txt": render("sonic/notes.j2", sw=sw, steps=steps_text(sw["hostname"]),
                                      buffers=buffer_notes(sw["model"], db)),
    }


def render_bom(fabric: Fabric) -> Files:
    rows = bom_rows(fabric)
    return {"bom.csv": csv_text(BOM_COLUMNS, [[row[c] for c in BOM_COLUMNS] for row in rows])} if rows else {}


def render_cabling(fabric: Fabric) -> Files:
    rows = cable_rows(fabric)
    return {"cabling.csv": cabling_csv(rows, columns(fabric)), "topology.dot": topology_dot(rows)}


# host names (RD010), NIC addresses, ASNs, loopbacks, gateways and port addresses the configs are built
# from (RD013, RD015, RD025), port names (RD027), the PPD ACL's room (RD028), NICs above the leaves (RD032)
SWITCH_CONFIGS_REFUSED_BY = frozenset({"RD010", "RD013", "RD015", "RD025", "RD027", "RD028", "RD032"})

PARTS: list[Part] = [
    Part("switches", "SONiC config_db.json (merged, never reloaded), FRR frr.conf and NOTES.txt per switch; "
                     "rail-switch-apply.py does every change on a switch (dry run, apply, rollback)",
         devices=switch_ids, render_device=render_switch, render_global=lambda fabric: switch_global_files(),
         refused_by=SWITCH_CONFIGS_REFUSED_BY,
         apply="on each switch, in this order (the Ansible playbook runs the same commands):\n"
               + steps_text(indent=" " * 16)),
    Part("cabling", "cabling.csv (one row per cable, switch by switch) and topology.dot (Cumulus PTM)",
         render_global=render_cabling, refused_by=frozenset({"RD010", "RD027"}),      # host and port names
         kinds=frozenset(FABRIC_KINDS),
         apply="cable from cabling.csv switch by switch; verify with `rail-designer verify DESIGN --lldp DIR`"),
    Part("bom", "bom.csv: the cables, transceivers and fibres to buy, per part number with per-rack counts and "
                "prices from the catalogue (designs with a floor only)",
         render_global=render_bom, kinds=frozenset(FABRIC_KINDS),
         apply="order from bom.csv; cabling.csv names each cable's length, media and parts"),
]
