"""Tools that work on any game written in the rules language, one sub-folder per role.

``records/`` (the record format, walking and validating records, archives),
``kit/`` (conformance files and kits, the referee protocol, JSON Schemas),
``views/`` (a position as text, the replay viewer, the play page), ``docs/``
(reStructuredText, the English page, reference pages, the lexer), ``study/``
(which readings matter), ``bench/`` (benchmarks); beside them perft, the
scenario text format and small helpers (progress, terminal output, executor).
They know no game: whatever a tool needs to know about one comes in as a
parameter or through the registry's hooks (:mod:`rattus_rules.games`).
"""
