"""In-order matching, the test behind every "only gains" verdict: is the old sequence still there, in its
order, inside the new one, and what was added around it.

Greedy (each old item takes its first match after the one before), which finds a match whenever one
exists. Runs of equal items are skipped with slice comparisons (doubling, then halving), so a grown
sequence of 10^5 items costs a few C-level passes, not a Python step per item.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence


def unmatched(old: list, new: list) -> list | None:
    """The items of ``new`` left over when ``old`` is matched into it in order, or None when ``old`` is not
    a subsequence of ``new``."""
    extra: list = []
    i = j = 0
    while i < len(old):
        run = common_prefix(old, i, new, j)
        i, j = i + run, j + run
        if i == len(old):
            break
        try:
            k = new.index(old[i], j)
        except ValueError:
            return None
        extra += new[j:k]
        j = k
    extra += new[j:]
    return extra


def common_prefix(a: Sequence, i: int, b: Sequence, j: int) -> int:
    """How many items (or bytes) ``a[i:]`` and ``b[j:]`` share from their start."""
    most = min(len(a) - i, len(b) - j)
    if not most or a[i] != b[j]:
        return 0
    run, step = 1, 1
    while run + step <= most and a[i + run:i + run + step] == b[j + run:j + run + step]:
        run += step
        step *= 2
    while step > 1:
        step //= 2
        if run + step <= most and a[i + run:i + run + step] == b[j + run:j + run + step]:
            run += step
    return run


def in_order(items: list, counts: Counter) -> list:
    """The items ``counts`` holds, in the order (and with the repeats) ``items`` has them."""
    left, found = Counter(counts), []
    for item in items:
        if left[item] > 0:
            left[item] -= 1
            found.append(item)
    return found
