"""A switch's running CONFIG_DB against the bundle's config_db.json, table by table.

What the bundle owns (`OWNERSHIP`), decided once:

- ``whole``: every key of the table is the bundle's; a key the bundle lacks is drift (DR002). Routed
  interfaces, loopbacks and VLANs: a factory ``Vlan1000`` or a hand-made interface address beside the
  bundle's is a second config the switch runs.
- ``empty``: the bundle writes no rows and wants none (``BGP_NEIGHBOR``: bgpcfgd would render each
  row into FRR on top of frr.conf).
- ``maps``: only the bundle's keys (the map names) are compared, but each of them field for field
  both ways: an entry added to the bundle's DSCP_TO_TC_MAP is drift, SONiC's own AZURE map is not.
- ``keys`` (every other table the bundle writes): only the bundle's keys and the fields it sets are
  compared; the switch's own keys and fields (other ports' QUEUE rows, hwsku, mac) are not drift.
- ``ACL_RULE``: the rules of the bundle's ACL tables are owned whole, except the PPD agent's
  ``PIN_`` rules (compared with the pins, `ppd`); rules of other ACL tables are the switch's.

Tables the bundle does not write (BUFFER_*, MGMT_*, FEATURE ...) are never compared.
"""

from __future__ import annotations

import json

from .findings import DriftFinding

OWNERSHIP: dict[str, str] = {
    "INTERFACE": "whole", "LOOPBACK_INTERFACE": "whole", "VLAN": "whole", "VLAN_MEMBER": "whole",
    "VLAN_INTERFACE": "whole", "BGP_NEIGHBOR": "empty",
    "DSCP_TO_TC_MAP": "maps", "TC_TO_PRIORITY_GROUP_MAP": "maps", "TC_TO_QUEUE_MAP": "maps",
    "MAP_PFC_PRIORITY_TO_QUEUE": "maps", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": "maps",
    "ACL_RULE": "rules of the bundle's ACL tables, but the agent's PIN_ rules",
}
DEFAULT = "keys"
PIN_PREFIX = "PIN_"


def ownership(table: str) -> str:
    return OWNERSHIP.get(table, DEFAULT)


def _text(value) -> str:
    return json.dumps(value, sort_keys=True) if not isinstance(value, str) else value


def _same(want, have) -> bool:
    if isinstance(want, list) and isinstance(have, list):        # ports of an ACL table: a set to SONiC
        return sorted(map(str, want)) == sorted(map(str, have))
    return want == have


def agent_rule(key: str, acl_tables: set[str]) -> bool:
    table, _, name = key.partition("|")
    return table in acl_tables and name.startswith(PIN_PREFIX)


def _owned_extra(table: str, key: str, acl_tables: set[str]) -> bool:
    """Whether a key the bundle lacks, found in ``table``, is drift."""
    mode = ownership(table)
    if mode in ("whole", "empty"):
        return True
    if table == "ACL_RULE":
        return key.partition("|")[0] in acl_tables and not agent_rule(key, acl_tables)
    return False


def compare_config_db(device: str, ours: dict, running: dict) -> list[DriftFinding]:
    """DR001 missing keys, DR002 extra keys in owned tables, DR003 changed (or missing, or in a map extra)
    fields, in table and key order."""
    out: list[DriftFinding] = []
    acl_tables = set(ours.get("ACL_TABLE", {}))
    tables = sorted(set(ours) | {t for t, mode in OWNERSHIP.items() if mode == "empty"})
    for table in tables:
        want_table = ours.get(table, {})
        have_table = running.get(table) or {}
        for key in sorted(want_table):
            name = f"{table}|{key}"
            if key not in have_table:
                out.append(DriftFinding("DR001", device, name, f"{name} is not in CONFIG_DB",
                                        _text(want_table[key]), None))
                continue
            want, have = want_table[key] or {}, have_table[key] or {}
            fields = set(want) | (set(have) if ownership(table) == "maps" else set())
            for f in sorted(fields):
                if not _same(want.get(f), have.get(f)):
                    shown_want = None if f not in want else _text(want[f])
                    shown_have = None if f not in have else _text(have[f])
                    out.append(DriftFinding("DR003", device, name,
                                            f"{name} {f}: {shown_have or 'not set'} on the switch, "
                                            f"{shown_want or 'not set'} in the bundle", shown_want, shown_have))
        for key in sorted(k for k in have_table if k not in want_table):
            if _owned_extra(table, key, acl_tables):
                name = f"{table}|{key}"
                out.append(DriftFinding("DR002", device, name, f"{name} is in CONFIG_DB, not in the bundle "
                                        f"({table} is the bundle's: {ownership(table)})",
                                        None, _text(have_table[key])))
    return out
