"""The solver's subcommands: ``solve``/``check-certificate``, ``analyse``, ``draft``, ``study``."""
