"""The text forms of a ``python_take6`` state: the state itself, observations and information
states."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from take6.state import (
    Phase,
)

if TYPE_CHECKING:
    from take6.integrations.openspiel.game import Take6State, _Logged

# -- text ------------------------------------------------------------------------------------


def _cards(cards: Sequence[int]) -> str:
    return ",".join(str(c) for c in cards) if cards else "-"


def _visible_hands(state: Take6State, player: int | None) -> list[str]:
    """Each hand as ``player`` sees it (None: as everyone sees it); ``?N`` hides N cards."""
    cfg = state.config
    s = state.engine
    out = []
    for q in range(cfg.players):
        hand = state.dealt_hand(q) if s.phase is Phase.DEAL else s.hands[q]
        if cfg.hands_public or (q == player and not cfg.piles_hidden):
            out.append(_cards(hand))
        else:
            out.append(f"?{len(hand)}")
    return out


def _public_text(state: Take6State) -> list[str]:
    s = state.engine
    parts = [f"round {s.round}", f"turn {s.turn + 1}", s.phase.value]
    if s.phase is Phase.DEAL:
        parts.append(f"dealt {len(state.dealt)}")
    if s.phase is Phase.DRAFT:
        parts.append(f"pool {_cards(s.pool)} picker {s.picker + 1}")
    if s.rows:
        parts.append("rows " + "/".join(_cards(r) for r in s.rows))
    parts.append("piles " + "|".join(_cards(p) for p in s.piles))
    parts.append("totals " + ",".join(str(t) for t in s.totals))
    if s.queue:
        parts.append("queue " + ",".join(f"{c}:{p + 1}" for c, p in s.queue))
    if s.pending is not None:
        rows = ",".join(str(m.row + 1) for m in s.pending.placement.options)
        parts.append(f"pending {s.pending.card}:{s.pending.player + 1} rows {rows}")
    if not s.rules.simultaneous and s.phase is Phase.CHOOSE:
        parts.append(f"next {s.picker + 1}")
    return parts


def state_text(state: Take6State) -> str:
    """Everything about the state (all hands shown): ``str(state)``, the value-iteration key."""
    s = state.engine
    parts = _public_text(state)
    hands = [state.dealt_hand(q) if s.phase is Phase.DEAL else s.hands[q] for q in range(s.players)]
    parts.append("hands " + "|".join(_cards(h) for h in hands))
    if s.phase is Phase.DEAL:
        parts.append("deal " + _cards(state.dealt))
    parts.append("taken " + ",".join(str(h) for h in state.heads_taken()))
    return "; ".join(parts)


def observation_text(state: Take6State, player: int, public: bool, private: bool) -> str:
    """The observation string (perfect_recall=False)."""
    parts = [f"p{player + 1}"]
    if public:
        parts += _public_text(state)
    hands = _visible_hands(state, player if private else None)
    if public or private:
        parts.append("hands " + "|".join(hands))
    return "; ".join(parts)


def _log_text(entry: _Logged) -> str:
    if entry.kind == "row":
        return f"{entry.player + 1}r{entry.value + 1}"
    letter = "k" if entry.kind == "pick" else "p"
    return f"{entry.player + 1}{letter}{entry.value}"


def _deal_text(state: Take6State, deals: Sequence[_Logged], player: int, private: bool) -> str:
    """One round's deal (so far) as ``player`` sees it, in a canonical form: each hand's cards
    ascending (a Kids pile in its order, which is the order it is played in) or ``?N``, and the
    row cards ascending, so the order the cards came in is not part of the information state."""
    rules = state.config.rules
    k, n = rules.hand_size, rules.players
    hands: list[list[int]] = [[] for _ in range(n)]
    hidden = [0] * n
    rows: list[int] = []
    for e in deals:
        if e.player >= n * k:
            rows.append(e.value)
        elif e.seat is None or (private and e.seat == player):
            hands[e.player // k].append(e.value)
        else:
            hidden[e.player // k] += 1
    shown = []
    for q in range(n):
        cards = hands[q] if rules.pile_play else sorted(hands[q])
        seen = _cards(cards) if cards or not hidden[q] else ""
        shown.append(seen + (f"?{hidden[q]}" if hidden[q] else ""))
    return f"deal {'|'.join(shown)} rows {_cards(sorted(rows))}"


def _history_text(state: Take6State, player: int, public: bool, private: bool) -> str:
    """The log as ``player`` sees it: each round's deal in one canonical token, then the
    decisions (with public information)."""
    tokens: list[str] = []
    deals: list[_Logged] = []
    for i, e in enumerate(state.log):
        if e.kind == "deal":
            deals.append(e)
            following = state.log[i + 1] if i + 1 < len(state.log) else None
            if following is None or following.kind != "deal" or following.round != e.round:
                tokens.append(_deal_text(state, deals, player, private))
                deals = []
        elif public:
            tokens.append(_log_text(e))
    return " ".join(tokens)


def information_text(state: Take6State, player: int, public: bool, private: bool) -> str:
    """The information state string (perfect recall): the start, then every step as seen."""
    parts = [f"p{player + 1}"]
    pos = state.config.position
    if pos is not None:
        hands = [
            _cards(h) if state.config.hands_public or (q == player and private) else f"?{len(h)}"
            for q, h in enumerate(pos.hands)
        ]
        piles = "|".join(_cards(p) for p in pos.piles)
        totals = ",".join(str(t) for t in pos.totals)
        rows = "/".join(_cards(r) for r in pos.rows)
        parts.append(f"start {rows} {'|'.join(hands)} {piles} {totals}")
    parts.append(_history_text(state, player, public, private))
    parts.append("now " + observation_text(state, player, public, private))
    return "; ".join(parts)
