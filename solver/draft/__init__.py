"""The exact Logik draft solver (:mod:`solver.draft.solve`)."""
