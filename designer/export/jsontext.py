"""JSON laid out for people and diffs: the shallow levels one item per line, everything from a given depth
down on its item's line, each such line exactly as ``json.dumps(item)`` writes it (``", "`` and ``": "``,
ASCII with ``\\uXXXX`` escapes). config_db.json (an entry per line) is written this way.

orjson writes the indented form several times faster than the json module. Both write the same indented
text for such documents (strings, lists, objects, ints, booleans, null; no floats, which orjson formats its
own way), except that orjson writes bytes above 0x7E raw: such a document goes through ``json.dumps(indent=2)``
instead. In indented JSON a raw line break stands only between tokens (inside strings it is escaped), and
its indentation says the depth, so joining the deep lines is a text substitution that can never touch a
string.
"""

from __future__ import annotations

import json

import orjson


def json_text(value, depth: int, sort_keys: bool = False) -> str:
    """``value`` as JSON whose containers ``depth`` levels down (0: the value itself) are written on one line."""
    text = orjson.dumps(value, option=orjson.OPT_INDENT_2 | (orjson.OPT_SORT_KEYS if sort_keys else 0))
    if not text.isascii() or b"\x7f" in text:
        text = json.dumps(value, indent=2, sort_keys=sort_keys).encode()
    return _joined(text, depth).decode()


def _joined(text: bytes, depth: int) -> bytes:
    """Join every line indented deeper than the items at ``depth`` onto the line above, from the deepest
    level up: after a comma the break becomes json.dumps' ", ", after an opening bracket or before a
    closing one it goes; then the items' own closing brackets come up onto their lines."""
    top = 2 * depth + 2
    deepest = top
    while b"\n" + b" " * (deepest + 2) in text:
        deepest += 2
    for indent in range(deepest, top - 1, -2):
        pad = b"\n" + b" " * indent
        text = text.replace(b"," + pad, b", ").replace(pad, b"")
    closer = b"\n" + b" " * (top - 2)
    return text.replace(closer + b"}", b"}").replace(closer + b"]", b"]")
