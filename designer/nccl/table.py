"""The result table of nccl-tests: its column layout, from the header or (in a quoted excerpt) from a row.

A header reads ``size count type [redop] [root] time algbw busbw #wrong|error time algbw busbw #wrong|error``
(nccl-tests 2.0 printed all_gather without the redop column and the rootless tests without root; the
per-iteration columns widen each section). A row has the same fields; ``#wrong`` counts wrong elements
(``N/A`` with validation off), the older ``error`` column holds the largest error instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .runs import Measure

_TYPE = re.compile(r"[a-z][a-z0-9_]*")         # float, bfloat16, int8, f8e4m3 ...


@dataclass(frozen=True, slots=True)
class Layout:
    has_redop: bool
    has_root: bool
    width: int                # fields in each of the out-of-place and in-place sections
    counts_wrong: bool        # "#wrong" (a count) rather than the older "error"

    @property
    def base(self) -> int:
        """Fields before the out-of-place section."""
        return 3 + self.has_redop + self.has_root

    @property
    def fields(self) -> int:
        return self.base + 2 * self.width


def is_header(tokens: list[str]) -> bool:
    return tokens[:3] == ["size", "count", "type"]


def layout_of_header(tokens: list[str]) -> Layout:
    has_redop = "redop" in tokens[3:5]
    has_root = "root" in tokens[3:5]
    rest = tokens[3 + has_redop + has_root:]
    times = [i for i, t in enumerate(rest) if t in ("time", "cputime")]
    width = times[1] - times[0] if len(times) > 1 else len(rest)
    return Layout(has_redop, has_root, width, "#wrong" in rest)


def layout_of_row(tokens: list[str]) -> Layout | None:
    """The layout of a table quoted without its header: size count type [redop] [root], then two sections
    of time algbw busbw #wrong|error; None when the row fits none."""
    base = len(tokens) - 8
    if base not in (3, 4, 5) or not _TYPE.fullmatch(tokens[2]):
        return None
    has_redop = base > 3 and tokens[3].isalpha()
    has_root = base - 3 - has_redop == 1
    if base - 3 - has_redop - has_root != 0:
        return None
    wrong = tokens[base + 3]
    return Layout(has_redop, has_root, 4, wrong == "N/A" or wrong.isdigit())


def measure(fields: list[str], counts_wrong: bool) -> Measure:
    """One section (time algbw busbw #wrong|error ...); raises ValueError on a field that is no number."""
    wrong = None
    if counts_wrong and fields[3] != "N/A":
        wrong = int(float(fields[3]))
    return Measure(float(fields[0]), float(fields[1]), float(fields[2]), wrong)
