"""The observer of ``python_take6``: observation strings and tensors."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pyspiel

from take6.cards import MAX_CARD
from take6.integrations.openspiel.actions import _PHASES
from take6.integrations.openspiel.text import information_text, observation_text
from take6.state import (
    Phase,
)

if TYPE_CHECKING:
    from take6.integrations.openspiel.game import Config, Take6State

# -- observer --------------------------------------------------------------------------------


class Take6Observer:
    """PyObserver for ``python_take6``: strings and a flat float32 tensor with named pieces.

    Always: ``player`` [n]. With public info: ``phase`` [5] (deal, draft, choose, row-choice,
    game-over), ``round_turn`` [2], ``rows`` [rows, 104] (a row is a set: it is ascending),
    ``piles`` [n, 104], ``totals`` [n], ``hand_sizes`` [n], ``pool`` [104], ``picker`` [n],
    ``queue`` [104] (revealed cards still to place), ``pending_player`` [n], ``pending_card``
    [104]. Always: ``hands`` [n, 104], the hands the observer may see. With perfect recall and
    public info also the history: ``start_rows`` [R, 104] (the rows each round started with),
    ``picks`` [R, n·k, 104] (Logik), ``plays`` [R, k, n, 104] and ``row_choices`` [R, k, n, rows]
    with R the most rounds a game can last (:attr:`Config.max_rounds`) and k the hand size.
    """

    def __init__(self, config: Config, iig_obs_type: Any) -> None:
        self.config = config
        self.public = bool(iig_obs_type.public_info)
        private = iig_obs_type.private_info
        self.private = private != pyspiel.PrivateInfoType.NONE
        self.all_private = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        r = config.rules
        n, k, rows = r.players, r.hand_size, r.rows
        rounds = config.max_rounds
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,))]
        if self.public:
            pieces += [
                ("phase", (len(_PHASES),)),
                ("round_turn", (2,)),
                ("rows", (rows, MAX_CARD)),
                ("piles", (n, MAX_CARD)),
                ("totals", (n,)),
                ("hand_sizes", (n,)),
                ("pool", (MAX_CARD,)),
                ("picker", (n,)),
                ("queue", (MAX_CARD,)),
                ("pending_player", (n,)),
                ("pending_card", (MAX_CARD,)),
            ]
        pieces.append(("hands", (n, MAX_CARD)))
        if self.perfect_recall and self.public:
            pieces += [
                ("start_rows", (rounds, MAX_CARD)),
                ("picks", (rounds, n * k if r.draft else 0, MAX_CARD)),
                ("plays", (rounds, k, n, MAX_CARD)),
                ("row_choices", (rounds, k, n, rows)),
            ]
        total = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor: npt.NDArray[np.float32] = np.zeros(total, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        index = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[index : index + size].reshape(shape)
            index += size

    def _sees(self, player: int, q: int) -> bool:
        cfg = self.config
        if cfg.hands_public:
            return self.public
        if cfg.piles_hidden:
            return False
        return self.all_private or (self.private and q == player)

    def set_from(self, state: Take6State, player: int) -> None:
        self.tensor.fill(0)
        d = self.dict
        s = state.engine
        d["player"][player] = 1
        for q in range(s.players):
            if self._sees(player, q):
                hand = state.dealt_hand(q) if s.phase is Phase.DEAL else s.hands[q]
                for c in hand:
                    d["hands"][q, c - 1] = 1
        if not self.public:
            return
        d["phase"][_PHASES.index(s.phase)] = 1
        d["round_turn"][:] = (s.round, s.turn)
        for i, row in enumerate(s.rows):
            for c in row:
                d["rows"][i, c - 1] = 1
        for q, pile in enumerate(s.piles):
            for c in pile:
                d["piles"][q, c - 1] = 1
        d["totals"][:] = s.totals
        if s.phase is Phase.DEAL:
            d["hand_sizes"][:] = [len(state.dealt_hand(q)) for q in range(s.players)]
        else:
            d["hand_sizes"][:] = [len(h) for h in s.hands]
        for c in s.pool:
            d["pool"][c - 1] = 1
        if s.phase is Phase.DRAFT or (s.phase is Phase.CHOOSE and not s.rules.simultaneous):
            d["picker"][s.picker] = 1
        for c, _ in s.queue:
            d["queue"][c - 1] = 1
        if s.pending is not None:
            d["pending_player"][s.pending.player] = 1
            d["pending_card"][s.pending.card - 1] = 1
        if "plays" in d:
            self._set_history(state)

    def _set_history(self, state: Take6State) -> None:
        d = self.dict
        for i, rows in enumerate(state.round_rows):
            for c in rows:
                d["start_rows"][i, c - 1] = 1
        picks: dict[int, int] = {}
        for e in state.log:
            r = e.round - 1
            if e.kind == "pick":
                d["picks"][r, picks.get(r, 0), e.value - 1] = 1
                picks[r] = picks.get(r, 0) + 1
            elif e.kind == "play":
                d["plays"][r, e.turn, e.player, e.value - 1] = 1
            elif e.kind == "row":
                d["row_choices"][r, e.turn, e.player, e.value] = 1

    def string_from(self, state: Take6State, player: int) -> str:
        private = self.private and not self.config.piles_hidden
        if self.perfect_recall:
            return information_text(state, player, self.public, private)
        return observation_text(state, player, self.public, private)
