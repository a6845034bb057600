"""Game records: the JSON record of a whole game, its validation, and its replay.

A record holds the settings, the seed, the bots' names, every action in order (the chance deals
included, so the record replays without the seed) and what the game's author says came of it:
the heads of each round, the final totals, the winners and whether the game ended. The format is
documented in ``docs/records.md``; :func:`take6.play.game.play_game` games are written by
:func:`take6.play.game.record_to_json`, which is :meth:`Record.to_json` of :meth:`Record.from_play`.

* :func:`load_record` validates the JSON (a dict or text) and raises :class:`RecordError`, one
  line naming the problem and where it is (``actions[16]`` is step 17);
* :func:`take6.io.replay.replay` plays the actions through the reference engine and reports the
  first illegal action with its step number (1-based), or every recorded result that the replay
  contradicts;
* :class:`take6.display.viewer.RecordViewer` steps through a record and shows each state as SVG
  in Jupyter.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from take6.errors import RulesError, Take6Error
from take6.rules import BOOL_FIELDS, Comparison, EndCondition, ProfiTie, Rules, Variant
from take6.state import (
    Action,
    ChooseRow,
    Deal,
    Pick,
    Play,
    State,
)
from take6.text import MAX_DIGITS, decode, excerpt, strip_bom

FORMAT = "take6-game-record"
"""The value of a record's ``format`` key."""

VERSION = 1
"""The record format version this module writes and reads."""


class RecordError(Take6Error):
    """A game record that is not valid JSON or not a well-formed record (see docs/records.md)."""


# -- writing --------------------------------------------------------------------------------


def action_to_json(action: Action) -> dict[str, Any]:
    """A JSON-ready dict of ``action`` (players 0-based, rows 0-based)."""
    if isinstance(action, Deal):
        return {"type": "deal", "order": list(action.order)}
    if isinstance(action, Pick):
        return {"type": "pick", "player": action.player, "card": action.card}
    if isinstance(action, Play):
        return {"type": "play", "player": action.player, "card": action.card}
    if isinstance(action, ChooseRow):
        return {"type": "row", "player": action.player, "row": action.row}
    raise TypeError(f"not an action: {action!r}")


def rules_to_json(rules: Rules) -> dict[str, Any]:
    """Every setting of ``rules`` as JSON-ready data (enums by value). A custom deck adds
    ``cards`` (the card numbers, ascending) and a custom bull-head table adds ``heads`` (the heads
    of each card of the deck, in the deck's order); standard rules carry neither."""
    out: dict[str, Any] = {
        "variant": rules.variant.value,
        "players": rules.players,
        "hand_size": rules.hand_size,
        "rows": rules.rows,
        "row_capacity": rules.row_capacity,
        "deck_size": rules.deck_size,
        "end": {
            "target": rules.end.target,
            "comparison": rules.end.comparison.value,
            "rounds": rules.end.rounds,
        },
        "profi_left": rules.profi_left,
        "profi_tie": rules.profi_tie.value,
        "simultaneous": rules.simultaneous,
        "pile_play": rules.pile_play,
        "lowest_wins": rules.lowest_wins,
        "draft": rules.draft,
        "first_picker": rules.first_picker,
        "rotate_first_picker": rules.rotate_first_picker,
    }
    if rules.cards is not None:
        out["cards"] = list(rules.cards)
    if rules.head_table is not None:
        out["heads"] = [rules.heads[c] for c in rules.deck()]
    return out


@dataclass(frozen=True)
class Record:
    """A game record: settings, seed, bots, every action, and the recorded results.

    ``rounds``, ``scores``, ``winners`` and ``finished`` are what the record *claims*; ``None``
    means the record does not say (then :func:`replay` does not check it).
    """

    rules: Rules
    actions: tuple[Action, ...]
    seed: int | None = None
    bots: tuple[str, ...] = ()
    rounds: tuple[tuple[int, ...], ...] | None = None
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    finished: bool | None = None

    @classmethod
    def from_play(
        cls,
        rules: Rules,
        actions: Sequence[Action],
        final: State,
        seed: int | None = None,
        bots: Sequence[str] = (),
    ) -> Record:
        """The record of a game played with ``actions`` that reached ``final``."""
        return cls(
            rules=rules,
            actions=tuple(actions),
            seed=seed,
            bots=tuple(bots),
            rounds=final.round_scores,
            scores=final.totals,
            winners=final.winners() if final.is_over else (),
            finished=final.is_over,
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON form (docs/records.md); results the record does not state are left out."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": rules_to_json(self.rules),
            "seed": self.seed,
            "bots": list(self.bots),
            "actions": [action_to_json(a) for a in self.actions],
        }
        if self.rounds is not None:
            out["rounds"] = [list(r) for r in self.rounds]
        if self.scores is not None:
            out["scores"] = list(self.scores)
        if self.winners is not None:
            out["winners"] = list(self.winners)
        if self.finished is not None:
            out["finished"] = self.finished
        return out


