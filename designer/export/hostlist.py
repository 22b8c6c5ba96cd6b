"""Host names as one Slurm hostlist expression (``gpu-a[01-32],gpu-b[01-04]``).

Slurm's own parser expands what this writes: a name ending in digits joins the run of names with the
same prefix and the same number of digits (so zero padding is kept: ``[01-32]``, and ``node9`` and
``node10`` go in two brackets); any other name is written as it is. Host names of a design hold
letters, digits, ``-`` and ``.`` only (`model.ids`), none of the characters the parser treats apart.
"""

from __future__ import annotations

import re

from ..model.ids import natural_key

_TAIL = re.compile(r"(.*?)(\d+)\Z")


def compress(names: list[str]) -> str:
    """One hostlist expression for ``names`` (in natural order, duplicates dropped)."""
    runs: dict[tuple[str, int], list[int]] = {}
    plain: list[str] = []
    for name in set(names):
        match = _TAIL.match(name)
        if match is None:
            plain.append(name)
        else:
            runs.setdefault((match.group(1), len(match.group(2))), []).append(int(match.group(2)))
    parts = [(natural_key(name), name) for name in plain]
    for (prefix, width), numbers in runs.items():
        numbers.sort()
        if len(numbers) == 1:
            parts.append((natural_key(f"{prefix}{numbers[0]:0{width}d}"), f"{prefix}{numbers[0]:0{width}d}"))
            continue
        ranges = []
        start = previous = numbers[0]
        for number in numbers[1:] + [None]:
            if number is not None and number == previous + 1:
                previous = number
                continue
            ranges.append(f"{start:0{width}d}" if start == previous else f"{start:0{width}d}-{previous:0{width}d}")
            if number is not None:
                start = previous = number
        parts.append((natural_key(f"{prefix}{numbers[0]:0{width}d}"), f"{prefix}[{','.join(ranges)}]"))
    return ",".join(text for _, text in sorted(parts))
