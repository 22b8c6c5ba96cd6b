"""In-order matching, the test behind every "only gains" verdict: is the old sequence still there, in its
order, inside the new one, and what was added around it.

Greedy (each old item takes its first match after the one before), which finds a match whenever one
exists. Runs of equal items are skipped with slice comparisons (doubling, then halving), so a grown
sequence of 10^5 items costs a few C-level passes, not a Python step per item.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Sequence


def unmatched(old: list, new: list) -> list | None:
    """The items of ``new`` left over when ``old`` is matched into it in order, or None when ``old`` is not
    a subsequence of ``new``."""
    def find(i: int, j: int):
        try:
            return new.index(old[i], j), 1, 1
        except ValueError:
            return None
    gaps = gaps_in_order(len(old), len(new), lambda i, j: common_prefix(old, i, new, j), find)
    return None if gaps is None else [item for start, end in gaps for item in new[start:end]]


def gaps_in_order(old_size: int, new_size: int, skip: Callable[[int, int], int],
                  find: Callable[[int, int], tuple[int, int, int] | None]) -> list[tuple[int, int]] | None:
    """The greedy match over positions: ``skip(i, j)`` says how far old and new run equal from old position
    ``i`` and new position ``j``; ``find(i, j)`` where the old item at ``i`` next appears in new from ``j``
    (and how far that match moves old and new on), or None. Returns the (start, end) spans of new that
    matched nothing, or None when some old item has no match."""
    gaps = []
    i = j = 0
    while i < old_size:
        run = skip(i, j)
        i, j = i + run, j + run
        if i == old_size:
            break
        found = find(i, j)
        if found is None:
            return None
        k, old_step, new_step = found
        gaps.append((j, k))
        i, j = i + old_step, k + new_step
    gaps.append((j, new_size))
    return gaps


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
