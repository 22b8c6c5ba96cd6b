"""Exact expectations of hashed load balancing on one leaf, to hold the sampled analysis against.

F full-rate flows leave one leaf for another over U equal uplinks (one per spine, and each spine one
link down to the far leaf, so the downstream hop carries what the uplink carried). Under QP hashing
each flow is N queue pairs of rate 1/N, each hashed uniformly and independently: F*N balls of weight
1/N thrown into U bins. With M the fullest bin's ball count:

- the busiest uplink's load (demand / capacity) is M / N;
- a QP on that uplink gets N / M of its rate when M > N, a flow runs at its worst QP's share, and the
  collective at its worst flow's: the bus-bandwidth fraction is min(1, N / M);
- no uplink is oversubscribed exactly when M <= N.

The law of M is exact by the multinomial count: the ways to throw B balls into U bins with no bin over
m are B! [x^B] (sum_{k<=m} x^k / k!)^U, out of U^B. Everything here is a Fraction: no sampling, no rounding.
"""

from __future__ import annotations

from fractions import Fraction
from math import factorial


def _power_coefficient(terms: list[Fraction], power: int, degree: int) -> Fraction:
    """[x^degree] of (sum terms[k] x^k) ** power, by repeated multiplication truncated at ``degree``."""
    out = [Fraction(1)] + [Fraction(0)] * degree
    for _ in range(power):
        nxt = [Fraction(0)] * (degree + 1)
        for i, a in enumerate(out):
            if a:
                for k, b in enumerate(terms[:degree + 1 - i]):
                    nxt[i + k] += a * b
        out = nxt
    return out[degree]


def at_most(balls: int, bins: int, m: int) -> Fraction:
    """P(no bin holds more than ``m`` of ``balls`` thrown uniformly into ``bins``)."""
    if m * bins < balls:
        return Fraction(0)
    terms = [Fraction(1, factorial(k)) for k in range(min(m, balls) + 1)]
    return _power_coefficient(terms, bins, balls) * factorial(balls) / Fraction(bins) ** balls


def fullest_bin(balls: int, bins: int) -> dict[int, Fraction]:
    """The exact law of the fullest bin's count: m -> P(M = m)."""
    out, below = {}, Fraction(0)
    for m in range(-(-balls // bins), balls + 1):
        cumulative = at_most(balls, bins, m)
        if cumulative != below:
            out[m] = cumulative - below
        below = cumulative
        if cumulative == 1:
            break
    return out


def qp_hash(flows: int, uplinks: int, qps: int) -> dict[str, Fraction]:
    """Exact expectations for ``flows`` full-rate flows over ``uplinks`` uplinks, ``qps`` QPs each."""
    law = fullest_bin(flows * qps, uplinks)
    return {
        "expected_max_uplink_load": sum(p * Fraction(m, qps) for m, p in law.items()),
        "expected_fraction": sum(p * min(Fraction(1), Fraction(qps, m)) for m, p in law.items()),
        "collision_free": sum((p for m, p in law.items() if m <= qps), Fraction(0)),
    }
