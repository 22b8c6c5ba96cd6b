"""JSON in: bounded parsing for the AID and LLDP dumps, with one readable error.

`parse_json` refuses nesting deeper than `limits.MAX_NESTING` (Python's parser would raise
RecursionError a little past 900 levels), numbers Python will not convert (over 4,300 digits),
NaN and Infinity (not JSON), and strings holding lone surrogates (``"\\ud800"`` parses, but is no
text any file can be written in).
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import DesignerError
from ..model.limits import MAX_NESTING


class JsonInputError(DesignerError, ValueError):
    """JSON the designer will not read: ``line`` (or None) and a message without the source name."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.message, self.line = message, line


def _no_constant(name: str):
    raise JsonInputError(f"{name} is not a JSON number; write a number or null")


def parse_json(text: str) -> Any:
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise JsonInputError(f"not valid JSON ({exc.msg})", exc.lineno) from None
    except RecursionError:
        raise JsonInputError(f"values are nested more than {MAX_NESTING} levels deep") from None
    except JsonInputError:
        raise
    except ValueError as exc:          # int() past 4,300 digits
        if "digits" in str(exc):
            raise JsonInputError("a number has more than 4,300 digits") from None
        raise JsonInputError(f"a value cannot be read: {str(exc)[:120]}") from None
    _check(data)
    return data


def _check(data: Any) -> None:
    """Depth and text checks, iteratively (the document may be hostile)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if not value.isascii() and _has_surrogate(value):
                raise JsonInputError("a string holds a lone surrogate escape (\\ud800-\\udfff), which is not text")
            continue
        if isinstance(value, dict):
            children = [*value.keys(), *value.values()]
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > MAX_NESTING:
            raise JsonInputError(f"values are nested more than {MAX_NESTING} levels deep")
        stack.extend((child, depth + 1) for child in children)


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
