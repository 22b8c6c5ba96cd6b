"""Indented JSON for bundle files: ``json.dumps(data, indent=2, sort_keys=True)`` byte for byte.

With ``indent`` the json module encodes in Python (its C encoder only writes compact JSON): 0.25 s
for the 4,096-server monitoring files. orjson writes the same layout in C (OPT_INDENT_2, keys
sorted by code point like json's), and its text is used only where it cannot differ: orjson writes
bytes above 0x7E raw where json escapes them, NaN and infinities as ``null``, floats from 1e16
up with its own exponent form and floats below 1e-4 in decimals where json writes an exponent, so
any output holding a non-ASCII byte, a DEL, a ``null``, a digit followed by ``e`` / ``E`` or
``0.0000`` goes to the json module instead (a string that merely contains such text only costs the
slower path). Documents orjson refuses (non-string keys, integers past 64 bits) go there too. tests/export/test_jsondump.py holds both to the same bytes.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

_OPTIONS = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS
_EXPONENT = re.compile(rb"[0-9][eE]").search


def _may_differ(text: bytes) -> bool:
    return not text.isascii() or b"\x7f" in text or b"null" in text or b"0.0000" in text or bool(_EXPONENT(text))


def indented(data: Any) -> str:
    """``json.dumps(data, indent=2, sort_keys=True)``."""
    try:
        text = orjson.dumps(data, option=_OPTIONS)
    except TypeError:
        text = None
    if text is None or _may_differ(text):
        return json.dumps(data, indent=2, sort_keys=True)
    return text.decode()
