"""Text compared line by line: additive when every old line is still there, in its order.

The test runs on the files' bytes: runs of equal bytes are skipped with slice comparisons and the next
old line is found in the new file with ``bytes.find``, so a 43 MB file that gained a few thousand lines
is checked in a few C-level passes without splitting either side into 10^5 strings. Only a file that
is not additive is split, to say which lines went and which came.
"""

from __future__ import annotations

from collections import Counter

from .matching import common_prefix, gaps_in_order, in_order
from .report import Change

NL = b"\n"


def line_changes(name: str, old: bytes, new: bytes, commas: bool = False) -> list[Change]:
    """One change for the file: the lines added (additive) when the old lines are all still there in their
    order; else the lines that went and those that came (disruptive), or that the same lines were
    reordered. ``commas``: a line may gain a trailing comma (JSON written one item per line, where an
    item added after the last one puts a comma on the line before it)."""
    added = added_lines(old, new, commas)
    if added is not None:
        return [Change("lines", name, None, added, False)]
    old_lines, new_lines = split_lines(_text(old)), split_lines(_text(new))
    if commas:
        old_lines, new_lines = [l.removesuffix(",") for l in old_lines], [l.removesuffix(",") for l in new_lines]
    gone = Counter(old_lines) - Counter(new_lines)
    came = Counter(new_lines) - Counter(old_lines)
    if not gone and not came:
        return [Change("lines", name, "(the same lines)", "(in another order)", True)]
    return [Change("lines", name, in_order(old_lines, gone), in_order(new_lines, came), True)]


def added_lines(old: bytes, new: bytes, commas: bool = False) -> list[str] | None:
    """The lines of ``new`` left over when the lines of ``old`` are matched into it in order, or None
    when they are not all there (`matching.gaps_in_order` over byte offsets)."""
    if old and not old.endswith(NL):
        old += NL
    if new and not new.endswith(NL):
        new += NL

    def find(i: int, j: int):
        line = old[i:old.index(NL, i) + 1]
        k, length = _find_line(new, line, j), len(line)
        if commas and not line.endswith(b",\n"):
            other = _find_line(new, line[:-1] + b",\n", j)
            if other != -1 and (k == -1 or other < k):
                k, length = other, length + 1
        return None if k == -1 else (k, len(line), length)

    gaps = gaps_in_order(len(old), len(new), lambda i, j: _common_lines(old, i, new, j), find)
    return None if gaps is None else split_lines(_text(b"".join(new[start:end] for start, end in gaps)))


def _common_lines(a: bytes, i: int, b: bytes, j: int) -> int:
    """How many bytes of whole lines ``a[i:]`` and ``b[j:]`` share from their start."""
    run = common_prefix(a, i, b, j)
    end = a.rfind(NL, i, i + run)
    return end + 1 - i if end != -1 else 0


def _find_line(data: bytes, line: bytes, start: int) -> int:
    """Where ``line`` (ending in a line break) starts a line of ``data`` at or after ``start``; -1 if nowhere."""
    k = data.find(line, start)
    while k > start and data[k - 1] != NL[0]:
        k = data.find(line, k + 1)
    return k


def split_lines(text: str) -> list[str]:
    """The lines of a text, split at line feeds only (as the byte-level matching does)."""
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")
