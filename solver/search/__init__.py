"""The Python search: the readable reference of the solver's algorithm, and the fallback where
no compiler is present.

* :mod:`solver.search.alphabeta` — :class:`Search` (simultaneous-move alpha-beta with
  serialised bounds; what a value means is documented there) and :class:`SearchLike`, the
  interface the compiled core (:mod:`solver.native`) serves too;
* :mod:`solver.search.table` — the transposition table and its entries;
* :mod:`solver.search.ordering` — the move ordering.
"""

from solver.search.alphabeta import (
    INF,
    Counters,
    JointAction,
    Search,
    SearchLike,
    Solution,
    Stats,
    Strategy,
    position_table,
)
from solver.search.table import Entry, IndexStrategy, TranspositionTable

__all__ = [
    "INF",
    "Counters",
    "Entry",
    "IndexStrategy",
    "JointAction",
    "Search",
    "SearchLike",
    "Solution",
    "Stats",
    "Strategy",
    "TranspositionTable",
    "position_table",
]
