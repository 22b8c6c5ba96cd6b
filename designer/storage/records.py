"""The design file's device lists (``switches:``, ``servers:``) read and written without PyYAML's machinery.

They hold nearly all of a design file's YAML (at 4,096 servers about 22,000 of its 23,000 lines besides
the tables), and PyYAML builds a node, two marks and a Python-level tag resolution for every scalar of
them: most of the time `load` spent before reading a single field. `save` writes them in one regular
shape, a block list of block mappings whose keys and values are plain words::

    servers:
    - id: su1-srv01
      model: hgx-h100-8x400g
      su: 1
      nics:
        nic3:
          rail: 5

`read` takes exactly that shape and nothing else: every line must be a ``key: word`` or ``key:`` (with
a mapping two columns deeper on the next line) at a column the list allows, with no key twice in one
mapping, and every word must be one PyYAML reads as itself: a decimal whole number without leading
zeros, or a word that none of PyYAML's implicit resolvers (bool, null, int, float, timestamp) claims.
Such lines mean the same to any YAML reader, so the values are PyYAML's. `write` writes lists of that
kind the way `yamlio.dump` does, byte for byte, and leaves any other document to it. Anything else (a comment, a
quoted or flow value, a tab, another indentation, a Windows line end, an empty list) leaves the
section to PyYAML, and so does a whole file whose remaining YAML does not parse, has the section twice
or runs a quoted or flow value across it: PyYAML's answer (and its located errors) is the rule.
"""

from __future__ import annotations

import re
from typing import Any

from .yamlio import FileFormatError, dump, parse, parse_with_spans, resolvers

SECTIONS = ("switches", "servers")
_LINE = re.compile(r"( *)(- )?([A-Za-z0-9][A-Za-z0-9_.-]{0,99}):(?: ([A-Za-z0-9][A-Za-z0-9_.-]*))?")
_KEY_MAX = 100                             # PyYAML writes keys of 128 characters or more as '? key'
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_INT = re.compile(r"0|[1-9][0-9]{0,9}")
_END = re.compile(r"\n(?!- | )")          # the first line that is neither a list entry nor indented
_DEPTH = 4                                # a record, its nics, one NIC, (room for one more)
_UNSURE = object()
_RESOLVERS = resolvers()


def read(text: str, file: str) -> Any:
    """The design document ``text`` as plain data, as `yamlio.parse` reads it."""
    found: dict[str, list] = {}
    cuts: list[tuple[int, int]] = []
    for name in SECTIONS:
        header = f"{name}:\n"
        start = 0 if text.startswith(header) else text.find("\n" + header) + 1
        if not start and not text.startswith(header):
            continue                       # not there (find gave -1)
        body = start + len(header)
        end = _END.search(text, body)
        end = end.start() + 1 if end else len(text)
        records = _records(text[body:end].split("\n"))
        if records is not None:
            found[name] = records
            cuts.append((start, end))
    if not found:
        return parse(text, file)
    cuts.sort()
    rest, points, kept = [], [], 0
    for start, end in cuts:
        rest.append(text[kept:start])
        points.append(sum(map(len, rest)))
        kept = end
    rest.append(text[kept:])
    try:
        data, spans = parse_with_spans("".join(rest), file)
    except FileFormatError:
        return parse(text, file)           # its line numbers must be the file's
    if (not isinstance(data, dict) or any(name in data for name in found)
            or any(key < point < value_end for key, value_end in spans for point in points)):
        return parse(text, file)
    data.update(found)
    return data


def _records(lines: list[str]) -> list[dict] | None:
    """The list the section's ``lines`` hold, or None when they are not in the regular shape."""
    if lines and lines[-1] == "":
        lines.pop()
    records: list[dict] = []
    stack: list[tuple[int, dict]] = []     # (column of its keys, mapping), innermost last
    nested = None                          # the column the next line must have after a ``key:`` line
    for line in lines:
        match = _LINE.fullmatch(line)
        if match is None:
            return None
        indent, dash, key, value = match.groups()
        if dash:
            if indent or nested is not None:
                return None
            stack = [(2, {})]
            records.append(stack[0][1])
        else:
            column = len(indent)
            if nested is not None and column != nested:
                return None
            while stack and stack[-1][0] > column:
                stack.pop()
            if not stack or stack[-1][0] != column:
                return None
        nested = None
        column, mapping = stack[-1]
        key = _word(key)
        if key is _UNSURE or key in mapping:
            return None
        if value is None:
            if len(stack) >= _DEPTH:
                return None
            mapping[key] = child = {}
            nested = column + 2
            stack.append((nested, child))
        else:
            value = _word(value)
            if value is _UNSURE:
                return None
            mapping[key] = value
    return records if records and nested is None else None


def _word(token: str):
    """The value PyYAML gives the plain scalar ``token``, or _UNSURE when it is not a plain string or int."""
    if _INT.fullmatch(token):
        return int(token)
    for regexp in _RESOLVERS.get(token[0], ()):
        if regexp.match(token):
            return _UNSURE
    return token


def write(doc: dict) -> str:
    """``doc`` as `yamlio.dump` writes it: its device lists (its last keys) directly when every key and
    value is a word `read` takes back as itself, the rest (or all of it) by PyYAML."""
    if list(doc)[-len(SECTIONS):] != list(SECTIONS):
        return dump(doc)
    out: list[str] = []
    for name in SECTIONS:
        items = doc[name]
        if not isinstance(items, list) or not items:
            return dump(doc)
        out.append(f"{name}:\n")
        for record in items:
            if not isinstance(record, dict) or not _write_entries(record, out, "- ", 2):
                return dump(doc)
    return dump({key: value for key, value in doc.items() if key not in SECTIONS}) + "".join(out)


def _write_entries(mapping: dict, out: list[str], prefix: str, column: int) -> bool:
    if not mapping or column > 2 * _DEPTH:
        return False
    for key, value in mapping.items():
        key = _as_word(key)
        if key is None or len(key) > _KEY_MAX:
            return False
        if isinstance(value, dict):
            out.append(f"{prefix}{key}:\n")
            if not _write_entries(value, out, " " * (column + 2), column + 2):
                return False
        else:
            value = _as_word(value)
            if value is None:
                return False
            out.append(f"{prefix}{key}: {value}\n")
        prefix = " " * column
    return True


def _as_word(value) -> str | None:
    """How a key or value is written when `read` takes it back as itself, else None."""
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value)
        return text if _INT.fullmatch(text) else None
    if isinstance(value, str) and _WORD.fullmatch(value) and _word(value) == value:
        return value
    return None
