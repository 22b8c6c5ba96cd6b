"""JSON in: bounded parsing for the AID and LLDP dumps, with one readable error.

`parse_json` refuses nesting deeper than `limits.MAX_NESTING` (Python's parser would raise
RecursionError a little past 900 levels), numbers Python will not convert (over 4,300 digits),
NaN and Infinity (not JSON), and strings holding lone surrogates (``"\\ud800"`` parses, but is no
text any file can be written in).
"""

from __future__ import annotations

import json
import re
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
    if not text.isascii() and _has_surrogate(text):     # not from a UTF-8 file: a caller's own string
        raise JsonInputError("the text holds a lone surrogate (\\ud800-\\udfff), which is not text")
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
    _check(data, strings=_SURROGATE_ESCAPE.search(text) is not None)
    return data


# A lone surrogate can only come from a \\u escape (the text itself was decoded from UTF-8): without one
# (the usual case) no string needs looking at. An escaped backslash before 'ud800' only costs the look.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_CONTAINERS = (dict, list)


def _check(data: Any, strings: bool = True) -> None:
    """Depth, and with ``strings`` text, checks, iteratively (the document may be hostile). Only the
    containers are stacked: the scalars of a 4,096-server AID (4.8 million) each cost a type test."""
    if isinstance(data, str):
        data = [data]
    if not isinstance(data, _CONTAINERS):
        return
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_NESTING:
            raise JsonInputError(f"values are nested more than {MAX_NESTING} levels deep")
        children = value.values() if type(value) is dict else value
        if strings and type(value) is dict:
            _check_texts(value.keys())
        for child in children:
            kind = type(child)
            if kind is dict or kind is list:
                stack.append((child, depth + 1))
            elif strings and kind is str:
                _check_texts((child,))


def _check_texts(texts) -> None:
    for text in texts:
        if not text.isascii() and _has_surrogate(text):
            raise JsonInputError("a string holds a lone surrogate escape (\\ud800-\\udfff), which is not text")


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
