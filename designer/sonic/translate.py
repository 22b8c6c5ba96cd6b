"""CONFIG_DB JSON (``config_db.json``) -> SONiC's YANG JSON (RFC 7951), the shape libyang validates.

The project's own implementation of SONiC's translation rules (sonic-yang-mgmt ``_xlateConfigDB``):

- a table becomes ``"<module>:<module>": {"<module>:<TABLE>": ...}``;
- a table entry ``"a|b"`` goes to the first list of the table whose key count matches and that has
  every field of the entry; its key parts become the list's key leaves, in order;
- a map table (``DSCP_TO_TC_MAP``: ``{"ROCE": {"26": "3"}}``) becomes the outer list's name key
  plus one inner-list entry per (field, value) pair;
- an entry named like a container of the table (``DEVICE_METADATA|localhost``) fills that container;
- CONFIG_DB values are strings; each becomes the JSON encoding its YANG type takes (numbers for
  8..32-bit integers, true/false for booleans, ``[null]`` for empty, strings otherwise); a union
  takes a number when the text is an integer and a member is numeric;
- a few leaf-lists are one delimited string in CONFIG_DB (`STRING_LISTS`).

What cannot be translated (no model for the table, no list for a key, an unknown field) is
returned as `Problem`s, never raised, so a lint reports every one of them at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .schema import BOOLEAN, EMPTY, NUMBER, ContainerSchema, Field, ListSchema, Models

# Leaf-lists that CONFIG_DB keeps as one delimited string: (table, field) -> delimiter.
STRING_LISTS = {
    ("MIRROR_SESSION", "src_ip"): ",",
    ("NTP", "src_intf"): ";",
    ("BGP_ALLOWED_PREFIXES", "prefixes_v4"): ",",
    ("BGP_ALLOWED_PREFIXES", "prefixes_v6"): ",",
    ("BUFFER_PORT_EGRESS_PROFILE_LIST", "profile_list"): ",",
    ("BUFFER_PORT_INGRESS_PROFILE_LIST", "profile_list"): ",",
    ("PORT", "adv_speeds"): ",",
    ("PORT", "adv_interface_types"): ",",
}
_INTEGER = re.compile(r"^-?[0-9]+\Z")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one CONFIG_DB object: ``table``, entry ``key`` ('' for the whole table),
    ``field`` ('' for the whole entry) and a readable message."""
    table: str
    key: str
    field: str
    message: str

    @property
    def where(self) -> str:
        return "|".join(p for p in (self.table, self.key) if p) + (f" field {self.field}" if self.field else "")


def _typed(f: Field, text):
    """A CONFIG_DB string as the JSON value its YANG type takes."""
    text = str(text)
    first = f.encodings[0]
    if NUMBER in f.encodings and _INTEGER.match(text):
        return int(text)
    if first == BOOLEAN and text in ("true", "false"):
        return text == "true"
    if first == EMPTY:
        return [None]
    return text


