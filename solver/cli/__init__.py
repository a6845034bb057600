"""The solver's subcommands: ``solve``/``check-certificate``, ``draft``, ``study``."""
