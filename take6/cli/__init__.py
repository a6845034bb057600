"""The ``take6`` command (:mod:`take6.cli.main`)."""
