"""config_db.json's layout: orjson's fast path writes exactly what the json-module formatter writes,
for any CONFIG_DB-shaped document, and hands back every document it cannot write the same way."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from designer.export.config_db import _formatted, _one_line_entries, config_db
from designer.export.switch_data import switch_data
from designer.planning.build import build
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset
from tests.export.shapes import NEW_SHAPES, new_shape


def reference(db: dict[str, dict]) -> str:
    """The layout written out long-hand: tables and keys sorted, an entry per line as json.dumps writes it."""
    tables = []
    for name in sorted(db):
        entries = [f"    {json.dumps(key)}: {json.dumps(db[name][key], sort_keys=True)}" for key in sorted(db[name])]
        tables.append(f"  {json.dumps(name)}: {{\n" + "".join(e + "\n" for e in [",\n".join(entries)] if entries)
                      + "  }")
    return "{\n" + ",\n".join(tables) + "\n}\n"


# Any text, tilted towards what could fool a text-level rewrite of JSON: quotes, backslashes, line
# breaks and indentation, separators, brackets, DEL and non-ASCII.
TRICKY = st.lists(st.sampled_from(list('",:[]{} \n\\\x7f\x00\té\u2028') + ["a", "Ethernet0", "    "]),
                  max_size=8).map("".join)
TEXT = st.one_of(st.text(max_size=12), TRICKY)
FLAT = st.dictionaries(TEXT, st.one_of(TEXT, st.lists(TEXT, max_size=4)), max_size=5)
DEEP = st.dictionaries(TEXT, st.one_of(TEXT, st.lists(TEXT, max_size=3), FLAT,
                                       st.lists(st.lists(TEXT, max_size=2), max_size=2)), max_size=4)
ASCII = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=12)
ASCII_FLAT = st.dictionaries(ASCII, st.one_of(ASCII, st.lists(ASCII, max_size=4)), max_size=5)


def documents(entries):
    return st.dictionaries(TEXT, st.dictionaries(TEXT, entries, max_size=4), min_size=1, max_size=4)


@settings(max_examples=120, deadline=None)
@given(documents(st.one_of(FLAT, DEEP)))
def test_both_writers_agree_with_the_layout_or_the_fast_one_declines(db):
    assert _formatted(db) == reference(db)
    fast = _one_line_entries(db)
    assert fast is None or fast == reference(db)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(ASCII, st.dictionaries(ASCII, ASCII_FLAT, max_size=4), min_size=1, max_size=4))
def test_the_fast_writer_takes_every_flat_ascii_document(db):
    """CONFIG_DB's own shape (printable ASCII, entries of strings and lists of strings) never falls back."""
    assert _one_line_entries(db) == reference(db)


def test_fast_writer_declines_what_it_would_write_differently():
    assert _one_line_entries({"T": {"k": {"a": "é"}}}) is None          # orjson writes UTF-8, json \u00e9
    assert _one_line_entries({"T": {"k": {"a": "\x7f"}}}) is None       # json escapes DEL, orjson does not
    assert _one_line_entries({"T": {"k": {"a": {"b": "c"}}}}) is None    # an object inside an entry
    assert _one_line_entries({"T": {"k": {"a": [["b"]]}}}) is None       # a list inside a list
    assert _one_line_entries({"T": {"k": ["a"]}}) is None                # an entry that is not an object


def test_every_switch_of_real_designs_takes_the_fast_writer():
    fabrics = [build(load_preset(p).spec(), builtin_catalog()) for p in ("default", "rail-optimized-64x4")]
    fabrics += [new_shape(name) for name in NEW_SHAPES]
    for fabric in fabrics:
        for switch_id in fabric.switches:
            db = config_db(switch_data(fabric, switch_id))
            assert _one_line_entries(db) == reference(db), switch_id

