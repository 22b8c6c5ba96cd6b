"""The rail finder's assignment: minimum total PCIe distance, then the lexicographically smallest
choice, checked against every permutation on small matrices."""

import itertools

from hypothesis import given, settings, strategies as st

from designer.importers.assignment import lexicographic_assignment


def brute_force(costs):
    n, m = len(costs), len(costs[0])
    return list(min((sum(costs[i][p[i]] for i in range(n)), p) for p in itertools.permutations(range(m), n))[1])


@st.composite
def matrices(draw):
    n = draw(st.integers(1, 5))
    m = draw(st.integers(n, 6))
    levels = draw(st.integers(1, 6))
    return [[draw(st.integers(1, levels)) for _ in range(m)] for _ in range(n)]


@settings(max_examples=300, deadline=None)
@given(matrices())
def test_matches_the_best_permutation(costs):
    assert lexicographic_assignment(costs) == brute_force(costs)


def test_ties_go_to_the_lowest_columns_in_row_order():
    assert lexicographic_assignment([[5] * 4] * 3) == [0, 1, 2]
    assert lexicographic_assignment([[1, 1], [1, 5]]) == [1, 0]


def test_large_matrices_stay_exact_on_a_known_answer():
    n = 256
    costs = [[1 if j == (7 * i) % n else 5 for j in range(n)] for i in range(n)]
    assert lexicographic_assignment(costs) == [(7 * i) % n for i in range(n)]