class _Entry:
    """Translating one table of one config: collects problems as it goes."""

    def __init__(self, table: str, problems: list[Problem]):
        self.table, self.problems = table, problems

    def problem(self, key: str, field: str, message: str) -> None:
        self.problems.append(Problem(self.table, key, field, message))

    def value(self, f: Field, raw, key: str):
        if f.leaf_list:
            delimiter = STRING_LISTS.get((self.table, f.name))
            if isinstance(raw, str) and delimiter:
                raw = [part.strip() for part in raw.split(delimiter)] if raw else []
            if not isinstance(raw, list):
                self.problem(key, f.name, "is a list in SONiC's YANG model; write it as a JSON list of strings")
                return None
            return [_typed(f, item) for item in raw if item != ""]
        if isinstance(raw, (list, dict)):
            self.problem(key, f.name, "is a single value in SONiC's YANG model, not a list or object")
            return None
        return _typed(f, raw)

    def fields(self, fields: dict[str, Field], containers: dict[str, ContainerSchema], entry: dict,
               key: str, out: dict) -> None:
        for name, raw in entry.items():
            if name in containers and isinstance(raw, dict):
                inner: dict = {}
                self.container_entry(containers[name], raw, key, inner)
                out[name] = inner
            elif name in fields:
                value = self.value(fields[name], raw, key)
                if value is not None:
                    out[name] = value

    def container_entry(self, schema: ContainerSchema, entry: dict, key: str, out: dict) -> None:
        unknown = [n for n in entry if n not in schema.fields and n not in schema.containers]
        for name in unknown:
            self.problem(key, name, f"is not a field of {self.table} in SONiC's YANG model")
        self.fields(schema.fields, schema.containers, entry, key, out)

    def list_entry(self, schema: ListSchema, key: str, entry) -> dict:
        row = {k.name: _typed(k, part.strip()) for k, part in zip(schema.keys, key.split("|"))}
        if schema.inner is not None:
            inner_key, inner_value = schema.inner.keys[0], next(iter(schema.inner.fields.values()))
            row[schema.inner.name] = [{inner_key.name: _typed(inner_key, k), inner_value.name: _typed(inner_value, v)}
                                      for k, v in entry.items()]
        else:
            for name in entry:
                if name not in schema.fields and name not in schema.containers:
                    self.problem(key, name, f"is not a field of {self.table} in SONiC's YANG model")
            self.fields(schema.fields, schema.containers, entry, key, row)
        return row


def _pick(lists: list[ListSchema], key: str, entry: dict) -> ListSchema | None:
    """The list an entry belongs to: the first whose key count matches and that knows every field,
    else the first whose key count matches (its unknown fields are then reported one by one)."""
    parts = len(key.split("|"))
    shaped = [s for s in lists if len(s.keys) == parts]
    for schema in shaped:
        if schema.inner is not None or all(n in schema.fields or n in schema.containers for n in entry):
            return schema
    return shaped[0] if shaped else None


def translate_table(schema_table, table: str, entries: dict, problems: list[Problem]) -> dict:
    """One CONFIG_DB table -> the content of its YANG table container."""
    tr = _Entry(table, problems)
    container: ContainerSchema = schema_table.container
    out: dict = {}
    if not isinstance(entries, dict):
        tr.problem("", "", "must be a JSON object of entries")
        return out
    lists = container.lists
    if len(lists) == 1 and lists[0].name != f"{table}_LIST":
        lists = []                        # SONiC only fills a lone list named <TABLE>_LIST
    for key, entry in entries.items():
        if not isinstance(entry, dict):
            tr.problem(key, "", "must be a JSON object of fields")
        elif key in container.containers:
            inner: dict = {}
            tr.container_entry(container.containers[key], entry, key, inner)
            out[key] = inner
        elif key in container.fields:
            tr.problem(key, "", "is a leaf of this table in SONiC's YANG model, not an entry")
        else:
            schema = _pick(lists, key, entry)
            if schema is None:
                shapes = " or ".join("|".join(k.name for k in s.keys) for s in lists)
                tr.problem(key, "", f"is not an entry SONiC's YANG model allows in {table}"
                                    + (f" (its keys are {shapes})" if shapes else ""))
                continue
            out.setdefault(schema.name, []).append(tr.list_entry(schema, key, entry))
    return out


def translate(models: Models, config: dict) -> tuple[dict, list[Problem]]:
    """A whole CONFIG_DB JSON object -> (YANG JSON, problems). Tables without a model are problems."""
    yang: dict = {}
    problems: list[Problem] = []
    for table, entries in config.items():
        schema = models.table(table)
        if schema is None:
            problems.append(Problem(table, "", "", f"has no YANG model in {models.dir}; SONiC cannot validate "
                                                   "it (a misspelt table name, or a table this SONiC lacks)"))
            continue
        top, inner = schema.json_key
        yang.setdefault(top, {})[inner] = translate_table(schema, table, entries, problems)
    return yang, problems
