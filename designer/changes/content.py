"""How one changed bundle file changed: JSON compared as data, text line by line, anything else as bytes.

JSON is additive when every old key path keeps its value and only keys were added (a list is additive
when its old items are still there in their order, with items added); text when every old line is
still there in its order. Anything else is disruptive, and each change says what went or changed.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator

import orjson

from .report import Change

PATH_SEPARATOR = " > "        # between the keys of a JSON path in a change's key ('PORT > Ethernet0 > mtu')


def file_changes(name: str, old: bytes, new: bytes) -> list[Change]:
    """The changes from ``old`` to ``new`` of the file shown as ``name`` (its type from its suffix)."""
    if name.endswith(".json"):
        try:
            before, after = orjson.loads(old), orjson.loads(new)
        except orjson.JSONDecodeError:
            pass                                   # not JSON after all: compare its lines
        else:
            return list(json_changes(name, before, after))
    try:
        return line_changes(name, old.decode("utf-8"), new.decode("utf-8"))
    except UnicodeDecodeError:
        return [Change("binary", name, f"{len(old):,} bytes", f"{len(new):,} bytes", True)]


def line_changes(name: str, old: str, new: str) -> list[Change]:
    """One change for the file: the lines added (additive) when the old lines are all still there in their
    order; else the lines that went and those that came (disruptive), or that the same lines were reordered."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    added = _unmatched(old_lines, new_lines)
    if added is not None:
        return [Change("lines", name, None, added, False)]
    gone = Counter(old_lines) - Counter(new_lines)
    came = Counter(new_lines) - Counter(old_lines)
    if not gone and not came:
        return [Change("lines", name, "(the same lines)", "(in another order)", True)]
    return [Change("lines", name, _in_order(old_lines, gone), _in_order(new_lines, came), True)]


def _unmatched(old: list, new: list) -> list | None:
    """The items of ``new`` left over when ``old`` is matched into it in order (greedily, which finds a
    match whenever one exists), or None when ``old`` is not a subsequence of ``new``."""
    extra, i = [], 0
    for item in new:
        if i < len(old) and item == old[i]:
            i += 1
        else:
            extra.append(item)
    return extra if i == len(old) else None


def _in_order(lines: list, counts: Counter) -> list:
    """The lines ``counts`` holds, in the order (and with the repeats) ``lines`` has them."""
    left, found = Counter(counts), []
    for line in lines:
        if left[line] > 0:
            left[line] -= 1
            found.append(line)
    return found


def json_changes(name: str, old, new, path: tuple = ()) -> Iterator[Change]:
    """The differences of two parsed JSON documents, key path by key path (dict equality skips whole
    equal subtrees at C speed). Under an entry that carried no traffic (`unused`) every change is a gain."""
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        found = _dict_changes(name, old, new, path)
        if unused(name, path, old):
            found = (Change(c.kind, c.key, c.old, c.new, False) for c in found)
        yield from found
    elif isinstance(old, list) and isinstance(new, list):
        yield from _list_changes(_where(name, path), old, new)
    else:
        yield Change("json", _where(name, path), old, new, True)


def _dict_changes(name: str, old: dict, new: dict, path: tuple) -> Iterator[Change]:
    for key in sorted(old.keys() | new.keys()):
        inner = (*path, key)
        if key not in new:
            yield Change("json", _where(name, inner), old[key], None, True)
        elif key not in old:
            yield Change("json", _where(name, inner), None, new[key], False)
        else:
            yield from json_changes(name, old[key], new[key], inner)


def unused(name: str, path: tuple, old: dict) -> bool:
    """A config_db.json PORT whose old ``admin_status`` is down: the exporter shuts every port without a
    cable, so such a port carried no traffic, and what it gains or changes as it comes into use is a gain."""
    return (len(path) == 2 and path[0] == "PORT" and old.get("admin_status") == "down"
            and name.rpartition("/")[2] == "config_db.json")


def _where(name: str, path: tuple) -> str:
    return f"{name}: {PATH_SEPARATOR.join(path)}" if path else name


def _list_changes(where: str, old: list, new: list) -> Iterator[Change]:
    """A list that only gained items (its old items still there, in order): one additive change with the
    items added; else one disruptive change with the items gone and those added."""
    old_keys, new_keys = [_canonical(v) for v in old], [_canonical(v) for v in new]
    added = _unmatched(old_keys, new_keys)
    if added is not None:
        yield Change("json", where, None, [orjson.loads(k) for k in added], False)
        return
    gone = Counter(old_keys) - Counter(new_keys)
    came = Counter(new_keys) - Counter(old_keys)
    yield Change("json", where, [orjson.loads(k) for k in _in_order(old_keys, gone)] or "(same items)",
                 [orjson.loads(k) for k in _in_order(new_keys, came)] or "(in another order)", True)


def _canonical(value) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
