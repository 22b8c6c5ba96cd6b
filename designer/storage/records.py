"""The design file's device lists (``switches:``, ``servers:``) read without composing them as YAML.

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
Such lines mean the same to any YAML reader, so the values are PyYAML's. Anything else (a comment, a
quoted or flow value, a tab, another indentation, a Windows line end, an empty list) leaves the
section to PyYAML, and so does a whole file whose remaining YAML does not parse, has the section twice
or runs a quoted or flow value across it: PyYAML's answer (and its located errors) is the rule.
"""

from __future__ import annotations

import re
from typing import Any

from .yamlio import FileFormatError, parse, parse_with_spans, resolvers

SECTIONS = ("switches", "servers")
_LINE = re.compile(r"( *)(- )?([A-Za-z0-9][A-Za-z0-9_.-]*):(?: ([A-Za-z0-9][A-Za-z0-9_.-]*))?")
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
