"""The conformance kit: rule cases any 6 nimmt! engine can be checked against.

:mod:`take6.conform.cases` reads and checks cases (the reference answers come from the rules
core), :mod:`take6.conform.kit` draws the shipped kit (``kit.jsonl``), :mod:`take6.conform.runner`
drives an external engine over the JSON-lines protocol of ``docs/conformance.md``, and
:mod:`take6.conform.serve` answers that protocol with the reference engine. Command:
``take6 conform --engine "CMD"``.
"""
