"""The assignment problem the rail finder needs: each row (GPU) its own column (NIC), the total
cost as small as possible, and among all such assignments the lexicographically smallest one
(row 0 takes the lowest column it can, then row 1, ...), so the answer never depends on order.

Two phases, both polynomial and fast in pure Python for the matrix sizes `limits` allows:
1. Stand-in rows that cost 0 anywhere make the matrix square. The Hungarian method (shortest
   augmenting paths with potentials, O(m^3), quick on the many ties of a topology matrix) finds
   one optimal assignment and an optimal dual (u, v). By complementary slackness an assignment is
   optimal exactly when every edge it uses is *tight* (u_i + v_j == cost).
2. Rows are then fixed in order: row i takes the lowest tight column k from which an alternating
   cycle through the rows not yet fixed leads back to i's current column, and the cycle is
   applied. Sets of rows and columns are Python integers used as bit sets, so finding every
   such k is one breadth-first pass per row.
"""

from __future__ import annotations

_INF = float("inf")


def _hungarian(costs: list[list[int]], m: int) -> tuple[list[int], list[int], list[int]]:
    """(u, v, owner) for an n x m cost matrix, n <= m: ``owner[j]`` is the row of column j or -1."""
    n = len(costs)
    u, v = [0] * (n + 1), [0] * (m + 1)
    owner = [0] * (m + 1)            # 1-based rows; column 0 is the search's virtual start
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        owner[0], j0 = i, 0
        minv, used = [_INF] * (m + 1), [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = owner[j0], _INF, 0
            row, ui = costs[i0 - 1], u[i0]
            for j in range(1, m + 1):
                if not used[j]:
                    cur = row[j - 1] - ui - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    mj = minv[j]
                    # on ties prefer a free column: the search ends there (uniform matrices stay O(nm))
                    if mj < delta or (mj == delta and owner[j] == 0 and owner[j1] != 0):
                        delta, j1 = mj, j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    return u[1:], v[1:], [r - 1 for r in owner[1:]]


def lexicographic_assignment(costs: list[list[int]]) -> list[int]:
    """Column of each row: minimum total cost, then lexicographically smallest (see the module)."""
    n = len(costs)
    m = len(costs[0]) if n else 0
    if n > m:
        raise ValueError("more rows than columns: not every row can have its own column")
    if n == 0:
        return []
    # Rows n..m-1 are stand-ins costing 0 anywhere: the problem becomes square, every column is
    # taken, and an assignment is optimal exactly when all its edges are tight.
    square = [list(row) for row in costs] + [[0] * m for _ in range(m - n)]
    u, v, owner = _hungarian(square, m)
    tight = [sum(1 << j for j in range(m) if square[r][j] == u[r] + v[j]) for r in range(m)]
    tight_rows = [sum(1 << r for r in range(m) if tight[r] >> j & 1) for j in range(m)]
    col = [0] * m
    for j, r in enumerate(owner):
        col[r] = j
    for i in range(n):
        mine = col[i]
        # Columns from which an alternating cycle through rows after i leads back to ``mine``.
        good, via, queue = 1 << mine, {}, [mine]
        open_rows = ((1 << m) - 1) & ~((1 << (i + 1)) - 1)
        for g in queue:
            rows = tight_rows[g] & open_rows
            open_rows &= ~rows
            while rows:
                low = rows & -rows
                rows ^= low
                c = col[low.bit_length() - 1]
                if not good >> c & 1:
                    good |= 1 << c
                    via[c] = g
                    queue.append(c)
        choice = tight[i] & good
        k = (choice & -choice).bit_length() - 1
        if k == mine:
            continue
        # Row i takes k; k's row moves to via[k], that column's row to via[...], back to ``mine``.
        mover, c = owner[k], k
        owner[k], col[i] = i, k
        while True:
            nxt = via[c]
            nxt_mover = owner[nxt]
            owner[nxt], col[mover] = mover, nxt
            if nxt == mine:
                break
            mover, c = nxt_mover, nxt
    return col[:n]
