"""SONiC's YANG models, loaded with libyang, seen as CONFIG_DB tables.

SONiC's convention (sonic-buildimage, SONiC_YANG_Model_Guidelines): every module that maps to
CONFIG_DB has one top-level container named like the module, and each config-true container
under it is one CONFIG_DB table. A table container holds either lists (the usual case: one list
``<TABLE>_LIST``, or several lists told apart by their number of keys), or containers keyed by
a fixed name (``DEVICE_METADATA|localhost``), or leaves. This module turns that schema into small
plain descriptions (`TableSchema`, `ListSchema`, `Field`) that the translator walks, so libyang's
schema nodes are read once per table and never during translation.

libyang is imported here only, lazily: the rest of the project runs without it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DesignerError

# JSON encodings of YANG values (RFC 7951 section 6): which Python type a value must become.
NUMBER, STRING, BOOLEAN, EMPTY = "number", "string", "boolean", "empty"
_NUMBER_TYPES = {"int8", "int16", "int32", "uint8", "uint16", "uint32"}   # 64-bit ones are strings


class YangUnavailable(DesignerError):
    """The libyang bindings or the model folder cannot be used; the message says how to fix it."""


@dataclass(frozen=True)
class Field:
    """One leaf or leaf-list: its name, the JSON encodings its type allows, and whether it is a list."""
    name: str
    encodings: tuple[str, ...]
    leaf_list: bool = False


@dataclass
class ListSchema:
    name: str
    keys: tuple[Field, ...]
    fields: dict[str, Field]
    containers: dict[str, "ContainerSchema"]
    inner: "ListSchema | None" = None         # set for a map list (DSCP_TO_TC_MAP: name -> {dscp: tc})


@dataclass
class ContainerSchema:
    name: str
    lists: list[ListSchema] = field(default_factory=list)
    containers: dict[str, "ContainerSchema"] = field(default_factory=dict)
    fields: dict[str, Field] = field(default_factory=dict)


@dataclass(frozen=True)
class TableSchema:
    table: str
    module: str
    container: ContainerSchema

    @property
    def json_key(self) -> tuple[str, str]:
        """The two keys its data sits under: ``module:top`` then ``top:TABLE``."""
        return f"{self.module}:{self.module}", f"{self.module}:{self.table}"


def _libyang():
    try:
        import libyang
    except ImportError as exc:
        raise YangUnavailable("the libyang Python bindings are not installed: install libyang2-dev (Debian) and "
                              f"`pip install 'libyang>=2.7,<2.8'` ({exc})") from None
    return libyang


def _encodings(ytype) -> tuple[str, ...]:
    """The JSON encodings a value of this type may take, most specific first."""
    out: list[str] = []
    for name in ytype.basenames():        # leafrefs and unions resolved to their member base types
        enc = NUMBER if name in _NUMBER_TYPES else BOOLEAN if name == "boolean" else EMPTY if name == "empty" \
            else STRING
        if enc not in out:
            out.append(enc)
    return tuple(out) or (STRING,)


class Models:
    """The compiled models of one folder, and the table descriptions derived from them."""

    def __init__(self, yang_dir: str | os.PathLike):
        ly = _libyang()
        self.dir = Path(yang_dir)
        files = sorted(self.dir.glob("*.yang")) if self.dir.is_dir() else []
        if not files:
            raise YangUnavailable(f"no SONiC YANG models (*.yang) in {self.dir}; on a switch they are in "
                                  "/usr/local/yang-models, or give the folder with --yang-dir")
        self._ly = ly
        # Compile once, after every module is in: compiled one by one, a module's `when`/`must`
        # that reads a module not loaded yet would be skipped for good (libyang warns and drops it).
        self.ctx = ly.Context(str(self.dir), explicit_compile=True)
        try:
            for path in files:
                self.ctx.load_module(path.stem)
            self.ctx.compile_schema()
        except ly.LibyangError as exc:
            raise YangUnavailable(f"{self.dir}: libyang cannot compile these models: {exc}") from None
        self.modules = [p.stem for p in files]
        self._tables: dict[str, tuple[str, object]] | None = None
        self._plans: dict[str, TableSchema] = {}

    def table_names(self) -> dict[str, tuple[str, object]]:
        """CONFIG_DB table name -> (module name, table container schema node)."""
        if self._tables is None:
            ly, tables = self._ly, {}
            for name in self.modules:
                module = self.ctx.get_module(name)
                top = next(iter(module.children(types=(ly.SNode.CONTAINER,))), None)
                if top is None or top.name() != name or top.config_false():
                    continue
                for table in top.children(types=(ly.SNode.CONTAINER,)):
                    if not table.config_false():
                        tables[table.name()] = (name, table)
            self._tables = tables
        return self._tables

    def table(self, name: str) -> TableSchema | None:
        if name not in self._plans:
            found = self.table_names().get(name)
            if found is None:
                return None
            self._plans[name] = TableSchema(name, found[0], self._container(found[1]))
        return self._plans[name]

    # Reading libyang's schema nodes into the plain descriptions above.

    def _fields(self, snode) -> dict[str, Field]:
        ly = self._ly
        out = {}
        for child in snode.children(types=(ly.SNode.LEAF, ly.SNode.LEAFLIST)):
            out[child.name()] = Field(child.name(), _encodings(child.type()), isinstance(child, ly.SLeafList))
        return out

    def _container(self, snode) -> ContainerSchema:
        ly = self._ly
        return ContainerSchema(
            name=snode.name(),
            lists=[self._list(c) for c in snode.children(types=(ly.SNode.LIST,))],
            containers={c.name(): self._container(c) for c in snode.children(types=(ly.SNode.CONTAINER,))},
            fields=self._fields(snode))

    def _list(self, snode) -> ListSchema:
        ly = self._ly
        fields = self._fields(snode)
        keys = tuple(fields.pop(k.name()) for k in snode.keys())
        inner_lists = list(snode.children(types=(ly.SNode.LIST,)))
        containers = {c.name(): self._container(c) for c in snode.children(types=(ly.SNode.CONTAINER,))}
        inner = None
        # A map table: each entry's fields are the inner list's (key, value) pairs.
        if len(inner_lists) == 1 and not fields and not containers:
            inner = self._list(inner_lists[0])
        return ListSchema(snode.name(), keys, fields, containers, inner)
