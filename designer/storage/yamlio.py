"""YAML in and out: safe, bounded loading with readable, located errors; canonical writing.

Loading refuses, with the file and line: a file over its size limit (before reading it whole),
nesting deeper than `limits.MAX_NESTING`, aliases that would expand into more than
`limits.MAX_ALIAS_NODES` nodes (an "alias bomb" of a few hundred bytes otherwise grows past
gigabytes), and whole numbers longer than `limits.MAX_DIGITS` digits. Messages quote values
through `limits.excerpt`, never whole. Saving goes through `atomic.write_atomic`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NoReturn

import yaml

from ..errors import DesignerError
from ..model.limits import MAX_ALIAS_NODES, MAX_DIGITS, MAX_NESTING, MAX_TEXT, excerpt
from .atomic import write_atomic  # noqa: F401  (re-exported: callers import it from here)

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class FileFormatError(DesignerError, ValueError):
    """A file the designer cannot use. ``str()`` is one line: file, line, field and what to do."""

    MAX_MESSAGE = 600     # a last guard: messages quote values through limits.excerpt already

    def __init__(self, file: str, message: str, line: int | None = None, field: str | None = None):
        if len(message) > self.MAX_MESSAGE:
            message = message[: self.MAX_MESSAGE - 3] + "..."
        self.file, self.line, self.field, self.message = file, line, field, message
        where = file + (f":{line}" if line else "")
        what = f"{field}: " if field else ""
        super().__init__(f"{where}: {what}{message}")


class _StrictLoader(_Loader):
    """Safe loader that refuses duplicate mapping keys (PyYAML would keep the last silently)."""


def _construct_mapping(loader, node, deep=False):
    seen = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value", key_node.start_mark) from None
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {excerpt(key)} appears twice (first on line {seen[key] + 1})", key_node.start_mark)
        seen[key] = key_node.start_mark.line
    return yaml.SafeLoader.construct_mapping(loader, node, deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_text(path: Path, limit: int | None = None, what: str = "file") -> str:
    """The file's text (UTF-8); refused before it is read whole when it is larger than ``limit`` bytes."""
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if limit is not None and size > limit:
                raise FileFormatError(str(path), f"is larger than {_size(limit)}, the most this tool reads as a {what}")
            # read(n) would set aside n bytes first: read a regular file whole, anything else in chunks
            raw = fh.read() if limit is None or size else _read_at_most(fh, limit + 1)
    except FileNotFoundError:
        raise FileFormatError(str(path), "no such file") from None
    except IsADirectoryError:
        raise FileFormatError(str(path), "is a folder, not a file") from None
    except OSError as exc:
        raise FileFormatError(str(path), f"cannot be read: {exc.strerror}") from None
    if limit is not None and len(raw) > limit:
        raise FileFormatError(str(path), f"is larger than {_size(limit)}, the most this tool reads as a {what}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise FileFormatError(str(path), "is not UTF-8 text (is it a binary or a spreadsheet?)", line) from None


def _read_at_most(fh, count: int) -> bytes:
    chunks, total = [], 0
    while total < count:
        chunk = fh.read(min(1 << 20, count - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _size(limit: int) -> str:
    return f"{limit >> 20} MB" if limit >= 1 << 20 else f"{limit >> 10} KB"


def parse(text: str, file: str) -> Any:
    """The YAML document as plain data; FileFormatError (with the line) for anything unusable."""
    return _parse(text, file)[0]


def parse_with_spans(text: str, file: str) -> tuple[Any, list[tuple[int, int]]]:
    """`parse`, and where each entry of a top-level mapping lies in ``text``: (offset of its key, offset
    where its value ends)."""
    data, node = _parse(text, file)
    if not isinstance(node, yaml.MappingNode):
        return data, []
    return data, [(key.start_mark.index, value.end_mark.index) for key, value in node.value]


def _parse(text: str, file: str) -> tuple[Any, yaml.Node | None]:
    loader = _StrictLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        _check_nodes(node, file)
        return loader.construct_document(node), node
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "YAML syntax error"
        raise FileFormatError(file, f"YAML syntax error: {problem}", mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise FileFormatError(file, f"YAML error: {excerpt(str(exc), 200)}") from None
    finally:
        loader.dispose()


def resolvers() -> dict[str, list]:
    """First character -> the patterns of the implicit tags (bool, null, int, float, timestamp ...) that
    the loader tries, in its order, on a plain scalar starting with it."""
    return {first: [regexp for _, regexp in entries]
            for first, entries in _StrictLoader.yaml_implicit_resolvers.items()}


_INT_TAG = "tag:yaml.org,2002:int"


def _check_nodes(root: yaml.Node, file: str) -> None:
    """Walk the composed document as it will be constructed (aliases expanded), refusing depth,
    expansion and number sizes beyond the limits. Iterative: no recursion on hostile input."""
    seen: set[int] = set()
    extra = 0                                   # nodes visited again through an alias
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        line = node.start_mark.line + 1
        if id(node) in seen:
            extra += 1
            if extra > MAX_ALIAS_NODES:
                raise FileFormatError(file, f"YAML aliases (*name) here expand to more than {MAX_ALIAS_NODES:,} "
                                      "values; write the values out instead of repeating an alias", line)
        else:
            seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _INT_TAG and len(node.value) > MAX_DIGITS + 2:
                raise FileFormatError(file, f"the number {excerpt(node.value, 24)} has {len(node.value):,} "
                                      f"characters; whole numbers here have at most {MAX_DIGITS} digits", line)
            continue
        if depth > MAX_NESTING:
            raise FileFormatError(file, f"values are nested more than {MAX_NESTING} levels deep here; "
                                  "no rail-designer file needs that", line)
        if isinstance(node, yaml.MappingNode):
            stack.extend((child, depth + 1) for pair in node.value for child in pair)
        else:
            stack.extend((child, depth + 1) for child in node.value)


def line_of(text: str, path: tuple) -> int | None:
    """The 1-based line of the node at ``path`` (keys and list indexes), or of its nearest parent."""
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError:
        return None
    line = node.start_mark.line + 1 if node else None
    for step in path:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if key_node.value == str(step):
                    line = key_node.start_mark.line + 1
                    node = value_node
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def dotted(path: tuple) -> str:
    out = ""
    for step in path:
        name = str(step) if len(str(step)) <= 40 else str(step)[:37] + "..."
        out += f"[{step}]" if isinstance(step, int) else (f".{name}" if out else name)
    return out


class Context:
    """Where a document came from, so that any field can be reported with its file and line."""

    def __init__(self, file: str, text: str):
        self.file, self.text = file, text

    def fail(self, path: tuple, message: str) -> NoReturn:
        raise FileFormatError(self.file, message, line_of(self.text, path), dotted(path) or None)


_MISSING = object()
_KIND_WORDS = {dict: "a mapping (key: value lines)", list: "a list", str: "text", int: "a whole number",
               float: "a number", bool: "true or false"}


def field(ctx: Context, mapping: dict, key: str, path: tuple, kind: type | tuple, default=_MISSING,
          choices: tuple | None = None, bounds: tuple | None = None, max_len: int = MAX_TEXT):
    """Read ``mapping[key]`` as ``kind``, reporting a missing, mistyped or out-of-range field with its
    line. A number must lie within ``bounds`` (low, high) when given; text has at most ``max_len``
    characters."""
    if key not in mapping or mapping[key] is None:
        if default is _MISSING:
            ctx.fail(path, f"the field '{key}' is missing")
        return default
    value = mapping[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if float in kinds and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        want = " or ".join(_KIND_WORDS.get(k, k.__name__) for k in kinds)
        ctx.fail(path + (key,), f"should be {want}, not {excerpt(value)}")
    if choices is not None and value not in choices:
        ctx.fail(path + (key,), f"{excerpt(value)} is not one of: {', '.join(map(str, choices))}")
    if isinstance(value, str) and len(value) > max_len:
        ctx.fail(path + (key,), f"has {len(value):,} characters; at most {max_len:,} are allowed")
    if bounds is not None and isinstance(value, (int, float)) and not isinstance(value, bool):
        low, high = bounds
        if not low <= value <= high:      # also refuses NaN
            ctx.fail(path + (key,), f"{excerpt(value)} is out of range: use {low} to {high}")
    return value


def only_keys(ctx: Context, mapping: dict, allowed: set, path: tuple) -> None:
    extra = sorted(set(mapping) - allowed, key=str)
    if extra:
        ctx.fail(path + (extra[0],), f"unknown field {excerpt(extra[0])} (expected one of: {', '.join(sorted(allowed))})")


def dump(data: Any) -> str:
    """Canonical YAML: keys in the order given, block style, no aliases, unicode as-is."""
    return yaml.dump(data, Dumper=_NoAliasDumper, sort_keys=False, default_flow_style=False,
                     allow_unicode=True, width=4096)


class _NoAliasDumper(_Dumper):
    def ignore_aliases(self, data):
        return True
