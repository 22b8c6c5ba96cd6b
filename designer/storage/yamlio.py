"""YAML in and out: safe loading with readable, located errors; canonical atomic writing."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, NoReturn

import yaml

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class FileFormatError(ValueError):
    """A file the designer cannot use. ``str()`` is one line: file, line, field and what to do."""

    def __init__(self, file: str, message: str, line: int | None = None, field: str | None = None):
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
                None, None, f"key '{key}' appears twice (first on line {seen[key] + 1})", key_node.start_mark)
        seen[key] = key_node.start_mark.line
    return yaml.SafeLoader.construct_mapping(loader, node, deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_text(path: Path) -> str:
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise FileFormatError(str(path), "no such file") from None
    except IsADirectoryError:
        raise FileFormatError(str(path), "is a folder, not a file") from None
    except OSError as exc:
        raise FileFormatError(str(path), f"cannot be read: {exc.strerror}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise FileFormatError(str(path), "is not UTF-8 text (is it a binary or a spreadsheet?)", line) from None


def parse(text: str, file: str) -> Any:
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "YAML syntax error"
        raise FileFormatError(file, f"YAML syntax error: {problem}", mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise FileFormatError(file, f"YAML error: {exc}") from None


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
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
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
          choices: tuple | None = None):
    """Read ``mapping[key]`` as ``kind`` (reporting a missing or mistyped field with its line)."""
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
        ctx.fail(path + (key,), f"should be {want}, not {value!r}")
    if choices is not None and value not in choices:
        ctx.fail(path + (key,), f"'{value}' is not one of: {', '.join(map(str, choices))}")
    return value


def only_keys(ctx: Context, mapping: dict, allowed: set, path: tuple) -> None:
    extra = sorted(set(mapping) - allowed, key=str)
    if extra:
        ctx.fail(path + (extra[0],), f"unknown field '{extra[0]}' (expected one of: {', '.join(sorted(allowed))})")


def dump(data: Any) -> str:
    """Canonical YAML: keys in the order given, block style, no aliases, unicode as-is."""
    return yaml.dump(data, Dumper=_NoAliasDumper, sort_keys=False, default_flow_style=False,
                     allow_unicode=True, width=4096)


class _NoAliasDumper(_Dumper):
    def ignore_aliases(self, data):
        return True


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write to a temporary file beside ``path``, fsync, then rename over it: all or nothing."""
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    try:
        dir_fd = os.open(path.parent or ".", os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass
