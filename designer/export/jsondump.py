"""Indented JSON for bundle files: ``json.dumps(data, indent=2, sort_keys=True)`` byte for byte
(`indented`), and the layout with every container from a given depth down on its item's line
(`deep_on_one_line`, config_db.json: an entry per line).

With ``indent`` the json module encodes in Python (its C encoder only writes compact JSON): 0.25 s
for the 4,096-server monitoring files. orjson writes the same layout in C (OPT_INDENT_2, keys
sorted by code point like json's), and its text is used only where it cannot differ: orjson writes
bytes above 0x7E raw where json escapes them, NaN and infinities as ``null``, floats from 1e16
up with its own exponent form and floats below 1e-4 in decimals where json writes an exponent, so
any output holding a non-ASCII byte, a DEL, a ``null``, a digit followed by ``e`` / ``E`` or
``0.0000`` goes to the json module instead (a string that merely contains such text only costs the
slower path). Documents orjson refuses (non-string keys, integers past 64 bits) go there too.
tests/export/test_jsondump.py holds both to the same bytes.

In indented JSON a raw line break stands only between tokens (inside strings it is escaped), and its
indentation says the depth, so joining the deep lines is a text substitution that never touches a
string; each joined line is then what ``json.dumps(item)`` writes (``", "`` and ``": "``).
tests/export/test_config_db_format.py holds it to that layout written out long-hand.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

_EXPONENT = re.compile(rb"[0-9][eE]").search


def _may_differ(text: bytes) -> bool:
    return not text.isascii() or b"\x7f" in text or b"null" in text or b"0.0000" in text or bool(_EXPONENT(text))


def _indented(data: Any, sort_keys: bool) -> bytes:
    try:
        text = orjson.dumps(data, option=orjson.OPT_INDENT_2 | (orjson.OPT_SORT_KEYS if sort_keys else 0))
    except TypeError:
        text = None
    if text is None or _may_differ(text):
        return json.dumps(data, indent=2, sort_keys=sort_keys).encode()
    return text


def indented(data: Any, sort_keys: bool = True) -> str:
    """``json.dumps(data, indent=2, sort_keys=sort_keys)``."""
    return _indented(data, sort_keys).decode()


def deep_on_one_line(data: Any, depth: int, sort_keys: bool = True) -> str:
    """``data`` indented, with the containers ``depth`` levels down (0: ``data`` itself) each on one line."""
    return _joined(_indented(data, sort_keys), depth).decode()


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
