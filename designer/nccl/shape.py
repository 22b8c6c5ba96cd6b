"""Which nccl-tests collective a run is, from the shape of its result rows, when the log does not say.

nccl-tests prints, per row, the size in bytes (the larger of send and receive buffer), the count of
elements per rank's parameter buffer, the type, the reduction (``none`` for the tests without one),
the root (``-1`` for the rootless tests) and algbw and busbw, where busbw = algbw x a factor fixed by
the collective and the rank count n (nccl-tests' doc/PERFORMANCE.md):

| collective        | size / (count x type size) | root | redop | busbw / algbw |
|-------------------|----------------------------|------|-------|---------------|
| all_reduce_perf   | 1                          | -1   | op    | 2(n-1)/n      |
| sendrecv_perf     | 1                          | -1   | op    | 1             |
| broadcast_perf    | 1                          | >= 0 | none  | 1             |
| reduce_perf       | 1                          | >= 0 | op    | 1             |
| all_gather_perf   | n                          | -1   | none  | (n-1)/n       |
| alltoall_perf     | n                          | -1   | none  | (n-1)/n       |
| reduce_scatter_perf | n                        | -1   | op    | (n-1)/n       |

So the shape settles all_reduce (n > 2), sendrecv (n > 2), broadcast, reduce and reduce_scatter. It
cannot tell all_gather from alltoall, nor all_reduce from sendrecv on two ranks, nor a 2.0-era table
without a redop column that has n > 1 (all_gather or alltoall): those stay unknown (None), and the
caller asks for ``--collective``.
"""

from __future__ import annotations

from .runs import Row

TYPE_BYTES = {"int8": 1, "char": 1, "uint8": 1, "int32": 4, "int": 4, "uint32": 4, "int64": 8, "uint64": 8,
              "half": 2, "float16": 2, "float": 4, "float32": 4, "double": 8, "float64": 8, "bfloat16": 2,
              "fp8_e4m3": 1, "fp8_e5m2": 1, "f8e4m3": 1, "f8e5m2": 1}
TOLERANCE = 0.03                 # busbw/algbw off by rounding to 2 decimals on rows with algbw >= 1 GB/s
MIN_ALGBW = 1.0


def _ratio(rows: list[Row]) -> float | None:
    """busbw/algbw of the out-of-place figures, over the rows precise enough to tell."""
    usable = [r for r in rows if r.out_of_place.algbw >= MIN_ALGBW]
    if not usable:
        return None
    best = max(usable, key=lambda r: r.out_of_place.algbw)
    return best.out_of_place.busbw / best.out_of_place.algbw


def _per_rank(rows: list[Row]) -> int | None:
    """size / (count x type size), the same on every row of 64 KiB or more (smaller sizes may round the
    count per rank down), or None."""
    big = [r for r in rows if r.size >= 1 << 16] or rows
    seen = set()
    for r in big:
        width = TYPE_BYTES.get(r.dtype.lower())
        if width is None or r.count <= 0:
            return None
        per, rest = divmod(r.size, r.count * width)
        if rest:
            return None
        seen.add(per)
    return seen.pop() if len(seen) == 1 else None


def _near(value: float, target: float) -> bool:
    return abs(value - target) <= TOLERANCE * max(target, 1.0)


def collective_from_shape(rows: list[Row], ranks: int | None) -> str | None:
    """The collective the rows can only come from, or None when they fit more than one (or none)."""
    rows = [r for r in rows if r.size > 0]
    per = _per_rank(rows)
    ratio = _ratio(rows)
    if per is None or ratio is None:
        return None
    rooted = any(r.root is not None and r.root >= 0 for r in rows)
    has_op = all(r.redop not in ("", "none") for r in rows)
    no_redop_column = all(r.redop == "" for r in rows)
    if per == 1:
        n = ranks
        if rooted:
            return None if no_redop_column else ("reduce_perf" if has_op else "broadcast_perf")
        if _near(ratio, 1.0):
            # sendrecv, or all_reduce on two ranks (2(n-1)/n = 1): only the rank count tells them apart
            return "sendrecv_perf" if n is not None and n > 2 else None
        if n is None:
            n = round(2 / (2 - ratio)) if ratio < 2 else None
        if n and n > 2 and _near(ratio, 2 * (n - 1) / n):
            return "all_reduce_perf"
        return None
    if ranks is not None and per != ranks:
        return None
    if rooted or not _near(ratio, (per - 1) / per):
        return None
    if has_op:
        return "reduce_scatter_perf"
    return None      # all_gather and alltoall print the same shape
