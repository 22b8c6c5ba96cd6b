"""YAML text for bundle files: block style, keys in the order given (or sorted), no aliases, byte for
byte what PyYAML writes with ``default_flow_style=False, allow_unicode=True, width=1000``.

PyYAML builds a node per value in Python even with libyaml's C emitter (~13 us a value: 7 s for a
4,096-server lab file). Bundle documents are dicts, lists, short strings, ints, bools and None, so
`dump` writes them directly: a string is written plain when PyYAML's own resolver reads it back
as a string and it holds only characters that never need quoting in block context; any other
scalar is formatted by PyYAML itself, one scalar at a time; a document with a scalar or shape whose
text could depend on where it stands (long or multi-line strings, long keys, other types) goes
to PyYAML whole. tests/export/test_yamldump.py holds the two writers to the same bytes.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

_Base = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_OPTIONS = {"default_flow_style": False, "allow_unicode": True, "width": 1000}
_STR_TAG = "tag:yaml.org,2002:str"
_RESOLVER = yaml.resolver.Resolver()
# First characters the resolver has implicit types for (bools, numbers, null...); any other first
# character reads back as a string (unless some resolver is registered for every first character).
_TYPED_FIRST = frozenset(_RESOLVER.yaml_implicit_resolvers)
_ANY_FIRST = None in _TYPED_FIRST
# Printable ASCII that PyYAML's emitter writes plain in block context: no indicator at the start, no
# "#", no "- " or a lone "-" at the start, no ": " or "  " or trailing ":" / " " (a run of safe
# characters after every space or colon).
_SAFE = r"[A-Za-z0-9_./=@+,()~$%-]"
_PLAIN = re.compile(rf"(?:[A-Za-z0-9_./+~(]|-(?={_SAFE})){_SAFE}*(?:[ :]{_SAFE}+)*").fullmatch
_BREAK = re.compile("[\r\x85\u2028\u2029]")   # line breaks to YAML besides "\n"
_LONGEST = 200           # longer strings might be folded at width 1000 depending on their column
_LONGEST_KEY = 127       # PyYAML writes longer keys as "? key"


class _Dumper(_Base):
    def ignore_aliases(self, data):
        return True


class _Whole(Exception):
    """This document goes to PyYAML as a whole."""


def _pyyaml(data: Any, sort_keys: bool) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=sort_keys, **_OPTIONS)


class _Writer:
    def __init__(self, sort_keys: bool):
        self.sort_keys = sort_keys
        self.values: dict = {}            # string -> its text as a value
        self.keys: dict = {}              # string -> its text as a mapping key
        self.lines: list[str] = []

    def value(self, v) -> str:
        kind = type(v)
        if kind is str:
            text = self.values.get(v)
            if text is None:
                text = self.values[v] = self._string(v)
            return text
        if kind is bool:
            return "true" if v else "false"
        if kind is int:
            return str(v)
        if v is None:
            return "null"
        if kind is dict and not v:
            return "{}"
        if kind is list and not v:
            return "[]"
        if kind is float:
            return self._alone(v)
        raise _Whole

    def _string(self, s: str) -> str:
        if len(s) > _LONGEST:
            raise _Whole
        if _PLAIN(s) and not s.startswith(("---", "...")) and (
                not _ANY_FIRST and s[0] not in _TYPED_FIRST or _RESOLVER.resolve(yaml.ScalarNode, s, (True, False)) == _STR_TAG):
            return s
        return self._alone(s)

    def _alone(self, v) -> str:
        """PyYAML's text for one scalar as a sequence item; refused when it takes more than one line."""
        text = _pyyaml([v], False)
        if not text.startswith("- ") or text.count("\n") != 1 or _BREAK.search(text):
            raise _Whole
        return text[2:-1]

    def key(self, k) -> str:
        if type(k) is not str:
            if type(k) in (int, bool) or k is None:
                return self.value(k)
            raise _Whole
        text = self.keys.get(k)
        if text is None:
            if not 0 < len(k) <= _LONGEST_KEY:
                raise _Whole
            text = self.value(k)
            if text != k:                             # quoted: ask PyYAML how it writes it as a key
                text = _pyyaml({k: None}, False)
                if text.startswith("?") or text.count("\n") != 1 or _BREAK.search(text) or not text.endswith(": null\n"):
                    raise _Whole
                text = text[:-len(": null\n")]
            self.keys[k] = text
        return text

    def block(self, data, indent: int, lead: str) -> None:
        """``data`` (a non-empty dict or list) as block lines, the first starting with ``lead``."""
        if indent > 100:
            raise _Whole
        pad, append, value = " " * indent, self.lines.append, self.value
        if type(data) is dict:
            items = data.items()
            if self.sort_keys:
                try:
                    items = sorted(items)
                except TypeError:                     # as PyYAML does: mixed key types stay in order
                    pass
            start = lead
            for k, v in items:
                kind = type(v)
                if v and kind is dict:
                    append(f"{start}{self.key(k)}:")
                    self.block(v, indent + 2, pad + "  ")
                elif v and kind is list:
                    append(f"{start}{self.key(k)}:")
                    self.block(v, indent, pad)
                else:
                    append(f"{start}{self.key(k)}: {value(v)}")
                start = pad
        else:
            start = lead + "- "
            for item in data:
                kind = type(item)
                if item and (kind is dict or kind is list):
                    self.block(item, indent + 2, start)
                else:
                    append(start + value(item))
                start = pad + "- "


def dump(data: Any, sort_keys: bool = False) -> str:
    """``data`` as YAML, exactly as PyYAML writes it with this module's options."""
    if data and type(data) in (dict, list):
        writer = _Writer(sort_keys)
        try:
            writer.block(data, 0, "")
            return "\n".join(writer.lines) + "\n"
        except _Whole:
            pass
    return _pyyaml(data, sort_keys)
