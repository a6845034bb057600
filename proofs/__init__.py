"""proofs: z3 proof obligations about the rules of 6 nimmt! and the texts they come from.

Each obligation is a function that builds its own z3 query (a fresh solver, sub-queries in
``push``/``pop`` frames) and returns a :class:`proofs.core.Result`:

* **proved** — the negation of the claim is unsatisfiable (for maxima, z3's ``Optimize`` finds the
  optimum and a plain solver proves nothing exceeds it);
* **refuted** — a concrete counterexample to a claim about the rules;
* **finding** — a concrete witness that a source text (``/work/shared/seeds/*.txt``) is
  contradictory or silent; each names the seed file.

z3 answering ``unknown`` is an error (:class:`proofs.core.SolverUnknownError`), never a pass.

Modules:

* :mod:`proofs.model` — z3 restatements of the engine's rules (heads from
  :data:`take6.cards.HEADS`, tables of rows, the standard and Profi placement rules, one step as
  :func:`take6.placement.apply_move`). The rule is a parameter of every obligation, so a broken
  model fails with a counterexample; the tests replay every model and witness through the engine.
* :mod:`proofs.deck` — the 104 cards, 171 heads, the 76/9/10/8/1 distribution, Taktik decks, the
  Kids player limit.
* :mod:`proofs.placement` — determinism (standard), uniqueness up to ties (Profi), the inductive
  row/card invariants of one placement, one turn (too-low, one row, at most 27 heads).
* :mod:`proofs.game` — termination and the bound on rounds.
* :mod:`proofs.sources` — each seed's wording formalised as written: bull heads, Logik, Kids.
* :mod:`proofs.registry` — the obligations with their expected results; :mod:`proofs.report` and
  :mod:`proofs.cli` — ``take6 verify [--json]``.

Nothing runs at import time. ``proofs`` imports ``take6``; ``take6`` never imports ``proofs``.
The findings are explained in plain words in ``docs/findings.md``.
"""
