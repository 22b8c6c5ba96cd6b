"""How one changed bundle file changed: JSON compared as data, text line by line (`lines`), anything else
as bytes.

JSON is additive when every old key path keeps its value and only keys were added (a list is additive
when its old items are still there in their order, with items added); text when every old line is
still there in its order. Anything else is disruptive, and each change says what went or changed.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator

import orjson

from ..model.limits import MAX_NESTING
from .lines import line_changes
from .matching import in_order, unmatched
from .report import Change

BINARY_SNIFF = 8 << 10       # bytes looked at for a NUL (git's test for a binary file)
LARGE_JSON = 16 << 20        # bytes of both sides together, past which JSON is compared as lines
PATH_SEPARATOR = " > "        # between the keys of a JSON path in a change's key ('PORT > Ethernet0 > mtu')


def file_changes(name: str, old: bytes, new: bytes) -> list[Change]:
    """The changes from ``old`` to ``new`` of the file shown as ``name``: JSON (by its suffix) as data,
    a file with a NUL byte in its first 8 kB as bytes, anything else as lines.

    JSON larger than `LARGE_JSON` (the AID: 43 MB at 4,096 servers, one record per line) is compared line
    by line, a line's trailing comma aside: parsing both sides would take longer than the whole diff may."""
    if b"\0" in old[:BINARY_SNIFF] or b"\0" in new[:BINARY_SNIFF]:
        return [Change("binary", name, f"{len(old):,} bytes", f"{len(new):,} bytes", True)]
    if name.endswith(".json") and len(old) + len(new) <= LARGE_JSON:
        try:
            return list(json_changes(name, orjson.loads(old), orjson.loads(new)))
        except (orjson.JSONDecodeError, orjson.JSONEncodeError, RecursionError):
            pass                      # not JSON after all, or nested past Python's or orjson's stack: lines
    return line_changes(name, old, new, commas=name.endswith(".json"))


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
        yield Change("json", _where(name, path), shown(old), shown(new), True)


def _dict_changes(name: str, old: dict, new: dict, path: tuple) -> Iterator[Change]:
    both = old.keys() & new.keys()
    differ = [key for key in both if old[key] != new[key]]          # most keys of a grown table are equal
    for key in sorted((old.keys() ^ new.keys()).union(differ)):
        inner = (*path, key)
        if key not in new:
            yield Change("json", _where(name, inner), shown(old[key]), None, True)
        elif key not in old:
            yield Change("json", _where(name, inner), None, shown(new[key]), False)
        else:
            yield from json_changes(name, old[key], new[key], inner)


def unused(name: str, path: tuple, old: dict) -> bool:
    """A config_db.json PORT whose old ``admin_status`` is down: the exporter shuts every port without a
    cable, so such a port carried no traffic, and what it gains or changes as it comes into use is a gain."""
    return (len(path) == 2 and path[0] == "PORT" and old.get("admin_status") == "down"
            and name.rpartition("/")[2] == "config_db.json")


def shown(value):
    """A value as a change carries it: itself, or words when it nests deeper than `limits.MAX_NESTING`
    (the table and the JSON output would run past Python's stack on a value 1,000 levels deep)."""
    level, layer = 0, [value]
    while layer:
        level += 1
        if level > MAX_NESTING:
            return f"(a value nested more than {MAX_NESTING} levels deep)"
        layer = [v for item in layer if isinstance(item, (dict, list))
                 for v in (item.values() if isinstance(item, dict) else item) if isinstance(v, (dict, list))]
    return value


def _where(name: str, path: tuple) -> str:
    return f"{name}: {PATH_SEPARATOR.join(path)}" if path else name


def _list_changes(where: str, old: list, new: list) -> Iterator[Change]:
    """A list that only gained items (its old items still there, in order): one additive change with the
    items added; else one disruptive change with the items gone and those added. Items are matched as
    they are (C-level equality), and turned into canonical text only when some are gone."""
    added = unmatched(old, new)
    if added is not None:
        yield Change("json", where, None, [shown(v) for v in added], False)
        return
    old_keys, new_keys = [_canonical(v) for v in old], [_canonical(v) for v in new]
    gone = Counter(old_keys) - Counter(new_keys)
    came = Counter(new_keys) - Counter(old_keys)
    yield Change("json", where, [shown(orjson.loads(k)) for k in in_order(old_keys, gone)] or "(the same items)",
                 [shown(orjson.loads(k)) for k in in_order(new_keys, came)] or "(in another order)", True)


def _canonical(value) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
