"""OpenSpiel adapter: take6 as the Python game ``python_take6`` (optional extra ``openspiel``).

Importing this module registers the game with ``pyspiel``; then
``pyspiel.load_game("python_take6(variant=profi,players=3,hand_size=3)")`` or
:func:`load_game` builds it. Every transition goes through the reference engine
(:mod:`take6.state`): this module maps OpenSpiel ids to engine actions and back and never restates
a rule.

Model
-----
* **Dynamics**: a simultaneous-move game. When all players choose a card at once the state is a
  simultaneous node (``current_player() == PlayerId.SIMULTANEOUS``) where every player has a
  non-empty action set. A row choice (too-low card; in Profi also a tie or a card that fits
  nowhere) is an ordinary *sequential* node of the card's owner; so are the Logik draft picks and
  every play in Kids (which is played one seat after another: Kids games never reach a
  simultaneous node). OpenSpiel allows sequential nodes inside a simultaneous game.
  ``state.apply_actions(actions)`` with one action per player is accepted at a sequential node
  too, as ``rl_environment.Environment`` sends it: only the owner's action counts, the others
  (any id, e.g. 0) are ignored — though OpenSpiel records them all in ``history()``. A joint
  action with an illegal action changes nothing.
* **Chance**: without a ``position`` each round's shuffle is dealt card by card as chance nodes
  (uniform over the cards not yet dealt): ``hand_size`` cards to seat 0, then to seat 1, ..., then
  one card to start each row, the rows laid out ascending by their first card (which row a
  card starts carries no information, so the order the row cards come in does not matter); the
  rest of the deck is set aside. Logik has no chance node: its
  hands are drafted (sequential ``Pick`` nodes). With a ``position`` the game starts there (no
  deal) and later rounds, if any, are dealt as above.
* **Action ids** (the same for every variant): card ``c`` (1..104) is id ``c - 1`` whether it is
  played, picked in the draft or dealt by chance; choosing row ``r`` (1-based, as printed) is id
  ``104 + r - 1``. ``num_distinct_actions() == 104 + rows`` (108; Kids 109).
* **Returns** (only at the end; ``RewardModel.TERMINAL``): with ``returns=heads``, minus the heads
  each player took during the game (plus for Kids, where the most heads wins). A position's bull
  piles and totals were taken before the game began and are not counted. With ``returns=diff``
  the game is zero-sum: ``return_i = s_i - mean(s_j for j != i)`` with ``s`` the ``heads``
  returns; for two players, player 0 gets ``heads(P2) - heads(P1)`` (the solver's ``diff``
  objective from player 1's view).
* **Information**: bull piles, rows, totals and every revealed card are public. Hands are private
  unless they are public by the rules (Logik: drafted face up) or ``known_hands=True``; Kids piles
  are face down, hidden even from their owner unless ``known_hands=True``. The game type reports
  ``PERFECT_INFORMATION`` when all hands are public (then ``value_iteration`` accepts it for two
  players with ``returns=diff``), ``IMPERFECT_INFORMATION`` otherwise.
* **Information states** are canonical: a deal shows, per round, each hand the player sees as a
  set (ascending; a Kids pile in its order, which is the order it is played in) and the row
  cards ascending, so two deals that differ only in the order of one's own cards or of the row
  cards give the same information state (string and tensor) — fewer information sets for
  CFR and its kin. After the deal come the decisions in order (plays, row choices, picks).
* **Clones** (what every tree algorithm calls at each node) share the game's validated
  :class:`Config` and the state's one immutable data value (``_Data``: the engine state, the
  log) instead of deep-copying them: a few microseconds instead of 0.35–0.55 ms, and OpenSpiel's
  CFR+ runs two to three times as fast (``bench/openspiel_clone.py``).
* **Bots**: OpenSpiel's C++ ``pyspiel.MCTSBot`` and ``pyspiel.ISMCTSBot`` crash (segmentation
  fault) on Python games — an OpenSpiel limit, not take6's. The Python
  ``open_spiel.python.algorithms.mcts.MCTSBot`` works on the turn-based form
  ``turn_based_simultaneous_game(game=python_take6(...))``; ``docs/integrations.md`` has a
  tested example. It searches the true state, so use it with ``known_hands=True`` (or accept
  that it sees every hand).

Parameters (``pyspiel.load_game`` game string or dict)
------------------------------------------------------
``variant`` (str, ``standard``), ``players`` (int, 2), ``hand_size`` (int, 0: the variant's own,
10 or Kids 15), ``rounds`` (int, 0: the game ends after this many rounds; 0 is one round without
a target and no limit with one), ``target`` (int, 0: none; the game ends after the round in
which a total reaches it, so ``python_take6(players=4,target=66)`` is the real game),
``position`` (str, ``""``: a random deal), ``known_hands`` (bool, False), ``returns`` (str,
``heads`` or ``diff``). With a target and no round limit the rules must guarantee an end
(every round takes a card; :meth:`take6.rules.Rules.check_always_ends`), and
``max_game_length`` counts :attr:`take6.rules.Rules.max_rounds` rounds. The game keeps the
resolved ``rounds`` in its parameters (1 for the default game).

``position`` is take6's compact notation (:mod:`take6.notation`) with every ``,`` written as
``.``, because OpenSpiel game strings split parameters at commas:
``python_take6(variant=logik,players=2,hand_size=2,position=logik:8 1/4/6/8 2.3|5.7)``.
:func:`position_param` converts; the game keeps the canonical form, so ``str(game)`` loads back.
With a ``position``, ``variant`` and ``players`` must match it and ``hand_size`` must be 0 or the
size of its hands.
"""

from take6.integrations.openspiel.actions import (
    ROW_BASE,
    SHORT_NAME,
    action_id,
    action_to_string,
    final_returns,
    to_engine_action,
)
from take6.integrations.openspiel.game import (
    DEFAULT_PARAMS,
    Config,
    Take6Game,
    Take6State,
    engine_state,
    load_game,
    position_param,
)
from take6.integrations.openspiel.observer import Take6Observer

__all__ = [
    "DEFAULT_PARAMS",
    "ROW_BASE",
    "SHORT_NAME",
    "Config",
    "Take6Game",
    "Take6Observer",
    "Take6State",
    "action_id",
    "action_to_string",
    "engine_state",
    "final_returns",
    "load_game",
    "position_param",
    "to_engine_action",
]
