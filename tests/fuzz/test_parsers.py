"""Every parser, fed arbitrary text and arbitrary JSON/YAML structure (hypothesis), either reads it or
raises its own readable error: never another exception."""

from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.export.aid_import import AidError, load_aid_text
from designer.importers.affinity import parse_topo
from designer.importers.errors import ImportFormatError
from designer.importers.lldp import parse_lldp
from designer.importers.nicnames import read_nic_names
from designer.storage import FileFormatError, loads
from designer.storage.catalog_file import builtin_catalog

CATALOG = builtin_catalog()
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-(2 ** 70), 2 ** 70), st.floats(allow_nan=False),
                   st.text(max_size=12), st.sampled_from(["lldp", "interface", "chassis", "port", "id", "value",
                                                          "name", "descr", "format_version", "switches", "devices"]))
TREES = st.recursive(LEAVES, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                   st.dictionaries(st.text(max_size=8) | st.sampled_from(
                                                       ["lldp", "interface", "name", "port", "chassis", "id"]),
                                                       kids, max_size=4)), max_leaves=25)
TEXT = st.one_of(st.text(max_size=300), st.binary(max_size=300).map(lambda b: b.decode("utf-8", "replace")))

PARSERS = {
    "design": (lambda t: loads(t, "f.yaml"), FileFormatError),
    "aid": (lambda t: load_aid_text(t, "f.json", CATALOG), AidError),
    "topo": (lambda t: parse_topo(t, source="f.txt"), ImportFormatError),
    "nicnames": (lambda t: read_nic_names([("f.txt", t)]), ImportFormatError),
    "lldp": (lambda t: parse_lldp(t, "f.json"), ImportFormatError),
}


@pytest.mark.parametrize("kind", sorted(PARSERS))
@settings(max_examples=80, deadline=None)
@given(text=TEXT)
def test_arbitrary_text_is_read_or_refused_readably(kind, text):
    parse, error = PARSERS[kind]
    try:
        parse(text)
    except error as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 1000


@pytest.mark.parametrize("kind, dump", [("lldp", json.dumps), ("aid", json.dumps),
                                        ("design", lambda d: yaml.safe_dump(d)), ("lldp", lambda d: json.dumps(
                                            {"lldp": d}))])
@settings(max_examples=80, deadline=None)
@given(tree=TREES)
def test_arbitrary_structure_is_read_or_refused_readably(kind, dump, tree):
    parse, error = PARSERS[kind]
    try:
        parse(dump(tree))
    except error as exc:
        assert len(str(exc)) < 1000
