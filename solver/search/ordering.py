"""Move ordering of the Python search's stage games (rows: the max side's joint actions, columns:
the min side's, both in the order of :meth:`solver.search.Search.actions`, cards ascending).

* Low cards first: measured best on Logik deals (playing the other way round triples the nodes).
* The best pure row and column of an earlier search of the position (its table entry's hint)
  before them.
* Killer: the column that refuted a row is tried first on the next rows.
* For the min side's pass, the column where the best row has its minimum first (a pure saddle,
  if any, lies there) and, in each column, the rows most likely to exceed the bound.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.matrix import Num


def first_order(m: int, n: int, hint: tuple[int, int] | None) -> tuple[list[int], list[int]]:
    """The order of the ``m`` rows and ``n`` columns: ascending, ``hint``'s row and column
    first."""
    order_r = list(range(m))
    order_c = list(range(n))
    if hint is not None:
        promote(order_r, hint[0])
        promote(order_c, hint[1])
    return order_r, order_c


def promote(order: list[int], i: int) -> None:
    """Move ``i`` to the front of ``order``."""
    if order[0] != i:
        order.remove(i)
        order.insert(0, i)


def saddle_column_order(order_c: list[int], lo_m: Sequence[Sequence[Num]], best_i: int) -> None:
    """Sort the columns for the min side's pass: the best row's lowest cells first, then the
    columns whose highest lower bound is lowest."""
    brow = lo_m[best_i]
    m = len(lo_m)
    order_c.sort(key=lambda j: (brow[j], max(lo_m[i][j] for i in range(m))))


def rows_for_column(order_r: Sequence[int], lo_m: Sequence[Sequence[Num]], j: int) -> list[int]:
    """The rows of column ``j``, highest lower bound first."""
    return sorted(order_r, key=lambda i: -lo_m[i][j])
