"""The JSON layout of config_db.json (export.jsondump.deep_on_one_line): the indented text with the deep lines joined is
exactly the layout written out long-hand with json.dumps, for any document, on the orjson path and on the
json path alike."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from designer.export.config_db import config_db, config_db_json
from designer.export.jsondump import deep_on_one_line
from designer.export.switch_data import switch_data
from designer.planning.build import build
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset
from tests.export.shapes import NEW_SHAPES, new_shape


def reference(value, depth: int, sort_keys: bool, level: int = 0) -> str:
    """Items one per line down to ``depth``, below that ``json.dumps`` of the whole item."""
    if depth == 0 or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value, sort_keys=sort_keys)
    pad, close = "  " * (level + 1), "  " * level
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {reference(value[k], depth - 1, sort_keys, level + 1)}"
                 for k in (sorted(value) if sort_keys else value)]
        return "{\n" + ",\n".join(items) + f"\n{close}}}"
    return "[\n" + ",\n".join(pad + reference(v, depth - 1, sort_keys, level + 1) for v in value) + f"\n{close}]"


def config_db_layout(db: dict[str, dict]) -> str:
    """config_db.json as it has always been written: an entry per line, an empty table's brace on its own line."""
    tables = []
    for name in sorted(db):
        entries = [f"    {json.dumps(key)}: {json.dumps(db[name][key], sort_keys=True)}" for key in sorted(db[name])]
        tables.append(f"  {json.dumps(name)}: {{\n" + "".join(e + "\n" for e in [",\n".join(entries)] if entries)
                      + "  }")
    return "{\n" + ",\n".join(tables) + "\n}\n"


# Any text, tilted towards what could fool a text-level rewrite of JSON: quotes, backslashes, line breaks
# and indentation, separators, brackets, DEL and non-ASCII (which orjson writes raw, so json writes it).
TRICKY = st.lists(st.sampled_from(list('",:[]{} \n\\\x7f\x00\té\u2028') + ["a", "Ethernet0", "    ", ",\n  "]),
                  max_size=8).map("".join)
TEXT = st.one_of(st.text(max_size=10), TRICKY)
SCALARS = st.one_of(TEXT, st.integers(-2 ** 63, 2 ** 63 - 1), st.booleans(), st.none())
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(TEXT, inner, max_size=4)), max_leaves=24)
ASCII = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=10)


@settings(max_examples=150, deadline=None)
@given(VALUES, st.integers(0, 3), st.booleans())
def test_json_text_is_the_long_hand_layout(value, depth, sort_keys):
    assert deep_on_one_line(value, depth, sort_keys) == reference(value, depth, sort_keys)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(ASCII, st.dictionaries(ASCII, st.dictionaries(ASCII, st.one_of(ASCII, st.lists(ASCII)),
                                                                     max_size=4), max_size=4), min_size=1, max_size=4))
def test_config_db_shaped_documents(db):
    assert deep_on_one_line(db, 2, sort_keys=True) + "\n" == reference(db, 2, True) + "\n"


def test_every_switch_of_real_designs_keeps_its_layout():
    fabrics = [build(load_preset(p).spec(), builtin_catalog()) for p in ("default", "rail-optimized-64x4",
                                                                        "rail-only-32x4")]
    fabrics += [new_shape(name) for name in NEW_SHAPES]
    empty_tables = 0
    for fabric in fabrics:
        for switch_id in fabric.switches:
            sw = switch_data(fabric, switch_id)
            db = config_db(sw)
            empty_tables += sum(not entries for entries in db.values())
            assert config_db_json(sw) == config_db_layout(db), switch_id
    assert empty_tables                     # rail-only leaves route nothing: an empty INTERFACE table