# -- reading --------------------------------------------------------------------------------

_RECORD_KEYS = {"format", "version", "rules", "seed", "bots", "actions"}
_RESULT_KEYS = {"rounds", "scores", "winners", "finished"}
_END_KEYS = {"target", "comparison", "rounds"}
_INT_RULES = ("hand_size", "rows", "row_capacity", "deck_size", "first_picker")
_BOOL_RULES = BOOL_FIELDS
_RULES_KEYS = {
    "variant",
    "players",
    "end",
    "profi_tie",
    "cards",
    "heads",
    *_INT_RULES,
    *_BOOL_RULES,
}
_ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "deal": ("order",),
    "pick": ("player", "card"),
    "play": ("player", "card"),
    "row": ("player", "row"),
}


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


_short = excerpt

_INT_BOUND = 10**MAX_DIGITS


def _int(x: object, where: str, minimum: int | None = None) -> int:
    if not _is_int(x):
        raise RecordError(f"{where} must be an integer, got {_short(x)}")
    assert isinstance(x, int)
    if not -_INT_BOUND < x < _INT_BOUND:
        raise RecordError(f"{where} must have at most {MAX_DIGITS} digits, got {_short(x)}")
    if minimum is not None and x < minimum:
        raise RecordError(f"{where} must be at least {minimum}, got {x}")
    return x


def _int_list(x: object, where: str) -> tuple[int, ...]:
    if not isinstance(x, list):
        raise RecordError(f"{where} must be a list of integers, got {_short(x)}")
    return tuple(_int(v, f"{where}[{i}]") for i, v in enumerate(x))


def _object(x: object, where: str, allowed: set[str], required: Sequence[str]) -> dict[str, Any]:
    if not isinstance(x, dict):
        raise RecordError(f"{where} must be a JSON object, got {_short(x)}")
    unknown = sorted(str(k) for k in x if k not in allowed)
    if unknown:
        raise RecordError(
            f"{where} has unknown key(s) {excerpt(unknown)} (known: {sorted(allowed)})"
        )
    for key in required:
        if key not in x:
            raise RecordError(f"{where} lacks {key!r}")
    return x


def _enum_value(x: object, where: str, values: Sequence[str]) -> str:
    if not isinstance(x, str) or x not in values:
        raise RecordError(f"{where} must be one of {list(values)}, got {_short(x)}")
    return x


def rules_from_json(data: object) -> Rules:
    """Settings from their JSON form (:func:`rules_to_json`). ``variant`` and ``players`` are
    required; a missing field takes the variant's preset (:meth:`Rules.for_variant`)."""
    where = "record 'rules'"
    d = _object(data, where, _RULES_KEYS, ("variant", "players"))
    variant = _enum_value(d["variant"], f"{where} 'variant'", [v.value for v in Variant])
    players = _int(d["players"], f"{where} 'players'")
    fields: dict[str, Any] = {}
    for key in _INT_RULES:
        if key in d:
            fields[key] = _int(d[key], f"{where} {key!r}")
    for key in _BOOL_RULES:
        if key in d:
            if not isinstance(d[key], bool):
                raise RecordError(f"{where} {key!r} must be true or false, got {_short(d[key])}")
            fields[key] = d[key]
    if "profi_tie" in d:
        tie = _enum_value(d["profi_tie"], f"{where} 'profi_tie'", [t.value for t in ProfiTie])
        fields["profi_tie"] = ProfiTie(tie)
    if "end" in d:
        e = _object(d["end"], f"{where} 'end'", _END_KEYS, ())
        target = e.get("target", 66)
        rounds = e.get("rounds")
        comparison = _enum_value(
            e.get("comparison", ">="), f"{where} 'end' 'comparison'", [c.value for c in Comparison]
        )
        try:
            fields["end"] = EndCondition(
                target=None if target is None else _int(target, f"{where} 'end' 'target'"),
                comparison=Comparison(comparison),
                rounds=None if rounds is None else _int(rounds, f"{where} 'end' 'rounds'"),
            )
        except RulesError as exc:
            raise RecordError(f"{where} 'end': {exc}") from None
    if "cards" in d:
        fields["cards"] = _int_list(d["cards"], f"{where} 'cards'")
    if "heads" in d:
        heads = _int_list(d["heads"], f"{where} 'heads'")
        deck = _deck_of(variant, players, fields)
        if len(heads) != len(deck):
            raise RecordError(
                f"{where} 'heads' must give the heads of each of the {len(deck)} cards of the "
                f"deck, got {len(heads)}"
            )
        table = [0] * (deck[-1] + 1)
        for c, h in zip(deck, heads, strict=True):
            table[c] = h
        fields["head_table"] = tuple(table)
    try:
        return Rules.for_variant(variant, players=players, **fields)
    except RulesError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _deck_of(variant: str, players: int, fields: dict[str, Any]) -> tuple[int, ...]:
    """The deck the fields name (before a heads table is attached to it)."""
    if "cards" in fields:
        return tuple(sorted(set(fields["cards"]))) or (1,)
    if "deck_size" in fields:
        return tuple(range(1, max(1, fields["deck_size"]) + 1))
    try:
        return Rules.for_variant(variant, players=players, **fields).deck()
    except RulesError as exc:
        raise RecordError(f"record 'rules': {exc}") from None


