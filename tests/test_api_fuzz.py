"""Issue 13, the Python API: whatever it is given, an entry point that reads input returns or
raises a ``Take6Error`` (one line) -- never AttributeError, TypeError, KeyError or
RecursionError."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.verify.check import check_certificate
from take6.errors import Take6Error
from take6.io.record import load_record
from take6.notation import load_position, parse_position, position_from_json
from take6.position import Position
from take6.rules import EndCondition, Rules

anything = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**50), max_value=10**50)
    | st.floats()
    | st.text(max_size=10)
    | st.binary(max_size=10)
    | st.sampled_from(["standard", "logik", "kids", "1/2/3/4", "5|6", ">=", "diff"]),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(max_size=6) | st.integers(), inner, max_size=5)
    ),
    max_leaves=15,
)

SETTINGS = [
    "players",
    "hand_size",
    "rows",
    "row_capacity",
    "deck_size",
    "end",
    "profi_left",
    "profi_tie",
    "simultaneous",
    "pile_play",
    "draft",
    "first_picker",
    "nonsense",
]


def _only_take6_errors(call: Any, *args: Any, **kwargs: Any) -> None:
    try:
        call(*args, **kwargs)
    except Take6Error as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 1200, str(exc)


@settings(max_examples=150, deadline=None)
@given(value=anything)
def test_readers(value: Any) -> None:
    for reader in (load_position, position_from_json, parse_position, load_record):
        _only_take6_errors(reader, value)
    if not isinstance(value, str):  # a string names a file to read
        _only_take6_errors(check_certificate, value)


@settings(max_examples=150, deadline=None)
@given(
    variant=anything | st.sampled_from(["standard", "taktik", "logik", "profi", "kids"]),
    overrides=st.dictionaries(st.sampled_from(SETTINGS), anything, max_size=3),
    end=st.tuples(anything, anything, anything),
)
def test_rules(variant: Any, overrides: dict[str, Any], end: tuple[Any, Any, Any]) -> None:
    _only_take6_errors(Rules.for_variant, variant, **overrides)
    _only_take6_errors(EndCondition, *end)


@settings(max_examples=150, deadline=None)
@given(
    args=st.tuples(
        st.sampled_from(["standard", "logik", "kids"]) | anything,
        anything | st.just([[1], [2], [3], [4]]),
        anything | st.just([[5], [6]]),
        anything,
        anything,
        anything,
    )
)
def test_position_create(args: tuple[Any, ...]) -> None:
    _only_take6_errors(Position.create, *args)