def action_from_json(data: object, where: str = "action") -> Action:
    """An action from its JSON form (:func:`action_to_json`). Only the shape is checked here;
    whether it is legal is the engine's question (:func:`replay`)."""
    if not isinstance(data, dict):
        raise RecordError(f"{where} must be a JSON object, got {_short(data)}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_FIELDS:
        raise RecordError(
            f"{where} has type {_short(kind)}, expected one of {sorted(_ACTION_FIELDS)}"
        )
    fields = _ACTION_FIELDS[kind]
    _object(data, f"{where} ({kind})", {"type", *fields}, fields)
    if kind == "deal":
        return Deal(_int_list(data["order"], f"{where} 'order'"))
    player = _int(data["player"], f"{where} 'player'")
    if kind == "row":
        return ChooseRow(player, _int(data["row"], f"{where} 'row'"))
    card = _int(data["card"], f"{where} 'card'")
    return Pick(player, card) if kind == "pick" else Play(player, card)


def _parse_json(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None
    except (ValueError, RecursionError) as exc:  # too-long integer, too-deep nesting
        why = "nested too deeply" if isinstance(exc, RecursionError) else excerpt(str(exc))
        raise RecordError(f"not valid JSON ({why})") from None


def load_record(data: Mapping[str, Any] | str | bytes) -> Record:
    """Validate a JSON game record (a dict, or JSON text or UTF-8 bytes, a leading byte-order
    mark allowed) and return it as a :class:`Record`.

    Raises :class:`RecordError` (one line, naming the key or the step) for anything that is not a
    well-formed record. Legality of the actions is checked by :func:`replay`, not here."""
    obj: object = data
    if isinstance(data, bytes):
        try:
            data = decode(data, "the record")
        except ValueError as exc:
            raise RecordError(str(exc)) from None
    if isinstance(data, str):
        obj = _parse_json(strip_bom(data))
    elif isinstance(data, Mapping):
        obj = dict(data)
    d = _object(obj, "record", _RECORD_KEYS | _RESULT_KEYS, ("format", "version", "rules"))
    if d["format"] != FORMAT:
        raise RecordError(f"record 'format' must be {FORMAT!r}, got {_short(d['format'])}")
    if d["version"] != VERSION or not _is_int(d["version"]):
        raise RecordError(f"record 'version' {_short(d['version'])} is not supported (only 1)")
    rules = rules_from_json(d["rules"])
    if "actions" not in d:
        raise RecordError("record lacks 'actions'")
    if not isinstance(d["actions"], list):
        raise RecordError(f"record 'actions' must be a list, got {_short(d['actions'])}")
    actions = tuple(
        action_from_json(a, f"record actions[{i}] (step {i + 1})")
        for i, a in enumerate(d["actions"])
    )
    seed = d.get("seed")
    if seed is not None:
        seed = _int(seed, "record 'seed'")
    bots = d.get("bots", [])
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
        raise RecordError(f"record 'bots' must be a list of names, got {_short(bots)}")
    rounds = None
    if "rounds" in d:
        if not isinstance(d["rounds"], list):
            raise RecordError(f"record 'rounds' must be a list of lists, got {_short(d['rounds'])}")
        rounds = tuple(_int_list(r, f"record rounds[{i}]") for i, r in enumerate(d["rounds"]))
    scores = _int_list(d["scores"], "record 'scores'") if "scores" in d else None
    winners = _int_list(d["winners"], "record 'winners'") if "winners" in d else None
    finished = d.get("finished")
    if finished is not None and not isinstance(finished, bool):
        raise RecordError(f"record 'finished' must be true or false, got {_short(finished)}")
    return Record(rules, actions, seed, tuple(bots), rounds, scores, winners, finished)
